"""The states of a batch of reference runs as arrays: what the batched references return.

A per-input reference returns states ``s_0 … s_T`` whose fields an encoding reads (``DfsState.cur``,
``DkstState.dist``, …). :class:`Fields` holds the same fields for a batch: row ``b``'s ``s_t.f`` is
``values[f][b, t]`` for ``t < lengths[b]``; beyond a row's length the entries mean nothing. Each field is in
the form its values take:

* an integer that may be ``None`` (a vertex, ``φ``; ``next_q`` once the word is read): ``int64 (B, S)`` with
  ``missing[f]`` marking ``None``;
* a truth value (``has_cur``): ``bool (B, S)``;
* a set of vertices (``vst``): its indicator, ``bool (B, S, k)``;
* a vector that may hold ``∞`` (``dist``): ``int64 (B, S, k)`` with ``missing[f]`` marking ``∞``;
* a matrix (``a``): integers ``(B, S, r, c)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Fields:
    """Reference states of a batch over the steps (module docstring).

    Attributes:
        lengths: ``(B,)`` the number of states ``T + 1`` of each row.
        values: field name → array with leading axes ``(B, S)``, ``S = max(lengths)``.
        missing: field name → ``bool`` array of the same shape: ``None`` (integers) or ``∞`` (vectors).

    """

    lengths: np.ndarray
    values: dict[str, np.ndarray] = field(default_factory=dict)
    missing: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def steps(self) -> int:
        """``S``: the longest row's number of states."""
        return int(self.lengths.max(initial=0))

    def rows(self, keep: np.ndarray) -> Fields:
        """The fields of the rows ``keep`` only (a boolean mask or indices)."""
        return Fields(self.lengths[keep], {k: v[keep] for k, v in self.values.items()},
                      {k: v[keep] for k, v in self.missing.items()})


class Recorder:
    """Fills :class:`Fields` step by step: ``put(t, name, value, missing)`` writes column ``t`` of every row."""

    def __init__(self, batch: int, steps: int):
        self.batch, self.steps = batch, steps
        self.values: dict[str, np.ndarray] = {}
        self.missing: dict[str, np.ndarray] = {}

    def put(self, t: int, name: str, value: np.ndarray, missing: np.ndarray | None = None) -> None:
        """Record ``value`` (``(B, …)``) as field ``name`` at step ``t`` (``missing``: where it is ``None``/``∞``)."""
        value = np.asarray(value)
        arr = self.values.get(name)
        if arr is None:
            arr = self.values[name] = np.zeros((self.batch, self.steps, *value.shape[1:]), dtype=value.dtype)
        arr[:, t] = value
        if missing is not None:
            m = self.missing.get(name)
            if m is None:
                m = self.missing[name] = np.zeros(arr.shape, dtype=bool)
            m[:, t] = missing

    def fields(self, lengths: np.ndarray) -> Fields:
        """The recorded fields with the rows' lengths."""
        return Fields(np.asarray(lengths, dtype=np.int64), self.values, self.missing)


def step_numbers(batch: int, steps: int) -> np.ndarray:
    """The field ``t`` of every state: ``(B, S)`` int64."""
    return np.broadcast_to(np.arange(steps, dtype=np.int64), (batch, steps)).copy()


def since(first: np.ndarray, steps: int) -> np.ndarray:
    """A set that only grows, at every step: ``(B, S, k)`` bool.

    ``first`` (``(B, k)``) is the step each member joined (a value beyond every step: never).
    """
    return first[:, None, :] <= np.arange(steps)[None, :, None]


class MatrixRows:
    """A batch of ``n × n`` matrices (``(B, n, n)``) and a vertex per row, read entry by entry row by row.

    The input symbols of a transition over graphs on a batch (:class:`~symcot.algorithms.transition.NumpyOps`'s
    shapes): ``n``, ``src`` a column ``(B, 1)``, and :meth:`entry`.
    """

    def __init__(self, matrices: np.ndarray, sources: np.ndarray):
        self.matrices = np.asarray(matrices)
        self.batch, self.n = self.matrices.shape[:2]
        self.src = np.asarray(sources, dtype=np.int64).reshape(-1, 1)
        self.rows = np.arange(self.batch)[:, None]
        self._all = np.arange(self.n)
        self._last: tuple[Any, Any, np.ndarray] | None = None

    def entry(self, i: np.ndarray | int, j: np.ndarray | int) -> np.ndarray:
        """Row ``b``'s entries ``[i, j]`` (columns ``(B, 1)`` or index rows ``(1, k)``, broadcast); 0 outside.

        The last answer is kept, read-only: a step that reads the same entries again (the same ``i`` and ``j`` array
        objects, which this holds on to; a transition's step never writes into its values) gets it without a second
        gather.
        """
        last = self._last
        if last is not None and last[0] is i and last[1] is j:
            return last[2]
        got = self._entry(i, j)
        if isinstance(i, np.ndarray) and isinstance(j, np.ndarray):
            got.flags.writeable = False
            self._last = (i, j, got)
        return got

    def _entry(self, i: np.ndarray | int, j: np.ndarray | int) -> np.ndarray:
        if np.shape(i) == (self.batch, 1) and np.shape(j) == (1, self.n) and (np.asarray(j)[0] == self._all).all():
            # row i of every row's matrix, every column: one gather
            i = np.asarray(i)[:, 0]
            ok = (i >= 0) & (i < self.n)
            return np.where(ok[:, None], self.matrices[self.rows[:, 0], np.where(ok, i, 0)], 0)
        shape = np.broadcast_shapes(np.shape(i), np.shape(j), (self.batch, 1))
        i, j = np.broadcast_to(i, shape), np.broadcast_to(j, shape)
        ok = (i >= 0) & (i < self.n) & (j >= 0) & (j < self.n)
        return np.where(ok, self.matrices[self.rows, np.where(ok, i, 0), np.where(ok, j, 0)], 0)
