"""Checking a stream of inputs on one core or several, keeping the first failure in stream order.

Inputs are enumerated in the parent and sent to worker processes in ordered chunks through the one pool
of :mod:`symcot.check.pool` (forked workers: the construction and its reference are inherited, not
pickled). Results come back in chunk order, so the failure reported is the first one in the family's
order -- the same as a single-process run.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any, Protocol

from symcot.check.pool import map_ordered

#: Below this many inputs a size is checked in-process (a pool costs more than it saves).
PARALLEL_THRESHOLD = 20_000
CHUNK = 2_000


@dataclass(frozen=True)
class Passed:
    """An item of a stream that stands for ``count`` consecutive inputs already checked, all passing.

    A checker that decides whole batches (:mod:`symcot.check.kernel_check`) yields these instead of one item
    per input; :func:`check_stream` counts them without calling ``per_input``.
    """

    count: int


class BatchResult(Protocol):
    """What a checker of one batch of inputs returns: how many it checked, the failing one, an error."""

    checked: int
    failure: tuple[Any, Any, Any] | None
    error: BaseException | None


def batch_items(res: BatchResult) -> Generator[Any, None, bool]:
    """The stream items of one checked batch: its passing inputs as one :class:`Passed`, then its failure.

    Returns whether the batch failed (the stream ends there); raises the batch's error.
    """
    passes = res.checked - (1 if res.failure is not None else 0)
    if passes:
        yield Passed(passes)
    if res.failure is not None:
        _, inp, mm = res.failure
        yield (inp, mm)
        return True
    if res.error is not None:
        raise res.error
    return False


def _chunks(it: Iterable[Any], size: int) -> Iterator[list[Any]]:
    it = iter(it)
    while chunk := list(islice(it, size)):
        yield chunk


def check_stream(
    per_input: Callable[[Any], Any], inputs: Iterable[Any], total: int, jobs: int, bar: Any,
    threshold: int | None = None,
) -> tuple[int, tuple[Any, Any] | None]:
    """Apply ``per_input`` to ``inputs`` in order until it returns something other than ``None``.

    Returns ``(inputs checked, (first failing input, what per_input returned) | None)``. Streams of
    fewer than ``threshold`` inputs (default :data:`PARALLEL_THRESHOLD`) run in-process. A :class:`Passed`
    item counts as that many passing inputs (in-process only: such streams are checked with ``jobs = 1``).
    """
    limit = PARALLEL_THRESHOLD if threshold is None else threshold
    if jobs <= 1 or total < limit:
        count = 0
        for inp in inputs:
            if isinstance(inp, Passed):
                count += inp.count
                bar.update(inp.count)
                continue
            count += 1
            bad = per_input(inp)
            bar.update(1)
            if bad is not None:
                return count, (inp, bad)
        return count, None

    def check_chunk(chunk: list[Any]) -> tuple[int, int | None, Any]:
        for i, inp in enumerate(chunk):
            bad = per_input(inp)
            if bad is not None:
                return i + 1, i, bad
        return len(chunk), None, None

    count = 0
    results = map_ordered(check_chunk, _chunks(inputs, CHUNK), jobs)
    try:
        for chunk, (done, idx, bad) in results:
            count += done
            bar.update(done)
            if idx is not None:
                return count, (chunk[idx], bad)
    finally:
        results.close()
    return count, None
