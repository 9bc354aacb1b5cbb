"""The temperature study on a model whose threshold is known in closed form, and its rules' arithmetic."""

from fractions import Fraction

import pytest

from symcot.check.context import RunContext
from symcot.check.exhaustive import Family, Progress
from symcot.errors import Undecided
from symcot.model.interval import Ball, compare, exp, log
from symcot.study.temperature import (
    GRID,
    Rule,
    TemperatureCheck,
    agrees_on_all,
    constant,
    derived_rule,
    outcome,
    study,
    threshold,
    within,
)


def _softmax_off_weight(beta, n):
    """The weight softmax puts off the maximum when n - 1 positions sit exactly g = 1 below it."""
    s = (n - 1) * exp(-beta)
    return s / (1 + s)


def decide(beta, s):
    """A lookup with n - 1 competitors at gap 1 and values 0 (winner) / 1 (others); decision: nearest of 0, 1."""
    n = len(s)
    got = _softmax_off_weight(beta, n) if n > 1 else 0
    return None if within(got, 0, Fraction(1, 2), "the output") else {"got": str(got)}


WORDS = Family("one word per length", lambda n: iter([("x",) * n]), lambda n: 1,
               describe=lambda s: {"string": "".join(s), "length": len(s)})


def test_a_rule_is_run_strictly_above_its_certified_value_on_the_grid():
    r = Rule("ln 3", lambda n: log(3))
    b = r.at(7)
    assert b.denominator in (1, 2, 4, 5, 8, 10, 20, 25, 40, 50, 100, 125, 200, 250, 500, 1000) and b * GRID % 1 == 0
    assert compare(log(3), b) < 0 and b - Fraction(1, GRID) < Fraction(1099, 1000)
    assert constant(Fraction(2)).at(5) == 2  # a fixed β runs as it is; a bound runs strictly above it
    assert Rule("2", lambda n: Fraction(2)).at(5) == Fraction(2001, 1000)
    assert Rule("zero", lambda n: 0).at(3) == Fraction(1, GRID)
    with pytest.raises(ValueError):
        constant(Fraction(0))


def test_the_derived_rule_is_ln_n_minus_1_plus_ln_of_the_spread_over_the_margin_by_the_gap():
    r = derived_rule(Fraction(2), lambda n: Fraction(n - 1), Fraction(1, 2))
    assert r.beta(1) == 0 and r.beta(2) == 0  # Δ ≤ m: every β > 0
    b = r.beta(4)  # (ln 3 + ln 5)/2 = ln(15)/2
    assert isinstance(b, Ball) and compare(b, Fraction(13540, 10000)) > 0 and compare(b, Fraction(13541, 10000)) < 0
    with pytest.raises(ValueError):
        derived_rule(Fraction(0), lambda n: Fraction(1), Fraction(1, 2))


def test_within_decides_only_what_the_balls_settle():
    assert within(Ball(Fraction(1, 3)), 0, Fraction(1, 2), "x") is True
    assert within(Ball(Fraction(2, 3)), 0, Fraction(1, 2), "x") is False
    with pytest.raises(Undecided):
        within(Ball(Fraction(1, 2)) + Ball(exp(Fraction(-200))) - Ball(exp(Fraction(-200))), 0, Fraction(1, 2), "x")


def test_the_derived_rule_holds_and_a_rule_too_small_is_refuted_at_the_first_size_where_it_fails():
    # the model's exact threshold: (n - 1) e^{-β} < 1, i.e. β > ln(n - 1): the derived rule with Δ = 1, m = 1/2
    rule = derived_rule(Fraction(1), lambda n: Fraction(1), Fraction(1, 2))
    ok = TemperatureCheck("rule", rule, decide, [WORDS]).run(RunContext("t", 8, Progress(False)))
    assert (ok.verdict, ok.max_size) == ("verified", 8)
    assert "ln(n - 1)" in ok.notes[0] and ok.details["beta"]["8"]["run"] == str(rule.at(8))
    half = Rule("ln(n - 1)/2", lambda n: log(n - 1) / 2 if n > 1 else 0)
    bad = TemperatureCheck("half", half, decide, [WORDS], expect="refuted").run(RunContext("t", 8, Progress(False)))
    # ln(n-1)/2 < ln(n-1) from n = 3 on, but the grid's rounding up keeps n = 3 (ln 2/2 + 1/1000 < ln 2 fails)
    assert bad.verdict == "refuted" and bad.counterexample["input"]["length"] == 3
    assert bad.counterexample["beta"] == str(half.at(3))


def test_an_undecided_decision_makes_the_row_unknown_never_verified():
    def undecided(beta, s):
        raise Undecided("a decision", "[0 ± 1]")

    row = TemperatureCheck("u", constant(Fraction(1)), undecided, [WORDS]).run(RunContext("t", 3, Progress(False)))
    assert row.verdict == "unknown" and row.details["undecided"]["what"] == "a decision"
    assert outcome(undecided, [("x",)], Fraction(1)) == "unknown"


def test_the_measured_threshold_brackets_ln_n_minus_1():
    for n in (3, 5, 9):
        b = threshold(decide, lambda n=n: [("x",) * n], n, Fraction(10), Fraction(1, 1000))
        assert b.undecided is None and b.agrees - b.fails <= Fraction(1, 1000)
        assert compare(log(n - 1), b.fails) >= 0 and compare(log(n - 1), b.agrees) <= 0
        assert not agrees_on_all(decide, [("x",) * n], b.fails) and agrees_on_all(decide, [("x",) * n], b.agrees)
    with pytest.raises(ValueError):
        threshold(decide, lambda: [("x",) * 9], 9, Fraction(1, 10))


def test_the_study_table_measures_under_the_first_rule_and_reports_every_rule():
    checks = [TemperatureCheck("rule", derived_rule(Fraction(1), lambda n: Fraction(1), Fraction(1, 2)), decide,
                               [WORDS]),
              TemperatureCheck("two", constant(Fraction(2)), decide, [WORDS])]
    rows = study(checks, range(2, 11), Fraction(1, 100))
    assert [r.outcomes["two"] for r in rows] == ["agrees"] * 7 + ["fails"] * 2  # e² ≈ 7.39: fails from n = 9
    assert all(r.outcomes["rule"] == "agrees" and r.sufficient for r in rows)
    assert rows[-1].measured.fails < rows[-1].measured.agrees and rows[0].rule == "0"
