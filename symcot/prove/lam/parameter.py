"""How large one constant of a construction must be: the smallest working value per size, against the text.

Some constants are chosen by the text with a bound ("considering V_max = n"; a footnote's "any λ above this
threshold satisfies the lemma"). :class:`ParameterScan` rebuilds the construction at values ``0, 1, 2, …``
of the constant (``make(value)``) and replays every input of a (family, size) group exactly against the
claim's spec, until a value passes every input (the shared search :func:`symcot.lemmas.least.least`): that is
the smallest integer value. Then it checks that ``smallest - 1/2`` fails (no smaller rational works), that
the construction's own value passes, and, when the text states a threshold above which every value works,
that a value just above it passes. The row is refuted when the construction's own value or a value above the
stated threshold fails; ``details`` has the smallest value per group beside the text's
(:meth:`ParameterScan.answer` reads one as a :class:`~symcot.lemmas.least.LambdaAnswer`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcot.check.context import RunContext, Schedule
from symcot.check.exhaustive import Family
from symcot.check.spec import StepwiseSpec
from symcot.check.stepwise import check_input
from symcot.check.verdict import Verdict, jsonable
from symcot.constructions.base import Construction
from symcot.lemmas.least import Certificate, LambdaAnswer, Scan, least
from symcot.prove.lam.scan import first_failure

#: ``threshold(size)``: the text's threshold there, as ``(a value just above it, the threshold in words)``.
Threshold = Callable[[int], tuple[Any, str]]


@dataclass
class ParameterScan:
    """Per (family, size), the smallest value of a construction's constant that passes every input.

    Attributes:
        variant: the construction variant the scan runs on.
        make: ``make(value)`` builds the variant with the constant at ``value``.
        spec: the claim's comparison.
        families: the inputs (each size of each exhaustive family is one group).
        parameter: the constant's name (``"V_max"``, ``"λ of lem:mMc"``).
        rule: ``rule(size)``: the construction's own value there (what the text prints).
        threshold: the text's "any value above T works", if it states one (see :data:`Threshold`).

    """

    variant: str
    make: Callable[[Any], Construction]
    spec: StepwiseSpec
    families: list[Family]
    parameter: str
    rule: Callable[[int], Any]
    threshold: Threshold | None = None
    method: str = ""
    input_kind: str = "graph"
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.method:
            self.method = (f"exact replay of every input at {self.parameter} = 0, 1, 2, … per size; the smallest "
                           "value - 1/2, the construction's own value" + (" and a value just above the text's "
                                                                            "threshold" if self.threshold else "")
                           + " checked")

    def _failure(self, value: Any, inputs: list[Any], fam: Family, size: int,
                 jobs: int = 1) -> tuple[int, dict[str, Any] | None]:
        cons = self.make(value)
        bad = first_failure(cons, self.spec, inputs, jobs)
        if bad is None:
            return len(inputs), None
        mm = check_input(cons, self.spec, bad)
        assert mm is not None
        return inputs.index(bad) + 1, {"family": fam.name, "size": size, "input": fam.describe(bad),
                                       self.parameter: value, **mm.as_dict()}

    def _smallest(self, top: int, inputs: list[Any], fam: Family,
                  size: int) -> tuple[int | None, dict[str, Any] | None, int]:
        """The least value in ``0..top`` passing every input, with the counterexample below it and the inputs replayed.

        The values are scanned in order (the shared :class:`~symcot.lemmas.least.Scan`); the counterexample is the
        one at the last value that failed before the answer (at ``top`` when none passes).
        """
        cexs: dict[int, dict[str, Any]] = {}
        replayed = 0

        def passes(value: int) -> bool:
            nonlocal replayed
            k, cex = self._failure(value, inputs, fam, size)
            replayed += k
            if cex is not None:
                cexs[value] = cex
            return cex is None

        found = least(passes, Scan(range(0, top + 1)))
        last = found.below if found.found else (found.tried[-1][0] if found.tried else None)
        return found.value, None if last is None else cexs[last], replayed

    def answer(self, group: dict[str, Any]) -> LambdaAnswer:
        """One group of a verified row's ``details["groups"]`` as a :class:`LambdaAnswer` (scope: one size).

        The certificate: every input passes at the smallest value; below, the counterexample at ``smallest - 1``
        and whether ``smallest - 1/2`` fails (the scan starts at 0, which needs no refutation below it).
        """
        v = group["smallest"]
        below = None if v == 0 else {"counterexample": group["counterexample_below"],
                                      "minus_half_fails": group["smallest_minus_half_fails"]}
        return LambdaAnswer(v, "size", self.method, Certificate(f"every input passes at {self.parameter} = {v}", below),
                            at=f"{group['family']} n = {group['n']}",
                            certified=below is None or (below["counterexample"] is not None
                                                        and below["minus_half_fails"]))

    def schedule(self, ctx: RunContext) -> Schedule:
        """The groups, family by family, each size up to ``ctx.max_size``, replayed exactly.

        Each input is replayed once per value tried, so the inputs the schedule counts are a lower bound.
        """
        return Schedule([(size, fam) for fam in self.families
                         for size in range(fam.min_size, min(ctx.max_size, fam.max_size or ctx.max_size) + 1)],
                        "exact")

    def run(self, ctx: RunContext) -> Verdict:
        """Scan every group up to ``ctx.max_size``; refuted when the printed value or the stated threshold fails."""
        start = time.perf_counter()
        claim_id, max_size, progress = ctx.claim_id, ctx.max_size, ctx.progress
        checked = 0
        groups: list[dict[str, Any]] = []
        done: dict[str, list[int]] = {f.name: [] for f in self.families}
        for size, fam in self.schedule(ctx).steps:
            inputs = list(fam.inputs(size))
            if not inputs:
                done[fam.name].append(size)
                continue
            own = self.rule(size)
            group: dict[str, Any] = {"family": fam.name, "n": size, "inputs": len(inputs), "printed": own}
            with progress.bar(1, f"{claim_id}/{self.variant} {self.parameter} scan {fam.name} n={size}") as bar:
                smallest, below, k = self._smallest(int(own), inputs, fam, size)
                checked += k
                bar.update(1)
            if smallest is None:
                return self._refuted(claim_id, checked, start, below,
                                     f"the printed {self.parameter} = {own} fails at n = {size}", groups, done)
            group["smallest"] = smallest
            group["slack"] = own - smallest
            if smallest > 0:
                k, half = self._failure(smallest - Fraction(1, 2), inputs, fam, size)
                checked += k
                group["smallest_minus_half_fails"] = half is not None
                group["counterexample_below"] = below
            if smallest != own:
                k, cex = self._failure(own, inputs, fam, size)
                checked += k
                if cex is not None:
                    return self._refuted(claim_id, checked, start, cex, f"not monotone: {self.parameter} = "
                                         f"{smallest} passes at n = {size} but the printed {own} fails", groups,
                                         done)
            if self.threshold is not None:
                above, text = self.threshold(size)
                k, cex = self._failure(above, inputs, fam, size)
                checked += k
                group.update({"threshold": text, "tested_above_threshold": above, "above_threshold_passes":
                              cex is None})
                if cex is not None:
                    return self._refuted(claim_id, checked, start, cex, f"{self.parameter} = {above}, above the "
                                         f"text's threshold {text}, fails at n = {size}", groups, done)
            groups.append(group)
            done[fam.name].append(size)
        upto = self._complete(done, max_size)
        notes = [f"smallest {self.parameter} per n: " + ", ".join(f"{g['n']}: {g['smallest']} (printed {g['printed']})"
                                                               for g in groups if g["family"] == self.families[0].name)]
        return Verdict(claim_id, self.variant, "verified", self.method, upto, checked, time.perf_counter() - start,
                       None, notes + list(self.notes), None, self._families(done, checked),
                       jsonable({"parameter": self.parameter, "groups": groups,
                                 "lambda_answers": [self.answer(g).as_dict() for g in groups]}))

    def _complete(self, done: dict[str, list[int]], max_size: int) -> int | None:
        """The largest ``s`` such that every exhaustive family (not a partial one) finished every size ``≤ s``."""
        whole = [f for f in self.families if f.exhaustive and not f.partial]
        best = None
        for s in range(1, max_size + 1):
            if not all(s < f.min_size or s in done[f.name] for f in whole):
                break
            best = s
        return best

    def _families(self, done: dict[str, list[int]], checked: int) -> list[dict[str, Any]]:
        return [{"family": f.name, "exhaustive": f.exhaustive, "sizes_complete": done[f.name]}
                for f in self.families]

    def _refuted(self, claim_id: str, checked: int, start: float, cex: Any, note: str, groups: list[dict[str, Any]],
                 done: dict[str, list[int]]) -> Verdict:
        size = (cex or {}).get("size")
        return Verdict(claim_id, self.variant, "refuted", self.method, None if size is None or size <= 1 else size - 1,
                       checked, time.perf_counter() - start, jsonable(cex), [note], None,
                       self._families(done, checked), jsonable({"parameter": self.parameter, "groups": groups,
                                 "lambda_answers": [self.answer(g).as_dict() for g in groups]}))


def lambda_sweep(variant: str, make: Callable[[], Construction], spec: StepwiseSpec, family: Family,
                 method: str = "") -> ParameterScan:
    """The smallest λ per size against the construction's own λ rule (e.g. "λ ≥ 2n - 1")."""
    def rule(size: int) -> Any:
        first = next(iter(family.inputs(size)))
        return make().lam_value(first)

    return ParameterScan(variant, lambda v: make().with_lambda(v), spec, [family], "λ", rule, method=method)


def just_above_log2(k: int, denominator: int = 8) -> tuple[Fraction, str]:
    """The smallest multiple of ``1/denominator`` strictly above ``log₂(k)``, exactly: ``2^(a/d) > k ⇔ 2^a > k^d``."""
    a = 0
    while 2 ** a <= k ** denominator:
        a += 1
    return Fraction(a, denominator), f"log2({k})"


__all__ = ["ParameterScan", "Threshold", "just_above_log2", "lambda_sweep"]
