"""Positional encodings of the draft's chapter 5, as :class:`~symcot.model.description.Positional` values.

Positions ``i`` are 0-based (``i = 0..n-1``); an encoding that the literature writes 1-based (``1/i``) is
stated at ``i + 1``. Exact where the values are rational; the sinusoids are certified balls.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from symcot.errors import DescriptionError
from symcot.model.description import Positional
from symcot.model.interval import cos, power, sin


def i_over_n(combine: str = "concat") -> Positional:
    """``(i + 1)/n``: ``1/n, 2/n, …, 1`` (the draft's ``i/n`` with 1-based ``i``)."""
    return Positional(lambda i, n: [Fraction(i + 1, n)], 1, combine, "i/n")


def one_over_i(combine: str = "concat") -> Positional:
    """``1/(i + 1)``: ``1, 1/2, …, 1/n`` (the draft's ``1/i`` with 1-based ``i``)."""
    return Positional(lambda i, n: [Fraction(1, i + 1)], 1, combine, "1/i")


def powers(*exponents: int, combine: str = "concat") -> Positional:
    """``(i + 1)^e`` for each exponent ``e`` (e.g. ``powers(-2, -1, 0, 1)``: ``1/i², 1/i, 1, i``)."""
    if not exponents or not all(isinstance(e, int) and not isinstance(e, bool) for e in exponents):
        raise DescriptionError(f"powers takes integer exponents, got {exponents!r}")
    return Positional(lambda i, n: [Fraction(i + 1) ** e for e in exponents], len(exponents), combine,
                      "(" + ", ".join(f"i^{e}" for e in exponents) + ")")


def position(combine: str = "concat") -> Positional:
    """``i`` and ``i²`` (0-based), as quadratic maximisation uses them."""
    return Positional(lambda i, n: [i, i * i], 2, combine, "(i, i²)")


def sinusoidal(d: int, base: int = 10000, combine: str = "add") -> Positional:
    """Vaswani et al.'s encoding at width ``d`` (even): ``PE(p, 2k) = sin(p / M^{2k/d})``, ``PE(p, 2k+1) = cos(…)``."""
    if isinstance(d, bool) or not isinstance(d, int) or d < 2 or d % 2:
        raise DescriptionError(f"a sinusoidal encoding's width is a positive even integer, got {d!r}")
    if isinstance(base, bool) or not isinstance(base, int) or base < 2:
        raise DescriptionError(f"a sinusoidal encoding's base M is an integer ≥ 2, got {base!r}")

    def enc(p: int, n: int) -> list[Any]:
        out: list[Any] = []
        for k in range(d // 2):
            angle = p / power(base, Fraction(2 * k, d)) if p else 0
            out += [sin(angle), cos(angle)]
        return out

    return Positional(enc, d, combine, f"sinusoids (M = {base})")
