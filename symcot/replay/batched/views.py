"""What a batched run returns and shows its callbacks: step views, lazily converted outputs, the run's result.

Arrays in a run hold exact integers at a scale (or exact values in object arrays); these views convert to
exact Python numbers only what is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from symcot.ir.layout import ConcreteLayout
from symcot.replay.scaling import Certificate, unscale


def exact_lists(y: np.ndarray, scale: int) -> list[list[Any]]:
    """Rows of the exact values of ``y`` (``(d, n)``, at ``scale``) as Python lists, one per batch column."""
    if y.dtype != object and scale == 1:
        return y.T.astype(np.int64).tolist()
    return unscale(y, scale).T.tolist()


@dataclass
class StepView:
    """What an ``on_step`` callback sees at step ``t``: the outputs ``y_t`` of the rows still running.

    ``y`` is ``(d, n)`` in the run's representation: exact integers ``scale·y_t`` (float64 or int64 arrays)
    or exact values (object arrays, ``scale = 1``). ``rows`` are the rows' indices in the batch.
    """

    t: int
    rows: np.ndarray
    y: np.ndarray
    scale: int
    path: str
    layout: ConcreteLayout

    def exact(self) -> list[list[Any]]:
        """``y_t`` of each row as a list of exact Python numbers."""
        return exact_lists(self.y, self.scale)

    def block(self, name: str) -> np.ndarray:
        """``scale·π_name(y_t)``: ``(size, n)``."""
        return self.y[self.layout.slice(name)]


class RowOutputs(Sequence):
    """One row's outputs ``y_1 … y_T`` as exact lists, converted only when read.

    Equal (``==``) to the list of those lists, as ``generate``'s ``outputs``.
    """

    def __init__(self, kept: list[tuple[np.ndarray, np.ndarray, int]], row: int, steps: int,
                 cache: dict[Any, Any] | None = None):
        self._kept, self._row, self._steps = kept, row, steps
        self._cache = {} if cache is None else cache  # step -> every row's exact lists (shared by a run's rows)

    def __len__(self) -> int:
        return self._steps

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._steps))]
        if i < 0:
            i += self._steps
        if not 0 <= i < self._steps:
            raise IndexError(i)
        rows, y, scale = self._kept[i]
        col = int(np.searchsorted(rows, self._row))
        lists = self._cache.get(i)
        if lists is None:
            lists = self._cache[i] = exact_lists(y, scale)
        return lists[col]

    def block(self, layout: ConcreteLayout, name: str, steps: int | None = None) -> list[list[Any]]:
        """``π_name(y_1) … π_name(y_steps)`` (all steps by default), converting only that block."""
        sl = layout.slice(name)
        out = []
        for i in range(min(self._steps, self._steps if steps is None else steps)):
            lists = self._cache.get((i, name))
            if lists is None:
                rows, y, scale = self._kept[i]
                by_row = dict(zip(rows.tolist(), exact_lists(y[sl], scale)))
                lists = self._cache[(i, name)] = by_row
            out.append(lists[self._row])
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RowOutputs({list(self)!r})"


@dataclass
class BatchRun:
    """The result of :meth:`BatchedDecoder.run`.

    Attributes:
        steps: generated tokens per row.
        stopped: whether the row's stop rule fired (as ``Generation.stopped``).
        outputs: per row, ``y_1 … y_T`` (a :class:`RowOutputs`: exact lists, converted when read; when
            ``keep_outputs``).
        head_index: ``(B, positions, heads)``: the position each head selected when each position was
            pushed (``-1`` where not computed); heads in layer order, as in ``head_names``.
        head_score: the same shape, the selected score (exact numbers; object array).
        head_names: ``(layer, head)`` for the last axis of ``head_index``.
        certificate: which number type was used and the bound that proves it exact.
        prefix_classes: how many distinct prompts-before-``y_0`` were computed when rows shared them
            (``None`` when each row ran its whole prompt).

    """

    steps: np.ndarray
    stopped: np.ndarray
    outputs: list[RowOutputs] | None
    head_index: np.ndarray | None
    head_score: np.ndarray | None
    head_names: list[tuple[int, str]]
    certificate: Certificate
    prefix_classes: int | None = None


def block_series(outputs: Sequence[Sequence[Any]], layout: ConcreteLayout, name: str,
                 steps: int | None = None) -> list[list[Any]]:
    """``[π_name(y) for y in outputs[:steps]]`` for exact-replay outputs and for a :class:`RowOutputs` alike."""
    if isinstance(outputs, RowOutputs):
        return outputs.block(layout, name, steps)
    return [layout.pi(name, y) for y in (outputs if steps is None else outputs[:steps])]
