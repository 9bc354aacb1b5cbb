"""A seeded search for the inputs of one size with the largest magnitudes and the smallest margins.

Beyond the exhaustive sizes, the float thresholds are searched on a few inputs of each size of the claim's own
families. Which inputs matters: a format fails first on the input whose values grow largest, or whose attention
scores come closest. :func:`guided_search` looks for them, guided by measurements of the exact run:

1. *Pool.* Of every family covering the size, the ranks :func:`~symcot.check.extremal.family_probes` takes (the
   first and last ``per_family`` and ``per_family`` seeded random ranks of a ranked family, else the first
   ``3·per_family``) are evaluated. An input met twice (two families, a first rank that is also a last one) is
   evaluated once.
2. *Refinement.* Per family, the ``walkers`` pool inputs with the largest magnitude (then the largest partial-sum
   bound) and the ``walkers`` with the smallest attention margin each start a pattern search over the family's
   ranks: from rank ``r`` with step ``s``, the ranks ``r - s`` and ``r + s`` are evaluated; the walker moves to the
   better of them if that improves its objective, and otherwise halves ``s``; it stops at ``s = 0`` (converged) or
   after :data:`PATIENCE` halvings in a row without a move (a flat objective has nothing to follow). The first step
   is ``⌊R / (2·P)⌋`` (``R`` ranks, ``P`` pool inputs of the family; at least 1), about half the gap between pool
   ranks. The walkers of all families move in rounds; each round is evaluated as one batch.
3. *Budget.* At most ``budget`` inputs per family and size are evaluated beyond the pool
   (:data:`SEARCH_BUDGET`); a walker whose next ranks would exceed it stops. An input already evaluated is not
   charged again.

A family without ranked access (``inputs_range``) is searched over the first :data:`UNRANKED_SPAN` inputs of its
order (enumerated as far as the search reaches). Everything is deterministic: the random ranks are seeded by
``seed``, the family's name and the size, walkers are ordered by objective then rank, and the evaluator is called
in the same order on every run. :class:`SearchLog` says how far the search went.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.check.extremal import PER_FAMILY, SEED, _covers, _ranks
from symcot.inputs.family import Family

#: Inputs evaluated per family and size beyond the pool.
SEARCH_BUDGET = 32
#: A walker stops after this many halvings of its step in a row without a move (a flat objective).
PATIENCE = 6
#: Walkers per objective (largest magnitude, smallest margin) and family.
WALKERS = 1
#: How far into a family without ranked access the search may go.
UNRANKED_SPAN = 512


@dataclass(frozen=True)
class Score:
    """What the exact run of one input showed: its largest ``|value|``, partial-sum bound and attention margin.

    ``margin`` is the smallest ``a_{j0} - max_{i≠j0} a_i`` over the head events with a unique maximum (``None``:
    no such event).
    """

    magnitude: Any
    sums: Any = 0
    margin: Any = None


#: ``evaluate(inputs)``: a :class:`Score` per input (``None``: nothing to measure, e.g. no step to generate).
Evaluator = Callable[[list[Any]], list[Score | None]]

_OBJECTIVES = ("magnitude", "margin")


def _key(objective: str, s: Score) -> tuple[Any, ...]:
    """Smaller is better: the largest ``(magnitude, sums)``, or the smallest margin."""
    if objective == "magnitude":
        return (-s.magnitude, -s.sums)
    return (s.margin,)


class _Space:
    """The ranks of one family at one size: direct access where the family has it, else a lazy prefix."""

    def __init__(self, fam: Family, n: int):
        self.fam, self.n = fam, n
        self.ranked = fam.exhaustive and fam.inputs_range is not None
        self._seen: list[Any] = []
        self._it: Iterator[Any] | None = None
        if self.ranked:
            self.total = int(fam.count(n))
        else:
            try:
                self.total = min(int(fam.count(n)), UNRANKED_SPAN)
            except Exception:  # noqa: BLE001 - a family that cannot count is searched as far as it enumerates
                self.total = UNRANKED_SPAN

    def pool_ranks(self, k: int, seed: int) -> list[int]:
        if self.ranked:
            return _ranks(self.fam, self.n, k, seed)
        return [r for r in range(3 * k) if self.get(r) is not None]

    def get(self, r: int) -> Any | None:
        """The input of rank ``r`` (``None``: past the family's end)."""
        if self.ranked:
            if not 0 <= r < self.total:
                return None
            assert self.fam.inputs_range is not None
            return next(iter(self.fam.inputs_range(self.n, r, r + 1)), None)
        if not 0 <= r < self.total:
            return None
        if self._it is None:
            self._it = iter(self.fam.inputs(self.n))
        while len(self._seen) <= r:
            nxt = next(self._it, _END)
            if nxt is _END:
                self.total = len(self._seen)
                return None
            self._seen.append(nxt)
        return self._seen[r]


_END = object()


@dataclass
class _Walker:
    space: int  # index of the family's space
    objective: str
    rank: int
    step: int
    stale: int = 0  # halvings in a row without a move


@dataclass
class Found:
    """The most extreme input found for one objective."""

    input: Any
    family: Family
    rank: int
    score: Score


@dataclass
class SearchLog:
    """How far the search at one size went."""

    size: int
    pool: int = 0
    refined: int = 0
    rounds: int = 0
    budget: int = SEARCH_BUDGET
    walkers: int = 0
    converged: int = 0
    largest: Found | None = None
    smallest_margin: Found | None = None

    @property
    def evaluated(self) -> int:
        """Inputs evaluated at this size (pool and refinement)."""
        return self.pool + self.refined


@dataclass
class Searched:
    """Every input evaluated at one size, in evaluation order, with the family each came from and its score."""

    inputs: list[Any] = field(default_factory=list)
    source: dict[str, Family] = field(default_factory=dict)
    scores: dict[str, Score | None] = field(default_factory=dict)
    log: SearchLog = field(default_factory=lambda: SearchLog(0))


class _Search:
    def __init__(self, families: Sequence[Family], n: int, evaluate: Evaluator, per_family: int, budget: int,
                 walkers: int, seed: int, source: dict[str, Family] | None):
        self.n, self.evaluate, self.per_family, self.walkers_per, self.seed = n, evaluate, per_family, walkers, seed
        self.spaces = [_Space(f, n) for f in families if _covers(f, n)]
        self.left = [budget] * len(self.spaces)
        self.known: dict[tuple[int, int], str] = {}  # (space, rank) -> input key
        self.out = Searched(source={} if source is None else source, log=SearchLog(n, budget=budget))

    def _run(self, batch: list[tuple[int, int, Any]]) -> None:
        """Evaluate the new inputs of ``(space, rank, input)`` (in order) and remember every rank's key."""
        fresh: list[Any] = []
        for sp, r, inp in batch:
            key = repr(inp)
            self.known[(sp, r)] = key
            if key not in self.out.scores and all(repr(x) != key for x in fresh):
                fresh.append(inp)
                self.out.source.setdefault(key, self.spaces[sp].fam)
        if not fresh:
            return
        for inp, sc in zip(fresh, self.evaluate(fresh), strict=True):
            self.out.scores[repr(inp)] = sc
            self.out.inputs.append(inp)

    def score(self, sp: int, r: int) -> Score | None:
        key = self.known.get((sp, r))
        return None if key is None else self.out.scores.get(key)

    def pool(self) -> dict[int, list[int]]:
        ranks = {sp: s.pool_ranks(self.per_family, self.seed) for sp, s in enumerate(self.spaces)}
        batch = [(sp, r, self.spaces[sp].get(r)) for sp, rs in ranks.items() for r in rs]
        self._run(batch)
        self.out.log.pool = len(self.out.inputs)
        return ranks

    def start(self, ranks: dict[int, list[int]]) -> list[_Walker]:
        walkers: list[_Walker] = []
        for sp, rs in ranks.items():
            step = max(1, self.spaces[sp].total // (2 * max(len(rs), 1)))
            for obj in _OBJECTIVES:
                scored = [(r, s) for r in rs if (s := self.score(sp, r)) is not None
                          and (obj == "magnitude" or s.margin is not None)]
                scored.sort(key=lambda rs_: (_key(obj, rs_[1]), rs_[0]))
                walkers += [_Walker(sp, obj, r, step) for r, _ in scored[: self.walkers_per]]
        self.out.log.walkers = len(walkers)
        return walkers

    def _propose(self, walkers: list[_Walker]) -> list[tuple[int, int, Any]]:
        batch: list[tuple[int, int, Any]] = []
        asked: set[tuple[int, int]] = set()
        for w in walkers:
            for r in (w.rank - w.step, w.rank + w.step):
                at = (w.space, r)
                if at in self.known or at in asked or self.left[w.space] <= 0:
                    continue
                inp = self.spaces[w.space].get(r)
                if inp is None:
                    continue
                asked.add(at)
                batch.append((w.space, r, inp))
                self.left[w.space] -= 1
        return batch

    def _move(self, w: _Walker) -> bool:
        """Move ``w`` to its better neighbour or halve its step; whether it is still searching."""
        here = self.score(w.space, w.rank)
        assert here is not None
        best, best_key = None, _key(w.objective, here)
        for r in (w.rank - w.step, w.rank + w.step):
            s = self.score(w.space, r)
            if s is None or (w.objective == "margin" and s.margin is None):
                continue
            if _key(w.objective, s) < best_key:
                best, best_key = r, _key(w.objective, s)
        if best is not None:
            w.rank, w.stale = best, 0
            return True
        pending = any((w.space, r) not in self.known and self.spaces[w.space].get(r) is not None
                      for r in (w.rank - w.step, w.rank + w.step))
        if pending:  # a neighbour the budget did not allow: the walker stops where it is
            return False
        w.step //= 2
        w.stale += 1
        if w.step == 0:
            self.out.log.converged += 1
        return w.step > 0 and w.stale < PATIENCE

    def refine(self, walkers: list[_Walker]) -> None:
        active = walkers
        while active:
            batch = self._propose(active)
            self._run(batch)
            self.out.log.rounds += 1
            active = [w for w in active if self._move(w)]
            active = _distinct(active)

    def result(self) -> Searched:
        log = self.out.log
        log.refined = len(self.out.inputs) - log.pool
        for obj in _OBJECTIVES:
            found = None
            for (sp, r), key in sorted(self.known.items(), key=lambda kv: kv[0]):
                s = self.out.scores.get(key)
                if s is None or (obj == "margin" and s.margin is None):
                    continue
                if found is None or _key(obj, s) < _key(obj, found.score):
                    found = Found(self.spaces[sp].get(r), self.spaces[sp].fam, r, s)
            if obj == "magnitude":
                log.largest = found
            else:
                log.smallest_margin = found
        return self.out


def _distinct(walkers: list[_Walker]) -> list[_Walker]:
    """Walkers that met (same family, objective and rank) continue as one, the first of them."""
    seen: set[tuple[int, str, int]] = set()
    out = []
    for w in walkers:
        k = (w.space, w.objective, w.rank)
        if k not in seen:
            seen.add(k)
            out.append(w)
    return out


def guided_search(families: Sequence[Family], n: int, evaluate: Evaluator, per_family: int = PER_FAMILY,
                  budget: int = SEARCH_BUDGET, walkers: int = WALKERS, seed: int = SEED,
                  source: dict[str, Family] | None = None) -> Searched:
    """Search the inputs of size ``n`` of ``families`` (module docstring); every input evaluated, with a log.

    ``source``, where given, is filled (before each evaluation) with the family each input came from, keyed by
    ``repr(input)``, and returned as :attr:`Searched.source`.
    """
    s = _Search(families, n, evaluate, per_family, budget, walkers, seed, source)
    ranks = s.pool()
    s.refine(s.start(ranks))
    return s.result()


def searched_family(families: Sequence[Family], name: str, inputs: Callable[[int], list[Any]],
                    source: Callable[[Any], Family | None]) -> Family:
    """The inputs a search evaluated at each size, as a non-exhaustive family described by their own families."""

    def describe(inp: Any) -> dict[str, Any]:
        fam = source(inp)
        return fam.describe(inp) if fam is not None else {"text": repr(inp)}

    return Family(name, inputs, lambda n: len(inputs(n)), describe, exhaustive=False)
