"""Exact polynomial formulas in ``n`` for figures measured at several sizes, certified on every size.

A formula of degree ``k`` is the polynomial through ``k + 1`` of the points, with rational coefficients
(exact interpolation); it is *certified* when it also equals the figure at every other measured size of
its range, and only a range with at least ``k + 2`` sizes can certify a degree-``k`` formula (one point
beyond those it was built from). The range starts at the smallest size where such a formula exists
(small sizes are often degenerate: one vertex, no competitor), and never leaves out more than two. The
sizes need not be consecutive (the path and star are run at doubling sizes).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from symcot.ir.symbols import n as N
from symcot.lemmas.least import Window, least

#: Highest degree tried.
MAX_DEGREE = 3
#: At most this many of the smallest sizes may lie outside a formula's range.
MAX_SKIPPED = 2


@dataclass
class Formula:
    """``expr`` (SymPy, in ``var``) equal to the figure at every point of ``sizes``."""

    expr: sp.Expr
    sizes: list[Any]
    var: sp.Symbol = N

    def __call__(self, size: Any) -> Fraction:
        v = sp.Rational(self.expr.subs(self.var, sp.nsimplify(size)))
        return Fraction(int(v.p), int(v.q))

    @property
    def text(self) -> str:
        """``2*n - 1 (n ≥ 2; certified at n = 2..6)``."""
        name = "n" if self.var == N else "λ"
        lo, hi = self.sizes[0], self.sizes[-1]
        scope = f"{name} ≥ {lo}; " if self.sizes != sorted(self.sizes) or lo > 1 else ""
        ints = all(isinstance(s, int) for s in self.sizes)
        at = f"{lo}..{hi}" if ints and self.sizes == list(range(lo, hi + 1)) else ", ".join(map(str, self.sizes))
        return f"{sp.sstr(self.expr).replace('lambda', 'λ')} ({scope}certified at {name} = {at})"


def _rat(y: Any) -> sp.Rational:
    y = Fraction(y)
    return sp.Rational(y.numerator, y.denominator)


def _interpolate(points: list[tuple[Any, Fraction]], var: sp.Symbol) -> sp.Expr:
    return sp.expand(sp.interpolate([(_rat(x), _rat(y)) for x, y in points], var))


def fit(series: dict[Any, Any], var: sp.Symbol = N) -> Formula | None:
    """The lowest-degree certified polynomial through ``series`` (``{point: exact value}``), or ``None``.

    ``var`` names the variable (``n`` by default; λ for a formula in the constant).
    """
    sizes = sorted(s for s, v in series.items() if v is not None)
    for skip in range(0, MAX_SKIPPED + 1):
        rng = sizes[skip:]
        if len(rng) < 2:
            continue
        pts = [(s, Fraction(series[s])) for s in rng]
        for k in range(0, MAX_DEGREE + 1):
            if len(rng) < k + 2:
                break
            expr = _interpolate(pts[: k + 1], var) if k else _rat(pts[0][1])
            if all(sp.Rational(expr.subs(var, _rat(s))) == _rat(v) for s, v in pts):
                return Formula(sp.nsimplify(expr), rng, var)
    return None


def first_exceeding(formula: Formula, limit: Any, start: int, stop: int = 1 << 40) -> int | None:
    """The smallest ``n ≥ start`` with ``formula(n) > limit`` (``None`` if it never exceeds before ``stop``).

    Used to extrapolate a threshold beyond the measured sizes: the formula is certified only on its
    sizes, so the answer is a prediction, labelled as such in reports.
    """
    if formula(start) > limit:
        return start
    # the window checks stop first; polynomials here are increasing for large n (the search assumes it)
    return least(lambda k: formula(k) > limit, Window(start + 1, stop)).value
