"""Checking a stream of inputs on one core or several, keeping the first failure in stream order.

Inputs are enumerated in the parent and sent to worker processes in ordered chunks
(``multiprocessing`` with ``fork``: the construction and its reference are inherited, not pickled).
Results come back in chunk order, so the failure reported is the first one in the family's order --
the same as a single-process run.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

#: Below this many inputs a size is checked in-process (a pool costs more than it saves).
PARALLEL_THRESHOLD = 20_000
CHUNK = 2_000

_WORK: Callable[[Any], Any] | None = None


def default_jobs() -> int:
    """Cores available to this process."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _check_chunk(chunk: list[Any]) -> tuple[int, int | None, Any]:
    assert _WORK is not None
    for i, inp in enumerate(chunk):
        bad = _WORK(inp)
        if bad is not None:
            return i + 1, i, bad
    return len(chunk), None, None


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
    fewer than ``threshold`` inputs (default :data:`PARALLEL_THRESHOLD`) run in-process.
    """
    global _WORK
    limit = PARALLEL_THRESHOLD if threshold is None else threshold
    if jobs <= 1 or total < limit or "fork" not in mp.get_all_start_methods():
        count = 0
        for inp in inputs:
            count += 1
            bad = per_input(inp)
            bar.update(1)
            if bad is not None:
                return count, (inp, bad)
        return count, None
    _WORK = per_input
    count = 0
    try:
        with mp.get_context("fork").Pool(jobs) as pool:
            chunks = _chunks(inputs, CHUNK)
            pending: list[list[Any]] = []

            def feed() -> Iterator[list[Any]]:
                for c in chunks:
                    pending.append(c)
                    yield c

            for done, idx, mm in pool.imap(_check_chunk, feed()):
                chunk = pending.pop(0)
                count += done
                bar.update(done)
                if mm is not None and idx is not None:
                    pool.terminate()
                    return count, (chunk[idx], mm)
    finally:
        _WORK = None
    return count, None
