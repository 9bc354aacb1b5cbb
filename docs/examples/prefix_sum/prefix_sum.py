"""demo:prefixsum: a one-layer, one-head decoder that holds the prefix sums of a bit string.

A complete claim module (docs/tutorial.md builds it step by step): the decoder, its prompt and state encoding,
its statement for every n, a deliberately wrong variant, the reference and the claim. Put it in a directory of
its own and run ``symcot verify --proofs DIR`` (every input up to n = 8), ``symcot verify --proofs DIR --all-n``
(every n), ``symcot replay demo:prefixsum --proofs DIR --input 1011`` or ``symcot latex demo:prefixsum
--proofs DIR``.
"""

import itertools
from typing import NamedTuple

from symcot import (
    FFN,
    AllNCheck,
    AllNStatement,
    Attention,
    Choice,
    Claim,
    Construction,
    ConstructionCheck,
    Decoder,
    Fact,
    Family,
    Head,
    Induction,
    InvalidInputError,
    Layer,
    Layout,
    Map,
    Reading,
    Segment,
    Shift,
    Sig,
    StateEncoding,
    StepwiseSpec,
    Var,
    Vocabulary,
    n,
    onehot,
    scalar,
    table,
    value_space,
)

# -- the decoder: blocks, maps, layers ---------------------------------------------------------------

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

# -- the prompt and the state encoding ---------------------------------------------------------------


class Tok(NamedTuple):
    """A prompt token's key: position ``i``, bit ``b``, flag ``f`` (1 on ``y_0``)."""

    i: int
    b: int
    f: int


class Prefix(NamedTuple):
    """The reference state after ``t`` steps: the sum of the first ``t`` bits."""

    total: int


#: A prompt token ``[e_i ‖ b ‖ 0 ‖ f]`` (a block the encoding does not list is 0).
PROMPT = StateEncoding({"pos": onehot("i"), "bit": scalar("b"), "flg": scalar("f")})
#: ``enc(s_t)``: ``y_t`` carries the prefix sum in its ``sum`` block.
ENCODING = StateEncoding({"sum": scalar("total")})

# -- the statement for every n: the algorithm's vocabulary, then what every token holds ---------------

STEP = Var("τ", lambda c, *_: 0, lambda c, *_: c.T, "step")
MOVE = Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step")
INDEX = Var("i", lambda c, *_: 0, lambda c, *_: c.n - 1, "index")
VOCABULARY = Vocabulary(
    "prefix sums",
    symbols=(Sig("n", 0, doc="the length of the bit string"),
             Sig("T", 0, doc="the last step", result="step"),
             Sig("bit", 1, "int", "b_i", ("index",)),
             Sig("acc", 1, "int", "b_0 + … + b_{τ-1}", ("step",))),
    facts=(Fact("nonempty", (), lambda c: c.n >= 1, "domain", source="a non-empty string"),
           Fact("bits", (INDEX,), lambda c, i: c.or_(c.bit(i) == 0, c.bit(i) == 1), "domain",
                source="of 0s and 1s"),
           Fact("steps", (), lambda c: c.T == c.n, "definition", source="one step per bit"),
           Fact("init", (), lambda c: c.acc(0) == 0, "definition", source="the empty sum"),
           Fact("add", (MOVE,), lambda c, t: c.acc(t + 1) == c.acc(t) + c.bit(t), "definition",
                source="s_{t+1} = s_t + b_t"),
           Fact("nonneg", (STEP,), lambda c, t: c.acc(t) >= 0, "derived", Induction("τ"),
                source="a sum of bits is never negative (so the ReLU keeps it)")),
    views={"total": lambda c, t: c.acc(t)},
    interpret=lambda bits, states: {"n": len(bits), "T": len(states) - 1, "bit": table(bits),
                                    "acc": table([s.total for s in states])},
)
STATEMENT = AllNStatement(
    VOCABULARY,
    sizes={n: lambda c: c.n},
    segments=(Segment("x", lambda c: c.n, PROMPT, {"i": lambda c, i: i, "b": lambda c, i: c.bit(i),
                                                   "f": lambda c, i: 0}, lambda i: f"x_{i}"),),
    y0=Segment("y_0", lambda c: 1, PROMPT, {"i": lambda c, i: 0, "b": lambda c, i: 0, "f": lambda c, i: 1},
               lambda i: "y_0"),
    # y_τ = [e_τ ‖ 0 ‖ b_0 + … + b_{τ-1} ‖ 1]  (e_n = 0: the shift drops the last position)
    token=ENCODING.extended(pos=onehot("at"), bit=scalar("none"), flg=scalar("one")),
    views={"at": lambda c, t: t, "none": lambda c, t: 0, "one": lambda c, t: 1},
    choices=(Choice(1, "R", lambda c, t: [(True, "x", t)],
                    "head R reads x_t: x_t and y_t both score 1, every other token 0, and x_t comes first"),),
)

# -- the construction ---------------------------------------------------------------------------------


class PrefixSum(Construction):
    """Input ``x_i = [e_i ‖ b_i ‖ 0 ‖ 0]``; initial token ``y_0 = [e_0 ‖ 0 ‖ 0 ‖ 1]``; ``y_t`` carries the sum."""

    encoding = ENCODING
    all_n = STATEMENT

    def env(self, bits):
        """``{n: |bits|}``."""
        return {"n": len(bits)}

    def validate(self, bits):
        """The domain: a non-empty tuple of 0s and 1s."""
        if not bits or any(b not in (0, 1) for b in bits):
            raise InvalidInputError(f"{bits!r} is not a non-empty bit string")

    def token_keys(self, bits):
        """``[x_0, …, x_{n-1}, y_0]``, each token determined by its key."""
        return [(f"x_{i}", Tok(i, b, 0)) for i, b in enumerate(bits)] + [("y_0", Tok(0, 0, 1))]

    def token(self, cl, key, lam):
        """The token of a key: the prompt encoding read at the key."""
        return cl.assemble(PROMPT.expected(key, 0, cl.sizes))


# -- a deliberately wrong variant: a counter that saturates at 5 --------------------------------------

#: ``sum ← ReLU(sum + bit) - ReLU(sum + bit - 5) = min(sum + bit, 5)``, the second term parked in the ``bit``
#: slot of the hidden layer: right on every bit string of length ≤ 5, wrong on 111111.
W_1_SAT = Map("W_1", L, L, {"pos": Shift(n) @ x.pos, "sum": x.sum + x.bit, "bit": x.sum + x.bit - 5},
              keep=["flg"], doc="sum + bit, and sum + bit - 5 in the bit slot")
W_2_SAT = Map("W_2", L, L, {"sum": x.sum - x.bit}, keep=["pos", "flg"], zero=["bit"],
              doc="sum ← ReLU(sum + bit) - ReLU(sum + bit - 5)")
SATURATING = Decoder("prefix-sum-saturating", L, [Layer(Attention([HEAD], W_O), FFN(W_1_SAT, W_2_SAT))])

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


# -- the claim ----------------------------------------------------------------------------------------


def as_written():
    """The construction as stated."""
    return PrefixSum("demo:prefixsum", "as-written", DECODER)


def saturating():
    """The deliberately wrong variant."""
    return PrefixSum("demo:prefixsum", "saturating", SATURATING)


CLAIM = Claim(
    "demo:prefixsum", "theorem", "A one-layer decoder holds the prefix sums of a bit string.", "docs/tutorial.md",
    [ConstructionCheck(as_written, SPEC, [BIT_STRINGS], {"d": n + 3, "layers": 1, "heads": 1},
                       input_kind="custom", parse_input=parse_bits),
     AllNCheck(as_written, SPEC, [BIT_STRINGS], timeout_s=10),  # Z3's limit per obligation (default 60 s)
     AllNCheck(saturating, SPEC, [BIT_STRINGS], timeout_s=10)],
    default_max_size=8,
    readings={"as-written": Reading("as-written", "the decoder as stated"),
              "saturating": Reading("mutant", "a counter that saturates at 5: right on every string of length ≤ 5")},
)
