"""Layouts (symcot.ir.layout): symbolic offsets, concrete selectors, block series, errors."""

import pytest
import sympy as sp

from symcot.errors import DimensionError
from symcot.ir import (
    Layout,
    n,
)
from symcot.ir.layout import block_series
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


class _LazyRows(list):
    """Outputs that convert one block on request, as the batched engine's rows do."""

    def __init__(self, rows):
        super().__init__(rows)
        self.asked = []

    def block(self, layout, name, steps):
        self.asked.append((name, steps))
        return [layout.pi(name, y) for y in (self if steps is None else self[:steps])]


def test_block_series_reads_one_block_of_every_step():
    cl = L.instantiate({n: 2})
    ys = [cl.assemble({"u": [t, 0], "s": t}) for t in range(1, 4)]
    assert block_series(ys, cl, "s") == [[1], [2], [3]]
    assert block_series(ys, cl, "u", 2) == [[1, 0], [2, 0]]
    lazy = _LazyRows(ys)
    assert block_series(lazy, cl, "s", 2) == [[1], [2]] and lazy.asked == [("s", 2)]


def test_block_vars_are_block_references():
    x = L.vars()
    assert x.u.size == n and x["s"].size == 1 and x.v.blocks() == {(L, "v")}
    with pytest.raises(AttributeError):
        _ = x._private
