"""Inherited failures: a construction built on another claim's fails where that claim's construction fails.

A construction may reuse another claim's layers and its ``y_0``; when it is refuted, the question a
reader asks is whether the failure is the base construction's. :class:`Inheritance` answers it on the
counterexample itself: the failing input, taken as an input of the base claim (:attr:`Inheritance.to_base`),
is replayed exactly through the base construction (:func:`~symcot.check.stepwise.check_input`, the same
per-input check and diagnosis every refutation gets). The failure is inherited when the base fails there too,
at the same step, layer and block (or head); then the row's ``inherited_from`` names the base claim and
variant with the base's own failure. Otherwise the row gets a note saying what the base does on that input.
Nothing is asserted without that replay.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from symcot.check.spec import StepwiseSpec
from symcot.check.stepwise import Mismatch, check_input
from symcot.check.verdict import Verdict
from symcot.constructions.base import Construction
from symcot.errors import InvalidInputError


def _same_input(inp: Any) -> Any:
    return inp


def _where(kind: str | None, name: Any, step: Any, layer: Any) -> str:
    parts = [f"step {step}"] + ([f"layer {layer}"] if layer is not None else [])
    return ", ".join(parts + [f"{kind} {name}"])


def _name(c: dict[str, Any]) -> Any:
    return c.get("block", c.get("head", c.get("what")))


@dataclass
class Inheritance:
    """The claim a construction is built on, and how a counterexample becomes that claim's input.

    Attributes:
        claim: the base claim's id (``thm:base``).
        variant: the base variant the failure is compared with (the reading the construction reuses).
        construction: builds the base construction of that variant.
        spec: the base claim's comparison (its reference and encoding, as its own check reads them).
        to_base: the counterexample's input as an input of the base claim (the same object by default).
        how: one phrase on the base input, for reports (``"the same tree with BFS weights"``).

    """

    claim: str
    variant: str
    construction: Callable[[], Construction]
    spec: StepwiseSpec
    to_base: Callable[[Any], Any] = _same_input
    how: str = "the same input"

    def failure(self, inp: Any) -> Mismatch | None:
        """The base construction's failure on ``inp`` (``None`` when it passes); raises if outside its domain."""
        return check_input(self.construction(), self.spec, self.to_base(inp))

    def trace(self, row: Verdict) -> Verdict:
        """``row`` with ``inherited_from`` set when the base fails the same way, else a note on what it does."""
        c = row.counterexample
        if row.verdict != "refuted" or row.failing_input is None or not c or c.get("step") is None:
            return row
        label = f"{self.claim} [{self.variant}]"
        try:
            mm = self.failure(row.failing_input)
        except InvalidInputError as e:
            row.notes.append(f"not inherited from {label}: the counterexample is outside its domain ({e})")
            return row
        here = (c.get("step"), c.get("layer"), c.get("kind"), _name(c))
        if mm is not None and (mm.step, mm.layer, mm.kind, mm.name) == here:
            row.inherited_from = {
                "claim": self.claim, "variant": self.variant,
                "step": mm.step, "layer": mm.layer, "kind": mm.kind, "name": mm.name,
                "expected": mm.expected, "got": mm.got,
                "how": f"{self.how}, replayed through {label}, fails at the same step, layer and {mm.kind}",
            }
            return row
        what = ("passes" if mm is None else
                f"fails elsewhere ({_where(mm.kind, mm.name, mm.step, mm.layer)})")
        row.notes.append(f"not inherited from {label}: on {self.how} it {what}")
        return row


def inherited_text(row: Verdict) -> str:
    """One line for tables: ``inherited from thm:base [as-written]: step 1, layer 1, block dis``."""
    h = row.inherited_from
    if not h:
        return ""
    return f"inherited from {h['claim']} [{h['variant']}]: {_where(h['kind'], h['name'], h['step'], h['layer'])}"


__all__ = ["Inheritance", "inherited_text"]
