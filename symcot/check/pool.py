"""The one process pool of every parallel check: forked workers, results in the order of the work items.

Every parallel path (the exact stream checker, rank-range shards, symbolic replay of topologies, λ scans)
goes through :func:`map_ordered`. Workers are forked (``multiprocessing`` with ``fork``), so the function
they run -- a construction, a reference, a closure over both -- is inherited, not pickled; only the work
items and the results travel between processes. Results come back in item order whatever order the
workers finish in, so a caller that stops at the first failure reports the one a single process reports.
Where ``fork`` is missing, or ``jobs <= 1``, the items run in this process, lazily, in order.
"""

from __future__ import annotations

import ctypes
import glob
import multiprocessing as mp
import os
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: The function the forked workers run (set in the parent just before the fork, inherited by the workers).
_TASK: Callable[[Any], Any] | None = None


def default_jobs() -> int:
    """Cores available to this process."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Whether worker processes can be forked here (the pool runs in-process otherwise)."""
    return "fork" in mp.get_all_start_methods()


def limit_blas_threads(n: int = 1) -> bool:
    """Best effort: ask the OpenBLAS that numpy uses for ``n`` threads (``True`` when it answered)."""
    import numpy as np

    base = os.path.dirname(np.__file__)
    for path in glob.glob(os.path.join(base, "..", "numpy.libs", "*openblas*")) + glob.glob(
            os.path.join(base, ".libs", "*openblas*")):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_", "openblas_set_num_threads"):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn(n)
                return True
    return False


def shared_int(value: int) -> Any:
    """An int64 the workers of a later :func:`map_ordered` share (``.value``, ``.get_lock()``; inherited by fork)."""
    return (mp.get_context("fork") if can_fork() else mp).Value("q", value)


def _init_worker(blas_threads: int | None) -> None:
    """A worker's start: SIGTERM back to its default action, and (``blas_threads``) BLAS threads limited.

    The pool ends its workers with SIGTERM. A Python-level handler inherited from the parent runs only in a
    worker's main thread, and only once that thread returns to the interpreter; a worker blocked on the
    pool's task queue while a native thread (OpenBLAS's) takes the signal would never end, and the pool's
    ``join`` would wait for it forever. The default action ends the process whichever thread takes it.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if blas_threads is not None:
        limit_blas_threads(blas_threads)


def _run_task(item: Any) -> Any:
    assert _TASK is not None, "a pool worker started without its task"
    return _TASK(item)


def map_ordered(fn: Callable[[T], R], items: Iterable[T], jobs: int, *,
                blas_threads: int | None = None) -> Generator[tuple[T, R], None, None]:
    """``(item, fn(item))`` for every item, in item order, computed by ``jobs`` forked workers.

    Items are taken from ``items`` as workers free up (an endless or huge stream is fine); each result is
    yielded as soon as it and every earlier one are done. Closing the iterator (``close()``, ``break`` or
    garbage collection) terminates the workers, so a caller that stops at a failure cancels the rest. An
    exception raised by ``fn`` in a worker is raised here, when its item's turn comes.

    Args:
        fn: the work; inherited by the forked workers, so it need not be picklable (items and results must be).
        items: the work items.
        jobs: worker processes; with ``jobs <= 1``, or where ``fork`` is missing, ``fn`` runs here, lazily.
        blas_threads: BLAS threads per worker (``None``: leave the workers' BLAS alone).

    """
    global _TASK
    if jobs <= 1 or not can_fork():
        for item in items:
            yield item, fn(item)
        return
    if _TASK is not None:
        raise RuntimeError("map_ordered is already running in this process (pools do not nest)")
    _TASK = fn
    pending: deque[T] = deque()

    def feed() -> Iterator[T]:  # runs in the pool's feeder thread: remembers each item handed out
        for item in items:
            pending.append(item)
            yield item

    try:
        pool = mp.get_context("fork").Pool(jobs, initializer=_init_worker, initargs=(blas_threads,))
    finally:
        _TASK = None  # every worker is forked by now and has its copy; the parent needs none
    try:
        for res in pool.imap(_run_task, feed()):
            yield pending.popleft(), res
    finally:
        pool.terminate()
        pool.join()
