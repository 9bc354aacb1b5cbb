r"""The smallest λ that works, by exact replay: the same construction at λ = 0, 1, 2, … on every input.

A construction's λ is "a sufficiently large constant". :func:`smallest_lambda` finds, for a group of
inputs, the smallest integer λ in a range at which the construction (:meth:`Construction.with_lambda`)
agrees with the claim's spec on every input, and checks that the next values pass too (λ is expected to
work upward). Two checks use it:

* :class:`LambdaScanCheck` -- the exact (or batched) check at the construction's λ rule, then the scan per
  (family, size) in ``details`` (thm:cotdijkstra: compared with ``⌊D*⌋ + 1``, ``D*`` the largest finite
  tentative distance, and with ``(n - 1)·W + 1``);
* :class:`LambdaSweep` -- per ``n``, the smallest λ; ``λ_min − 1/2`` must fail (so no smaller rational
  works there) and the construction's own rule must pass (thm:cottreestrahler:lambda).

Symbolic replay finds λ_min exactly, for all real λ, by another method (:mod:`symcot.check.symbolic_check`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcot.check.exhaustive import Family, Progress, run_construction_check
from symcot.check.pool import can_fork, map_ordered
from symcot.check.spec import StepwiseSpec
from symcot.check.stepwise import check_input
from symcot.check.verdict import Verdict, jsonable
from symcot.constructions.base import Construction

#: How many λ values above the smallest one must also pass.
CONFIRM = 3
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
    ``not_upward_closed`` lists λ that passed every input while a larger λ within ``confirm`` failed.
    Inputs that failed at a smaller λ are tried first.
    """
    base = make()
    hard: list[int] = []
    skipped: list[Any] = []
    for value in candidates:
        cons = base.with_lambda(value)
        bad = first_failure(cons, spec, [inputs[i] for i in hard])
        if bad is None:
            bad = first_failure(cons, spec, inputs, jobs)
        if bad is not None:
            idx = inputs.index(bad)
            if idx not in hard:
                hard.append(idx)
            continue
        later = [value + k for k in range(1, confirm + 1)]
        failed = [v for v in later if first_failure(base.with_lambda(v), spec, inputs, jobs) is not None]
        if not failed:
            return {"smallest": value, "confirmed": later, "not_upward_closed": skipped}
        skipped.append(value)
    return {"smallest": None, "confirmed": [], "not_upward_closed": skipped}


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

    def run(self, claim_id: str, max_size: int, progress: Progress, jobs: int = 1, engine: str = "exact",
            reach: int | None = None) -> Verdict:
        """The verdict at the λ rule (exact or batched replay); ``details`` gets the scan (at ``max_size``)."""
        start = time.perf_counter()
        progress = progress or Progress(False)
        if engine == "batched":
            from symcot.check.batched_check import run_batched_check

            row = run_batched_check(claim_id, self.make(), self.spec, self.families, max_size, self.paper_sizes,
                                    progress=progress, method=f"{self.method} [batched engine]", jobs=jobs,
                                    reach=reach)
        elif engine == "exact":
            row = run_construction_check(claim_id, self.make(), self.spec, self.families, max_size,
                                         self.paper_sizes, progress=progress, method=self.method, jobs=jobs,
                                         reach=reach)
        else:
            raise ValueError(f"unknown engine {engine!r}")
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
        groups = []
        for fam in [*self.families, *self.scan_only]:
            top = fam.max_size if not fam.exhaustive else min(max_size, fam.max_size or max_size)
            for size in range(fam.min_size, (top or 0) + 1):
                inputs = list(fam.inputs(size))
                d_star = self.largest_value(inputs)
                limit = 2 * (int(d_star // 1) + 1) + 1
                with progress.bar(1, f"{claim_id}/{self.variant} λ-scan {fam.name} n={size}") as bar:
                    res = smallest_lambda(self.make, self.spec, inputs, range(1, limit + 1), jobs=jobs)
                    bar.update(1)
                entry: dict[str, Any] = {"family": fam.name, "n": size, "inputs": len(inputs), **res, "limit": limit,
                                         "largest_finite_distance": d_star, "floor_D_plus_1": int(d_star // 1) + 1}
                if fam.name in self.weight_of and size >= 2:
                    entry["W"] = self.weight_of[fam.name]
                    entry["(n-1)W+1"] = (size - 1) * self.weight_of[fam.name] + 1
                groups.append(entry)
        return groups


@dataclass
class LambdaSweep:
    """Per ``n`` up to the size asked, the smallest λ for which the variant passes every input of that size.

    ``λ_min − 1/2`` must fail (no smaller rational works) and the construction's own λ rule must pass:
    refuted when the rule does not suffice at some ``n``, or when λ is not monotone (λ_min passes, the rule
    fails).
    """

    variant: str
    make: Callable[[], Construction]
    spec: StepwiseSpec
    family: Family
    method: str = "exact replay for λ = 0, 1, 2, … per n; λ_min - 1/2 and the λ rule checked"

    def _first_failure(self, lam_value: Any, size: int) -> tuple[int, dict[str, Any] | None]:
        cons = self.make().with_lambda(lam_value)
        checked = 0
        for inp in self.family.inputs(size):
            checked += 1
            mm = check_input(cons, self.spec, inp)
            if mm is not None:
                return checked, {"family": self.family.name, "size": size, "input": self.family.describe(inp),
                                 "lambda": lam_value, **mm.as_dict()}
        return checked, None

    def run(self, claim_id: str, max_size: int, progress: Progress, jobs: int = 1) -> Verdict:
        """Sweep λ at every n ≤ ``max_size``; refuted if the λ rule fails somewhere (``error`` if it crashes)."""
        start = time.perf_counter()
        try:
            return self._run(claim_id, max_size, start)
        except Exception as e:  # noqa: BLE001 - a crashing check is an "error" verdict, as in run_property_check
            return Verdict(claim_id, self.variant, "error", self.method, None, 0, time.perf_counter() - start,
                           None, [f"check failed: {type(e).__name__}: {e}"])

    def _rule_at(self, size: int) -> Any:
        first = next(iter(self.family.inputs(size)))
        return self.make().lam_value(first)

    def _run(self, claim_id: str, max_size: int, start: float) -> Verdict:
        checked = 0
        per_n: list[dict[str, Any]] = []
        for size in range(1, max_size + 1):
            bound = self._rule_at(size)
            lam_min = None
            below: dict[str, Any] | None = None
            for cand in range(0, int(bound) + 1):
                k, cex = self._first_failure(cand, size)
                checked += k
                if cex is None:
                    lam_min = cand
                    break
                below = cex
            if lam_min is None:
                return self._refuted(claim_id, size, checked, start, below, f"the λ rule {bound} does not suffice "
                                     f"at n = {size}", per_n)
            row: dict[str, Any] = {"n": size, "smallest_lambda": lam_min, "paper_bound": bound}
            if lam_min > 0:
                k, half = self._first_failure(lam_min - Fraction(1, 2), size)
                checked += k
                row["lambda_minus_half_fails"] = half is not None
                row["counterexample_below"] = below
            if lam_min != bound:
                k, cex = self._first_failure(bound, size)
                checked += k
                if cex is not None:
                    return self._refuted(claim_id, size, checked, start, cex, f"not monotone in λ: λ = {lam_min} "
                                         f"passes but the rule's {bound} fails", per_n)
            per_n.append(row)
        notes = ["smallest λ per n: " + ", ".join(f"n={r['n']}: {r['smallest_lambda']}" for r in per_n)]
        bad_half = [r["n"] for r in per_n if r.get("lambda_minus_half_fails") is False]
        if bad_half:
            notes.append(f"λ_min - 1/2 also passes at n = {bad_half}: the smallest λ is not an integer there")
        return Verdict(claim_id, self.variant, "verified", self.method, max_size, checked,
                       time.perf_counter() - start, None, notes, None,
                       [{"family": self.family.name, "exhaustive": True, "sizes_complete": list(range(1, max_size + 1)),
                         "inputs_checked": checked}], jsonable({"smallest_lambda": per_n}))

    def _refuted(self, claim_id: str, size: int, checked: int, start: float, cex: Any, note: str,
                 per_n: list[dict[str, Any]]) -> Verdict:
        return Verdict(claim_id, self.variant, "refuted", self.method, size - 1 if size > 1 else None, checked,
                       time.perf_counter() - start, jsonable(cex), [note], None, [],
                       jsonable({"smallest_lambda": per_n}))


__all__ = ["CONFIRM", "LambdaScanCheck", "LambdaSweep", "first_failure", "smallest_lambda"]
