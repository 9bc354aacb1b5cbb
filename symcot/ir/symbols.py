"""The symbols a construction is stated in: sizes (``n``, ``m``, ``H``) and the large constant ``λ``."""

from __future__ import annotations

from fractions import Fraction
from typing import Union

import sympy as sp

#: Number of vertices (or, for path inputs, the word length), as the paper writes it.
n = sp.Symbol("n", integer=True, positive=True)
#: Number of tree nodes in thm:cotpathtotree, where the paper writes ``m``.
m = sp.Symbol("m", integer=True, positive=True)
#: A generic dimension of a lemma (``H`` in lem:addonetospecificheight, ``d`` in lem:shiftonehot).
H = sp.Symbol("H", integer=True, positive=True)
#: The paper's "sufficiently large" constant.
lam = sp.Symbol("lambda", positive=True)

#: An exact scalar: Python ``int``, :class:`~fractions.Fraction`, or a SymPy expression (symbolic λ).
Scalar = Union[int, Fraction, sp.Expr]  # noqa: UP007 - a runtime alias, kept 3.10-safe
#: Concrete values for size symbols, e.g. ``{n: 4}``.
Env = dict[sp.Symbol, int]


def to_exact(value: object) -> Scalar:
    """Turn a SymPy number into ``int``/``Fraction``; keep expressions with free symbols as SymPy.

    Raises:
        TypeError: for floats, which would silently round.

    """
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else value
    if isinstance(value, float):
        raise TypeError(f"float {value!r} in an exact computation; use int, Fraction or a SymPy Rational")
    e = sp.sympify(value)
    if e.free_symbols:
        return e
    if e.is_Integer:
        return int(e)
    if e.is_Rational:
        return Fraction(int(e.p), int(e.q))
    if isinstance(e, sp.Float):
        raise TypeError(f"float {e} in an exact computation; use a SymPy Rational")
    raise TypeError(f"{e} is not an exact rational")


def size_value(expr: sp.Expr | int, env: Env) -> int:
    """Evaluate a size expression at concrete sizes; it must be a non-negative integer."""
    e = sp.sympify(expr).subs(env)
    if e.free_symbols:
        missing = ", ".join(sorted(str(s) for s in e.free_symbols))
        raise ValueError(f"size {expr} needs a value for {missing}")
    if not e.is_Integer or int(e) < 0:
        raise ValueError(f"size {expr} is {e} at {env}, not a non-negative integer")
    return int(e)


def same_size(a: sp.Expr | int, b: sp.Expr | int) -> bool:
    """Whether two size expressions are identical as polynomials in the size symbols."""
    return sp.expand(sp.sympify(a) - sp.sympify(b)) == 0
