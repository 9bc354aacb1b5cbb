"""Structured matrices (symcot.ir.matrices): entries at concrete sizes, dimension errors."""

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from symcot.errors import DimensionError
from symcot.ir import (
    Identity,
    IndexMatrix,
    Layout,
    Map,
    Shift,
    bcast,
    lam,
    n,
)
from tests.fixtures.layouts import L


def test_index_matrix_and_product_dimension_errors():
    p = IndexMatrix(n, n, lambda i, j, env: 1 if i + j == env[n] - 1 else 0, "P")
    assert p.entries({n: 3}) == {(0, 2): 1, (1, 1): 1, (2, 0): 1}
    with pytest.raises(DimensionError):
        _ = Identity(n) @ Identity(n + 1)
    assert (Identity(n) @ Shift(n)).entries({n: 3}) == Shift(n).entries({n: 3})


def test_a_matrix_applies_to_an_expression_and_to_nothing_else():
    x = L.vars()
    e = Shift(n) @ x.u  # Mat.__matmul__ declines, Expr.__rmatmul__ applies
    assert e.size == n and e.blocks() == {(L, "u")}
    assert (Identity(n) @ Shift(n)).entries({n: 2}) == Shift(n).entries({n: 2})  # Mat @ Mat stays a product
    with pytest.raises(TypeError):
        _ = Identity(n) @ 3
    with pytest.raises(TypeError):
        _ = Identity(n) @ "u"


def test_rectangular_shift_and_ramp_columns():
    from symcot.ir import Ramp

    r = Shift(n, 1, name="R", cols=n - 1)  # embed n - 1 coordinates into n, from index 1
    assert r.entries({n: 3}) == {(1, 0): 1, (2, 1): 1} and r.rows == n and r.cols == n - 1
    assert r.latex() == "R_{n\\times n - 1}" and Shift(n).latex() == "S_{n}"
    a = Ramp(n, -1, -1, tex="a")  # -1 - i
    assert a.entries({n: 3}) == {(0, 0): -1, (1, 0): -2, (2, 0): -3} and a.latex() == "a"
    assert Ramp(3, 0, 1, tex="b").entries({}) == {(1, 0): 1, (2, 0): 2}  # zero entries left out
    L = Layout("t", [("m", 1), ("h", 1), ("p", n)])
    x = L.vars()
    out = Layout("o", [("u", n), ("p", n + 1)])
    cm = Map("W", L, out, {"u": a @ x.m + bcast(x.h, n), "p": Shift(n + 1, 1, cols=n) @ x.p}).instantiate({n: 2})
    assert cm([2, 5, 7, 8]) == [5 - 2, 5 - 4, 0, 7, 8]


# -- what a notebook has: numpy, SymPy, strings, networkx --------------------------------------


def test_sympy_and_numpy_matrices_as_block_coefficients():
    L = Layout("t", [("a", 3), ("s", n)])
    x = L.vars()
    rot = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]])
    mp = Map("W", L, L, {"a": sp.eye(3) @ x.a + rot @ x.a + np.int64(2) * x.a,
                         "s": x.s}, keep=[])
    w = mp.instantiate({n: 1}).dense()[1]
    assert w[:3] == [[3, 1, 0, 0], [0, 3, 1, 0], [1, 0, 3, 0]]
    assert all(type(v) is int for row in w for v in row)
    half = Map("H", L, L, {"a": sp.Matrix([[sp.Rational(1, 2), 0, 0], [0, 1, 0], [0, 0, lam]]) @ x.a},
               keep=["s"]).instantiate({n: 1}, {lam: 5}).dense()[1]
    assert half[0][0] == Fraction(1, 2) and half[2][2] == 5


def test_float_and_misshapen_matrices_are_refused():
    x = Layout("t", [("a", 3)]).vars()
    with pytest.raises(TypeError, match="exact"):
        np.eye(3) @ x.a
    with pytest.raises(TypeError, match="float"):
        sp.Matrix([[0.5, 0, 0]] * 3) @ x.a
    with pytest.raises(DimensionError, match="3 columns but is applied"):
        np.ones((2, 3), dtype=int) @ Layout("u", [("b", 2)]).vars().b
