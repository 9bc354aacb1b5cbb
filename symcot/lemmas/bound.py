r"""The largest error of an approximation ``f ≈ g`` on an interval, certified with arb balls (python-flint).

A statement such as ``GELU(x) ≈ x σ(1.702 x)`` states no error: what it claims is a uniform approximation, and
what can be checked is its size, ``sup |f(x) - g(x)|``. :func:`enclose_max` computes an enclosure ``[L, U]`` of
``max_{x ∈ [lo, hi]} |e(x)|`` by branch and bound over sub-intervals: an arb ball covering a sub-interval gives
a certified upper bound of ``|e|`` there (ball arithmetic never under-approximates), a ball at its midpoint a
certified lower bound; a sub-interval whose upper bound is below the best lower bound is dropped, the others are
halved until ``U - L ≤ tol``. The sub-interval ends are dyadic rationals, held exactly. Beyond the interval a
stated *tail bound* (a number ``T`` with ``|e(x)| ≤ T`` for every ``x`` outside ``[lo, hi]``, proved in the
caller's notes and evaluated here in arb) extends the upper bound to the whole line: ``sup_ℝ |e| ≤ max(U, T)``.

:class:`MaxErrorCheck` is a claim variant: ``proved`` with the enclosure as its content (the row's scope says
``max |e| ∈ [L, U]``); with a ``claimed`` bound it is ``proved`` when ``max(U, T) ≤ claimed``, ``refuted`` at a
point where the error certifiably exceeds it, ``unknown`` when the enclosure cannot decide. Arb is chosen over
mpmath's ``iv`` context because its balls carry certified error bounds for ``erf``, ``exp`` and ``tanh`` at any
precision and are fast enough to evaluate thousands of sub-intervals.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from flint import arb, arb_series, ctx, fmpq

from symcot.check.context import RunContext
from symcot.check.verdict import Verdict

#: ``e(x)``: the error ``f(x) - g(x)``, written with arithmetic and the methods ``exp``/``erf``/``sqrt`` only, so
#: that it runs both on an arb ball and on an ``arb_series`` (whose first coefficient is the derivative).
ErrorFn = Callable[[Any], Any]

METHOD = "python-flint arb balls: certified branch and bound of max |error| over sub-intervals (dyadic ends)"


def exact(a: arb) -> Fraction:
    """The exact value of an arb ball with radius 0 (an endpoint from ``lower()`` or ``upper()``)."""
    m, e = a.man_exp()
    return Fraction(int(m)) * (Fraction(2) ** int(e))


def ball(lo: Fraction, hi: Fraction) -> arb:
    """An arb ball containing ``[lo, hi]``."""
    return arb(fmpq(lo.numerator, lo.denominator)).union(arb(fmpq(hi.numerator, hi.denominator)))


def point(x: Fraction) -> arb:
    """The arb ball of the rational ``x`` (exact for a dyadic ``x``)."""
    return arb(fmpq(x.numerator, x.denominator))


@dataclass
class Enclosure:
    """``L ≤ max_{[lo, hi]} |e| ≤ U``, ``argmax`` a point where ``|e| ≥ L``; ``boxes`` sub-intervals evaluated."""

    lower: Fraction
    upper: Fraction
    argmax: Fraction
    boxes: int
    closed: bool  # U - L ≤ tol was reached (else the box budget ran out and [L, U] is wider)


#: An upper bound standing for "not finite" (a ball that overflowed or met a pole): such a sub-interval is split.
_HUGE = Fraction(10) ** 100


def _top(v: arb) -> Fraction:
    """The upper end of ``|v|`` (``_HUGE`` where it is not finite)."""
    u = abs(v).upper()
    return exact(u) if u.is_finite() else _HUGE


def _upper(e: ErrorFn, a: Fraction, b: Fraction) -> Fraction:
    """An upper bound of ``|e|`` on ``[a, b]``: the better of the ball ``e([a, b])`` and the mean-value form.

    The mean-value form ``e(m) + e'([a, b])·[-r, r]`` (``m`` the midpoint, ``r`` the half-width, ``e'`` from
    arb's power series of ``e`` at the ball) shrinks like ``r²`` near a maximum, where the plain ball shrinks
    like ``r``; both contain every value of ``e`` on ``[a, b]``.
    """
    x = ball(a, b)
    naive = _top(e(x))
    m, r = (a + b) / 2, (b - a) / 2
    try:
        coeffs = e(arb_series([x, 1], prec=2)).coeffs()
    except (ValueError, ZeroDivisionError):  # a series division by a ball containing 0: the plain ball only
        return naive
    slope = coeffs[1] if len(coeffs) > 1 else arb(0)
    return min(naive, _top(e(point(m)) + slope * ball(-r, r)))


def _lower(e: ErrorFn, x: Fraction) -> Fraction:
    """A lower bound of ``|e(x)|``."""
    low = abs(e(point(x))).lower()
    return max(Fraction(0), exact(low)) if low.is_finite() else Fraction(0)


def enclose_max(e: ErrorFn, lo: Fraction, hi: Fraction, tol: Fraction, max_boxes: int = 200_000,
                prec: int = 96) -> Enclosure:
    """A certified enclosure of ``max_{x ∈ [lo, hi]} |e(x)|`` (``lo < hi`` dyadic; see the module text)."""
    if not lo < hi:
        raise ValueError(f"an empty interval [{lo}, {hi}]")
    old = ctx.prec
    ctx.prec = prec
    try:
        best, arg = max((_lower(e, x), x) for x in (lo, hi, (lo + hi) / 2))
        heap: list[tuple[Fraction, Fraction, Fraction]] = [(-_upper(e, lo, hi), lo, hi)]
        boxes = 1
        while heap and -heap[0][0] - best > tol and boxes < max_boxes:
            _neg, a, b = heapq.heappop(heap)
            m = (a + b) / 2
            low = _lower(e, m)
            if low > best:
                best, arg = low, m
            for u, v in ((a, m), (m, b)):
                up = _upper(e, u, v)
                boxes += 1
                if up >= best:
                    heapq.heappush(heap, (-up, u, v))
        upper = max(best, -heap[0][0]) if heap else best
        return Enclosure(best, upper, arg, boxes, upper - best <= tol)
    finally:
        ctx.prec = old


def decimal(q: Fraction, digits: int, up: bool) -> str:
    """``q`` to ``digits`` decimals, rounded outward (``up``: towards +∞), as text."""
    scale = 10**digits
    n = -((-q.numerator * scale) // q.denominator) if up else (q.numerator * scale) // q.denominator
    sign = "-" if n < 0 else ""
    n = abs(n)
    return f"{sign}{n // scale}.{n % scale:0{digits}d}"


@dataclass
class Tail:
    """``|e(x)| ≤ bound()`` for every ``x`` outside the interval; ``why`` is its proof in one or two sentences."""

    bound: Callable[[], arb]
    why: str


@dataclass
class MaxErrorCheck:
    """A claim variant: the largest error of ``f ≈ g`` on ``[lo, hi]`` (and beyond, with a :class:`Tail`).

    Attributes:
        error: ``e(x) = f(x) - g(x)`` on arb balls.
        lo, hi: the interval (dyadic rationals).
        what: the error in words (``x σ(1.702x) - x Φ(x)``), for the scope line.
        tail: the bound beyond ``[lo, hi]`` (``None``: the statement is about ``[lo, hi]`` only).
        claimed: a stated bound on the error (``None``: the text states none; the enclosure is the content).
        tol: the width ``U - L`` to reach.

    """

    error: ErrorFn
    lo: Fraction
    hi: Fraction
    what: str
    variant: str = "as-written"
    tail: Tail | None = None
    claimed: Fraction | None = None
    tol: Fraction = Fraction(1, 10**7)
    digits: int = 6
    notes: list[str] = field(default_factory=list)
    method: str = METHOD

    def domain(self) -> str:
        """The set the bound is about, in words."""
        return "every real x" if self.tail is not None else f"x ∈ [{self.lo}, {self.hi}]"

    def run(self, ctx: RunContext) -> Verdict:
        """The enclosure, and the verdict on ``claimed`` if there is one; never raises (a crash: ``error``)."""
        t0 = time.perf_counter()
        notes = list(self.notes)
        try:
            enc = enclose_max(self.error, self.lo, self.hi, self.tol)
            tail = exact(abs(self.tail.bound()).upper()) if self.tail is not None else Fraction(0)
        except Exception as e:  # noqa: BLE001 - the check failing is an "error" verdict
            return Verdict(ctx.claim_id, self.variant, "error", self.method, None, 0, time.perf_counter() - t0, None,
                           notes + [f"check failed: {type(e).__name__}: {e}"])
        upper = max(enc.upper, tail)
        lo_s, up_s = decimal(enc.lower, self.digits, False), decimal(upper, self.digits, True)
        details: dict[str, Any] = {
            "max_error_lower": str(enc.lower), "max_error_upper": str(upper), "argmax": str(enc.argmax),
            "interval": [str(self.lo), str(self.hi)], "tail_bound": str(tail) if self.tail is not None else None,
            "boxes": enc.boxes, "closed": enc.closed,
            "claimed": str(self.claimed) if self.claimed is not None else None}
        if self.tail is not None:
            notes.append(f"beyond [{self.lo}, {self.hi}]: |error| ≤ {decimal(tail, 12, True)} ({self.tail.why})")
        scope = (f"max |{self.what}| over {self.domain()} ∈ [{lo_s}, {up_s}] (attained near x = "
                 f"{float(enc.argmax):.4g}); certified on [{self.lo}, {self.hi}] by {enc.boxes} arb sub-intervals")
        verdict, cex = self._decide(enc, upper)
        if verdict == "unknown":
            scope = (f"the enclosure [{lo_s}, {up_s}] is not within {self.tol} after {enc.boxes} sub-intervals"
                     if self.claimed is None else
                     f"the enclosure [{lo_s}, {up_s}] does not decide the stated bound {self.claimed}")
        return Verdict(ctx.claim_id, self.variant, verdict, self.method, None, enc.boxes, time.perf_counter() - t0,
                       cex, notes, None, [], details, scope=scope if verdict != "refuted" else "")

    def _decide(self, enc: Enclosure, upper: Fraction) -> tuple[str, dict[str, Any] | None]:
        if self.claimed is None:
            return ("proved", None) if enc.closed else ("unknown", None)
        if upper <= self.claimed:
            return "proved", None
        if enc.lower > self.claimed:
            return "refuted", {"kind": "bound", "what": f"|{self.what}| ≤ {self.claimed}",
                               "input": {"x": str(enc.argmax), "text": f"x={enc.argmax}"},
                               "expected": f"≤ {self.claimed}", "got": f"≥ {decimal(enc.lower, self.digits, False)}"}
        return "unknown", None
