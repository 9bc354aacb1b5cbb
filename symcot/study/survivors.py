"""A mutant that passes the claim's check at its default size, compared with the original beyond that size.

:func:`compare_beyond` decides what a survivor is, on larger inputs than the check saw: first every input of
the claim's exhaustive families one and two sizes above the default (each size only if it fits the time
budget, estimated from the rate measured so far), then seeded random inputs of every size up to the reach
size (uniform ranks of the exhaustive families, and the claim's own sampled families). On each input the
mutant's tokens are compared with the original's, every coordinate of every step
(:func:`symcot.study.equivalence.token_diffs`); where they differ, the claim's check decides, on those inputs
together with the batched checker (:class:`~symcot.check.batched_check.BatchedChecker`: the verdict of the
per-input check, its counterexample from exact replay):

* it fails: the mutant is **exposed** (behaviour-changing): the input, its size (the *kill size*; the
  smallest one when found by an exhaustive size), the check's counterexample and where the runs part;
* it passes: the difference is in **scratch** blocks (or at steps) the check does not compare; the blocks
  are counted and the first such input kept.

With no exposure the survivor is ``scratch-only`` (some tokens differ) or ``equivalent`` (none does) on
every input compared, which the record lists (sizes exhaustive, sizes sampled, inputs).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from symcot.check.batched_check import BatchedChecker
from symcot.check.exhaustive import Family
from symcot.check.shard import range_function
from symcot.check.spec import StepwiseSpec
from symcot.check.stepwise import check_input
from symcot.check.verdict import jsonable
from symcot.constructions.base import Construction
from symcot.study.equivalence import locate, token_diffs
from symcot.study.mutation import Target

#: Inputs compared together (one batched run of each construction).
CHUNK = 2048


@dataclass
class Beyond:
    """What comparing a survivor with the original beyond the default size found (see the module docstring)."""

    status: str = "equivalent"  # equivalent | scratch-only | exposed
    size: int | None = None  # exposed: the size of the exposing input
    family: str | None = None
    exhaustive: bool | None = None  # exposed by comparing every input of its size (not by a random input)
    smallest: bool | None = None  # exposed, and every exhaustive family was compared completely below that size
    input: Any = None
    where: dict[str, Any] | None = None  # the check's counterexample
    departure: dict[str, Any] | None = None  # where the two runs part
    scratch: dict[str, int] = field(default_factory=dict)  # block -> inputs on which only it (and others) differ
    scratch_example: dict[str, Any] | None = None
    every: dict[str, list[int]] = field(default_factory=dict)  # family -> sizes compared on every input
    sampled: dict[str, list[int]] = field(default_factory=dict)  # family -> sizes compared on random inputs
    over_budget: dict[str, list[int]] = field(default_factory=dict)  # family -> [size, inputs] that did not fit
    inputs_compared: int = 0
    budget_exhausted: bool = False  # the comparison stopped before the reach size
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return jsonable({k: getattr(self, k) for k in self.__dataclass_fields__})

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Beyond:
        """Inverse of :meth:`as_dict` (inputs stay in their described form)."""
        return cls(**d)


@dataclass
class _Clock:
    budget: float
    start: float = field(default_factory=time.perf_counter)
    per_input: float = 0.0  # seconds per compared input, measured

    def left(self) -> float:
        return self.budget - (time.perf_counter() - self.start)

    def fits(self, count: int) -> bool:
        return count * max(self.per_input, 1e-4) <= self.left()


def _check(checker: BatchedChecker | None, mutant: Construction, spec: StepwiseSpec,
           inputs: list[Any]) -> tuple[list[dict[str, Any] | None], BaseException | None]:
    """The check's results on ``inputs`` in order, up to the first failure (:meth:`BatchedChecker.check`).

    ``checker=None``: by exact replay, input by input (:func:`check_input`), the reference of the batched path.
    """
    if checker is not None:
        return checker.check(inputs)
    results: list[dict[str, Any] | None] = []
    for inp in inputs:
        mm = check_input(mutant, spec, inp)
        results.append(None if mm is None else mm.as_dict())
        if mm is not None:
            break
    return results, None


def _compare(target: Target, base: Construction, mutant: Construction, fam: Family, size: int,
             inputs: list[Any], out: Beyond, clock: _Clock, every: bool, checker: BatchedChecker | None) -> bool:
    """Compare one list of inputs (``every``: all of the size, in order); ``True`` once the mutant is exposed.

    The check runs on the inputs whose tokens differ, in order, up to the first failure (:func:`_check`); where
    the runs part is located only for the inputs the record keeps (the exposing one, the first scratch one).
    """
    t0 = time.perf_counter()
    steps = [len(target.spec.reference(inp)) - 1 for inp in inputs]
    diffs = token_diffs(base, mutant, inputs, steps)
    out.inputs_compared += len(inputs)
    results, err = _check(checker, mutant, target.spec, [inputs[d.index] for d in diffs]) if diffs else ([], None)
    for d, mm in zip(diffs, results):
        inp = inputs[d.index]
        if mm is not None:
            dep = locate(base, mutant, inp, steps[d.index])
            out.status, out.size, out.family, out.exhaustive = "exposed", size, fam.name, every
            out.input, out.where = fam.describe(inp), mm
            out.departure = dep.as_dict() if dep else None
            return True
        for b in d.blocks:
            out.scratch[b] = out.scratch.get(b, 0) + 1
        if out.scratch_example is None:
            dep = locate(base, mutant, inp, steps[d.index])
            out.scratch_example = {"size": size, "family": fam.name, "input": fam.describe(inp), "step": d.step,
                                   "blocks": d.blocks, "departure": dep.as_dict() if dep else None}
    if err is not None:
        raise err
    clock.per_input = (time.perf_counter() - t0) / max(1, len(inputs))  # the latest rate
    return False


def _sample(fam: Family, size: int, k: int, seed: Any) -> list[Any]:
    """``k`` seeded inputs of ``fam`` at ``size``: uniform ranks (exhaustive families), or the family's own sample."""
    if not fam.exhaustive:
        top = fam.max_size if fam.max_size is not None else size
        return list(fam.inputs(size)) if fam.min_size <= size <= top else []
    rng_fn = range_function(fam)
    total = fam.count(size) if size >= fam.min_size else 0
    if rng_fn is None or total <= 0:
        return []
    rng = random.Random(f"{seed}:{fam.name}:{size}")
    ranks = sorted(rng.randrange(total) for _ in range(min(k, total)))
    return [next(iter(rng_fn(size, r, r + 1))) for r in ranks]


def _tops(fams: Iterable[Family]) -> int:
    return max((f.max_size or 0) for f in fams)


def _every(target: Target, base: Construction, mutant: Construction, fam: Family, size: int, out: Beyond,
           clock: _Clock, checker: BatchedChecker | None) -> str:
    """Compare every input of ``fam`` at ``size``, chunk by chunk while the rest fits the budget.

    Returns ``exposed``, ``done`` or ``abandoned`` (the rest did not fit: the inputs compared so far count, the
    size does not).
    """
    total, done = fam.count(size), 0
    if clock.left() <= 0:
        return "abandoned"
    for chunk in _chunks(fam, size):
        if done and not clock.fits(total - done):
            return "abandoned"
        if _compare(target, base, mutant, fam, size, chunk, out, clock, True, checker):
            return "exposed"
        done += len(chunk)
    return "done"


def _chunks(fam: Family, size: int) -> Iterator[list[Any]]:
    it = iter(fam.inputs(size))
    while chunk := list(islice(it, CHUNK)):
        yield chunk


def in_domain(fam: Family, size: int) -> bool:
    """Whether ``fam`` has inputs of ``size`` to enumerate in full (its own cap is where its check stops)."""
    return fam.exhaustive and fam.min_size <= size and (fam.max_size is None or size <= fam.max_size)


def compare_beyond(target: Target, base: Construction, mutant: Construction, from_size: int, reach: int,
                   budget: float = 60.0, per_size: int = 8, seed: Any = 0, rate: float = 0.0,
                   exact: bool = False) -> Beyond:
    """Compare ``mutant`` with ``base`` on inputs above ``from_size`` (module docstring).

    Size by size up to ``reach``: each exhaustive family on every input of the size, chunk by chunk while the
    rest fits the ``budget`` (estimated from the latest chunk's rate; ``rate`` is a first estimate in seconds
    per input), else, from then on, on ``per_size`` seeded random inputs; the claim's sampled families on
    their own inputs. The first size with an exposing input ends the comparison. The check decides the inputs
    whose tokens differ with the batched checker, or (``exact``) by exact replay input by input: the same record.
    """
    out = Beyond()
    clock = _Clock(budget, per_input=2 * rate)
    checker = None if exact else BatchedChecker(mutant, target.spec)
    full = {f.name for f in target.families if f.exhaustive}  # families still compared on every input
    for size in range(from_size + 1, max(reach, _tops(target.families)) + 1):
        if clock.left() <= 0:
            out.budget_exhausted = True
            break
        for fam in target.families:
            got = "abandoned"
            if fam.name in full and in_domain(fam, size):
                got = _every(target, base, mutant, fam, size, out, clock, checker)
                if got == "done":
                    out.every.setdefault(fam.name, []).append(size)
                elif got == "abandoned":
                    full.discard(fam.name)
                    out.over_budget[fam.name] = [size, fam.count(size)]
            if got == "abandoned":
                inputs = _sample(fam, size, per_size, seed)
                if inputs:
                    exposed = _compare(target, base, mutant, fam, size, inputs, out, clock, False, checker)
                    got = "exposed" if exposed else got
                    out.sampled.setdefault(fam.name, []).append(size)
            if got == "exposed":
                out.smallest = out.exhaustive and all(s in out.every.get(f.name, []) for f in target.families
                                                      for s in range(from_size + 1, size) if in_domain(f, s))
                out.seconds = time.perf_counter() - clock.start
                return out
    if out.scratch:
        out.status = "scratch-only"
    out.seconds = time.perf_counter() - clock.start
    return out
