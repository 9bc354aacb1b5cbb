"""demo:prefixsum: a one-layer, one-head decoder that holds the prefix sums of a bit string.

A complete claim module (docs/tutorial.md builds it step by step). Put it in a directory of its own and run
``symcot verify --proofs DIR``, ``symcot replay demo:prefixsum --proofs DIR --input 1011`` or
``symcot latex demo:prefixsum --proofs DIR``.
"""

import itertools
from typing import NamedTuple

from symcot import (
    FFN,
    Attention,
    Claim,
    Construction,
    ConstructionCheck,
    Decoder,
    Family,
    Head,
    InvalidInputError,
    Layer,
    Layout,
    Map,
    Shift,
    StepwiseSpec,
    n,
    value_space,
)
from symcot.constructions.base import onehot_list
from symcot.constructions.encoding import StateEncoding, scalar

# -- the construction: blocks, maps, decoder ---------------------------------------------------------

L = Layout("prefix", [("pos", n), ("bit", 1), ("sum", 1), ("flg", 1)])
x = L.vars()
KEYS = Layout("prefix.key", [("p", n)])
HEAD = Head("R",
            query=Map("Q", L, KEYS, {"p": x.pos}, doc="the query's position"),
            key=Map("K", L, KEYS, {"p": x.pos}, doc="every token's position"),
            value=Map("V", L, L, keep=["pos", "bit", "sum", "flg"], doc="identity"))
VS = value_space([HEAD])
W_O = Map("W_O", VS, L, {"bit": VS.vars()["R.bit"]}, zero=["pos", "sum", "flg"], doc="the bit read")
W_1 = Map("W_1", L, L, {"pos": Shift(n) @ x.pos, "sum": x.sum + x.bit}, keep=["flg"], zero=["bit"],
          doc="sum ← sum + bit, pos ← S pos")
W_2 = Map("W_2", L, L, keep=["pos", "bit", "sum", "flg"], doc="identity")
DECODER = Decoder("prefix-sum", L, [Layer(Attention([HEAD], W_O), FFN(W_1, W_2))])


class Prefix(NamedTuple):
    """The reference state after ``t`` steps: the sum of the first ``t`` bits."""

    total: int


class PrefixSum(Construction):
    """Input ``x_i = [e_i ‖ b_i ‖ 0 ‖ 0]``; initial token ``y_0 = [e_0 ‖ 0 ‖ 0 ‖ 1]``; ``y_t`` carries the sum."""

    encoding = StateEncoding({"sum": scalar("total")})

    def env(self, bits):
        """``{n: |bits|}``."""
        return {"n": len(bits)}

    def validate(self, bits):
        """The domain: a non-empty tuple of 0s and 1s."""
        if not bits or any(b not in (0, 1) for b in bits):
            raise InvalidInputError(f"{bits!r} is not a non-empty bit string")

    def token_keys(self, bits):
        """``[x_0, …, x_{n-1}, y_0]``, each token determined by its key."""
        k = len(bits)
        return [(f"x_{i}", ("x", k, i, b)) for i, b in enumerate(bits)] + [("y_0", ("y", k))]

    def token(self, cl, key, lam):
        """The token of a key."""
        if key[0] == "x":
            _, k, i, b = key
            return cl.assemble({"pos": onehot_list(k, i), "bit": b})
        return cl.assemble({"pos": onehot_list(key[1], 0), "flg": 1})


# -- the reference, the input space and the parser of `symcot replay --input` ------------------------

SPEC = StepwiseSpec(reference=lambda bits: [Prefix(sum(bits[:t])) for t in range(len(bits) + 1)],
                    state_text=lambda s: str(s.total))
BIT_STRINGS = Family(name="bit strings", inputs=lambda k: itertools.product((0, 1), repeat=k),
                     count=lambda k: 2 ** k)


def parse_bits(text):
    """``--input 1011``: a non-empty string of 0s and 1s."""
    if not text or set(text) - {"0", "1"}:
        raise InvalidInputError(f"{text!r} is not a bit string: write 0s and 1s, e.g. 1011")
    return tuple(int(c) for c in text)


CLAIM = Claim(
    "demo:prefixsum", "theorem", "A one-layer decoder holds the prefix sums of a bit string.", "docs/tutorial.md",
    [ConstructionCheck(lambda: PrefixSum("demo:prefixsum", "as-written", DECODER), SPEC, [BIT_STRINGS],
                       {"d": n + 3, "layers": 1, "heads": 1}, input_kind="custom", parse_input=parse_bits)],
    default_max_size=8,
)
