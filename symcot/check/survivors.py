"""A mutant that passes the claim's check at its default size, compared with the original beyond that size.

:func:`compare_beyond` decides what a survivor is, on larger inputs than the check saw: first every input of
the claim's exhaustive families one and two sizes above the default (each size only if it fits the time
budget, estimated from the rate measured so far), then seeded random inputs of every size up to the reach
size (uniform ranks of the exhaustive families, and the claim's own sampled families). On each input the
mutant's tokens are compared with the original's, every coordinate of every step
(:func:`symcot.check.equivalence.token_diffs`); where they differ, the claim's per-input check decides:

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
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from symcot.check.equivalence import locate, token_diffs
from symcot.check.exhaustive import Family
from symcot.check.mutation import Target
from symcot.check.shard import range_function
from symcot.check.stepwise import check_input
from symcot.check.verdict import jsonable
from symcot.constructions.base import Construction

#: Inputs compared together (one batched run of each construction).
CHUNK = 2048


@dataclass
class Beyond:
    """What comparing a survivor with the original beyond the default size found (see the module docstring)."""

    status: str = "equivalent"  # equivalent | scratch-only | exposed
    size: int | None = None  # exposed: the size of the exposing input
    family: str | None = None
    exhaustive: bool | None = None
    input: Any = None
    where: dict[str, Any] | None = None  # the check's counterexample
    departure: dict[str, Any] | None = None  # where the two runs part
    scratch: dict[str, int] = field(default_factory=dict)  # block -> inputs on which only it (and others) differ
    scratch_example: dict[str, Any] | None = None
    sizes_exhaustive: list[int] = field(default_factory=list)
    sizes_sampled: list[int] = field(default_factory=list)
    sizes_skipped: dict[int, int] = field(default_factory=dict)  # exhaustive size -> inputs (over the budget)
    inputs_compared: int = 0
    budget_exhausted: bool = False  # the random inputs stopped before the reach size
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


def _compare(target: Target, base: Construction, mutant: Construction, fam: Family, size: int,
             inputs: list[Any], out: Beyond, clock: _Clock) -> bool:
    """Compare one list of inputs; record into ``out``; ``True`` once the mutant is exposed."""
    t0 = time.perf_counter()
    steps = [len(target.spec.reference(inp)) - 1 for inp in inputs]
    diffs = token_diffs(base, mutant, inputs, steps)
    out.inputs_compared += len(inputs)
    for d in diffs:
        inp = inputs[d.index]
        mm = check_input(mutant, target.spec, inp)
        dep = locate(base, mutant, inp, steps[d.index])
        if mm is not None:
            out.status, out.size, out.family, out.exhaustive = "exposed", size, fam.name, fam.exhaustive
            out.input, out.where = fam.describe(inp), mm.as_dict()
            out.departure = dep.as_dict() if dep else None
            return True
        for b in d.blocks:
            out.scratch[b] = out.scratch.get(b, 0) + 1
        if out.scratch_example is None:
            out.scratch_example = {"size": size, "family": fam.name, "input": fam.describe(inp), "step": d.step,
                                   "blocks": d.blocks, "departure": dep.as_dict() if dep else None}
    elapsed = time.perf_counter() - t0
    clock.per_input = max(clock.per_input, elapsed / max(1, len(inputs)))
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


def compare_beyond(target: Target, base: Construction, mutant: Construction, from_size: int, reach: int,
                   budget: float = 60.0, exhaustive_sizes: int = 2, per_size: int = 8, seed: Any = 0,
                   rate: float = 0.0) -> Beyond:
    """Compare ``mutant`` with ``base`` on inputs above ``from_size`` (module docstring).

    ``rate`` is a first estimate of the seconds per input (from the default-size check), to decide whether an
    exhaustive size fits ``budget`` before measuring it.
    """
    out = Beyond()
    clock = _Clock(budget, per_input=2 * rate)
    exhaustive = [f for f in target.families if f.exhaustive]
    last = from_size
    for size in range(from_size + 1, from_size + exhaustive_sizes + 1):
        fams = [f for f in exhaustive if f.min_size <= size and (f.max_size is None or size <= f.max_size)]
        if not fams:
            break
        count = sum(f.count(size) for f in fams)
        if not clock.fits(count):
            out.sizes_skipped[size] = count
            break
        for fam in fams:
            it = iter(fam.inputs(size))
            while chunk := list(islice(it, CHUNK)):
                if _compare(target, base, mutant, fam, size, chunk, out, clock):
                    out.seconds = time.perf_counter() - clock.start
                    return out
        out.sizes_exhaustive.append(size)
        last = size
    for size in range(last + 1, max(reach, _tops(target.families)) + 1):
        if clock.left() <= 0:
            out.budget_exhausted = True
            break
        compared = False
        for fam in target.families:
            inputs = _sample(fam, size, per_size, seed)
            if not inputs:
                continue
            compared = True
            if _compare(target, base, mutant, fam, size, inputs, out, clock):
                out.seconds = time.perf_counter() - clock.start
                return out
        if compared:
            out.sizes_sampled.append(size)
    if out.scratch:
        out.status = "scratch-only"
    out.seconds = time.perf_counter() - clock.start
    return out
