"""Sharded exhaustive checking: rank ranges of an input family checked independently, on cores or machines.

A family of inputs of one size is a sequence in a fixed order (the order the exact checker uses). Each
order used here has an *unrank*: Dyck words (``dyck_unrank``, order ``U < D``), labeled trees
(``prufer_unrank``, Prüfer rank), ordered trees (``ψ`` of the Dyck word of the same rank) and simple
digraphs (fewest arcs first, then the lexicographic rank of the arc combination, :func:`digraph_unrank`).
So the inputs with rank in ``[start, stop)`` can be enumerated without the earlier ones, and a size is
split into :class:`Shard` ranges that are checked independently (each streamed in batches by
:class:`~symcot.check.batched_check.BatchedChecker`, so memory stays bounded).

Results come back in rank order. A shard reports how many inputs it checked and its first failure (by
rank); the first failing shard in rank order, all earlier shards having passed, holds the smallest
counterexample overall, which is what the single-process run reports. Later shards are cancelled.

Engines: :class:`LocalPool` (the default: ``multiprocessing`` with ``fork``, one process per core, one
BLAS thread each) and :class:`DaskEngine` (Dask ``distributed``: an existing cluster, or a
``LocalCluster``; an optional dependency, ``pip install 'symcot[distributed]'``). The choice of Dask
over Ray is argued in docs/performance.md.
"""

from __future__ import annotations

import copy
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from itertools import islice
from math import comb
from typing import Any, Protocol

from symcot.check.exhaustive import Family
from symcot.check.parallel import batch_items
from symcot.check.pool import default_jobs, map_ordered
from symcot.errors import InvalidInputError, SymcotError, locate
from symcot.inputs import (
    Digraph,
    OrderedTree,
    digraphs_with_sources,
    dyck_words,
    dyck_words_range,
    labeled_trees,
    labeled_trees_range,
    ordered_trees,
    rooted_labeled_trees,
    simple_digraphs,
)
from symcot.replay.scaling import Certificate, merge

#: Below this many inputs a size is checked in-process.
SHARD_THRESHOLD = 20_000
#: The smallest shard worth a task.
MIN_SHARD = 2048
#: Shard sizes: at least a few batches, at most this many inputs (so progress and cancellation are prompt).
MAX_SHARD = 50_000

RangeFn = Callable[[int, int, int], Iterable[Any]]
BatchFn = Callable[[int, int, int], Any]


class ShardChecker(Protocol):
    """What a shard is checked with: :class:`symcot.check.batched_check.BatchedChecker` is one.

    Each shard checks with a copy whose ``certificates`` and ``exact_fallbacks`` start empty.
    """

    batch: int
    certificates: list[Certificate]
    exact_fallbacks: int

    def shipped(self, forked: bool = False) -> ShardChecker:
        """A copy to send to the workers (no state collected here; ``forked``: what was built here is inherited)."""
        ...

    def prepare(self, fam: Family, size: int) -> None:
        """Build what checking ``fam`` at ``size`` needs here (forked workers inherit it)."""
        ...

    def check(self, inputs: list[Any]) -> tuple[list[dict[str, Any] | None], BaseException | None]:
        """Per input ``None`` (passes) or its counterexample, in order up to the first failure; an error."""
        ...

    def check_batch(self, batch: Any) -> Any:
        """An :class:`~symcot.inputs.batch.InputBatch` checked (``checked``, ``failure``, ``error`` attributes)."""
        ...

    def certificate(self) -> Certificate | None:
        """The merged certificate of the batches checked so far."""
        ...


# -- ranked enumerations ---------------------------------------------------------------------------


def _pairs(n: int) -> list[tuple[int, int]]:
    return [(u, v) for u in range(n) for v in range(n) if u != v]


def _unrank_combination(m: int, k: int, r: int) -> list[int]:
    """The ``r``-th ``k``-subset of ``range(m)`` in lexicographic order (as ``itertools.combinations``)."""
    out: list[int] = []
    x = 0
    for i in range(k):
        while True:
            c = comb(m - x - 1, k - i - 1)
            if r < c:
                out.append(x)
                x += 1
                break
            r -= c
            x += 1
    return out


def digraph_unrank(n: int, r: int) -> Digraph:
    """The simple digraph of rank ``r`` in :func:`symcot.inputs.simple_digraphs` order."""
    pairs = _pairs(n)
    m = len(pairs)
    if not isinstance(r, int) or not 0 <= r < 2**m:
        raise InvalidInputError(f"rank {r!r} out of range for digraphs on {n} vertices: ranks are 0..{2**m - 1}")
    k = 0
    while r >= comb(m, k):
        r -= comb(m, k)
        k += 1
    return Digraph(n, tuple(pairs[i] for i in _unrank_combination(m, k, r)))


def simple_digraphs_range(n: int, start: int, stop: int) -> Iterator[Digraph]:
    """Simple digraphs on ``n`` vertices with rank in ``[start, stop)`` (``stop`` clipped)."""
    pairs = _pairs(n)
    m = len(pairs)
    stop = min(stop, 2**m)
    if start >= stop:
        return
    r, k = start, 0
    while r >= comb(m, k):
        r -= comb(m, k)
        k += 1
    left = stop - start
    while left > 0 and k <= m:
        # from the unranked k-combination on, by lexicographic successor
        cur: tuple[int, ...] | None = tuple(_unrank_combination(m, k, r))
        while cur is not None and left > 0:
            yield Digraph(n, tuple(pairs[i] for i in cur))
            left -= 1
            cur = _next_combination(cur, m)
        k += 1
        r = 0


def _next_combination(c: tuple[int, ...], m: int) -> tuple[int, ...] | None:
    k = len(c)
    c2 = list(c)
    for i in range(k - 1, -1, -1):
        if c2[i] < m - k + i:
            c2[i] += 1
            for j in range(i + 1, k):
                c2[j] = c2[j - 1] + 1
            return tuple(c2)
    return None


def digraphs_with_sources_range(n: int, start: int, stop: int) -> Iterator[tuple[Digraph, int]]:
    """``(digraph, source)`` pairs of rank in ``[start, stop)``, graph major, source minor."""
    stop = min(stop, n * 2 ** (n * (n - 1)))
    if start >= stop:
        return
    g0, s0 = divmod(start, n)
    g1 = (stop - 1) // n + 1
    rank = g0 * n
    for g in simple_digraphs_range(n, g0, g1):
        for s in range(n):
            if start <= rank < stop:
                yield g, s
            rank += 1


def rooted_labeled_trees_range(n: int, start: int, stop: int) -> Iterator[tuple[Digraph, int]]:
    """``(tree, root)`` pairs of rank in ``[start, stop)``, Prüfer rank major, root minor."""
    stop = min(stop, n ** (n - 1))
    if start >= stop:
        return
    t0 = start // n
    t1 = (stop - 1) // n + 1
    rank = t0 * n
    for t in labeled_trees_range(n, t0, t1):
        for r in range(n):
            if start <= rank < stop:
                yield t, r
            rank += 1


def ordered_trees_range(n: int, start: int, stop: int) -> Iterator[Any]:
    """Ordered trees on ``n`` vertices (``ψ`` of the Dyck words of semilength ``n - 1``) of rank in range."""
    return (OrderedTree.from_dyck(w) for w in dyck_words_range(n - 1, start, stop))


#: The ranked form of each enumeration the families use, by function.
KNOWN_RANGES: dict[Callable[..., Any], RangeFn] = {
    simple_digraphs: simple_digraphs_range,
    digraphs_with_sources: digraphs_with_sources_range,
    labeled_trees: labeled_trees_range,
    rooted_labeled_trees: rooted_labeled_trees_range,
    dyck_words: dyck_words_range,
    ordered_trees: ordered_trees_range,
}


def range_function(fam: Family) -> RangeFn | None:
    """How to enumerate a rank range of ``fam``: its own ``inputs_range`` attribute, else a known enumeration."""
    own = getattr(fam, "inputs_range", None)
    if own is not None:
        return own
    return KNOWN_RANGES.get(fam.inputs)


# -- shards ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shard:
    """The inputs of one size with rank in ``[start, stop)``."""

    size: int
    start: int
    stop: int


def plan_shards(size: int, total: int, pieces: int, min_shard: int = 2048, max_shard: int = MAX_SHARD) -> list[Shard]:
    """Split ranks ``0..total-1`` into about ``pieces`` shards of ``min_shard..max_shard`` inputs."""
    if total <= 0:
        return []
    step = max(min_shard, min(max_shard, -(-total // max(pieces, 1))))
    return [Shard(size, a, min(a + step, total)) for a in range(0, total, step)]


@dataclass
class ShardResult:
    """What one shard found: inputs checked, the first failure ``(rank, input, counterexample)``, an error."""

    shard: Shard
    checked: int
    failure: tuple[int, Any, dict[str, Any]] | None = None
    error: BaseException | None = None
    certificate: Certificate | None = None
    exact_fallbacks: int = 0


def check_shard(checker: ShardChecker, range_fn: RangeFn, shard: Shard,
                batch_fn: BatchFn | None = None) -> ShardResult:
    """Check the inputs of ``shard`` in rank order, streaming batches; stop at the first failure.

    With ``batch_fn`` (a family's ``batch_range``) each batch is built as arrays and checked whole
    (``checker.check_batch``); otherwise ``range_fn`` yields the inputs one by one.
    """
    checker = copy.copy(checker)
    checker.certificates, checker.exact_fallbacks = [], 0
    if batch_fn is not None:
        return _check_shard_batches(checker, batch_fn, shard)
    it = iter(range_fn(shard.size, shard.start, shard.stop))
    checked = 0
    while True:
        part = list(islice(it, checker.batch))
        if not part:
            break
        results, err = checker.check(part)
        for k, res in enumerate(results):
            if res is not None:
                return ShardResult(shard, checked + k + 1, (shard.start + checked + k, part[k], res), None,
                                   checker.certificate(), checker.exact_fallbacks)
        checked += len(results)
        if err is not None:  # located here, where the traceback still is (it does not survive pickling)
            err = locate(err, f"on input {part[len(results)]!r:.200}")
            return ShardResult(shard, checked, None, err, checker.certificate(), checker.exact_fallbacks)
    return ShardResult(shard, checked, None, None, checker.certificate(), checker.exact_fallbacks)


def _check_shard_batches(checker: ShardChecker, batch_fn: BatchFn, shard: Shard) -> ShardResult:
    checked = 0
    for a in range(shard.start, shard.stop, checker.batch):
        out = checker.check_batch(batch_fn(shard.size, a, min(a + checker.batch, shard.stop)))
        if out.failure is not None:
            r, inp, res = out.failure
            return ShardResult(shard, checked + out.checked, (a + r, inp, res), None, checker.certificate(),
                               checker.exact_fallbacks)
        checked += out.checked
        if out.error is not None:
            return ShardResult(shard, checked, None, out.error, checker.certificate(), checker.exact_fallbacks)
    return ShardResult(shard, checked, None, None, checker.certificate(), checker.exact_fallbacks)


def reduce_results(results: Iterable[ShardResult]) -> tuple[int, tuple[int, Any, dict[str, Any]] | None]:
    """``(inputs checked up to the smallest failure, that failure)`` over shards in any order.

    The failure with the smallest rank wins; inputs of shards after it do not count (the single-process
    run would not have reached them).
    """
    res = sorted(results, key=lambda r: r.shard.start)
    fails = [r for r in res if r.failure is not None]
    if not fails:
        return sum(r.checked for r in res), None
    best = min(fails, key=lambda r: r.failure[0])  # type: ignore[index]
    assert best.failure is not None
    rank = best.failure[0]
    before = sum(r.checked for r in res if r.shard.stop <= best.shard.start)
    return before + (rank - best.shard.start) + 1, best.failure


# -- engines ---------------------------------------------------------------------------------------


class LocalPool:
    """Shards on this machine: one forked process per core (``jobs``, one BLAS thread each), results in rank order."""

    name = "local"

    def __init__(self, jobs: int | None = None):
        self.jobs = jobs or default_jobs()

    def map_ordered(self, fn: Callable[[Shard], ShardResult], shards: list[Shard]) -> Iterator[ShardResult]:
        """``fn`` on every shard, yielded in order; closing the iterator terminates the workers."""
        results = map_ordered(fn, shards, self.jobs, blas_threads=1)
        try:
            for _, res in results:
                yield res
        finally:
            results.close()


class DaskEngine:
    """Shards on a Dask ``distributed`` cluster (``Client`` given, or one started from ``address``).

    ``window`` bounds the shards in flight (default: twice the workers' threads), so memory stays
    bounded and a failure cancels little work. Workers need symcot (and its ``proofs`` package) installed;
    the modules of a user's own proofs directory (loaded by :mod:`symcot.registry` into a package that has no
    file of its own, so workers cannot import them) are shipped by value.
    """

    name = "dask"

    def __init__(self, client: Any = None, address: str | None = None, window: int | None = None):
        try:
            import distributed
        except ImportError:
            raise SymcotError("the distributed engine needs Dask: pip install 'symcot[distributed]' "
                              "(or pip install 'dask[distributed]')") from None
        self.client = client if client is not None else distributed.Client(address)
        self.window = window

    def _ship_proofs(self) -> None:
        try:
            import cloudpickle
        except ImportError:  # pragma: no cover - distributed depends on it
            return
        for name, mod in list(sys.modules.items()):
            parent = sys.modules.get(name.rpartition(".")[0]) if "." in name else None
            if mod is not None and parent is not None and getattr(parent, "__file__", None) is None \
                    and getattr(parent, "__path__", None):
                try:
                    cloudpickle.register_pickle_by_value(mod)
                except (ValueError, TypeError):  # pragma: no cover - already registered or not a module
                    pass

    def map_ordered(self, fn: Callable[[Shard], ShardResult], shards: list[Shard]) -> Iterator[ShardResult]:
        """``fn`` on every shard as Dask futures, yielded in rank order; closing cancels the rest."""
        self._ship_proofs()
        window = self.window
        if window is None:
            info = self.client.scheduler_info()
            threads = sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()) or 1
            window = 2 * threads
        pending: deque[Any] = deque()
        todo = iter(shards)
        try:
            for s in islice(todo, window):
                pending.append(self.client.submit(fn, s, pure=False))
            while pending:
                fut = pending.popleft()
                res = fut.result()
                nxt = next(todo, None)
                if nxt is not None:
                    pending.append(self.client.submit(fn, nxt, pure=False))
                yield res
        finally:
            for f in pending:
                f.cancel()


# -- the family wrapper ----------------------------------------------------------------------------


def sharded_family(fam: Family, checker: ShardChecker, local: Family, jobs: int = 1, engine: Any = None,
                   stats: dict[str, Any] | None = None, threshold: int | None = None,
                   pieces: int | None = None) -> Family:
    """``fam`` for :func:`run_property_check`: large sizes checked as shards, items in rank order.

    Passing inputs of a shard are yielded as one :class:`~symcot.check.parallel.Passed` count; the failing
    input, if any, as ``(input, counterexample)``. A family with ``batch_range`` is checked in whole batches.
    Sizes below ``threshold``, and families with no ranked enumeration, are the items of ``local`` (``fam``
    checked in-process in batches by ``checker``, :func:`symcot.check.batched_check.batched_family`).
    """
    rf = range_function(fam)
    runner = engine if engine is not None else LocalPool(jobs)
    stats = stats if stats is not None else {}
    stats.setdefault("engine", runner.name)
    stats.setdefault("jobs", getattr(runner, "jobs", None))
    stats.setdefault("shards", 0)
    stats.setdefault("sharded_sizes", [])
    stats.setdefault("certificates", [])
    stats.setdefault("exact_fallbacks", 0)

    def inputs(size: int) -> Iterator[Any]:
        total = fam.count(size)
        if rf is None or total < (SHARD_THRESHOLD if threshold is None else threshold):
            yield from local.inputs(size)
            return
        n_pieces = pieces or 4 * max(getattr(runner, "jobs", None) or 1, 1)
        shards = plan_shards(size, total, n_pieces, min_shard=min(checker.batch, MIN_SHARD))
        stats["shards"] += len(shards)
        stats["sharded_sizes"].append(size)
        forked = isinstance(runner, LocalPool)
        if forked:
            checker.prepare(fam, size)
        results = runner.map_ordered(partial(check_shard, checker.shipped(forked), rf, batch_fn=fam.batch_range),
                                     shards)
        try:
            for res in results:
                if res.certificate is not None:
                    stats["certificates"].append(res.certificate)
                stats["exact_fallbacks"] += res.exact_fallbacks
                if (yield from batch_items(res)):
                    return
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()

    return replace(fam, inputs=inputs, describe=lambda item: fam.describe(item[0]), inputs_range=None,
                   batch_range=None)


def merged_certificate(stats: dict[str, Any]) -> Certificate | None:
    """The shards' certificates, merged."""
    return merge(stats.get("certificates", []))
