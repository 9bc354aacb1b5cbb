"""Layouts (symcot.ir.layout): symbolic offsets, concrete selectors, block variables, errors."""

import numpy as np
import pytest
import sympy as sp

from symcot.errors import DimensionError
from symcot.ir import (
    Layout,
    n,
)
from tests.fixtures.layouts import L


def test_layout_symbolic_dim_offsets_and_concrete_selectors():
    assert sp.expand(L.dim - (2 * n + 1)) == 0
    assert L.offset("v") == n
    cl = L.instantiate({n: 3})
    assert cl.dim == 7 and cl.offsets == {"u": 0, "v": 3, "s": 6}
    vec = cl.assemble({"u": [1, 0, 0], "s": 5})
    assert cl.pi("u", vec) == [1, 0, 0] and cl.pi("s", vec) == [5] and cl.pi("v", vec) == [0, 0, 0]
    assert cl.coordinate_name(4) == "v[1]" and cl.coordinate_name(6) == "s"


def test_layout_errors():
    with pytest.raises(DimensionError, match="repeats"):
        Layout("bad", [("a", 1), ("a", n)])
    with pytest.raises(DimensionError, match="no block 'w'"):
        L.block("w")
    with pytest.raises(DimensionError, match="size 3"):
        L.instantiate({n: 3}).assemble({"u": [1, 0]})


def test_block_vars_are_block_references():
    x = L.vars()
    assert x.u.size == n and x["s"].size == 1 and x.v.blocks() == {(L, "v")}
    with pytest.raises(AttributeError):
        _ = x._private


# -- what a notebook has: numpy, SymPy, strings, networkx --------------------------------------


def test_assemble_takes_numpy_and_sympy_values_as_exact_ints():
    cl = Layout("x", [("pos", n), ("b", 1)]).instantiate({"n": 3})
    v = cl.assemble({"pos": np.array([0, 1, 0], dtype=np.int8), "b": np.int64(5)})
    assert v == [0, 1, 0, 5] and all(type(t) is int for t in v)
    assert cl.assemble({"pos": sp.Matrix([1, 0, 0])}) == [1, 0, 0, 0]
    with pytest.raises(DimensionError, match="dtype float64"):
        cl.assemble({"pos": np.array([0.0, 1, 0])})
    with pytest.raises(DimensionError, match="has size 3, got 2 values"):
        cl.assemble({"pos": np.array([0, 1])})


def test_a_size_that_is_not_a_whole_number_names_the_block():
    with pytest.raises(DimensionError, match="block 'p': size n/2 \\+ 1 is 5/2"):
        Layout("w", [("p", n / 2 + 1)]).instantiate({"n": 3})
