"""Verdicts: what a check computed, in the shape of the JSON report (see docs/report-schema.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

VERDICTS = ("proved", "proved assuming", "verified", "refuted", "unknown", "error")
#: What a check may be declared to expect (``expect="refuted"``: a deliberately wrong variant, kept as a negative
#: example, as ``pytest.mark.xfail(strict=True)``).
EXPECTS = ("refuted",)
#: The outcomes a row counts as, in the order of the count line (:func:`outcome_of`).
OUTCOMES = ("proved", "proved assuming", "verified", "refuted", "expected refuted", "unexpectedly proved",
            "unexpectedly proved assuming", "unexpectedly verified", "unknown", "error")


def jsonable(v: Any) -> Any:
    """Exact values for JSON: ``Fraction`` → ``"p/q"``, SymPy → string; containers recursively."""
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, Fraction):
        return v.numerator if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, sp.Basic):
        return str(v)
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        items = sorted(v) if isinstance(v, (set, frozenset)) else v
        return [jsonable(x) for x in items]
    if isinstance(v, float):
        return v
    return str(v)


@dataclass
class Verdict:
    """One row of the report: a claim variant and what was computed about it.

    ``verdict`` is ``proved`` (for all inputs, by a solver), ``verified`` (every input up to
    ``max_size`` checked), ``refuted`` (``counterexample`` holds the smallest one found), ``unknown``
    (not decided: timeout, unsupported, or no size checked completely) or ``error`` (the check itself
    failed; see ``notes``).
    ``max_size`` is the largest size checked completely (``None`` if none). ``details`` holds what a
    particular method adds (solver seconds, the smallest λ, an unsat core, …). ``scope`` says what the
    verdict covers, in words: ``all dimensions``, ``all λ ≥ 2n - 1, n ≤ 6``, ``every input, n ≤ 13``; a
    check states it, and :func:`default_scope` fills it from the row otherwise (never "proved" without
    one).

    ``inherited_from`` is set on a refuted row whose construction is built on another claim's when that
    claim's construction fails on the same input at the same step, layer and block (computed by
    :mod:`symcot.check.inherit`); ``failing_input`` is the counterexample's input itself (not in the JSON),
    for such follow-up checks.
    """

    id: str
    variant: str
    verdict: str
    method: str
    max_size: int | None
    inputs_checked: int
    seconds: float
    counterexample: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    sizes: dict[str, Any] | None = None
    families: list[dict[str, Any]] = field(default_factory=list)
    details: dict[str, Any] | None = None
    scope: str = ""
    inherited_from: dict[str, Any] | None = None
    failing_input: Any = field(default=None, repr=False, compare=False)
    #: ``"refuted"`` for a variant declared expected to fail (its check's ``expect``), else ``None``.
    expect: str | None = None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.expect is not None and self.expect not in EXPECTS:
            raise ValueError(f"expect must be one of {EXPECTS} or None, got {self.expect!r}")
        if not self.scope:
            self.scope = default_scope(self)

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of this row (``inherited_from`` only on a row that has one)."""
        out = {
            "id": self.id,
            "variant": self.variant,
            "verdict": self.verdict,
            "scope": self.scope,
            "method": self.method,
            "max_size": self.max_size,
            "inputs_checked": self.inputs_checked,
            "seconds": round(self.seconds, 3),
            "counterexample": jsonable(self.counterexample),
            "notes": list(self.notes),
            "sizes": jsonable(self.sizes),
            "families": jsonable(self.families),
            "details": jsonable(self.details),
        }
        if self.inherited_from is not None:
            out["inherited_from"] = jsonable(self.inherited_from)
        if self.expect is not None:
            out["expect"] = self.expect
            out["outcome"] = outcome_of(self)
        return out

    @property
    def failed(self) -> bool:
        """Whether the row fails the run: refuted (not expected), unknown, error, or holding when expected refuted."""
        return outcome_of(self) not in ("proved", "proved assuming", "verified", "expected refuted")

    @property
    def shown_verdict(self) -> str:
        """The verdict as printed: ``refuted (expected)``, ``verified (expected refuted)``, or the verdict."""
        if self.expect is None or self.verdict in ("unknown", "error"):
            return self.verdict
        return "refuted (expected)" if self.verdict == "refuted" else f"{self.verdict} (expected refuted)"

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Verdict:
        """A row read back from a JSON report (exact values stay in their JSON form)."""
        return cls(d["id"], d["variant"], d["verdict"], d.get("method", ""), d.get("max_size"),
                   int(d.get("inputs_checked", 0)), float(d.get("seconds", 0.0)), d.get("counterexample"),
                   list(d.get("notes") or []), d.get("sizes"), list(d.get("families") or []), d.get("details"),
                   d.get("scope", ""), d.get("inherited_from"), expect=d.get("expect"))


#: ``size_text(relation, size)``: a size in words (``"n ≤ 6"``); see :func:`default_scope`.
SizeText = Callable[[str, int], str]


def vertices_text(relation: str, size: int) -> str:
    """``n ≤ 6``: a size written as ``n``, the number of vertices (the default of :func:`default_scope`)."""
    return f"n {relation} {size}"


def _sizes(families: list[dict[str, Any]], max_size: int | None, size_text: SizeText) -> list[str]:
    """Families that went beyond ``max_size`` (part of the domain, ``--reach``) or were sampled."""
    out = []
    for f in families:
        done = f.get("sizes_complete") or []
        if not done:
            continue
        if not f.get("exhaustive", True):
            out.append(f"seeded samples of {f['family']} to {size_text('=', max(done))}")
        elif max_size is None or max(done) > max_size:
            out.append(f"every input of {f['family']} to {size_text('=', max(done))}")
    return out


def default_scope(v: Verdict, size_text: SizeText = vertices_text) -> str:
    """What a row covers when its check did not say: from its verdict, ``max_size`` and ``families``.

    ``size_text`` writes a size (the number of vertices the checks count) as the construction's own size
    parameter (:class:`symcot.check.size.SizeParameter`: ``n = |w| ≤ 18`` for a path-side construction).
    """
    if v.verdict == "verified":
        parts = [f"every input, {size_text('≤', v.max_size)}" if v.max_size is not None
                 else "every input of the sizes listed"]
        return "; ".join(parts + _sizes(v.families, v.max_size, size_text))
    if v.verdict == "refuted":
        c = v.counterexample or {}
        size = c.get("size")
        below = "" if v.max_size is None else f"; every input passes for {size_text('≤', v.max_size)}"
        if size is None:
            return "counterexample found" + below
        return f"counterexample at {size_text('=', size) if isinstance(size, int) else f'n = {size}'}" + below
    if v.verdict in ("proved", "proved assuming"):
        return "scope not stated by the check"
    return "nothing established"


def outcome_of(v: Verdict) -> str:
    """What the row counts as: its verdict, ``expected refuted``, or ``unexpectedly proved``/``verified``.

    The last two are rows expected to be refuted: refuted, they pass; holding, they fail (a strict xfail that passes).
    """
    if v.expect is None or v.verdict in ("unknown", "error"):
        return v.verdict
    return "expected refuted" if v.verdict == "refuted" else f"unexpectedly {v.verdict}"


def exit_status(verdicts: list[Verdict]) -> int:
    """0 when every row passes; 2 when one is unknown or an error; else 1 (a row refuted, or holding when refuted).

    A row passes when it is proved or verified, or refuted where it is expected to be (:func:`outcome_of`). 3 when
    every row passes but one is ``proved assuming`` something beyond the trusted base (a script tells it from a
    plain ``proved``).
    """
    kinds = {v.verdict for v in verdicts}
    if kinds & {"unknown", "error"}:
        return 2
    if any(v.failed for v in verdicts):
        return 1
    if "proved assuming" in kinds:
        return 3
    return 0
