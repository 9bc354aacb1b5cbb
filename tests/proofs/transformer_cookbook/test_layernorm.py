"""Chapter 6: zero mean holds; ±1, φ(x, y) = φ(x/y) and φ(i)·φ(j) = 1 fail under ε > 0, each with its repair."""

from fractions import Fraction

from proofs.transformer_cookbook.layernorm import (
    INTEGER_KEY,
    LH,
    LN_HASH,
    NORMALIZE_PM1,
    PAIRS,
    ZERO_MEAN,
    CertifiedCheck,
    phi,
    pm1_failure,
    proportional,
)
from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress
from symcot.model.interval import compare


def _rows(claim, size):
    return {chk.variant: chk.run(RunContext(claim.id, size, Progress(False))) for chk in claim.checks}


def _cex(row, *keys):
    return tuple(row.counterexample[k] for k in keys)


def test_zero_mean_makes_layernorm_a_scaling_and_without_duplication_it_is_not():
    rows = _rows(ZERO_MEAN, 3)
    assert (rows["as-written"].verdict, rows["as-written"].inputs_checked) == ("verified", 3 + 15 + 63)
    assert rows["no-duplication"].verdict == "refuted"
    assert _cex(rows["no-duplication"], "input", "mean") == ([-1], "-1")
    assert proportional([1, 2], [Fraction(1, 2), 1]) and not proportional([1, 2], [-1, -2])


def test_clipping_to_plus_minus_eps_does_not_give_plus_minus_one_but_mean_zero_at_eps_0_does():
    rows = _rows(NORMALIZE_PM1, 3)
    assert rows["as-written"].verdict == "refuted"
    assert _cex(rows["as-written"], "input", "coordinate", "LN") == (["-1/100000"], 0, "0")
    assert (rows["zero-mean-eps0"].verdict, rows["zero-mean-eps0"].max_size) == ("verified", 3)
    balanced = pm1_failure("as-written", (1, -1))  # mean 0, but ε/√(ε² + ε) is about √ε, not 1
    assert balanced["coordinate"] == 0 and balanced["LN"].startswith("[0.00316")


def test_the_hash_is_scale_invariant_only_at_eps_0():
    rows = _rows(LN_HASH, 3)
    assert rows["as-written"].verdict == "refuted"
    assert _cex(rows["as-written"], "input", "coordinate") == ({"x": 0, "y": 2}, 1)
    assert (rows["eps0"].verdict, rows["eps0"].max_size) == ("verified", 3)


def test_the_hash_product_is_not_1_at_equal_keys_but_is_uniquely_maximised_there():
    rows = _rows(INTEGER_KEY, 5)
    assert rows["as-written"].verdict == "refuted"
    assert rows["as-written"].counterexample["i"] == 0 and rows["as-written"].counterexample["j"] == 0
    assert (rows["unique-max"].verdict, rows["unique-max"].max_size, rows["unique-max"].inputs_checked) == (
        "verified", 5, 25)
    assert rows["no-layernorm"].verdict == "refuted"
    assert _cex(rows["no-layernorm"], "i", "j") == (0, 1)
    assert compare(sum(a * b for a, b in zip(phi(3), phi(3))), 4) < 0  # 4(i² + 1)/(i² + 1 + 2ε) < 4


def test_an_undecided_comparison_is_unknown_naming_the_input():
    def equal_balls(p):  # the same irrational number twice: the balls cannot certify equality
        compare(phi(p[0])[0], phi(p[0])[0], "φ against itself")

    row = CertifiedCheck("probe", [PAIRS], equal_balls).run(RunContext("eq:integer-key-retrieval", 2, Progress(False)))
    assert row.verdict == "unknown"
    # φ(0)_0 = 0 is exact (decided); (1, 1) and (1, 0) are not, (1, 1) first in the family's order
    assert (row.details["undecided"]["input"], row.details["undecided_inputs"], row.scope) == (
        "(1, 1)", 2, "undecided at (1, 1)")


def test_chapter_4s_hash_formula_is_off_by_two_and_not_scale_invariant_under_eps():
    rows = _rows(LH, 4)
    assert rows["as-written"].verdict == "refuted"
    assert _cex(rows["as-written"], "a", "i", "coordinate") == (0, 1, 1)
    assert rows["as-written"].counterexample["stated"].startswith("[0.70710678")  # 1/√2 against LN's ≈ √2
    assert rows["scaled"].verdict == "refuted" and _cex(rows["scaled"], "a", "i") == (0, 2)
    assert (rows["eps0-doubled"].verdict, rows["eps0-doubled"].inputs_checked) == ("verified", 16)
