"""Maps (symcot.ir.maps): every output block stated, sizes and degrees checked, exact instantiation."""

from fractions import Fraction

import pytest
import sympy as sp

from symcot.errors import DimensionError
from symcot.ir import (
    Layout,
    Map,
    Ones,
    Shift,
    bcast,
    dot,
    gate,
    hadamard,
    lam,
    n,
    ones,
    outer,
    unit,
)
from tests.fixtures.layouts import L


def test_map_requires_every_output_block_stated():
    x = L.vars()
    with pytest.raises(DimensionError, match=r"not stated"):
        Map("W", L, L, {"u": x.v})
    with pytest.raises(DimensionError, match="both"):
        Map("W", L, L, {"u": x.v}, keep=["u", "v", "s"])


def test_map_size_mismatch_is_an_error_naming_the_block():
    x = L.vars()
    with pytest.raises(DimensionError, match="block 's' has size 1 but is assigned an expression of size n"):
        Map("W", L, L, {"s": x.u}, keep=["u", "v"])
    with pytest.raises(DimensionError, match="cannot add"):
        _ = x.u + x.s
    with pytest.raises(DimensionError):
        hadamard(x.u, x.s)
    with pytest.raises(DimensionError, match="columns"):
        _ = Shift(n + 1) @ x.u


def test_map_reads_only_its_input_layout():
    other = Layout("o", [("u", n)])
    with pytest.raises(DimensionError, match="input layout"):
        Map("W", L, L, {"u": other.vars().u}, keep=["v", "s"])


def test_instantiate_is_exact_and_lambda_can_stay_symbolic():
    x = L.vars()
    w = Map("W", L, L, {"u": lam * x.v - Fraction(1, 2) * ones(n), "s": dot(ones(n) - x.u, x.v)}, keep=["v"])
    c = w.instantiate({n: 2}, {lam: 5})
    out = c([1, 0, 3, 4, 9])
    assert out == [15 - Fraction(1, 2), 20 - Fraction(1, 2), 3, 4, 0 * 3 + 1 * 4]
    sym = w.instantiate({n: 2})
    val = sym([1, 0, 3, 4, 9])
    assert sp.simplify(val[0] - (3 * lam - sp.Rational(1, 2))) == 0


def test_gate_outer_bcast_unit_and_structured_matrices():
    x = L.vars()
    w = Map("W", L, L, {
        "u": gate(x.s, x.v) + bcast(x.s, n) + unit(n, 0),
        "v": Shift(n) @ x.u,
        "s": (Ones(1, n) @ x.u),
    }, zero=[])
    c = w.instantiate({n: 3})
    out = c([1, 2, 3, 4, 5, 6, 2])
    assert out[:3] == [2 * 4 + 2 + 1, 2 * 5 + 2, 2 * 6 + 2]
    assert out[3:6] == [0, 1, 2] and out[6] == 6
    m = Layout("m", [("a", 2), ("b", 3), ("ab", 6)])
    y = m.vars()
    o = Map("O", m, m, {"ab": outer(y.a, y.b)}, keep=["a", "b"]).instantiate({})
    assert o([1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0])[5:] == [3, 4, 5, 6, 8, 10]


def test_concrete_map_coefficients_and_mutation():
    x = L.vars()
    c = Map("W", L, L, {"s": dot(x.u, x.v) + 3}, keep=["u", "v"]).instantiate({n: 2})
    assert c.coefficient(4) == 3 and c.coefficient(4, 0, 2) == 1 and c.coefficient(0, 0) == 1
    m = c.with_coefficient(4, (0, 2), 7)
    assert m.coefficient(4, 0, 2) == 7 and m([1, 0, 2, 0, 0])[4] == 3 + 14
    with pytest.raises(DimensionError):
        c([1, 2, 3])
