"""Certified real numbers: exact rationals where a value is rational, arb balls where it is not.

A softmax weight, a layer norm's square root or a sinusoid is in general not rational. Such a value is a
:class:`Ball`, a python-flint ``arb`` (a midpoint and a radius, every operation rounding outwards, so the
true real number is always inside). Everything else stays ``int``/``Fraction``, exactly as before: a
:class:`Ball` meets an exact number only in arithmetic, never in a decision.

A decision goes through :func:`compare` (or :func:`sign`): it returns the order only when the values
settle it -- two exact numbers always do; a ball does when it lies wholly on one side -- and raises
:class:`~symcot.errors.Undecided` otherwise. Equality is decided only between values known exactly
(exact numbers, or balls of radius 0); with a ball of positive radius it never is. A :class:`Ball`
has no ``<``/``==`` of its own, so no decision can be taken around these functions by accident.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint

from symcot.errors import Undecided

#: Working precision of the balls, in bits (flint's context is process-wide; nothing else in symcot uses it).
PRECISION = 128
flint.ctx.prec = PRECISION

Exact = int | Fraction


def _arb(x: Any) -> flint.arb:
    if isinstance(x, Ball):
        return x.a
    if isinstance(x, bool):
        return flint.arb(int(x))
    if isinstance(x, int):
        return flint.arb(x)
    if isinstance(x, Fraction):
        return flint.arb(flint.fmpq(x.numerator, x.denominator))
    if isinstance(x, flint.arb):
        return x
    raise TypeError(f"a certified value takes int, Fraction or a Ball, not {type(x).__name__}")


class Ball:
    """A real number known to lie in ``[mid - rad, mid + rad]`` (a python-flint ``arb``)."""

    __slots__ = ("a",)

    def __init__(self, a: Any):
        self.a = _arb(a)

    # arithmetic with int, Fraction and Ball; the result is a Ball
    def __add__(self, o: Any) -> Ball:
        return Ball(self.a + _arb(o))

    __radd__ = __add__

    def __sub__(self, o: Any) -> Ball:
        return Ball(self.a - _arb(o))

    def __rsub__(self, o: Any) -> Ball:
        return Ball(_arb(o) - self.a)

    def __mul__(self, o: Any) -> Any:
        if o.__class__ in (int, Fraction) and o == 0:
            return 0  # 0 · x = 0 exactly, whatever the real x
        return Ball(self.a * _arb(o))

    __rmul__ = __mul__

    def __truediv__(self, o: Any) -> Ball:
        return Ball(self.a / _arb(o))

    def __rtruediv__(self, o: Any) -> Any:
        if o.__class__ in (int, Fraction) and o == 0:
            return 0
        return Ball(_arb(o) / self.a)

    def __neg__(self) -> Ball:
        return Ball(-self.a)

    def __pos__(self) -> Ball:
        return self

    def __pow__(self, k: int) -> Ball:
        return Ball(self.a ** k)

    def _no_order(self, o: Any) -> bool:
        raise TypeError("a Ball has no order of its own: decide with symcot.model.interval.compare")

    __lt__ = __le__ = __gt__ = __ge__ = _no_order

    def __eq__(self, o: object) -> bool:
        return self._no_order(o)

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        raise TypeError("a Ball has no truth value: decide with symcot.model.interval.sign")

    @property
    def lower(self) -> Fraction:
        """A rational lower bound of the ball."""
        return _fraction(self.a.lower())

    @property
    def upper(self) -> Fraction:
        """A rational upper bound of the ball."""
        return _fraction(self.a.upper())

    def contains(self, x: Exact) -> bool:
        """Whether the exact number ``x`` lies in the ball."""
        return bool(self.a.contains(_arb(x)))

    def __repr__(self) -> str:
        return f"Ball({self.a.str(radius=True)})"

    def __str__(self) -> str:
        return str(self.a)


def _fraction(a: flint.arb) -> Fraction:
    """The exact value of an arb with radius 0 (a bound of a ball)."""
    man, ex = a.mid().man_exp()
    m, e = int(man), int(ex)
    return Fraction(m * 2**e) if e >= 0 else Fraction(m, 2**-e)


def is_ball(x: Any) -> bool:
    """Whether ``x`` is a :class:`Ball` (not an exact number)."""
    return isinstance(x, Ball)


def is_exact(x: Any) -> bool:
    """Whether ``x`` is known exactly: an exact number, or a ball of radius 0."""
    return not isinstance(x, Ball) or bool(x.a.is_exact())


def show(x: Any) -> str:
    """An exact number as ``p/q``, a ball as ``[lower, upper]``."""
    return str(x)


def compare(a: Any, b: Any, what: str = "a comparison") -> int:
    """``-1``, ``0`` or ``1`` as ``a < b``, ``a = b``, ``a > b``, when the values settle it.

    Raises :class:`~symcot.errors.Undecided` (naming ``what`` and both intervals) when a ball overlaps the
    other value; equality is decided only between exact numbers.
    """
    if not isinstance(a, Ball) and not isinstance(b, Ball):
        return (a > b) - (a < b)
    d = _arb(a) - _arb(b)
    if d > 0:
        return 1
    if d < 0:
        return -1
    if d.is_exact() and d == 0:
        return 0
    raise Undecided(what, f"{show(a)} against {show(b)}")


def sign(x: Any, what: str = "a sign") -> int:
    """``compare(x, 0)``."""
    return compare(x, 0, what)


def exact_sqrt(x: Exact) -> Exact | None:
    """``√x`` when it is rational (``x ≥ 0``), else ``None``."""
    q = Fraction(x)
    if q < 0:
        return None
    rn, rd = math.isqrt(q.numerator), math.isqrt(q.denominator)
    if rn * rn == q.numerator and rd * rd == q.denominator:
        return Fraction(rn, rd)
    return None


def sqrt(x: Any) -> Any:
    """``√x``: exact when it is rational, else a ball (``x`` must be certainly non-negative)."""
    if not isinstance(x, Ball):
        r = exact_sqrt(x)
        if r is not None:
            return r.numerator if r.denominator == 1 else r
    if sign(x, "the argument of a square root") < 0:
        raise ValueError(f"square root of a negative number {show(x)}")
    return Ball(_arb(x).sqrt())


def exp(x: Any) -> Any:
    """``e^x``: exactly 1 at 0, else a ball."""
    if not isinstance(x, Ball) and x == 0:
        return 1
    return Ball(_arb(x).exp())


def log(x: Any) -> Any:
    """``ln x`` for ``x > 0``: exactly 0 at 1, else a ball."""
    if not isinstance(x, Ball) and x == 1:
        return 0
    if sign(x, "the argument of a logarithm") <= 0:
        raise ValueError(f"logarithm of a non-positive number {show(x)}")
    return Ball(_arb(x).log())


def sin(x: Any) -> Any:
    """``sin x``: exactly 0 at 0, else a ball."""
    if not isinstance(x, Ball) and x == 0:
        return 0
    return Ball(_arb(x).sin())


def cos(x: Any) -> Any:
    """``cos x``: exactly 1 at 0, else a ball."""
    if not isinstance(x, Ball) and x == 0:
        return 1
    return Ball(_arb(x).cos())


def power(x: Exact, q: Exact) -> Any:
    """``x^q`` for ``x > 0``: exact for an integer ``q``, else a ball."""
    qf = Fraction(q)
    if qf.denominator == 1:
        return Fraction(x) ** int(qf)
    return Ball(_arb(x) ** _arb(qf))


def pi() -> Ball:
    """``π``."""
    return Ball(flint.arb.pi())


def relu(x: Any) -> Any:
    """``max(0, x)``; on a ball that straddles 0, a certified ball around ``[0, max(0, upper)]``.

    ReLU is continuous, so it needs no decision: the hull contains ``max(0, v)`` for every ``v`` in the
    ball, and nothing is guessed.
    """
    if not isinstance(x, Ball):
        return x if x > 0 else 0
    if x.a > 0:
        return x
    if x.a <= 0:
        return 0
    hi = x.a.upper()
    return Ball(flint.arb(hi / 2, hi / 2))
