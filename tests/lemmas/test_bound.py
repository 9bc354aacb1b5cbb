from fractions import Fraction as F

import pytest
from flint import arb

from symcot.check.context import RunContext
from symcot.lemmas.bound import MaxErrorCheck, Tail, decimal, enclose_max


def parabola(x):
    return x * (1 - x)


def spike(x):
    # a peak of height 1 at x = 0.3 and width about 10⁻³: no grid of k/64 comes near it
    d = x - F(3, 10).numerator / arb(10)
    return (-(d * d) * 10**6).exp()


def test_enclosure_of_a_known_maximum():
    enc = enclose_max(parabola, F(0), F(1), F(1, 10**9))
    assert enc.closed
    assert enc.lower <= F(1, 4) <= enc.upper
    assert enc.upper - enc.lower <= F(1, 10**9)


def test_a_narrow_peak_is_found_not_sampled():
    enc = enclose_max(spike, F(0), F(1), F(1, 10**6))
    assert enc.lower > F(999, 1000) and enc.upper >= 1
    assert abs(enc.argmax - F(3, 10)) < F(1, 100)


def test_a_claimed_bound_below_the_maximum_is_refuted():
    r = MaxErrorCheck(spike, F(0), F(1), "spike", claimed=F(1, 2)).run(RunContext("spike", 1))
    assert r.verdict == "refuted"
    assert r.counterexample["got"].startswith("≥ 0.99")


def test_a_true_claimed_bound_is_proved_and_an_undecided_one_is_unknown():
    ok = MaxErrorCheck(parabola, F(0), F(1), "x(1-x)", claimed=F(251, 1000)).run(RunContext("p", 1))
    assert ok.verdict == "proved"
    coarse = MaxErrorCheck(parabola, F(0), F(1), "x(1-x)", claimed=F(1, 4) + F(1, 10**9), tol=F(1, 100))
    assert coarse.run(RunContext("p", 1)).verdict == "unknown"


def test_without_a_claimed_bound_the_enclosure_is_the_content():
    r = MaxErrorCheck(parabola, F(0), F(1), "x(1-x)").run(RunContext("p", 1))
    assert r.verdict == "proved"
    assert "∈ [0.250000, 0.250001]" in r.scope and "x ∈ [0, 1]" in r.scope
    assert F(r.details["max_error_lower"]) <= F(1, 4) <= F(r.details["max_error_upper"])


def test_the_tail_bound_enters_the_upper_end():
    tail = Tail(lambda: arb(1) / 2, "a stated bound beyond [0, 1]")
    r = MaxErrorCheck(parabola, F(0), F(1), "x(1-x)", tail=tail, claimed=F(3, 10)).run(RunContext("p", 1))
    assert r.verdict == "unknown"  # the tail may exceed 3/10: not proved, and nothing on [0, 1] exceeds it
    assert F(r.details["max_error_upper"]) == F(1, 2) and "does not decide" in r.scope
    r = MaxErrorCheck(parabola, F(0), F(1), "x(1-x)", tail=tail).run(RunContext("p", 1))
    assert r.verdict == "proved" and "every real x ∈ [0.250000, 0.500000]" in r.scope


def test_outward_rounding_and_bad_input():
    assert decimal(F(1, 3), 3, False) == "0.333" and decimal(F(1, 3), 3, True) == "0.334"
    assert decimal(F(-1, 3), 2, True) == "-0.33"
    with pytest.raises(ValueError):
        enclose_max(parabola, F(1), F(0), F(1, 10))
    r = MaxErrorCheck(parabola, F(1), F(0), "x(1-x)").run(RunContext("p", 1))
    assert r.verdict == "error" and "empty interval" in r.notes[-1]
