"""Per input of a batch: its largest magnitude, partial-sum bound and attention margin (what guides the search).

:class:`RowRecorder` sees the same arrays as :class:`~symcot.study.precision.margins.MarginRecorder` and keeps,
for every row (input) of the batch, the largest ``|value|`` of any token, map output, score, ``α'' + z`` and hidden
value; the largest partial-sum bound; and the smallest attention margin ``a_{j0} - max_{i≠j0} a_i`` over the head
events with a unique maximum. As there, the last layer's work at prompt positions before ``y_0`` is left out
(nothing reads it). :class:`Tee` hands every array to two recorders.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from symcot.check.extremal_search import Score
from symcot.study.precision.margins import exact_number


def _row_max(arr: np.ndarray) -> np.ndarray:
    """``max_j |arr[b, j]|`` per row (an empty row gives 0)."""
    if arr.shape[1] == 0:
        return np.zeros(arr.shape[0], dtype=arr.dtype)
    return np.abs(arr).max(axis=1)


class RowRecorder:
    """Per-row magnitudes, partial sums and strict attention margins of one batch (module docstring)."""

    sums = True

    def __init__(self, rows: int, prompt_positions: int, layers: int):
        self.rows = rows
        self.magnitude: np.ndarray | None = None
        self.partial: np.ndarray | None = None
        self.margin: np.ndarray | None = None  # +inf where no strict event was seen
        self.first_used = prompt_positions - 1
        self.last_layer = layers

    def _unused(self, pos: int, layer: int) -> bool:
        return layer == self.last_layer and pos < self.first_used

    @staticmethod
    def _fold(into: np.ndarray | None, top: np.ndarray, smaller: bool = False) -> np.ndarray:
        if into is None:
            return top
        return np.where(top < into, top, into) if smaller else np.where(top > into, top, into)

    def token(self, pos: int, z: np.ndarray) -> None:
        self.magnitude = self._fold(self.magnitude, _row_max(z))

    def map(self, pos: int, layer: int, label: str, out: np.ndarray, sums: np.ndarray | None) -> None:
        if self._unused(pos, layer) and label[:2] not in ("K_", "V_"):
            return
        self.magnitude = self._fold(self.magnitude, _row_max(out))
        if sums is not None:
            self.partial = self._fold(self.partial, _row_max(sums))

    def layer(self, pos: int, layer: int, ffn_in: np.ndarray, hidden: np.ndarray, out: np.ndarray) -> None:
        if self._unused(pos, layer):
            return
        self.magnitude = self._fold(self.magnitude, _row_max(ffn_in))
        self.magnitude = self._fold(self.magnitude, _row_max(hidden))

    def head(self, pos: int, layer: int, name: str, scores: np.ndarray, score_sums: np.ndarray | None,
             chosen: np.ndarray, values: np.ndarray) -> None:
        if self._unused(pos, layer):
            return
        self.magnitude = self._fold(self.magnitude, _row_max(scores))
        if score_sums is not None:
            self.partial = self._fold(self.partial, _row_max(score_sums))
        if scores.shape[1] < 2:
            return
        rows = np.arange(scores.shape[0])
        best = scores[rows, chosen]
        ismax = scores == best[:, None]
        strict = ismax.sum(axis=1) == 1
        second = np.where(ismax, float("-inf"), scores).max(axis=1)
        gap = np.where(strict, best - np.where(strict, second, best), float("inf"))
        self.margin = self._fold(self.margin, gap, smaller=True)

    def scores(self) -> list[Score]:
        """One :class:`Score` per row (exact numbers; margin ``None`` where no event had a unique maximum)."""
        out = []
        for b in range(self.rows):
            mag = 0 if self.magnitude is None else exact_number(self.magnitude[b])
            part = 0 if self.partial is None else exact_number(self.partial[b])
            g = None if self.margin is None or self.margin[b] == float("inf") else exact_number(self.margin[b])
            out.append(Score(mag, part, g))
        return out


class Tee:
    """A recorder that hands every array to ``first`` and then to ``second``."""

    def __init__(self, first: Any, second: Any):
        self.first, self.second = first, second
        self.sums = bool(first.sums or second.sums)

    def token(self, pos: int, z: np.ndarray) -> None:
        self.first.token(pos, z)
        self.second.token(pos, z)

    def map(self, pos: int, layer: int, label: str, out: np.ndarray, sums: np.ndarray | None) -> None:
        self.first.map(pos, layer, label, out, sums)
        self.second.map(pos, layer, label, out, sums)

    def head(self, pos: int, layer: int, name: str, scores: np.ndarray, score_sums: np.ndarray | None,
             chosen: np.ndarray, values: np.ndarray) -> None:
        self.first.head(pos, layer, name, scores, score_sums, chosen, values)
        self.second.head(pos, layer, name, scores, score_sums, chosen, values)

    def layer(self, pos: int, layer: int, ffn_in: np.ndarray, hidden: np.ndarray, out: np.ndarray) -> None:
        self.first.layer(pos, layer, ffn_in, hidden, out)
        self.second.layer(pos, layer, ffn_in, hidden, out)
