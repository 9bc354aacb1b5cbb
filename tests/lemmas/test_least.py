"""The one search for the least value where a monotone check holds (symcot.lemmas.least), against brute force."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcot.lemmas.least import Bisection, Certificate, LambdaAnswer, Least, Probe, Scan, Window, least, least_rule


def brute_least(holds, values):
    """The least of ``values`` where ``holds``, by trying every one."""
    return next((v for v in values if holds(v)), None)


def window_agrees(search, holds, lo, hi):
    """Whether ``search(holds, lo, hi)`` is exactly the brute-force least on ``lo..hi`` (a check must hold at ``hi``
    for the window to have an answer, as :class:`Window` requires)."""
    want = brute_least(holds, range(lo, hi + 1)) if holds(hi) else None
    return search(holds, lo, hi) == want


def shared_window(holds, lo, hi):
    return least(holds, Window(lo, hi)).value


@settings(max_examples=300, deadline=None)
@given(st.integers(-20, 20), st.integers(0, 30), st.integers(-25, 55))
def test_window_is_exactly_the_least_of_a_threshold(lo, width, t):
    hi = lo + width
    calls: list[int] = []

    def holds(v):
        calls.append(v)
        return v >= t

    assert window_agrees(shared_window, lambda v: v >= t, lo, hi)
    got = least(holds, Window(lo, hi))
    assert len(calls) == len(set(calls)) == len(got.tried)  # each value evaluated once
    if got.found:
        assert holds(got.value) and (got.value == lo or got.below == got.value - 1)
        assert (got.value - 1, False) in got.tried or got.value == lo  # the boundary's other side was evaluated
    else:
        assert t > hi and got.tried == [(hi, False)]


def test_a_wrong_search_at_the_boundary_is_caught():
    def off_by_one(holds, lo, hi):  # stops one short: returns the last value that fails
        found = least(holds, Window(lo, hi)).value
        return None if found is None else max(lo, found - 1)

    def never_stops_low(holds, lo, hi):  # answers hi whenever it holds there
        return hi if holds(hi) else None

    cases = [(lo, hi, t) for lo in range(-3, 3) for hi in range(lo, lo + 6) for t in range(lo - 1, hi + 2)]
    assert all(window_agrees(shared_window, lambda v, t=t: v >= t, lo, hi) for lo, hi, t in cases)
    assert not all(window_agrees(off_by_one, lambda v, t=t: v >= t, lo, hi) for lo, hi, t in cases)
    assert not all(window_agrees(never_stops_low, lambda v, t=t: v >= t, lo, hi) for lo, hi, t in cases)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=14), st.integers(0, 3))
def test_scan_is_the_first_confirmed_candidate_on_any_check(bits, confirm):
    def holds(v):
        return 0 <= v < len(bits) and bits[v]

    got = least(holds, Scan(range(len(bits)), confirm))
    want = brute_least(lambda v: all(holds(v + k) for k in range(confirm + 1)), range(len(bits)))
    assert got.value == want
    # not_monotone: exactly the candidates below the answer that hold while one of the next `confirm` fails
    below = range(len(bits)) if want is None else range(want)
    assert got.not_monotone == [v for v in below if holds(v) and not all(holds(v + k) for k in range(1, confirm + 1))]
    if want is not None and want > 0:
        assert got.below == want - 1 and not holds(got.below)


def test_a_non_monotone_check_is_detected_by_a_scan_and_not_by_bisection():
    good = {1, 6, 7, 8}

    def holds(v):
        return v in good

    binary = least(holds, Window(0, 8))
    # A window assumes monotonicity: it returns a boundary (holds at 6, fails at 5), not the least value (1).
    assert binary.value == 6 and binary.below == 5 and binary.not_monotone == []
    scan = least(holds, Scan(range(0, 9), confirm=1))
    assert scan.value == 6 and scan.not_monotone == [1]  # 1 holds while 2 fails: reported


@settings(max_examples=200, deadline=None)
@given(st.fractions(min_value=-4, max_value=12), st.integers(1, 8), st.booleans())
def test_bisection_is_exactly_the_least_point_of_its_grid(t, steps, strict):
    lo, hi = Fraction(0), Fraction(8)
    tol = (hi - lo) / 2 ** steps

    def holds(v):
        return v > t if strict else v >= t

    got = least(holds, Bisection(lo, hi, tol))
    grid = [lo + k * tol for k in range(1, 2 ** steps + 1)]
    want = brute_least(holds, grid)
    assert got.value == want
    if got.found:
        assert got.interval is not None
        a, b = got.interval
        assert b == want and b - a == tol and (a == lo or not holds(a))
        assert got.below in (None, a)
    else:
        assert got.interval is None and got.tried == [(hi, False)]


def test_bisection_takes_exactly_the_steps_its_tolerance_allows():
    got = least(lambda v: v >= 3, Bisection(Fraction(0), Fraction(1024), Fraction(1024, 2 ** 16)))
    assert len(got.tried) == 17 and got.interval == (Fraction(3) - Fraction(1, 64), Fraction(3))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-12, 12), min_size=1, max_size=5), st.integers(-8, 0), st.integers(0, 8))
def test_least_rule_is_the_first_slope_and_its_least_intercept(need, lo, hi):
    slopes = list(range(len(need)))

    def holds(a, b):
        return b >= need[a]

    got = least_rule(holds, slopes, (lo, hi))
    want_a = brute_least(lambda a: need[a] <= hi, slopes)
    if want_a is None:
        assert got is None
        return
    assert got is not None and got.slope == want_a
    assert got.intercept == brute_least(lambda b: holds(want_a, b), range(lo, hi + 1))
    assert [v for v, ok in got.search.tried][0] == hi  # the window's top is checked first


def test_an_empty_window_has_no_answer_and_evaluates_nothing():
    got = least(lambda v: True, Window(3, 2))
    assert got.value is None and got.tried == []


def test_probe_evaluates_each_value_once():
    seen: list[int] = []
    probe = Probe(lambda v: seen.append(v) or v > 2)
    assert [probe(v) for v in (1, 3, 1, 3)] == [False, True, False, True]
    assert seen == [1, 3] and probe.tried == [(1, False), (3, True)]


def test_nothing_holds_in_a_scan():
    got = least(lambda v: False, Scan(range(5), 2))
    assert got == Least(None, None, None, [(v, False) for v in range(5)], []) and not got.found


@pytest.mark.parametrize("interval", [None, (Fraction(1, 2), Fraction(1))])
def test_an_answer_has_one_shape(interval):
    a = LambdaAnswer(1, "size", "exact replay", Certificate("every input passes", {"λ": 0}), interval=interval,
                     at="n = 3")
    d = a.as_dict()
    assert list(d) == ["value", "scope", "at", "method", "holds_at_value", "interval", "certified", "certificate"]
    assert d["certificate"] == {"at": "every input passes", "below": {"λ": 0}}
    assert d["interval"] == (None if interval is None else list(interval))


@pytest.mark.parametrize("claim_id", ["lem:mMc", "thm:cotwidoftree:vmax", "thm:cotdijkstra"])
def test_every_lambda_analysis_reports_answers_of_one_shape(claims, claim_id):
    keys = {"value", "scope", "at", "method", "holds_at_value", "interval", "certified", "certificate"}
    rows = [r for r in claims[claim_id].run(max_size=3) if "lambda_answers" in (r.details or {})]
    assert rows, f"{claim_id}: no row reports a λ answer"
    for r in rows:
        for a in r.details["lambda_answers"]:
            assert set(a) == keys and a["scope"] in ("size", "all inputs", "all n")
            assert a["value"] is not None or not a["certified"]


def test_a_window_tries_the_value_below_each_one_that_holds_first():
    """The least value at the window's middle: two tries after the top, none far below it."""
    got = least(lambda v: v >= 0, Window(-8, 8))
    assert got.value == 0 and got.tried == [(8, True), (0, True), (-1, False)]
    got = least(lambda v: v >= -3, Window(-8, 8))
    assert got.value == -3 and got.below == -4
