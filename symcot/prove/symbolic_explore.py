"""Symbolic replay of every input topology of a size, on one domain, up to the first departure.

Shared by the symbolic check (:mod:`symcot.prove.symbolic_check`: one domain, the variant's λ rule) and the
λ_min climb (:mod:`symcot.prove.lam.climb`: domains ``λ > b`` raised at each departure).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from symcot.check.pool import can_fork, map_ordered, shared_int
from symcot.errors import SymcotError
from symcot.prove.symbolic_target import Domain
from symcot.prove.symbolic_target import SymbolicTarget as Target
from symcot.replay.symbolic import BadPiece, Exploration, Explorer, SolverUnknown

#: Forked workers are used when a size has at least this many topologies and ``jobs > 1``.
PARALLEL_MIN = 200


@dataclass
class Tally:
    """Counts over the topologies of one size and one domain."""

    topologies: int = 0
    branches: int = 0
    agree: int = 0
    forks: int = 0
    queries: int = 0
    z3_seconds: float = 0.0
    seconds: float = 0.0

    def add(self, r: Exploration) -> None:
        self.topologies += 1
        self.branches += r.branches
        self.agree += r.agree
        self.forks += r.stats.forks
        self.queries += r.stats.queries
        self.z3_seconds += r.stats.seconds

    def merge(self, o: Tally) -> None:
        for f in ("topologies", "branches", "agree", "forks", "queries", "z3_seconds"):
            setattr(self, f, getattr(self, f) + getattr(o, f))

    def as_dict(self) -> dict[str, Any]:
        return {"topologies": self.topologies, "branches": self.branches, "branches_agreeing": self.agree,
                "forks": self.forks, "z3_queries": self.queries, "z3_seconds": round(self.z3_seconds, 3),
                "seconds": round(self.seconds, 3)}


def explore(target: Target, inp: Any, dom: Domain) -> Exploration:
    """Symbolic replay of one topology on ``dom`` (every branch, or up to the first departure)."""
    return Explorer(target.instance(inp, dom)).run()


def _refute_slice(target: Target, inputs: list[Any], dom: Domain, start: int = 0, stride: int = 1,
                  best: Any = None) -> tuple[Tally, tuple[int, BadPiece] | None]:
    """Replay ``inputs[start::stride]`` in order, up to the first departure.

    ``best`` (shared between workers) holds the smallest departing index found so far; a worker stops
    once it is below the next index.
    """
    tally = Tally()
    for k in range(start, len(inputs), stride):
        if best is not None and best.value < k:
            break
        r = explore(target, inputs[k], dom)
        tally.add(r)
        if r.bad:
            if best is not None:
                with best.get_lock():
                    best.value = min(best.value, k)
            return tally, (k, r.bad[0])
    return tally, None


def _worker(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - reported to the parent
        return ("err", f"{type(e).__name__}: {e}", isinstance(e, SolverUnknown))


def refute_all(target: Target, inputs: list[Any], dom: Domain, jobs: int = 1
               ) -> tuple[Tally, tuple[int, BadPiece] | None]:
    """Replay every topology; the first departure in input order, if there is one.

    With ``jobs > 1`` (and at least :data:`PARALLEL_MIN` topologies) forked workers take every
    ``jobs``-th topology; a worker stops once a smaller index has departed, so the answer is the one a
    single process gives.
    """
    t0 = time.perf_counter()
    if jobs <= 1 or len(inputs) < PARALLEL_MIN or not can_fork():
        tally, first = _refute_slice(target, inputs, dom)
    else:
        best = shared_int(len(inputs))
        results = [r for _, r in map_ordered(lambda j: _worker(_refute_slice, (target, inputs, dom, j, jobs, best)),
                                             range(jobs), jobs)]
        tally, first = Tally(), None
        for r in results:
            if r[0] == "err":
                raise (SolverUnknown if r[2] else SymcotError)(f"symbolic worker failed: {r[1]}")
            t, bad = r[1]
            tally.merge(t)
            if bad is not None and (first is None or bad[0] < first[0]):
                first = bad
    tally.seconds = time.perf_counter() - t0
    return tally, first


__all__ = ["PARALLEL_MIN", "Tally", "explore", "refute_all"]
