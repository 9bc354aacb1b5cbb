"""All-n rows side by side: ``symcot verify --all-n --jobs N`` proves the rows in ``N`` worker processes.

A proof is one process's work (Z3 and cvc5 run single-threaded), so the rows of an ``--all-n`` run are spread over
workers. Rows are grouped by paper label (the claim id up to its second colon: ``thm:a``, ``thm:a:tree`` and
``thm:a:word`` are one group): a label's rows share a vocabulary and most of a decoder, so their solver
queries meet in one process's cache (:mod:`symcot.prove.alln.cache`). Groups are handed out largest first (most rows
first), a worker taking the next group when it is done. The workers are forked, reading the plan from the parent's
memory; each row is the row a run with one process gives (its seconds are its own), and rows are reported in the
plan's order.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from symcot.check.exhaustive import Progress
from symcot.check.verdict import Verdict

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


def _run_group(rows: list[int], max_size: int | None, engine: str, reach: int | None) -> list[tuple[int, Verdict]]:
    """In a worker: the rows of one group, in order."""
    out = []
    for i in rows:
        claim, chk = _PLAN[i]
        out.append((i, claim.run_check(chk, max_size, Progress(False), 1, engine, reach)))
    return out


def run_pooled(plan: Sequence[tuple[Any, Any]], jobs: int, max_size: int | None, engine: str, reach: int | None,
               on_row: Callable[[int, Verdict], None]) -> None:
    """Every row of ``plan`` (its checks ready to run), in ``jobs`` workers: ``on_row(index, row)`` as each finishes.

    On Ctrl-C the workers are stopped and the KeyboardInterrupt raised again: the rows ``on_row`` saw are kept.
    """
    global _PLAN
    _PLAN = list(plan)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"))
    try:
        pending: set[Future[list[tuple[int, Verdict]]]] = {
            pool.submit(_run_group, g, max_size, engine, reach) for g in groups(plan)}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                for i, row in f.result():
                    on_row(i, row)
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        for p in list(getattr(pool, "_processes", {}).values()):
            p.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _PLAN = []
