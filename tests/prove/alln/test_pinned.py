"""The pinned reading's numbers: numerals read by Z3's C API, other terms by the simplifier, values made once."""

from fractions import Fraction

import pytest
import z3

from symcot.prove.alln.pinned import PinError, _z3_value, number


def test_numerals_and_truth_values_read_as_python_values():
    assert number(z3.IntVal(7)) == 7 and type(number(z3.IntVal(7))) is int
    assert number(z3.IntVal(-12345678901234567890)) == -12345678901234567890
    assert number(z3.BoolVal(True)) is True and number(z3.BoolVal(False)) is False
    assert number(z3.RealVal("3/4")) == Fraction(3, 4) and number(z3.RealVal(2)) == 2
    assert number(5) == 5 and number(True) is True and number("x") == "x"


def test_a_term_over_numerals_is_simplified_and_a_free_one_is_an_error():
    assert number(z3.IntVal(2) + 3) == 5
    assert number(z3.And(z3.BoolVal(True), z3.IntVal(1) < 2)) is True
    assert number(z3.If(z3.IntVal(1) > 2, z3.IntVal(4), z3.IntVal(9))) == 9
    with pytest.raises(PinError):
        number(z3.Int("x") + 1)


def test_values_are_made_once_per_sort_and_value():
    assert _z3_value(3, "int") is _z3_value(3, "int")
    assert _z3_value(1, "bool") is _z3_value(True, "bool") and z3.is_true(_z3_value(1, "bool"))
    assert _z3_value(1, "int") is not _z3_value(1, "bool")
    assert z3.is_int_value(_z3_value(0, "int")) and _z3_value(0, "int").as_long() == 0
