"""Sizes and constants named the way a notebook names them: strings, plain SymPy symbols, numpy ints."""

from fractions import Fraction

import numpy as np
import sympy as sp

from symcot.ir import Layout, Map, lam, n
from symcot.ir.symbols import normalize_env, size_expr


def test_sizes_as_strings_and_plain_symbols_are_symcots_symbols():
    assert size_expr("n") is n and size_expr(sp.Symbol("n")) is n
    assert size_expr("n/2 + 1") == n / 2 + 1 and size_expr(np.int64(3)) == 3
    assert size_expr("λ") is lam and size_expr("lambda") is lam
    k = size_expr("k")
    assert k.is_integer and k.is_positive and k == sp.Symbol("k", integer=True, positive=True)
    L = Layout("t", [("a", "n"), ("b", sp.Symbol("n") + 1), ("c", 2)])
    assert L.dim == 2 * n + 3
    for env in ({"n": 2}, {sp.Symbol("n"): 2}, {n: np.int64(2)}, {n: sp.Integer(2)}):
        assert L.instantiate(env).dim == 7
        assert normalize_env(env) == {n: 2} and type(normalize_env(env)[n]) is int


def test_env_and_subs_as_strings_reach_the_weights():
    L = Layout("t", [("a", n), ("s", 1)])
    x = L.vars()
    mp = Map("W", L, L, {"a": lam * x.a}, keep=["s"])
    w = mp.instantiate({"n": 2}, {"lambda": Fraction(7, 2)}).dense()[1]
    assert w[0][0] == Fraction(7, 2) and mp.instantiate({"n": 2}, {"λ": 3}).dense()[1][1][1] == 3
