"""A float format as the number type of the description's rules (:class:`symcot.model.numbers.Numbers`).

The rules (the maximal set, the tie rules, average and softmax weights, layer norm, positional encodings) are
the exact engine's own functions, run in these numbers: a rule's rational constant (``1/|M|``, ``1/d``, ``ε``,
``τ``) and a positional encoding's value (exact, or the midpoint of its certified ball) are rounded to the
format's storage type; ``a / b``, ``√x`` and ``e^x`` are formed in the accumulator type and rounded to storage
once. The maximal set is decided as the format's rounded scores compare: a tie is a tie of stored floats, which
is the point of the float replay. Values are numpy scalars or columns ``(B,)`` of the accumulator type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from symcot.model.interval import Ball
from symcot.replay.floating.formats import Format


class FloatNumbers:
    """The number type of one float format (module docstring)."""

    def __init__(self, fmt: Format):
        if fmt.exact:
            raise ValueError("FloatNumbers takes a floating format; the exact one is symcot.model.numbers.EXACT")
        self.fmt = fmt

    def _round(self, x: Any) -> Any:
        a = np.asarray(x, dtype=self.fmt.accum)
        with np.errstate(over="ignore", invalid="ignore"):
            return self.fmt.round(a)[()]

    def const(self, q: Any) -> Any:
        if isinstance(q, Ball):
            return self._round(float(q.a.mid()))
        return self.fmt.scalar(q)

    def div(self, a: Any, b: Any) -> Any:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return self._round(np.true_divide(a, b, dtype=self.fmt.accum))

    def sqrt(self, x: Any) -> Any:
        with np.errstate(invalid="ignore"):
            return self._round(np.sqrt(np.asarray(x, dtype=self.fmt.accum)))

    def exp(self, x: Any) -> Any:
        with np.errstate(over="ignore"):
            return self._round(np.exp(np.asarray(x, dtype=self.fmt.accum)))

    @staticmethod
    def maximal(scores: Sequence[Any], positions: Sequence[int]) -> list[int]:
        """``M`` as the stored scores compare (exact comparisons of floats)."""
        best = max(scores[j] for j in positions)
        return [j for j in positions if scores[j] == best]
