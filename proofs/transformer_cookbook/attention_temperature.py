r"""How sharp softmax must be to do chapter 4's hard-attention recipes: table lookup and tie breaking.

The recipe is badged UHAT and AHAT (draft 582e0e1, ch. 4, § "Quadratic maximization"): ``q_i = (a_i, 1)``,
``k_j = (2j, -j²)``, so ``s_{i,j} = 2 a_i j - j² = a_i² - (j - a_i)²`` is maximal at ``j = a_i`` and every other
score is at least ``g = 1`` below it. Under softmax (``eq:att_weight``) at inverse temperature ``β`` the output
at position ``i`` is a weighted average of the values ``a_j ∈ {0..n-1}`` instead of ``a_{a_i}``; the lookup's
decision is the integer nearest to it, which is the hard rule's when the output is within ``m = 1/2`` of
``a_{a_i}``. With ``Δ(n) = n - 1`` (the largest distance between two values) the study's derived rule
(:func:`symcot.study.temperature.derived_rule`) is

    β > β(n) = (ln(n - 1) + ln(2n - 3)) / g,

enough for every input of size ``n``. Checked (every ``a ∈ {0..n-1}^n``, certified balls; a decision the balls do
not settle would make the row ``unknown``): the rule (``as-written``: the rule is ours, the draft states none);
the scale the draft's definition gives, ``β = 1/√d_hid = 1/√2`` (``eq:att_logit``, run at the rational just
above it); ``β = 2``; and a rule too small on purpose, ``ln(n)/(2g)`` (mutant). A fixed ``β`` fails from some
``n`` on: the counterexample is the first input of the first size where a lookup's nearest integer is wrong.

sec:tie-breaking (badge AHAT): the scores ``b_j + 1/(j+1)``, ``b ∈ {0,1}^n``, have least gap
``g(n) = 1/(n-1) - 1/n = 1/(n(n-1))`` (two tied ``b``'s at the last two positions); the values ``1/(j+1)`` differ by
at most ``Δ = 1 - 1/n``, and the decision (the value nearest to the output is the chosen ``1/(j0+1)``) has margin
at least ``m = 1/(2n(n-1))``. The rule ``β(n) = (ln(n - 1) + ln(2(n - 1)² - 1)) n(n - 1)`` grows like
``2 n² ln n``; checked on every ``b`` to ``n = 6``, with ``β = 20`` (fails from ``n = 6``) and the rule at a gap
of ``1/2`` (mutant) beside it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from symcot.check.encoder import EncoderConstruction, Readout
from symcot.claims import Claim, as_written, mutant
from symcot.inputs.strings import strings_family
from symcot.model.description import SMAT
from symcot.model.interval import log, show, sqrt
from symcot.study.temperature import Rule, TemperatureCheck, constant, derived_rule, within

from .attention import POINTERS, SUBJECT_NOTE, _lookup_embed, _where, lookup_decoder
from .attention_ties import _embed as _tie_embed
from .attention_ties import tie_decoder, unique_choice

#: the score gap of s_{i,j} = a_i² - (j - a_i)² and the margin of the nearest-integer decision
GAP = Fraction(1)
MARGIN = Fraction(1, 2)
RULE = derived_rule(GAP, lambda n: Fraction(n - 1), MARGIN, "(ln(n - 1) + ln(2n - 3)) / g, g = 1")
TOO_SMALL = Rule("ln(n) / (2g), g = 1", lambda n: log(n) / (2 * GAP))
DRAFT_SCALE = Rule("1/√d_hid = 1/√2 (the draft's scaled dot product, d_hid = 2)", lambda n: 1 / sqrt(2))

_CONSTRUCTIONS: dict[Fraction, EncoderConstruction] = {}


def construction(beta: Fraction) -> EncoderConstruction:
    """The lookup under softmax at inverse temperature ``beta`` (``τ = 1/β``)."""
    if beta not in _CONSTRUCTIONS:
        _CONSTRUCTIONS[beta] = EncoderConstruction(f"β = {beta}", lookup_decoder(SMAT(1 / beta)), _lookup_embed,
                                                   Readout("val"), notes=[SUBJECT_NOTE])
    return _CONSTRUCTIONS[beta]


def decide(beta: Fraction, s: tuple[str, ...]) -> dict[str, Any] | None:
    """``None`` when every position's nearest integer is ``a_{a_i}``, else the first position that is not."""
    cons = construction(beta)
    enc = cons.run(s, record=False)
    dec = cons.concrete(s)
    for i, a in enumerate(s):
        got = cons.read(dec, enc.outputs[i])[0]
        want = int(s[int(a)])
        if not within(got, want, MARGIN, f"position {i}'s output against a_{{a_{i}}} = {want} ± 1/2"):
            return {"kind": "decision", "position": i, "got": show(got), "expected": want}
    return None


def _check(variant: str, rule: Rule, expect: str | None = None) -> TemperatureCheck:
    return TemperatureCheck(variant, rule, decide, [POINTERS], expect=expect, notes=[SUBJECT_NOTE])


SOFTMAX = Claim(
    id="ch4:quadratic-maximization:softmax", kind="section",
    statement="Softmax does the UHAT/AHAT table lookup of ch4:quadratic-maximization (nearest integer of the output "
              "= a_{a_i} at every position) when β > (ln(n - 1) + ln(2n - 3))/g, g = 1 the score gap; a fixed β "
              "fails from some n on.",
    where=_where("Quadratic maximization", "no label; id ours") + " with § \"Definitions\" (eq:att_weight)",
    checks=[_check("as-written", RULE), _check("draft-scale", DRAFT_SCALE, "refuted"),
            _check("beta-2", constant(Fraction(2)), "refuted"), _check("too-small", TOO_SMALL, "refuted")],
    default_max_size=5,
    readings={"as-written": as_written("our rule (the draft states none): β(n) = (ln(n - 1) + ln(2n - 3))/g, run "
                                       "at the rational just above it; every a ∈ {0..n-1}^n"),
              "draft-scale": mutant("β = 1/√d_hid = 1/√2, the definition's scale (eq:att_logit) with no "
                                    "temperature: expected to fail from some n on"),
              "beta-2": mutant("a fixed β = 2: expected to fail from some n on"),
              "too-small": mutant("β(n) = ln(n)/(2g), a rule too small on purpose: expected to fail")},
)

# -- tie breaking (sec:tie-breaking): the gap is 1/(n(n - 1)), so β grows like n² ln n ------------------------


def tie_gap(n: int) -> Fraction:
    """The least gap of the scores ``b_j + 1/(j+1)``: ``1/(n-1) - 1/n`` (two tied ``b``'s, the last positions)."""
    return Fraction(1, n * (n - 1))


def tie_margin(n: int) -> Fraction:
    """Half the least distance between two values ``1/(j+1)``, ``j < n``: ``1/(2n(n - 1))``."""
    return Fraction(1, 2 * n * (n - 1))


TIE_RULE = derived_rule(tie_gap, lambda n: 1 - Fraction(1, n), tie_margin,
                        "(ln(n - 1) + ln(2(n - 1)² - 1)) / g(n), g(n) = 1/(n(n - 1))")
TIE_TOO_SMALL = Rule("(ln(n - 1) + ln(2(n - 1)² - 1)) / 2, the rule at a gap of 1/2",
                     lambda n: TIE_RULE.beta(n) * tie_gap(n) / 2 if n > 1 else 0)
_TIES: dict[Fraction, EncoderConstruction] = {}


def tie_construction(beta: Fraction) -> EncoderConstruction:
    """sec:tie-breaking's leftmost recipe (``b_j + 1/(j+1)``) under softmax at ``beta``."""
    if beta not in _TIES:
        _TIES[beta] = EncoderConstruction(f"β = {beta}", tie_decoder(1, SMAT(1 / beta)), _tie_embed, Readout("val"),
                                          notes=[SUBJECT_NOTE])
    return _TIES[beta]


def _nearest_margin(j0: int, n: int) -> Fraction:
    """Half the distance from ``1/(j0+1)`` to the nearest other value ``1/(j+1)``, ``j < n``."""
    return min(abs(Fraction(1, j0 + 1) - Fraction(1, j + 1)) for j in range(n) if j != j0) / 2


def tie_decide(beta: Fraction, s: tuple[str, ...]) -> dict[str, Any] | None:
    """``None`` when every position's output is nearest to ``1/(j0+1)``, ``j0`` the leftmost maximal ``b``."""
    n = len(s)
    if n == 1:
        return None
    cons = tie_construction(beta)
    enc = cons.run(s, record=False)
    dec = cons.concrete(s)
    j0 = unique_choice(s, "leftmost")
    want, m = Fraction(1, j0 + 1), _nearest_margin(j0, n)
    for i in range(n):
        got = cons.read(dec, enc.outputs[i])[0]
        if not within(got, want, m, f"position {i}'s output against 1/{j0 + 1} ± {m}"):
            return {"kind": "decision", "position": i, "got": show(got), "expected": str(want)}
    return None


def _tie_check(variant: str, rule: Rule, expect: str | None = None) -> TemperatureCheck:
    return TemperatureCheck(variant, rule, tie_decide, [strings_family("01")], expect=expect, notes=[SUBJECT_NOTE])


TIE_SOFTMAX = Claim(
    id="sec:tie-breaking:softmax", kind="section",
    statement="Softmax does sec:tie-breaking's leftmost tie breaking (b_j + 1/(j+1); the output nearest to the chosen "
              "1/(j0+1)) when β > (ln(n - 1) + ln(2(n - 1)² - 1))/g(n), g(n) = 1/(n(n - 1)); a fixed β fails from some "
              "n on.",
    where="draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 4, § \"Tie Breaking\" (sec:tie-breaking) "
          "with § \"Definitions\" (eq:att_weight)",
    checks=[_tie_check("as-written", TIE_RULE), _tie_check("beta-20", constant(Fraction(20)), "refuted"),
            _tie_check("too-small", TIE_TOO_SMALL, "refuted")],
    default_max_size=6,
    readings={"as-written": as_written("our rule (the draft states none; its badge is AHAT only): the gap "
                                       "1/(n(n - 1)), values 1/(j+1), margin 1/(2n(n - 1)); every b ∈ {0,1}^n"),
              "beta-20": mutant("a fixed β = 20: expected to fail from some n on"),
              "too-small": mutant("the rule with a gap of 1/2 instead of 1/(n(n - 1)): expected to fail")},
)

CLAIMS = [SOFTMAX, TIE_SOFTMAX]
