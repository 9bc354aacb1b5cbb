import math
from fractions import Fraction

from symcot.replay.floating import FORMATS
from symcot.study.precision.analysis import run_batch
from symcot.study.precision.batches import batches
from symcot.study.precision.predict import bits, format_guarantee
from tests.fixtures.toys import TOY_SPEC, ToyConstruction, ToyInput


def _stats(pairs):
    (b,) = list(batches(ToyConstruction(), TOY_SPEC, [ToyInput(tuple(pairs))]))
    return run_batch(b, TOY_SPEC, 1e-3).stats


def test_bits_and_formats_of_integer_values():
    st = _stats([(1, 257)])  # M = S = 257: 9 significand bits, more than bfloat16's 8
    b = bits(st, ("float64", "float32", "float16", "bfloat16"))
    assert b["M"] == 257 and b["S"] == 257 and b["significand_bits"] == 9
    assert b["formats_exact"] == ["float64", "float32", "float16"]
    assert b["fixed_point"] == {"sign": 1, "integer": 9, "fraction": 0, "total": 10, "accumulator_total": 10}
    ok, why = format_guarantee(st, FORMATS["bfloat16"])
    assert not ok and "9 significand bits" in why
    st = _stats([(1, 256)])
    assert format_guarantee(st, FORMATS["bfloat16"])[0]


def test_no_binary_format_holds_thirds():
    st = _stats([(1, Fraction(1, 3))])
    assert st.denominator == 3
    assert bits(st, ("float64",))["formats_exact"] == []
    assert "not a power of 2" in format_guarantee(st, FORMATS["float64"])[1]


def test_dyadic_values_count_their_fraction_bits():
    st = _stats([(1, Fraction(3, 4))])
    b = bits(st, ("float64", "bfloat16"))
    assert b["denominator"] == 4 and b["fixed_point"]["fraction"] == 2
    assert b["formats_exact"] == ["float64", "bfloat16"]
    assert math.isclose(float(b["M"]), 1.0)
