"""Chapter 5's positional encodings: exact values where rational, certified sinusoids."""

import math
from fractions import Fraction

import pytest

from symcot.errors import DescriptionError
from symcot.model.interval import Ball
from symcot.model.positions import i_over_n, one_over_i, position, powers, sinusoidal


def test_rational_encodings():
    assert [i_over_n().at(i, 4) for i in range(4)] == [[Fraction(1, 4)], [Fraction(1, 2)], [Fraction(3, 4)], [1]]
    assert [one_over_i().at(i, 3)[0] for i in range(3)] == [1, Fraction(1, 2), Fraction(1, 3)]
    assert powers(-2, -1, 0, 1).at(1, 5) == [Fraction(1, 4), Fraction(1, 2), 1, 2]
    assert position().at(3, 5) == [3, 9] and position().width == 2


def test_sinusoids_contain_the_real_values():
    pe = sinusoidal(4, 10000)
    assert pe.at(0, 3) == [0, 1, 0, 1]
    v = pe.at(5, 8)
    assert all(isinstance(x, Ball) for x in v)
    want = [math.sin(5), math.cos(5), math.sin(5 / 100), math.cos(5 / 100)]
    for ball, w in zip(v, want):
        assert ball.lower - Fraction(1, 10**12) < Fraction(w) < ball.upper + Fraction(1, 10**12)
        assert ball.upper - ball.lower < Fraction(1, 10**30)


def test_bad_encodings_are_one_line():
    for make in (lambda: sinusoidal(3), lambda: sinusoidal(4, 1), lambda: powers(), lambda: powers(0.5)):
        with pytest.raises(DescriptionError) as e:
            make()
        assert "\n" not in str(e.value)
