"""Certified values: exact where rational, balls elsewhere, and decisions only when the intervals settle them."""

from fractions import Fraction

import pytest

from symcot.errors import Undecided
from symcot.model.interval import Ball, compare, cos, exact_sqrt, exp, is_exact, log, pi, relu, sign, sin, sqrt


def test_exact_values_stay_exact():
    assert sqrt(Fraction(9, 4)) == Fraction(3, 2) and sqrt(16) == 4 and exact_sqrt(2) is None
    assert exp(0) == 1 and sin(0) == 0 and cos(0) == 1
    assert relu(Fraction(-1, 3)) == 0 and relu(Fraction(1, 3)) == Fraction(1, 3)


def test_balls_contain_the_real_value_and_mix_with_exact_numbers():
    r2 = sqrt(2)
    assert isinstance(r2, Ball) and r2.contains(Fraction(141421356237, 10**11)) is False
    assert Fraction(1414213562373095, 10**15) < r2.lower and r2.upper < Fraction(1414213562373096, 10**15)
    sq = r2 * r2 - 2
    assert sq.contains(0) and not is_exact(sq)
    assert (Fraction(1, 2) * r2 + 1).lower > 1
    assert compare(pi(), Fraction(314, 100)) == 1 and compare(3, pi()) == -1 and sign(pi() - 3) == 1


def test_undecided_comparisons_raise_and_balls_refuse_plain_order():
    with pytest.raises(Undecided, match=r"undecided: reference at position 2, layer 1, head T: "):
        try:
            compare(sqrt(2) * sqrt(2), 2, "reference")
        except Undecided as e:
            raise e.at(position=2, layer=1, head="T") from None
    with pytest.raises(TypeError, match="no order"):
        _ = sqrt(2) > 1
    with pytest.raises(TypeError, match="no truth value"):
        bool(sqrt(2))
    assert compare(Ball(2), 2) == 0  # radius 0: equality is decided


def test_relu_of_a_straddling_ball_is_its_certified_hull():
    b = sqrt(2) * sqrt(2) - 2  # contains 0
    h = relu(b)
    assert isinstance(h, Ball) and h.contains(0) and h.upper >= b.upper and h.lower > -Fraction(1, 10**30)
    assert relu(-pi()) == 0 and relu(pi()) is not None


def test_log_is_exact_at_one_a_certified_ball_elsewhere_and_refuses_non_positive_arguments():
    assert log(1) == 0
    assert Ball(log(2)).contains(Fraction(6931471805599453, 10**16)) is False  # a ball of 128 bits, not a float
    assert compare(log(Fraction(1, 2)), 0) == -1 and compare(log(2), Fraction(69314, 100000)) == 1
    assert compare(exp(log(3)), Fraction(29999, 10000)) == 1 and compare(exp(log(3)), Fraction(30001, 10000)) == -1
    with pytest.raises(ValueError):
        log(0)
    with pytest.raises(ValueError):
        log(Fraction(-1, 2))
