"""The softmax temperature of chapter 4's table lookup: the rule holds, each fixed β and the small rule fail."""

import itertools
import math
from fractions import Fraction

from proofs.transformer_cookbook.attention_temperature import (
    RULE,
    SOFTMAX,
    TIE_RULE,
    TIE_SOFTMAX,
    construction,
    decide,
    tie_gap,
    tie_margin,
)
from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress
from symcot.model.interval import compare, log
from symcot.study.temperature import threshold


def _rows(size):
    return {chk.variant: chk.run(RunContext(SOFTMAX.id, size, Progress(False))) for chk in SOFTMAX.checks}


def test_the_rule_holds_and_each_fixed_beta_and_the_small_rule_fail_at_their_first_size():
    rows = _rows(5)
    assert {v: (r.verdict, r.max_size) for v, r in rows.items()} == {
        "as-written": ("verified", 5), "draft-scale": ("refuted", 2), "beta-2": ("refuted", 3),
        "too-small": ("refuted", 2)}
    assert rows["as-written"].inputs_checked == 1 + 4 + 27 + 256 + 3125
    assert all(SOFTMAX.expect_of(c) == ("refuted" if c.variant != "as-written" else None) for c in SOFTMAX.checks)
    cex = rows["beta-2"].counterexample
    assert (cex["input"]["text"], cex["position"], cex["expected"], cex["beta"]) == ("a = (0, 2, 0, 3)", 1, 0, "2")
    assert rows["draft-scale"].counterexample["beta"] == "177/250"  # the rational just above 1/√2
    assert rows["too-small"].counterexample["input"]["text"] == "a = (0, 0, 2)"


def test_the_softmax_output_is_the_brute_force_weighted_average():
    beta = Fraction(3, 2)
    for s in (("0", "2", "0", "3"), ("3", "1", "2", "0"), ("1", "1", "1")):
        cons = construction(beta)
        enc = cons.run(s, record=False)
        for i, a in enumerate(s):
            w = [math.exp(float(beta) * (2 * int(a) * j - j * j)) for j in range(len(s))]
            want = sum(wj * int(v) for wj, v in zip(w, s)) / sum(w)
            got = cons.read(cons.concrete(s), enc.outputs[i])[0]
            assert compare(got, Fraction(want) - Fraction(1, 10**9)) > 0
            assert compare(got, Fraction(want) + Fraction(1, 10**9)) < 0


def test_the_rule_is_above_the_measured_threshold_which_is_ln_4n_minus_6_from_n_4():
    for n in (3, 4):
        def inputs(n=n):
            return (tuple(str(v) for v in t) for t in itertools.product(range(n), repeat=n))

        b = threshold(decide, inputs, n, RULE.at(n), Fraction(1, 1000))
        assert b.undecided is None and RULE.at(n) > b.agrees
        if n == 4:
            assert compare(log(10), b.fails) > 0 and compare(log(10), b.agrees) < 0
        else:  # n = 3: no a ∈ {0,1,2}^3 points at 1 with both neighbours' values 2 away: ln 4, not ln 6
            assert compare(log(4), b.fails) > 0 and compare(log(4), b.agrees) < 0


def test_tie_breaking_under_softmax_needs_a_rule_in_n_squared_and_a_fixed_beta_fails():
    rows = {chk.variant: chk.run(RunContext(TIE_SOFTMAX.id, 6, Progress(False))) for chk in TIE_SOFTMAX.checks}
    assert {v: (r.verdict, r.max_size) for v, r in rows.items()} == {
        "as-written": ("verified", 6), "beta-20": ("refuted", 5), "too-small": ("refuted", 2)}
    cex = rows["beta-20"].counterexample
    assert (cex["input"]["string"], cex["expected"], cex["beta"]) == ("000001", "1/6", "20")
    assert rows["too-small"].counterexample["input"]["string"] == "000"
    assert tie_gap(6) == Fraction(1, 30) and tie_margin(6) == Fraction(1, 60)
    # the rule at n = 6 is 30 (ln 5 + ln 49) ≈ 165.04
    b = TIE_RULE.beta(6)
    assert compare(b, Fraction(16503, 100)) > 0 and compare(b, Fraction(16504, 100)) < 0


def test_the_tie_gap_and_margin_against_a_brute_force_over_every_score_vector():
    for n in range(2, 7):
        gaps, margins = [], []
        for bits in itertools.product((0, 1), repeat=n):
            scores = [b + Fraction(1, j + 1) for j, b in enumerate(bits)]
            top = max(scores)
            gaps.append(min(top - x for x in scores if x != top))
        for j0 in range(n):
            margins.append(min(abs(Fraction(1, j0 + 1) - Fraction(1, j + 1)) for j in range(n) if j != j0) / 2)
        assert min(gaps) == tie_gap(n) and min(margins) == tie_margin(n)
