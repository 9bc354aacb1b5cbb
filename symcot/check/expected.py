"""The expected block values of a batch of input objects, from the construction's encoding, as arrays.

:class:`~symcot.check.batched_check.BatchedChecker` prepares each input in Python (its reference run, its
prompt) and reads the construction's state encoding on it (:meth:`Construction.expected_table
<symcot.constructions.base.Construction.expected_table>`, or per step where the table cannot represent it).
:class:`Expected` lays those values out for a group of rows, and compares a batched step with them;
:func:`table_disagreements` compares the two readings of the encoding (for tests).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from symcot.check.kernel_check import EngineDisagreement
from symcot.check.spec import StepwiseSpec
from symcot.constructions.base import Construction
from symcot.replay.batched import StepView
from symcot.replay.scaling import LIMITS


class Expected:
    """The expected block values of a group of rows: int64 ``(rows, steps + 1, width)`` and a mask.

    ``grp`` holds the batched checker's prepared rows (``table``: the encoding's table, or ``expected``: its
    per-step values; ``total``: the reference's steps).

    Rows whose expected values are not all integers within int64 (a ``Fraction``, a symbol) are listed in
    ``unrepresentable``; the exact path checks them.
    """

    def __init__(self, grp: list[Any], layout: Any):
        names: list[str] = []
        seen: set[str] = set()
        for r in grp:
            for e in ([r.table] if r.table is not None else r.expected or []):
                for b in e:
                    if b not in seen:
                        seen.add(b)
                        names.append(b)
        order = {b: k for k, b in enumerate(layout.names)}
        names.sort(key=lambda b: order.get(b, len(order)))
        sizes = [layout.sizes[b] for b in names]
        offs = np.cumsum([0] + sizes)
        width = int(offs[-1])
        steps = max((r.total for r in grp), default=0) + 1
        self.cols = np.concatenate([np.arange(layout.offsets[b], layout.offsets[b] + layout.sizes[b])
                                    for b in names]) if names else np.zeros(0, dtype=np.intp)
        self.mask = np.zeros((len(grp), steps, width), dtype=bool)
        self.vals = np.zeros((len(grp), steps, width), dtype=np.int64)
        self.unrepresentable: set[int] = set()
        zeros = {b: [0] * n for b, n in zip(names, sizes)}
        sizes_arr = np.array(sizes, dtype=np.intp)
        span = {b: (int(offs[k]), int(offs[k + 1])) for k, b in enumerate(names)}
        for i, r in enumerate(grp):
            if r.table is not None:
                for b, (a, here) in table_items(r.table):
                    lo, hi = span[b]
                    if a.shape != (r.total + 1, hi - lo) or a.dtype.kind not in "iub":
                        raise EngineDisagreement(f"the encoding's table gave block {b} of shape {a.shape} "
                                                 f"({a.dtype}); expected ({r.total + 1}, {hi - lo}) integers")
                    self.vals[i, : r.total + 1, lo:hi] = a
                    self.mask[i, : r.total + 1, lo:hi] = True if here is None else here[:, None]
                continue
            assert r.expected is not None
            flat: list[list[Any]] = []
            present: list[list[bool]] = []
            for e in r.expected:
                row: list[Any] = []
                for b in names:
                    v = e.get(b)
                    row.extend(zeros[b] if v is None else v)
                flat.append(row)
                present.append([b in e for b in names])
            arr = np.array(flat)  # int64 only when every value is a Python int (or bool) within int64
            if arr.dtype.kind not in "iub" or arr.shape != (len(flat), width):
                self.unrepresentable.add(i)  # Fractions, symbols, wrong lengths: the exact path decides
                continue
            self.vals[i, : len(flat)] = arr
            self.mask[i, : len(flat)] = np.repeat(np.array(present, dtype=bool), sizes_arr, axis=1)

    def mismatch(self, view: StepView, idx: np.ndarray) -> np.ndarray:
        """Rows (of the view) whose ``y_t`` differs from the expected blocks at step ``t``, exactly."""
        t = view.t
        if not len(self.cols):
            return np.zeros(len(idx), dtype=bool)
        got = view.y[self.cols]  # (width, n): scale·y_t, exact integers (or exact values on the object path)
        want = self.vals[idx, t].T
        mask = self.mask[idx, t].T
        if view.scale != 1:
            # scale·want in int64 when it cannot overflow (|want| ≤ int64 limit / scale), else exactly
            top = int(np.abs(want).max(initial=0))
            fits = top <= (LIMITS["int64"] or 0) // view.scale
            want = want * view.scale if fits else want.astype(object) * view.scale
        if got.dtype == object or want.dtype == object:
            diff = np.asarray(got != want, dtype=bool)
        else:
            # got holds integers of magnitude ≤ the path's limit (certified); a wanted value beyond the
            # limit cannot be equal, and within it the conversion to got's type is exact
            lim = LIMITS[view.path] or 0
            in_range = np.abs(want) <= lim
            diff = np.where(in_range, got != want.astype(got.dtype), True)
        return (diff & mask).any(axis=0)


def table_items(table: dict[str, Any]) -> list[tuple[str, tuple[np.ndarray, np.ndarray | None]]]:
    """``(block, (values (T + 1, size), steps where the block is expected or None for every step))``."""
    out: list[tuple[str, tuple[np.ndarray, np.ndarray | None]]] = []
    for b, v in table.items():
        if isinstance(v, tuple):
            a, here = v
            out.append((b, (np.asarray(a), np.asarray(here, dtype=bool))))
        else:
            out.append((b, (np.asarray(v), None)))
    return out


def table_disagreement(table: dict[str, Any], expected: list[dict[str, list[Any]]] | None) -> str | None:
    """Why ``table`` (the encoding's table) is not the per-step ``expected``, or ``None`` if it is."""
    assert expected is not None
    items = table_items(table)
    if any(len(a) != len(expected) or (here is not None and len(here) != len(expected)) for _, (a, here) in items):
        return f"{len(expected)} steps expected, table rows {[len(a) for _, (a, _h) in items]}"
    for t, e in enumerate(expected):
        blocks = {b for b, (_, here) in items if here is None or here[t]}
        if set(e) != blocks:
            return f"step {t}: blocks {sorted(e)} but the table has {sorted(blocks)}"
        for b, (a, _) in items:
            if b not in blocks:
                continue
            got = a[t].tolist()
            if got != list(e[b]):
                return f"step {t}, block {b}: expected {list(e[b])}, table {got}"
    return None


def table_disagreements(cons: Construction, spec: StepwiseSpec, inputs: Any) -> list[tuple[Any, str]]:
    """The inputs on which the encoding's table differs from its per-step values (for tests): ``(input, why)``."""
    out = []
    for inp in inputs:
        states = spec.reference(inp)
        table = spec.expected_table(cons, inp, states)
        if table is None:
            continue
        why = table_disagreement(table, [spec.expected(cons, inp, st, t) for t, st in enumerate(states)])
        if why:
            out.append((inp, why))
    return out
