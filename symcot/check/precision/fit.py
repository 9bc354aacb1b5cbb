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

#: Highest degree tried.
MAX_DEGREE = 3
#: At most this many of the smallest sizes may lie outside a formula's range.
MAX_SKIPPED = 2


@dataclass
class Formula:
    """``expr`` (SymPy, in ``n``) equal to the figure at every size of ``sizes``."""

    expr: sp.Expr
    sizes: list[int]

    def __call__(self, size: int) -> Fraction:
        v = sp.Rational(self.expr.subs(N, size))
        return Fraction(int(v.p), int(v.q))

    @property
    def text(self) -> str:
        """``2*n - 1 (n ≥ 2; certified at n = 2..6)``."""
        lo, hi = self.sizes[0], self.sizes[-1]
        scope = f"n ≥ {lo}; " if lo > 1 else ""
        at = f"{lo}..{hi}" if self.sizes == list(range(lo, hi + 1)) else ", ".join(map(str, self.sizes))
        return f"{sp.sstr(self.expr)} ({scope}certified at n = {at})"


def _interpolate(points: list[tuple[int, Fraction]]) -> sp.Expr:
    return sp.expand(sp.interpolate([(x, sp.Rational(y.numerator, y.denominator)) for x, y in points], N))


def fit(series: dict[int, Any]) -> Formula | None:
    """The lowest-degree certified polynomial through ``series`` (``{size: exact value}``), or ``None``."""
    sizes = sorted(s for s, v in series.items() if v is not None)
    for skip in range(0, MAX_SKIPPED + 1):
        rng = sizes[skip:]
        if len(rng) < 2:
            continue
        pts = [(s, Fraction(series[s])) for s in rng]
        for k in range(0, MAX_DEGREE + 1):
            if len(rng) < k + 2:
                break
            expr = _interpolate(pts[: k + 1]) if k else sp.Rational(pts[0][1].numerator, pts[0][1].denominator)
            if all(sp.Rational(expr.subs(N, s)) == sp.Rational(v.numerator, v.denominator) for s, v in pts):
                return Formula(sp.nsimplify(expr), rng)
    return None


def first_exceeding(formula: Formula, limit: Any, start: int, stop: int = 1 << 40) -> int | None:
    """The smallest ``n ≥ start`` with ``formula(n) > limit`` (``None`` if it never exceeds before ``stop``).

    Used to extrapolate a threshold beyond the measured sizes: the formula is certified only on its
    sizes, so the answer is a prediction, labelled as such in reports.
    """
    if formula(start) > limit:
        return start
    if formula(stop) <= limit:
        return None
    lo, hi = start, stop  # formula(lo) <= limit < formula(hi); polynomials here are increasing for large n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if formula(mid) > limit:
            hi = mid
        else:
            lo = mid
    return hi
