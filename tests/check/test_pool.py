import multiprocessing as mp
import os
import time

import pytest

from symcot.check import pool
from symcot.check.pool import can_fork, default_jobs, map_ordered, shared_int

needs_fork = pytest.mark.skipif(not can_fork(), reason="no fork start method here")


def test_default_jobs_is_a_positive_count():
    assert default_jobs() >= 1


@needs_fork
def test_results_come_in_item_order_whatever_order_workers_finish():
    def slow_first(x: int) -> tuple[int, int]:
        time.sleep(0.05 if x == 0 else 0.0)  # item 0 finishes last
        return x * x, os.getpid()

    got = list(map_ordered(slow_first, range(6), 3))
    assert [item for item, _ in got] == list(range(6))
    assert [sq for _, (sq, _) in got] == [x * x for x in range(6)]
    assert len({pid for _, (_, pid) in got} - {os.getpid()}) >= 2  # really other processes


@needs_fork
def test_the_function_is_inherited_not_pickled():
    captured = {"offset": 10}
    f = lambda x: x + captured["offset"]  # noqa: E731 - a closure pickle cannot send
    assert [r for _, r in map_ordered(f, [1, 2, 3], 2)] == [11, 12, 13]


@needs_fork
def test_a_worker_exception_is_raised_in_the_parent_at_its_turn():
    def f(x: int) -> int:
        if x == 3:
            raise ValueError("three")
        return x

    it = map_ordered(f, range(6), 2)
    assert [next(it)[1] for _ in range(3)] == [0, 1, 2]
    with pytest.raises(ValueError, match="three"):
        next(it)


@needs_fork
def test_closing_early_terminates_the_workers():
    it = map_ordered(lambda x: x, iter(range(10**9)), 2)  # an endless stream: only a close ends it
    assert next(it) == (0, 0)
    it.close()
    assert mp.active_children() == []


@needs_fork
def test_pools_do_not_nest():
    def nested(x: int) -> list:
        return list(map_ordered(abs, [x], 2))

    with pytest.raises(RuntimeError, match="do not nest"):
        list(map_ordered(nested, [1, 2], 2))


def test_one_job_runs_lazily_in_this_process():
    seen: list[int] = []

    def f(x: int) -> int:
        seen.append(x)
        return os.getpid()

    it = map_ordered(f, range(100), 1)
    assert next(it) == (0, os.getpid())
    assert seen == [0]


@needs_fork
def test_shared_int_is_seen_by_every_worker():
    best = shared_int(100)

    def lower(x: int) -> int:
        with best.get_lock():
            best.value = min(best.value, x)
        return x

    list(map_ordered(lower, [7, 3, 9, 5], 2))
    assert best.value == 3


def test_no_fork_runs_in_process(monkeypatch):
    monkeypatch.setattr(pool, "can_fork", lambda: False)
    assert [pid for _, pid in map_ordered(lambda x: os.getpid(), range(3), 4)] == [os.getpid()] * 3


@needs_fork
def test_workers_end_on_sigterm_whatever_handler_the_parent_has():
    """A Python-level SIGTERM handler (the command line's) is not inherited by the workers: the default action
    ends a worker even when a native thread of it takes the signal, so terminating the pool never hangs."""
    import signal

    from symcot.cli.common import interruptible

    with interruptible():
        assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN)
        got = [r for _, r in map_ordered(lambda x: signal.getsignal(signal.SIGTERM) == signal.SIG_DFL, [0, 1], 2)]
    assert got == [True, True]
