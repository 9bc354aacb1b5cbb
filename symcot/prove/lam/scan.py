r"""The smallest λ that works, by exact replay of the same construction at λ = 1, 2, 3, … on every input.

A construction's λ is "a sufficiently large constant". :func:`first_failure` is the one exact-replay scan every
value-search of :mod:`symcot.prove.lam` runs (in forked processes for long input lists); :func:`smallest_lambda`
finds, for a group of inputs, the smallest integer λ in a range at which the construction
(:meth:`Construction.with_lambda`) agrees with the claim's spec on every input and checks that the next values
pass too (the shared search :func:`symcot.lemmas.least.least` over a :class:`~symcot.lemmas.least.Scan`);
:class:`LambdaScanCheck` is the exact (or batched) check at the construction's λ rule followed by that scan per
(family, size), compared with the bounds the claim names (e.g. ``⌊D*⌋ + 1`` for ``D*`` the largest finite
tentative distance, and ``(n - 1)·W + 1``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.check.context import RunContext, Schedule
from symcot.check.exhaustive import Family, Progress, run_construction_check, size_schedule
from symcot.check.pool import can_fork, map_ordered
from symcot.check.spec import StepwiseSpec
from symcot.check.stepwise import check_input
from symcot.check.verdict import Verdict
from symcot.constructions.base import Construction
from symcot.lemmas.least import Certificate, LambdaAnswer, Scan, least

#: How many λ values above the smallest one must also pass.
CONFIRM = 3
#: The first λ a group's scan tries.
FIRST = 1
#: A scan pass over at least this many inputs is split over processes (``--jobs``).
PARALLEL_MIN = 2_000


def _scan_slice(cons: Construction, spec: StepwiseSpec, inputs: Sequence[Any], lo: int, hi: int) -> int | str | None:
    try:
        for i in range(lo, hi):
            if check_input(cons, spec, inputs[i]) is not None:
                return i
        return None
    except Exception as e:  # noqa: BLE001 - reported to the parent, which raises it
        return f"{type(e).__name__}: {e}"


def first_failure(cons: Construction, spec: StepwiseSpec, inputs: Sequence[Any], jobs: int = 1) -> Any:
    """The first input (in order) on which ``cons`` departs from ``spec``; ``None`` if there is none.

    With ``jobs > 1`` a long list is split into contiguous slices checked by the workers of
    :mod:`symcot.check.pool` (nothing is pickled but slice indices); the answer is the same as in one process.
    """
    if jobs > 1 and len(inputs) >= PARALLEL_MIN and can_fork():
        step = -(-len(inputs) // jobs)
        found = [x for _, x in map_ordered(lambda lo: _scan_slice(cons, spec, inputs, lo, min(lo + step, len(inputs))),
                                           range(0, len(inputs), step), jobs)]
        errors = [x for x in found if isinstance(x, str)]
        if errors:
            raise RuntimeError(f"λ-scan worker failed: {errors[0]}")
        bad = [i for i in found if isinstance(i, int)]
        return inputs[min(bad)] if bad else None
    for inp in inputs:
        if check_input(cons, spec, inp) is not None:
            return inp
    return None


def smallest_lambda(make: Callable[[], Construction], spec: StepwiseSpec, inputs: list[Any],
                    candidates: Iterable[Any], confirm: int = CONFIRM, jobs: int = 1) -> dict[str, Any]:
    """The smallest candidate λ that passes every input and the next ``confirm`` integers above it.

    Returns ``{"smallest": λ or None, "confirmed": [...], "not_upward_closed": [...]}``;
    ``not_upward_closed`` lists λ that passed every input while a larger λ within ``confirm`` failed (the shared
    :class:`~symcot.lemmas.least.Scan`). Inputs that failed at a smaller λ are tried first.
    """
    base = make()
    hard: list[int] = []

    def passes(value: Any) -> bool:
        cons = base.with_lambda(value)
        bad = first_failure(cons, spec, [inputs[i] for i in hard])
        if bad is None:
            bad = first_failure(cons, spec, inputs, jobs)
        if bad is None:
            return True
        idx = inputs.index(bad)
        if idx not in hard:
            hard.append(idx)
        return False

    found = least(passes, Scan(candidates, confirm))
    later = [] if found.value is None else [found.value + k for k in range(1, confirm + 1)]
    return {"smallest": found.value, "confirmed": later, "not_upward_closed": found.not_monotone}


@dataclass
class LambdaScanCheck:
    """The exact-replay check at the construction's λ rule, then a smallest-λ scan per (family, size).

    ``make()`` builds the variant's construction. ``scan_only`` families are scanned for λ but are not
    part of the verdict. ``largest_value(inputs)`` bounds the scan (``2(⌊D*⌋ + 1) + 1``) and is reported;
    ``weight_of`` gives a family's weight bound ``W`` (to compare with ``(n - 1)·W + 1``).
    """

    variant: str
    make: Callable[[], Construction]
    spec: StepwiseSpec
    families: list[Family]
    largest_value: Callable[[Iterable[Any]], Any]
    scan_only: list[Family] = field(default_factory=list)
    paper_sizes: dict[str, Any] = field(default_factory=dict)
    weight_of: dict[str, int] = field(default_factory=dict)
    method: str = "exhaustive exact replay, every CoT step; smallest-λ scan"
    input_kind: str = "graph"

    def construction(self) -> Construction:
        """The variant at its λ rule (used by ``symcot replay``)."""
        return self.make()

    def schedule(self, ctx: RunContext) -> Schedule:
        """The check at the λ rule: every family up to ``ctx.max_size`` (``ctx.reach``), through ``ctx.engine``.

        The λ scan that follows (a replay per value tried, of the groups up to ``ctx.max_size``) is not counted.
        """
        return Schedule(size_schedule(self.families, ctx.max_size, ctx.reach), ctx.engine)

    def run(self, ctx: RunContext) -> Verdict:
        """The verdict at the λ rule (exact or batched replay); ``details`` gets the scan (at ``ctx.max_size``)."""
        start = time.perf_counter()
        claim_id, max_size, progress, jobs = ctx.claim_id, ctx.max_size, ctx.progress, ctx.jobs
        if ctx.engine == "batched":
            from symcot.check.batched_check import run_batched_check

            row = run_batched_check(claim_id, self.make(), self.spec, self.families, max_size, self.paper_sizes,
                                    progress=progress, method=f"{self.method} [batched engine]", jobs=jobs,
                                    reach=ctx.reach, engine=ctx.shard_engine)
        else:
            row = run_construction_check(claim_id, self.make(), self.spec, self.families, max_size,
                                         self.paper_sizes, progress=progress, method=self.method, jobs=jobs,
                                         reach=ctx.reach)
        if row.verdict == "error":
            return row
        groups = self._scan(claim_id, max_size, progress, jobs)
        found = [g for g in groups if g["smallest"] is not None]
        cons = self.make()
        row.details = {
            "lambda_rule": f"{cons.lambda_text} (what the proof needs: λ above every tentative distance)",
            "scan": f"integer λ = 1, 2, … up to 2(⌊D*⌋ + 1) + 1 per group (D*: the group's largest finite "
                    f"tentative distance); the first λ passing every input must also pass the next {CONFIRM} values",
            "smallest_lambda": groups,
            "lambda_answers": [self.answer(g).as_dict() for g in groups],
            "smallest_equals_floor_D_plus_1": all(g["smallest"] == g["floor_D_plus_1"] for g in found) if found
            else None,
            "smallest_equals_(n-1)W+1": all(g["smallest"] == g["(n-1)W+1"] for g in found if "(n-1)W+1" in g)
            if any("(n-1)W+1" in g for g in found) else None,
            "groups_without_working_lambda": [f"{g['family']} n={g['n']} (none in 1..{g['limit']})"
                                              for g in groups if g["smallest"] is None],
        }
        row.seconds = time.perf_counter() - start
        return row

    def _scan(self, claim_id: str, max_size: int, progress: Progress, jobs: int) -> list[dict[str, Any]]:
        """One entry per (family, size), in order; with ``jobs > 1`` the groups are scanned in parallel."""
        plan = [(fam, size) for fam in [*self.families, *self.scan_only]
                for size in range(fam.min_size, (self._top(fam, max_size) or 0) + 1)]
        if jobs > 1 and len(plan) > 1 and can_fork():
            # a group per worker, each in one process (the groups are independent; the order is kept; only
            # the group's index is sent)
            with progress.bar(len(plan), f"{claim_id}/{self.variant} λ-scan") as bar:
                groups = []
                for _, entry in map_ordered(lambda k: self._group(*plan[k], 1), range(len(plan)), jobs):
                    groups.append(entry)
                    bar.update(1)
            return groups
        groups = []
        for fam, size in plan:
            with progress.bar(1, f"{claim_id}/{self.variant} λ-scan {fam.name} n={size}") as bar:
                groups.append(self._group(fam, size, jobs))
                bar.update(1)
        return groups

    def answer(self, group: dict[str, Any]) -> LambdaAnswer:
        """One group of :meth:`run`'s ``details["smallest_lambda"]`` as a :class:`LambdaAnswer` (scope: one size).

        Below the smallest λ the scan saw ``smallest - 1`` fail (every candidate below it was tried, and one that
        passed would have failed its confirmation at ``smallest`` or above); the first candidate, :data:`FIRST`,
        needs no refutation below it.
        """
        v = group["smallest"]
        confirmed = ", ".join(map(str, group["confirmed"]))
        at = None if v is None else f"every input passes at λ = {v} and at λ = {confirmed}"
        below = None if v is None or v == FIRST else {"λ": v - 1, "status": "fails on an input"}
        return LambdaAnswer(v, "size", self.method, Certificate(at, below), at=f"{group['family']} n = {group['n']}",
                            holds_at_value=None if v is None else True,
                            certified=v is not None)

    @staticmethod
    def _top(fam: Family, max_size: int) -> int | None:
        return fam.max_size if not fam.exhaustive else min(max_size, fam.max_size or max_size)

    def _group(self, fam: Family, size: int, jobs: int) -> dict[str, Any]:
        """The scan of one (family, size): the smallest λ and how it compares with the distances and ``W``."""
        inputs = list(fam.inputs(size))
        d_star = self.largest_value(inputs)
        limit = 2 * (int(d_star // 1) + 1) + 1
        res = smallest_lambda(self.make, self.spec, inputs, range(FIRST, limit + 1), jobs=jobs)
        entry: dict[str, Any] = {"family": fam.name, "n": size, "inputs": len(inputs), **res, "limit": limit,
                                 "largest_finite_distance": d_star, "floor_D_plus_1": int(d_star // 1) + 1}
        if fam.name in self.weight_of and size >= 2:
            entry["W"] = self.weight_of[fam.name]
            entry["(n-1)W+1"] = (size - 1) * self.weight_of[fam.name] + 1
        return entry


__all__ = ["CONFIRM", "FIRST", "LambdaScanCheck", "first_failure", "smallest_lambda"]
