"""The tutorial's prefix-sum construction (docs/examples/prefix_sum) and variants with a constant in place of ``n``.

Each variant is right on every bit string up to length ``k`` and wrong after it:

* :func:`capped`: the counter saturates at ``k`` (``sum ← ReLU(sum + bit) - ReLU(sum + bit - k)``); first wrong on
  ``1^(k+1)``;
* :func:`positions`: the position block has ``k`` coordinates instead of ``n`` (the head finds ``x_t`` only while
  ``t < k``); first wrong on ``0^k 1``.
"""


from symcot import FFN, Attention, Decoder, Head, Layer, Layout, Map, Shift, n, value_space
from tests.fixtures.examples import example

ps = example("prefix_sum")


def capped(k):
    """The counter capped at the constant ``k`` (the example's ``saturating`` variant has ``k = 5``)."""
    lay, x = ps.L, ps.x
    w1 = Map("W_1", lay, lay, {"pos": Shift(n) @ x.pos, "sum": x.sum + x.bit, "bit": x.sum + x.bit - k}, keep=["flg"])
    w2 = Map("W_2", lay, lay, {"sum": x.sum - x.bit}, keep=["pos", "flg"], zero=["bit"])
    dec = Decoder(f"capped-{k}", lay, [Layer(Attention([ps.HEAD], ps.W_O), FFN(w1, w2))])
    return lambda: ps.PrefixSum("demo:prefixsum", f"capped at {k}", dec)


def positions(k):
    """The decoder with ``k`` positions in place of ``n``."""
    lay = Layout("prefix", [("pos", k), ("bit", 1), ("sum", 1), ("flg", 1)])
    x = lay.vars()
    keys = Layout("prefix.key", [("p", k)])
    head = Head("R", query=Map("Q", lay, keys, {"p": x.pos}), key=Map("K", lay, keys, {"p": x.pos}),
                value=Map("V", lay, lay, keep=["pos", "bit", "sum", "flg"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, lay, {"bit": vs.vars()["R.bit"]}, zero=["pos", "sum", "flg"])
    w1 = Map("W_1", lay, lay, {"pos": Shift(k) @ x.pos, "sum": x.sum + x.bit}, keep=["flg"], zero=["bit"])
    w2 = Map("W_2", lay, lay, keep=["pos", "bit", "sum", "flg"])
    dec = Decoder(f"positions-{k}", lay, [Layer(Attention([head], w_o), FFN(w1, w2))])
    return lambda: ps.PrefixSum("demo:prefixsum", f"{k} positions", dec)
