r"""Chapter 8's AHAT generating Dyck-(k, D) (after Yao et al. 2021, § 5.2): two average-hard layers.

Claimed (draft 582e0e1, ch. 8, § "Dyck Language", § "AHAT Dyck-k-D"; no label, id ``ch8:dyck-ahat`` ours): a
two-layer AHAT with future-positional masking, the ``i/n`` positional encoding, residual connections (and layer
norm) generates Dyck-(k, D): on a prefix of a Dyck-(k, D) string it gives, at each position, the tokens that may
come next.

Stated as an encoder over ``BOS w`` (``w`` every prefix of a Dyck-(k, D) string): the output at position ``i``
is the indicator vector of the next-token set after ``w_1..w_i`` over ``[_1..[_k, ]_1..]_k, EOS`` (the reference:
opens when the depth is below ``D``, the close of the innermost open bracket's kind, EOS when the depth is 0).
The model: ``x_i = [t_i, o_i, p_i, d_i]`` as in ch8:dyck-uhat (one-hot ``t`` with BOS's kind 0, ``o = 1`` for opens
and BOS, ``p_i = i/n``). Layer 1: uniform attention (the draft's footnote: ``j ≤ i``) with ``V x = 2o - 1``, so
``a_i = (1 + d_i)/(i + 1)`` (0-based ``i``; BOS counts one). Layer 2: ``Att^match`` with the maximum at the
rightmost ``j ≤ i`` with ``d_j = d_i`` and ``o_j = 1`` (BOS when none), ``V`` the identity (the kinds), beside the
identity head (the residual); its FFN predicts: opens iff ``d_i < D``, the close of ``t_j``'s kind, EOS iff
``w_j`` is BOS.

The draft leaves the depth comparison to the cited paper (App. B.1: a trigonometric code with layer norm), so it
is a *named completion* here, exact: the positional encoding also gives ``i + 1``, and the FFN of layer 1
recovers the integer ``δ_i = (i + 1) a_i = d_i + 1`` (a degree-2 map) and ``ε_i = ReLU(δ_i - (D + 2)(1 - o_i))``
(``δ`` at opens, 0 at closes); the match score is ``2 δ_i ε_j - ε_j² + p_j/2``: ``δ_i² - (δ_i - δ_j)²`` at opens
(largest, ``δ_i²``, at equal depth), literally zeroed at closes, plus the low offset ``p_j/2`` for the rightmost.
The prediction FFN: ``ReLU(D + 1 - δ) - ReLU(D - δ)`` for each open, ``ReLU(t_{j,c})`` for each close,
``ReLU(t_{j,0})`` for EOS (ch. 3's ReLU recipes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.check.grid import GridCheck, Point
from symcot.claims import Claim, as_written, mutant, reading
from symcot.inputs.family import Family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import AHAT, HeadRule, ModelDescription, Positional

from .dyck_uhat import BOS, SUBJECT_NOTE, WHERE, alphabet, kind_of, stack_run

OFFSET = Fraction(1, 2)


# -- the reference: the next-token set by a stack ---------------------------------------------------------------
def next_tokens(k: int, depth: int, w: tuple[str, ...]) -> set[str]:
    """What may follow the prefix ``w`` in Dyck-(k, D): opens below depth ``D``, the innermost close, EOS at 0."""
    stack = stack_run(w, depth)
    if stack is None:
        raise ValueError(f"{''.join(w)} is not a prefix of a Dyck-({k}, {depth}) string")
    sigma = alphabet(k)
    out = set(sigma[:k]) if len(stack) < depth else set()
    if stack:
        out.add(sigma[k + stack[-1] - 1])
    else:
        out.add("$")
    return out


def indicator(k: int, tokens: set[str]) -> list[int]:
    """The next-token set as a 0/1 vector over ``[_1..[_k, ]_1..]_k, EOS``."""
    return [int(a in tokens) for a in (*alphabet(k), "$")]


def prefixes(k: int, depth: int, size: int) -> list[tuple[str, ...]]:
    """Every prefix of a Dyck-(k, D) string of length ``size`` (in the alphabet's order)."""
    out: list[tuple[str, ...]] = [()]
    for _ in range(size):
        out = [w + (a,) for w in out for a in alphabet(k) if stack_run(w + (a,), depth) is not None]
    return out


def prefix_family(k: int, depth: int, length: int) -> Family:
    """Every ``BOS w``, ``w`` a prefix of a Dyck-(k, D) string, ``|w|`` the size, up to ``length``."""
    def inputs(size: int) -> Iterator[tuple[str, ...]]:
        return ((BOS, *w) for w in prefixes(k, depth, size))

    return Family(f"every ^ w, w a prefix of a Dyck-({k}, {depth}) string", inputs,
                  lambda size: len(prefixes(k, depth, size)),
                  describe=lambda s: {"string": "".join(s), "length": len(s) - 1, "text": f"w = {''.join(s[1:])}"},
                  min_size=0, max_size=length)


# -- the model ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Options:
    """What a variant changes: the masks, the match score, the offset, the close rule as printed."""

    count_mask: str = "future"
    match_mask: str = "future"
    score: str = "positive"  # "positive": δ_i² - (δ_i - δ_j)² at opens; "zero-max": -(δ_i - δ_j)², zeroed at closes
    offset: str = "p"  # "p": p_j/2; "j": (j + 1)/2; "none"
    close_if_close: bool = False  # the draft's printed "if w_j is a close bracket"


def layout(k: int) -> Layout:
    """``one, t_0..t_k, o``, ``a, δ, ε``, the match head's copy ``mt*, mo``, the outputs ``y*``, then ``p, q``."""
    kinds = range(k + 1)
    outs = [*(f"yo{c}" for c in range(1, k + 1)), *(f"yc{c}" for c in range(1, k + 1)), "yeos"]
    blocks = ["one", *(f"t{c}" for c in kinds), "o", "a", "dl", "ep", *(f"mt{c}" for c in kinds), "mo", *outs, "p",
              "q"]
    return Layout(f"ch8.dyck-ahat.k{k}", [(b, 1) for b in blocks])


def output_blocks(k: int) -> tuple[str, ...]:
    """The readout: the indicator over ``[_1..[_k, ]_1..]_k, EOS``."""
    return (*(f"yo{c}" for c in range(1, k + 1)), *(f"yc{c}" for c in range(1, k + 1)), "yeos")


K1 = Layout("ch8.dyck-ahat.key1", [("k", 1)])
V1 = Layout("ch8.dyck-ahat.value1", [("v", 1)])
K3 = Layout("ch8.dyck-ahat.key2", [("k1", 1), ("k2", 1), ("k3", 1)])


def _depth_layer(lay: Layout, depth: int) -> Layer:
    """Uniform attention averaging ``2o - 1`` into ``a``; the FFN: ``δ = ReLU(q a)``, ``ε = ReLU(q a - (D+2)(1-o))``."""
    x = lay.vars()
    head = Head("d", Map("Q", lay, K1, zero=["k"]), Map("K", lay, K1, zero=["k"]),
                Map("V", lay, V1, {"v": 2 * x.o - x.one}))
    vs = value_space([head])
    w_o = Map("W_O", vs, lay, {"a": vs.vars()["d.v"]}, zero=[b for b in lay.names if b != "a"])
    hid = Layout("ch8.dyck-ahat.hidden1", [("dl", 1), ("ep", 1)])
    h = hid.vars()
    ffn = FFN(Map("W_1", lay, hid, {"dl": x.q * x.a, "ep": x.q * x.a - (depth + 2) * (x.one - x.o)}),
              Map("W_2", hid, lay, {"dl": h.dl, "ep": h.ep}, zero=[b for b in lay.names if b not in ("dl", "ep")]))
    return Layer(Attention([head], w_o), ffn)


def _match_head(lay: Layout, k: int, opt: Options) -> Head:
    x = lay.vars()
    off = {"p": OFFSET * x.p, "j": OFFSET * x.q, "none": 0}[opt.offset]
    if opt.score == "positive":  # 2 δ_i ε_j - ε_j² + offset
        q = {"k1": x.dl, "k2": x.one, "k3": 0 * x.one}
        key = {"k1": 2 * x.ep, "k2": off - x.ep * x.ep, "k3": 0 * x.one}
    else:  # o_j · (-(δ_i - δ_j)²) + offset = 2 δ_i ε_j - ε_j δ_j - δ_i² o_j + offset
        q = {"k1": x.dl, "k2": x.one, "k3": x.dl * x.dl}
        key = {"k1": 2 * x.ep, "k2": off - x.ep * x.dl, "k3": -x.o}
    names = [*(f"t{c}" for c in range(k + 1)), "o"]
    val = Layout(f"ch8.dyck-ahat.value2.k{k}", [(b, 1) for b in names])
    return Head("match", Map("Q", lay, K3, q), Map("K", lay, K3, key), Map("V", lay, val, keep=names))


def _predict_layer(lay: Layout, k: int, depth: int, opt: Options) -> Layer:
    x = lay.vars()
    head = _match_head(lay, k, opt)
    vs = value_space([head])
    o = vs.vars()
    copies = {**{f"mt{c}": o[f"match.t{c}"] for c in range(k + 1)}, "mo": o["match.o"]}
    w_o = Map("W_O", vs, lay, copies, zero=[b for b in lay.names if b not in copies])
    # the printed rule (close_if_close): a close of kind t_j only when w_j is a close bracket, ¬o_j ∧ t_{j,c}
    units = {"up": depth + 1 - x.dl, "down": depth - x.dl, "eos": x.mt0,
             **{f"c{c}": x[f"mt{c}"] - x.mo if opt.close_if_close else x[f"mt{c}"] for c in range(1, k + 1)}}
    hid = Layout(f"ch8.dyck-ahat.hidden2.k{k}", [(u, 1) for u in units])
    h = hid.vars()
    out = {**{f"yo{c}": h.up - h.down for c in range(1, k + 1)}, **{f"yc{c}": h[f"c{c}"] for c in range(1, k + 1)},
           "yeos": h.eos}
    ffn = FFN(Map("W_1", lay, hid, units), Map("W_2", hid, lay, out, zero=[b for b in lay.names if b not in out]))
    return Layer(Attention([head], w_o), ffn)


POSITIONS = Positional(lambda i, n: [Fraction(i + 1, n), i + 1], 2, "concat", "p_i = i/n and i (1-based)")


def dyck_ahat_decoder(k: int, depth: int, opt: Options) -> Decoder:
    """The two layers, AHAT, residual around both sublayers, no layer norm (the comparison is exact)."""
    lay = layout(k)
    desc = ModelDescription(f"ch8 Dyck-({k}, {depth}) AHAT", direction="encoder",
                            head=HeadRule(opt.count_mask, AHAT()), heads={"match": HeadRule(opt.match_mask, AHAT())},
                            residual="both", positional=POSITIONS)
    return Decoder(f"Dyck-({k}, {depth}) AHAT", lay, [_depth_layer(lay, depth), _predict_layer(lay, k, depth, opt)],
                   desc)


def embed_for(k: int) -> Callable[[str, int, int], list[int]]:
    """``one``, one-hot ``t``, ``o``, zeros (``p, q`` are the encoding's)."""
    width = len(layout(k).names) - 2

    def embed(symbol: str, i: int, n: int) -> list[int]:
        c, is_open = kind_of(symbol)
        v = [0] * width
        v[0], v[1 + c], v[k + 2] = 1, 1, int(is_open)
        return v

    return embed


def reference_for(k: int, depth: int) -> Callable[[tuple[str, ...]], list[list[int]]]:
    """Per position of ``BOS w``: the indicator of the next-token set after ``w_1..w_i``."""
    return lambda s: [indicator(k, next_tokens(k, depth, s[1:i + 1])) for i in range(len(s))]


def check_of(variant: str, opt: Options) -> Callable[[Point, int], EncoderCheck]:
    """The check of ``variant`` at one ``(k, D)``, prefixes up to a length."""
    def make(point: Point, length: int) -> EncoderCheck:
        k, depth = point
        def construction() -> EncoderConstruction:
            return EncoderConstruction(variant, dyck_ahat_decoder(k, depth, opt), embed_for(k),
                                       Readout(output_blocks(k)),
                                       notes=[SUBJECT_NOTE, "completion (ours): the integer depth δ = (i+1) a and "
                                              "the match score 2 δ_i ε_j - ε_j² + p_j/2"])

        return EncoderCheck(construction, reference_for(k, depth), [prefix_family(k, depth, length)])

    return make


GRID = tuple((k, d) for k in (1, 2, 3) for d in (1, 2, 3))
SHORTER = {1: 0, 2: 1, 3: 2}


def grid_check(variant: str, opt: Options) -> GridCheck:
    """``variant`` at every ``(k, D)`` of :data:`GRID`; ``--input`` types the prefix ``w`` (the BOS is added)."""
    return GridCheck(variant, ("k", "D"), GRID, check_of(variant, opt), lambda p: SHORTER[p[0]],
                     "exhaustive exact replay of every position, each (k, D) of the grid",
                     symbols=lambda p: alphabet(p[0]), wrap=lambda w: (BOS, *w))


#: variant -> options, reading.
VARIANTS: dict[str, tuple[Options, Any]] = {
    "as-written": (Options(), as_written(
        "BOS w, w every prefix of a Dyck-(k, D) string; AHAT, both heads j ≤ i; the completion's score "
        "2 δ_i ε_j - ε_j² + p_j/2; the output per position against the next-token indicator")),
    "strict-match": (Options(match_mask="strict-future"), reading(
        "the text's 'the rightmost j < i': Att^match under the mask j < i (an open bracket cannot see itself)")),
    "strict-count": (Options(count_mask="strict-future"), reading(
        "layer 1 under the mask j < i (future masking of positions i..n, the footnote's other reading)")),
    "zero-max": (Options(score="zero-max"), reading(
        "a score with its maximum 0 at equal depth, -(δ_i - δ_j)², 'zeroed out' at closes: closes tie the match")),
    "offset-j": (Options(offset="j"), reading(
        "the offset proportional to j read as (j + 1)/2 (not i/n): no longer low against the depth scores")),
    "close-as-printed": (Options(close_if_close=True), reading(
        "the printed rule: a close of kind t_j when w_j is a close bracket (w_j is an open one or BOS)")),
    "no-offset": (Options(offset="none"), mutant(
        "no tie-breaking offset: AHAT averages the equal-depth opens; expected to fail for k ≥ 2")),
}

DYCK_AHAT = Claim(
    id="ch8:dyck-ahat", kind="section",
    statement="A two-layer AHAT with future-positional masking, the i/n positional encoding and residual connections "
              "generates Dyck-(k, D): on a prefix of a Dyck-(k, D) string it gives the next-token set at every "
              "position (Yao et al. 2021, § 5.2).",
    where=WHERE.format("AHAT Dyck-k-D"),
    checks=[grid_check(v, opt) for v, (opt, _) in VARIANTS.items()],
    default_max_size=7,
    readings={v: r for v, (_, r) in VARIANTS.items()},
)

CLAIMS = [DYCK_AHAT]
