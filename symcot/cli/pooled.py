"""All-n rows side by side: ``symcot verify --all-n --jobs N`` proves the rows in ``N`` worker processes.

A proof is one process's work (Z3 and cvc5 run single-threaded), so the rows of an ``--all-n`` run are spread over
workers, a worker taking the next row when it is done. Rows are handed out largest proof first (:func:`order`: the
check's ``effort()``, for an all-n check the facts its vocabulary states; a row without a statement is refuted by
replay in a second), so that the longest proofs do not start last; where efforts tie, a paper label's rows (the
claim id up to its second colon: ``thm:a``, ``thm:a:tree`` and ``thm:a:word`` are one label) come one after the
other. The workers share their solver answers (Z3's, :mod:`symcot.prove.alln.cache`, and cvc5's,
:mod:`symcot.prove.alln.second`, through a manager process): rows over one vocabulary or one decoder ask many of the
same queries, and a query one worker has decided is not solved again by another. The workers are forked, reading the
plan from the parent's memory; each row is the row a run with one process gives (its seconds are its own), and rows
are reported in the plan's order.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from symcot.check.exhaustive import Progress
from symcot.check.verdict import Verdict
from symcot.prove.alln import second
from symcot.prove.alln.cache import CACHE

#: The plan the workers read (set before they fork): ``(claim, check)`` per row.
_PLAN: list[tuple[Any, Any]] = []


def label_of(claim_id: str) -> str:
    """The paper label a claim id belongs to (``thm:a:tree`` → ``thm:a``)."""
    return ":".join(claim_id.split(":")[:2])


def groups(plan: Sequence[tuple[Any, Any]]) -> list[list[int]]:
    """The plan's row indices grouped by paper label, most rows first (ties: in plan order)."""
    by: dict[str, list[int]] = {}
    for i, (claim, _) in enumerate(plan):
        by.setdefault(label_of(claim.id), []).append(i)
    return sorted(by.values(), key=lambda g: (-len(g), g[0]))


def effort(check: Any) -> int:
    """A check's ``effort()`` (a rough size of its work, for the order only), 0 where it has none."""
    est = getattr(check, "effort", None)
    return int(est()) if callable(est) else 0


def order(plan: Sequence[tuple[Any, Any]]) -> list[int]:
    """The plan's row indices in the order they are handed out: most effort first, then by label group, then plan."""
    group_of = {i: k for k, g in enumerate(groups(plan)) for i in g}
    weight = [effort(chk) for _, chk in plan]
    return sorted(range(len(plan)), key=lambda i: (-weight[i], group_of[i], i))


def _run_row(i: int, max_size: int | None, engine: str, reach: int | None) -> tuple[int, Verdict]:
    """In a worker: row ``i`` of the plan."""
    claim, chk = _PLAN[i]
    return i, claim.run_check(chk, max_size, Progress(False), 1, engine, reach)


def run_pooled(plan: Sequence[tuple[Any, Any]], jobs: int, max_size: int | None, engine: str, reach: int | None,
               on_row: Callable[[int, Verdict], None]) -> None:
    """Every row of ``plan`` (its checks ready to run), in ``jobs`` workers: ``on_row(index, row)`` as each finishes.

    On Ctrl-C the workers are stopped and the KeyboardInterrupt raised again: the rows ``on_row`` saw are kept.
    """
    global _PLAN
    _PLAN = list(plan)
    fork = multiprocessing.get_context("fork")
    manager = fork.Manager()  # the solver answers the workers share (started before they fork: they inherit it)
    CACHE.share(manager.dict())
    second.share(manager.dict())
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=fork)
    try:
        pending: set[Future[tuple[int, Verdict]]] = {
            pool.submit(_run_row, i, max_size, engine, reach) for i in order(plan)}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                on_row(*f.result())
    except KeyboardInterrupt:
        workers = list((getattr(pool, "_processes", None) or {}).values())  # before shutdown forgets them
        pool.shutdown(wait=False, cancel_futures=True)
        for p in workers:
            p.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        CACHE.share(None)
        second.share(None)
        manager.shutdown()
        _PLAN = []
