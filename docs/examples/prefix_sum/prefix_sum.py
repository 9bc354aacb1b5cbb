"""demo:prefixsum: a one-layer, one-head decoder that holds the prefix sums of a bit string.

A complete claim module (docs/tutorial.md builds it step by step): the decoder, the reference algorithm (one
transition), its statement for every n (which also states the prompt), the state encoding, a deliberately wrong
variant and the claim. Put it in a directory of
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
    Reference,
    Segment,
    Shift,
    Sig,
    StateEncoding,
    StateVar,
    StepwiseSpec,
    Transition,
    Var,
    Vocabulary,
    definitions,
    interpretation,
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

# -- the reference algorithm, written once: its run on one input and the definitions the all-n prover reads --


class Bits(NamedTuple):
    """The input's symbols: its length ``n`` and ``bit(i)`` (0 outside the string)."""

    n: int
    bits: tuple[int, ...]

    def bit(self, i):
        """``b_i``."""
        return self.bits[i] if 0 <= i < self.n else 0


class Prefix(NamedTuple):
    """The reference state after ``t`` steps: the sum of the first ``t`` bits."""

    total: int


#: ``s_0 = 0``, ``s_{t+1} = s_t + b_t``, one step per bit (``o.step`` is the step ``t`` being taken).
PREFIX = Transition("prefix sums", (StateVar("acc", doc="b_0 + … + b_{τ-1}"),),
                    init=lambda o, g: {"acc": 0},
                    step=lambda o, g, s: {"acc": s.acc + g.bit(o.step)},
                    running=lambda o, g, s: o.step < g.n,
                    bound=lambda g: g.n + 1)
REFERENCE = Reference(PREFIX, inputs=lambda bits: Bits(len(bits), tuple(bits)),
                      states=lambda run, bits: [Prefix(s["acc"]) for s in run.states])

#: A prompt token ``[e_i ‖ b ‖ 0 ‖ f]`` (a block the encoding does not list is 0).
PROMPT = StateEncoding({"pos": onehot("i"), "bit": scalar("b"), "flg": scalar("f")})
#: ``enc(s_t)``: ``y_t`` carries the prefix sum in its ``sum`` block.
ENCODING = StateEncoding({"sum": scalar("total")})

# -- the statement for every n: the algorithm's vocabulary, then what every token holds ---------------

STEP = Var("τ", lambda c, *_: 0, lambda c, *_: c.T, "step")
MOVE = Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step")
INDEX = Var("i", lambda c, *_: 0, lambda c, *_: c.n - 1, "index")


def input_symbols(bits):
    """The input's symbols as the vocabulary names them (no run needed: the prompt is read from them)."""
    return {"n": len(bits), "bit": table(bits)}


VOCABULARY = Vocabulary(
    "prefix sums",
    symbols=(Sig("n", 0, doc="the length of the bit string"),
             Sig("bit", 1, "int", "b_i", ("index",)),
             *PREFIX.symbols()),
    facts=(Fact("nonempty", (), lambda c: c.n >= 1, "domain", source="a non-empty string"),
           Fact("bits", (INDEX,), lambda c, i: c.or_(c.bit(i) == 0, c.bit(i) == 1), "domain",
                source="of 0s and 1s"),
           *definitions(PREFIX, MOVE, STEP),
           Fact("nonneg", (STEP,), lambda c, t: c.acc(t) >= 0, "derived", Induction("τ"),
                source="a sum of bits is never negative (so the ReLU keeps it)")),
    views={"total": lambda c, t: c.acc(t)},
    interpret=lambda bits, states: {**input_symbols(bits), **interpretation(PREFIX, REFERENCE.run(bits))},
    inputs=input_symbols,
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
    """Input ``x_i = [e_i ‖ b_i ‖ 0 ‖ 0]``; initial token ``y_0 = [e_0 ‖ 0 ‖ 0 ‖ 1]``; ``y_t`` carries the sum.

    The prompt is the statement's segments (a construction states it once).
    """

    encoding = ENCODING
    all_n = STATEMENT

    def env(self, bits):
        """``{n: |bits|}``."""
        return {"n": len(bits)}

    def validate(self, bits):
        """The domain: a non-empty tuple of 0s and 1s."""
        if not bits or any(b not in (0, 1) for b in bits):
            raise InvalidInputError(f"{bits!r} is not a non-empty bit string")


# -- a deliberately wrong variant: a counter that saturates at 5 --------------------------------------

#: ``sum ← ReLU(sum + bit) - ReLU(sum + bit - 5) = min(sum + bit, 5)``, the second term parked in the ``bit``
#: slot of the hidden layer: right on every bit string of length ≤ 5, wrong on 111111.
W_1_SAT = Map("W_1", L, L, {"pos": Shift(n) @ x.pos, "sum": x.sum + x.bit, "bit": x.sum + x.bit - 5},
              keep=["flg"], doc="sum + bit, and sum + bit - 5 in the bit slot")
W_2_SAT = Map("W_2", L, L, {"sum": x.sum - x.bit}, keep=["pos", "flg"], zero=["bit"],
              doc="sum ← ReLU(sum + bit) - ReLU(sum + bit - 5)")
SATURATING = Decoder("prefix-sum-saturating", L, [Layer(Attention([HEAD], W_O), FFN(W_1_SAT, W_2_SAT))])

# -- the reference, the input space and the parser of `symcot replay --input` ------------------------

SPEC = StepwiseSpec(reference=REFERENCE, state_text=lambda s: str(s.total))


def bit_strings_ranked(k, start, stop):
    """The bit strings of rank ``start ≤ r < stop`` in the family's order (``r`` in binary, ``k`` digits)."""
    return (tuple((r >> (k - 1 - i)) & 1 for i in range(k)) for r in range(start, stop))


#: ``universe``: every candidate input of a length (here strings over 0, 1, 2): the all-n prover checks that the
#: family's inputs are exactly those of the universe on which the domain facts (``nonempty``, ``bits``) hold.
#: ``inputs_range`` lets a search at large sizes (``symcot precision``) reach any rank, such as the last, 11…1.
BIT_STRINGS = Family(name="bit strings", inputs=lambda k: itertools.product((0, 1), repeat=k),
                     count=lambda k: 2 ** k, inputs_range=bit_strings_ranked,
                     universe=lambda k: itertools.product((0, 1, 2), repeat=k), universe_count=lambda k: 3 ** k)


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
     ConstructionCheck(saturating, SPEC, [BIT_STRINGS], input_kind="custom", parse_input=parse_bits),
     AllNCheck(as_written, SPEC, [BIT_STRINGS], timeout_s=10),  # Z3's limit per obligation (default 60 s)
     AllNCheck(saturating, SPEC, [BIT_STRINGS], timeout_s=10)],
    default_max_size=8,
    readings={"as-written": Reading("as-written", "the decoder as stated"),
              "saturating": Reading("mutant", "a counter that saturates at 5: right on every string of length ≤ 5",
                                    expect="refuted")},  # a negative example: its refutation passes
)
