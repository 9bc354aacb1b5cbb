"""The numpy reading of a :class:`~symcot.algorithms.transition.Transition`: a batch of inputs, one row each.

:class:`NumpyOps` is the algebra (a scalar is a column ``(B, 1)``, an array ``(B, size)``; ``array``, ``lowest``
and ``argmin`` read the whole index range at once, as a row ``(1, size)``); :func:`run_batch` runs a batch to the
end of its longest row, rows that stop keeping their last state.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from symcot.algorithms.transition import Index, State, StateView, Transition, aux_decl, checked_state


class NumpyOps:
    """The algebra on a batch of ``B`` rows: a scalar is a column ``(B, 1)``, an array ``(B, size)``.

    ``array``, ``lowest`` and ``argmin`` call their function once, with the whole index range as a row
    ``(1, size)``: every operation broadcasts, so a value that depends on the index comes out ``(B, size)``. The
    batch's symbols ``g`` follow the same shapes (a per-row constant is ``(B, 1)``; a function of an index
    broadcasts its arguments with ``(B, 1)``).
    """

    def __init__(self, tr: Transition, g: Any, batch: int):
        self.tr, self.g, self.batch = tr, g, batch
        self.rows = np.arange(batch)[:, None]
        self.aux: dict[str, np.ndarray] = {}
        #: The index ``τ`` of the states being read (the same in every row still running).
        self.step = 0
        self._ranges: dict[int, np.ndarray] = {}

    def col(self, x: Any) -> np.ndarray:
        """``x`` as a column ``(B, 1)`` (a number, a ``(B,)`` or a ``(B, 1)`` array)."""
        x = np.asarray(x)
        return np.broadcast_to(x.reshape(-1, 1) if x.ndim == 1 else x, (self.batch, 1))

    @staticmethod
    def ite(c: Any, a: Any, b: Any) -> np.ndarray:
        """Row by row ``a`` where ``c`` else ``b`` (broadcast)."""
        return np.where(c, a, b)

    @staticmethod
    def and_(*xs: Any) -> np.ndarray:
        """Elementwise conjunction."""
        out = np.asarray(xs[0], dtype=bool)
        for x in xs[1:]:
            out = out & np.asarray(x, dtype=bool)
        return out

    @staticmethod
    def or_(*xs: Any) -> np.ndarray:
        """Elementwise disjunction."""
        out = np.asarray(xs[0], dtype=bool)
        for x in xs[1:]:
            out = out | np.asarray(x, dtype=bool)
        return out

    @staticmethod
    def not_(x: Any) -> np.ndarray:
        """Elementwise negation."""
        return ~np.asarray(x, dtype=bool)

    @staticmethod
    def lt(a: Any, b: Any) -> np.ndarray:
        """Elementwise ``a < b``."""
        return np.asarray(a) < np.asarray(b)

    def at(self, arr: np.ndarray, i: Any, default: Any = -1) -> np.ndarray:
        """Row ``b``: ``arr[b, i]`` (``i`` a column or a row of indices); ``default`` outside the range."""
        size = arr.shape[1]
        if i is self._ranges.get(size) and arr.shape[0] == self.batch:  # the whole index range: arr itself
            return arr
        i = np.asarray(i)
        if i.ndim < 2:
            i = self.col(i)
        ok = (i >= 0) & (i < size)
        got = arr[self.rows, np.where(ok, i, 0)]
        return np.where(ok, got, np.asarray(default, dtype=arr.dtype))

    def put(self, arr: np.ndarray, i: Any, x: Any) -> np.ndarray:
        """Row ``b``: ``arr[b]`` with ``[i[b]] = x[b]`` (unchanged outside the range)."""
        i, x = self.col(i)[:, 0], self.col(x)[:, 0]
        out = arr.copy()
        ok = (i >= 0) & (i < arr.shape[1])
        out[self.rows[ok, 0], i[ok]] = x[ok]
        return out

    def _range(self, index: Index) -> np.ndarray:
        """The index range as a row ``(1, size)`` (one array per size: :meth:`at` knows it by identity)."""
        size = int(index.size(self.g))
        got = self._ranges.get(size)
        if got is None:
            got = self._ranges[size] = np.arange(size)[None, :]
            got.flags.writeable = False
        return got

    def array(self, index: Index, f: Callable[[Any], Any]) -> np.ndarray:
        """``(B, size)``: column ``j`` is ``f(j)``."""
        j = self._range(index)
        return np.broadcast_to(np.asarray(f(j)), (self.batch, j.shape[1])).copy()

    def let(self, name: str, x: Any) -> np.ndarray:
        """Name ``x``."""
        self.aux[name] = self.col(x)
        return self.aux[name]

    def get(self, name: str) -> np.ndarray:
        """The value this step named ``name``."""
        return self.aux[name]

    def lowest(self, name: str, pred: Callable[[Any], Any]) -> np.ndarray:
        """Row by row the least index where ``pred`` holds, ``-1`` if none."""
        over = aux_decl(self.tr, name, "lowest").over
        assert over is not None
        j = self._range(over)
        hit = np.broadcast_to(np.asarray(pred(j), dtype=bool), (self.batch, j.shape[1]))
        found = np.where(hit.any(axis=1), hit.argmax(axis=1), -1).astype(np.int64)[:, None]
        self.aux[name] = found
        return found

    def argmin(self, name: str, cond: Callable[[Any], Any], key: Callable[[Any], Any]) -> np.ndarray:
        """Row by row the index with the least integer ``key`` where ``cond`` holds (lowest on ties), ``-1`` if none."""
        over = aux_decl(self.tr, name, "argmin").over
        assert over is not None
        j = self._range(over)
        shape = (self.batch, j.shape[1])
        ok = np.broadcast_to(np.asarray(cond(j), dtype=bool), shape)
        keys = np.broadcast_to(np.asarray(key(j), dtype=np.int64), shape)
        best = np.where(ok, keys, np.iinfo(np.int64).max).argmin(axis=1)
        found = np.where(ok.any(axis=1), best, -1).astype(np.int64)[:, None]
        self.aux[name] = found
        return found


@dataclass
class BatchRun:
    """A batch's runs: ``lengths[b] = T_b + 1``; ``states[name]`` ``(B, S[, size])`` and ``aux[name]`` ``(B, S)``.

    Entries of a row beyond its last state repeat that state (and its aux entries there are ``-1``/``False``).
    """

    lengths: np.ndarray
    states: dict[str, np.ndarray]
    aux: dict[str, np.ndarray]

    @property
    def steps(self) -> int:
        """The longest row's number of states."""
        return int(self.lengths.max(initial=0))


def _shaped(o: NumpyOps, tr: Transition, s: State) -> State:
    """A state with every scalar a column ``(B, 1)`` and every array ``(B, size)``."""
    out = {}
    for v in tr.state:
        x = np.asarray(s[v.name])
        want = (o.batch, 1) if v.index is None else (o.batch, x.shape[-1])
        out[v.name] = x if x.shape == want else (o.col(x) if v.index is None else np.broadcast_to(x, want))
    return out


class _History:
    """Every step's value of the kept state variables, written into arrays ``(B, capacity, size)`` as the run goes.

    A variable not kept holds its last value only (``(B, 1, size)``).
    """

    def __init__(self, s: State, kept: Collection[str], capacity: int):
        self.kept = kept
        self.arrays: dict[str, np.ndarray] = {}
        for k, v in s.items():
            out = np.empty((v.shape[0], capacity if k in kept else 1, *v.shape[1:]), dtype=v.dtype)
            out[:, 0] = v
            self.arrays[k] = out

    def put(self, step: int, s: State) -> None:
        """The state at ``step``."""
        for k, v in s.items():
            arr = self.arrays[k]
            if arr.dtype != v.dtype:  # a step widened the variable's type
                arr = self.arrays[k] = arr.astype(np.result_type(arr.dtype, v.dtype))
            arr[:, step if k in self.kept else 0] = v

    def get(self, name: str, steps: int) -> np.ndarray:
        """The values of the first ``steps`` states (the last one only if ``name`` is not kept)."""
        arr = self.arrays[name]
        return arr[:, :steps] if name in self.kept else arr


def run_batch(tr: Transition, g: Any, batch: int, bound: int, keep: Collection[str] | None = None) -> BatchRun:
    """The runs of a batch (``g``: the batch's symbols); rows that stop keep their last state.

    The states come back with a scalar ``(B, S)`` and an array ``(B, S, size)``: every step's value of the state
    variables in ``keep`` (default: all), the last value only of the others (``(B, 1[, size])``).
    """
    kept = {v.name for v in tr.state} if keep is None else set(keep)
    o = NumpyOps(tr, g, batch)
    s = _shaped(o, tr, checked_state(tr, tr.init(o, g), "init"))
    hist = _History(s, kept, bound + 1)
    aux: dict[str, list[np.ndarray]] = {a.name: [] for a in tr.aux}
    lengths = np.ones(batch, dtype=np.int64)
    alive = o.col(tr.running(o, g, StateView(s))).astype(bool)
    steps = 1
    while alive.any():
        if steps > bound:
            raise RuntimeError(f"{tr.name} runs past {bound} steps on a batch")
        o.aux, o.step = {}, steps - 1
        new = _shaped(o, tr, checked_state(tr, tr.step(o, g, StateView(s)), "step"))
        everyone = bool(alive.all())
        s = new if everyone else {k: np.where(alive, new[k], s[k]) for k in s}
        for a in tr.aux:
            dflt = False if a.sort == "bool" else -1
            got = o.col(o.aux.get(a.name, dflt))
            aux[a.name].append(got[:, 0] if everyone else np.where(alive, got, dflt)[:, 0])
        hist.put(steps, s)
        lengths += alive[:, 0]
        steps += 1
        o.step = steps - 1
        alive = alive & o.col(tr.running(o, g, StateView(s))).astype(bool)
    out_aux = {}
    for a in tr.aux:
        dflt = False if a.sort == "bool" else -1
        cols = aux[a.name] + [np.full(batch, dflt)]
        out_aux[a.name] = np.stack(cols[:steps], axis=1)
    states = {}
    for v in tr.state:
        st = hist.get(v.name, steps)
        states[v.name] = st[:, :, 0] if v.index is None else st
    return BatchRun(lengths, states, out_aux)


