"""A float format as the rules' number type: constants, division, roots and exponentials rounded to storage."""

from fractions import Fraction

import numpy as np
import pytest

from symcot.model.attention import select
from symcot.model.described import layer_norm
from symcot.model.description import AHAT, SMAT, UHAT, HeadRule, Norm
from symcot.model.interval import sin
from symcot.replay.floating.formats import get_format
from symcot.replay.floating.numbers import FloatNumbers


def test_constants_and_operations_are_rounded_to_storage():
    f16 = FloatNumbers(get_format("float16"))
    assert f16.const(Fraction(1, 3)) == np.float32(np.float16(1 / 3))
    assert f16.div(np.float32(1), np.float32(3)) == np.float32(np.float16(1 / 3))
    assert f16.sqrt(np.float32(2)) == np.float32(np.float16(np.sqrt(2)))
    assert f16.exp(np.float32(1)) == np.float32(np.float16(np.e))
    assert f16.const(sin(1)) == np.float32(np.float16(np.sin(1)))  # a ball enters as its midpoint
    with pytest.raises(ValueError, match="floating format"):
        FloatNumbers(get_format("exact"))


def test_the_maximal_set_is_decided_by_the_stored_scores():
    f64 = FloatNumbers(get_format("float64"))
    assert f64.maximal([1.0, 3.0, 3.0, 2.0], range(4)) == [1, 2]
    assert f64.maximal([1.0, 3.0, 3.0 - 1e-15, 2.0], range(4)) == [1]
    # what is a tie in float16 is not one in float64
    a, b = 1.0, 1.0 + 2**-12
    f16 = get_format("float16")
    stored = [float(v) for v in f16.round(np.array([a, b], dtype=np.float32))]
    assert FloatNumbers(f16).maximal(stored, range(2)) == [0, 1]


def test_the_exact_rules_run_in_float_numbers():
    f64 = FloatNumbers(get_format("float64"))
    s = [1.0, 3.0, 3.0]
    assert select(HeadRule("none", UHAT("leftmost")), "h", s, 0, num=f64).index == 1
    assert select(HeadRule("none", UHAT("rightmost")), "h", s, 0, num=f64).index == 2
    assert select(HeadRule("none", AHAT()), "h", s, 0, num=f64).weights == [(1, 0.5), (2, 0.5)]
    w = dict(select(HeadRule("none", SMAT(Fraction(1, 2))), "h", s, 0, Fraction(1, 2), num=f64).weights)
    e = np.exp(2 * (np.array(s) - 3))
    assert np.allclose([w[0], w[1], w[2]], e / e.sum(), rtol=1e-15, atol=0)
    cols = [np.array([1.0, 0.0]), np.array([2.0, 0.0]), np.array([3.0, 1.0])]
    out = layer_norm(Norm("pre", "standard", Fraction(1, 10)), cols, f64)
    x = np.array([[1.0, 2, 3], [0, 0, 1]])
    ref = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 0.1)
    assert np.allclose(np.stack(out, axis=1), ref, rtol=1e-15, atol=1e-15)
