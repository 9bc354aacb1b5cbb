"""Block expressions (symcot.ir.expr): degrees at most two, exact constants only, matrices applied."""

import pytest
import sympy as sp

from symcot.errors import DegreeError
from symcot.ir import (
    Map,
    const,
    dot,
    hadamard,
    n,
)
from tests.fixtures.layouts import L


def test_degree_checks():
    x = L.vars()
    with pytest.raises(DegreeError):
        hadamard(hadamard(x.u, x.v), x.u)
    with pytest.raises(DegreeError):
        Map("W", L, L, {"s": dot(x.u, x.v)}, keep=["u", "v"], max_degree=1)


def test_floats_are_refused_wherever_a_constant_enters():
    x = L.vars()
    for make in (lambda: 0.5 * x.u, lambda: const(0.5, n), lambda: x.u * sp.Float(2.0), lambda: x.s + 0.25):
        with pytest.raises(TypeError, match="float"):
            make()
