"""Number formats of the float replay: where values are stored, where sums are accumulated.

A format stores every value it keeps (weights, tokens, every map output, scores, attention weights and
outputs) in its *storage* type and accumulates sums and products in its *accumulator* type, then rounds
the result once to storage (round to nearest, ties to even), as hardware matrix units do:

=========  ===========  ===========  ==========================================
format     storage      accumulator  significand bits ``p`` (integers exact to 2^p)
=========  ===========  ===========  ==========================================
float64    float64      float64      53
float32    float32      float32      24
float16    float16      float32      11
bfloat16   bfloat16     float32      8  (``ml_dtypes.bfloat16``)
exact      Python int / Fraction in object arrays (no rounding)
=========  ===========  ===========  ==========================================

``exact`` is the same engine on exact numbers; the margin analysis runs on it (or on float64 where every
value is certified to be an integer of magnitude at most ``2^52``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np

from symcot.errors import SymcotError
from symcot.replay.scaling import as_rational


@dataclass(frozen=True)
class Format:
    """A storage type, an accumulator type and what they can hold exactly.

    Attributes:
        name: ``float64``, ``float32``, ``float16``, ``bfloat16`` or ``exact``.
        storage: numpy type of stored values (``object`` for exact).
        accum: numpy type in which sums and products are formed (``object`` for exact).
        bits: significand bits of ``storage`` including the implicit bit (``None``: exact).
        accum_bits: significand bits of ``accum``.
        max_finite: largest finite value of ``storage``.

    """

    name: str
    storage: Any
    accum: Any
    bits: int | None
    accum_bits: int | None
    max_finite: float | None

    @property
    def exact(self) -> bool:
        """Python numbers, no rounding."""
        return self.storage is object

    def round(self, a: np.ndarray) -> np.ndarray:
        """``a`` (in the accumulator type) rounded to storage and held in the accumulator type again."""
        if self.exact or self.storage is self.accum:
            return a
        with np.errstate(over="ignore", invalid="ignore"):
            return a.astype(self.storage).astype(self.accum)

    def array(self, values: Any) -> np.ndarray:
        """Exact numbers (``int``/``Fraction``/SymPy rationals, nested lists) as a stored array."""
        if self.exact:
            return np.array(values, dtype=object)
        a = np.array(values, dtype=object)
        flat = np.fromiter((float(as_rational(v)) for v in a.ravel()), dtype=np.float64, count=a.size)
        return self.round(flat.reshape(a.shape).astype(self.accum))

    def scalar(self, c: Any) -> Any:
        """One exact coefficient (or a float parameter such as β) in this format, rounded to storage."""
        if self.exact:
            return as_rational(c)
        value = c if isinstance(c, float) else float(as_rational(c))
        return self.round(np.array([value], dtype=self.accum))[0]

    def zeros(self, shape: tuple[int, ...]) -> np.ndarray:
        """Zeros of the accumulator type (the exact integer 0 for ``exact``)."""
        if self.exact:
            z = np.empty(shape, dtype=object)
            z.fill(0)
            return z
        return np.zeros(shape, dtype=self.accum)


def _fmt(name: str, storage: Any, accum: Any) -> Format:
    info = ml_dtypes.finfo(storage)
    return Format(name, storage, accum, int(info.nmant) + 1, int(np.finfo(accum).nmant) + 1, float(info.max))


FORMATS: dict[str, Format] = {
    "float64": _fmt("float64", np.float64, np.float64),
    "float32": _fmt("float32", np.float32, np.float32),
    "float16": _fmt("float16", np.float16, np.float32),
    "bfloat16": _fmt("bfloat16", ml_dtypes.bfloat16, np.float32),
    "exact": Format("exact", object, object, None, None, None),
}
#: The floating formats, widest first.
FLOAT_FORMATS = ("float64", "float32", "float16", "bfloat16")


def get_format(name: str | Format) -> Format:
    """The format called ``name`` (one line naming the known ones otherwise)."""
    if isinstance(name, Format):
        return name
    fmt = FORMATS.get(name)
    if fmt is None:
        raise SymcotError(f"unknown number format {name!r}; known: {', '.join(FORMATS)}")
    return fmt


def to_exact_number(x: float, den: int = 1) -> int | Fraction:
    """A float read back as the nearest multiple of ``1/den`` (``int`` when ``den`` is 1)."""
    if den == 1:
        return int(np.rint(x))
    return Fraction(int(np.rint(x * den)), den)
