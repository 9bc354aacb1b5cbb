"""Bounds stated in the text, checked on every input and measured for tightness.

A proof often sizes a block by a bound ("hgt(ψ(w)) is bounded above by n/2 + 1, that is, when ψ(w) is a
path"). :class:`BoundCheck` evaluates the bounded quantity on every input of a family, size by size: the
row is refuted at the first input above the bound, or -- when the text also says where the bound is
reached -- at the first input where that equality case fails (in either direction, when it says "exactly
when"). Whatever the verdict, ``details`` reports per size the largest value found, the bound, the slack
between them and how many inputs reach the largest value, so a reader sees how tight the bound is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from symcot.check.context import RunContext, Schedule
from symcot.check.exhaustive import Family
from symcot.check.verdict import Verdict, jsonable


@dataclass
class BoundCheck:
    """``value(inp) ≤ bound(size)`` on every input, with an optional equality case.

    Attributes:
        variant: the variant's name.
        family: the inputs, by size.
        value: the bounded quantity of one input.
        bound: the bound at a size (the family's size).
        bound_text: the bound as the text writes it (``"n/2 + 1"``).
        equal_when: the inputs on which the text says the bound is reached (``None``: no equality case).
        equal_text: that case in words (``"ψ(w) is a path"``).
        only_when: the equality case is also the only one ("exactly when"): an input reaching the bound
            outside it refutes too.
        method: how the row was computed.

    """

    variant: str
    family: Family
    value: Callable[[Any], Any]
    bound: Callable[[int], Any]
    bound_text: str
    equal_when: Callable[[Any], bool] | None = None
    equal_text: str = ""
    only_when: bool = False
    method: str = "exhaustive enumeration: the quantity against the bound, per size the largest value"

    def schedule(self, ctx: RunContext) -> Schedule:
        """The family, size by size up to ``ctx.max_size``, without a decoder."""
        return Schedule([(size, self.family) for size in range(self.family.min_size, ctx.max_size + 1)], "property")

    def run(self, ctx: RunContext) -> Verdict:
        """Every input up to ``ctx.max_size``; the first violation refutes; ``details`` has the tightness per size."""
        start = time.perf_counter()
        claim_id, progress = ctx.claim_id, ctx.progress
        per_size: list[dict[str, Any]] = []
        checked = 0
        done: list[int] = []
        for size, _ in self.schedule(ctx).steps:
            b = self.bound(size)
            top: Any = None
            reach = 0
            example: Any = None
            count = self.family.count(size)
            with progress.bar(count, f"{claim_id}/{self.variant} n={size}") as bar:
                for inp in self.family.inputs(size):
                    checked += 1
                    bar.update(1)
                    v = self.value(inp)
                    failure = self._failure(inp, v, b)
                    if failure is not None:
                        cex = {"family": self.family.name, "size": size, "input": self.family.describe(inp),
                               "kind": "bound", **failure}
                        return Verdict(claim_id, self.variant, "refuted", self.method, done[-1] if done else None,
                                       checked, time.perf_counter() - start, jsonable(cex),
                                       details={"per_size": per_size}, failing_input=inp)
                    if top is None or v > top:
                        top, reach, example = v, 1, inp
                    elif v == top:
                        reach += 1
            if count == 0:  # below the family's domain: nothing to measure
                done.append(size)
                continue
            per_size.append({"n": size, "inputs": count, "bound": b, "largest": top,
                             "slack": None if top is None else b - top, "reached_by": reach,
                             "example": None if example is None else self.family.describe(example).get("text")})
            done.append(size)
        tight = [p for p in per_size if p["largest"] is not None]
        details = {"bound": self.bound_text, "per_size": per_size,
                   "slack": sorted({p["slack"] for p in tight}) if tight else [],
                   "attained": bool(tight) and all(p["slack"] == 0 for p in tight)}
        return Verdict(claim_id, self.variant, "verified", self.method, done[-1] if done else None, checked,
                       time.perf_counter() - start, None, [], None,
                       [{"family": self.family.name, "exhaustive": True, "sizes_complete": done,
                         "inputs_checked": checked}], details)

    def _failure(self, inp: Any, v: Any, b: Any) -> dict[str, Any] | None:
        if v > b:
            return {"what": f"value ≤ {self.bound_text}", "expected": f"≤ {b}", "got": v}
        if self.equal_when is None:
            return None
        case = self.equal_when(inp)
        if case and v != b:
            return {"what": f"= {self.bound_text} when {self.equal_text}", "expected": b, "got": v}
        if self.only_when and not case and v == b:
            return {"what": f"= {self.bound_text} only when {self.equal_text}", "expected": f"< {b}", "got": v}
        return None


__all__ = ["BoundCheck"]
