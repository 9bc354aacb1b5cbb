r"""Chapter 4's tie breaking (sec:tie-breaking): average-hard attention simulating leftmost or rightmost UHAT.

Claimed (draft 582e0e1, ch. 4, § "Tie Breaking", badge AHAT): when the scores ``S(j)`` are in ``{0, 1}`` and
depend on the key position only, adding ``1/(j+1)`` to each score (or subtracting it) breaks the ties, so that
average-hard attention attends to the leftmost (or rightmost) maximal position alone, as leftmost (rightmost)
unique-hard attention would.

The model: every string ``b ∈ {0,1}^n`` is the scores (``S(j) = b_j``, precomputed at each position); the
positional encoding is ``1/(j+1)`` (concatenated); the query is the constant 1 and the key ``b_j ± 1/(j+1)``;
the value is the key's position code ``1/(j+1)``, written into ``val``, so the output names the one position
attended to (an average over a tie would name none). Without the term (the ``no-tie-break`` mutant) AHAT
averages the tie, which is what the recipe is for.
"""

from __future__ import annotations

from fractions import Fraction

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.claims import Claim, as_written, mutant, reading
from symcot.inputs.strings import strings_family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import AHAT, AttentionKind, HeadRule, ModelDescription, Positional

from .attention import SUBJECT_NOTE

L = Layout("ch4.ties", [("b", 1), ("one", 1), ("val", 1), ("p", 1)])
K1 = Layout("ch4.ties.key", [("k", 1)])
POSITIONS = Positional(lambda i, n: [Fraction(1, i + 1)], 1, "concat", "1/(j+1)")
#: variant -> the sign of the 1/(j+1) term in the key (0: none) and the unique-hard tie rule it simulates.
SIGNS: dict[str, tuple[int, str]] = {"as-written": (1, "leftmost"), "rightmost": (-1, "rightmost"),
                                     "no-tie-break": (0, "leftmost")}


def tie_decoder(sign: int, kind: AttentionKind | None = None) -> Decoder:
    """Query 1, key ``b_j + sign/(j+1)``, value ``1/(j+1)`` into ``val``; AHAT (or ``kind``), no mask, residuals."""
    x = L.vars()
    head = Head("t", Map("Q", L, K1, {"k": x.one}), Map("K", L, K1, {"k": x.b + sign * x.p}),
                Map("V", L, L, {"val": x.p}, zero=["b", "one", "p"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, L, {"val": vs.vars()["t.val"]}, zero=["b", "one", "p"])
    ffn = FFN(Map("W_1", L, L, zero=list(L.names)), Map("W_2", L, L, zero=list(L.names)))
    rule = kind if kind is not None else AHAT()
    desc = ModelDescription(f"ch4 tie breaking ({rule.label()})", direction="encoder", head=HeadRule("none", rule),
                            residual="both", positional=POSITIONS)
    return Decoder("tie breaking", L, [Layer(Attention([head], w_o), ffn)], desc)


def _embed(symbol: str, i: int, n: int) -> list[int]:
    return [int(symbol), 1, 0]


def unique_choice(s: tuple[str, ...], tie: str) -> int:
    """The position unique-hard attention with tie rule ``tie`` attends to when the scores are ``s``."""
    top = max(s)
    tied = [j for j, b in enumerate(s) if b == top]
    return tied[0] if tie == "leftmost" else tied[-1]


def _check(variant: str) -> EncoderCheck:
    sign, tie = SIGNS[variant]

    def construction() -> EncoderConstruction:
        return EncoderConstruction(variant, tie_decoder(sign), _embed, Readout("val"), notes=[SUBJECT_NOTE])

    def reference(s: tuple[str, ...]) -> list[Fraction]:
        return [Fraction(1, unique_choice(s, tie) + 1)] * len(s)

    return EncoderCheck(construction, reference, [strings_family("01")],
                        attends=lambda s, layer, head, i: [unique_choice(s, tie)])


TIE_BREAKING = Claim(
    id="sec:tie-breaking", kind="section",
    statement="With scores S(j) ∈ {0,1} depending on the key only, adding (subtracting) 1/(j+1) to each score makes "
              "average-hard attention attend to the leftmost (rightmost) maximal position only (AHAT).",
    where="draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 4, § \"Tie Breaking\" (sec:tie-breaking)",
    checks=[_check(v) for v in SIGNS],
    default_max_size=6,
    readings={"as-written": as_written("AHAT, no mask, score b_j + 1/(j+1) (0-based j): simulates leftmost UHAT; "
                                       "every b ∈ {0,1}^n"),
              "rightmost": reading("the draft's 'subtracted': score b_j - 1/(j+1) simulates rightmost UHAT"),
              "no-tie-break": mutant("score b_j alone: AHAT averages the tied positions, expected to fail")},
)

CLAIMS = [TIE_BREAKING]
