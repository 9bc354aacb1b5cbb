"""Readings × verdicts: each claim's variants, what each reads or changes, and the verdicts a report gives them.

``symcot claims`` lists the claims; with ``--report PATH`` (a ``symcot verify --json`` report) it puts every
variant's verdicts beside its reading. The verdicts are read from the report, never recomputed or assumed
here: a variant the report has no row for says so. ``--markdown`` renders one table per claim (the tables of
docs/errata.md are made this way).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcot.check.inherit import inherited_text
from symcot.check.verdict import Verdict
from symcot.claims import Claim
from symcot.errors import SymcotError
from symcot.report.table import SCHEMA_VERSION, counterexample_summary

#: Whether a claim id is its paper's own label (else an id of ours, marked as such).
IsLabel = Callable[[str], bool]


def _every(claim_id: str) -> bool:
    return True


def load_reports(paths: Iterable[str | Path]) -> list[Verdict]:
    """The rows of several reports, in order (a default run and a ``--symbolic`` run, say)."""
    return [r for p in paths for r in load_report(p)]


def load_report(path: str | Path) -> list[Verdict]:
    """The rows of a ``symcot verify --json`` report; a clear one-line error when it cannot be read."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SymcotError(f"report {p} does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SymcotError(f"cannot read report {p}: {e}") from None
    except json.JSONDecodeError as e:
        raise SymcotError(f"report {p} is not JSON (line {e.lineno}: {e.msg})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA_VERSION or not isinstance(data.get("claims"), list):
        raise SymcotError(f"report {p} is not a symcot verify --json report (schema {SCHEMA_VERSION})")
    try:
        return [Verdict.from_dict(r) for r in data["claims"]]
    except (KeyError, TypeError, ValueError) as e:
        raise SymcotError(f"report {p} has a malformed row ({type(e).__name__}: {e})") from None


@dataclass
class VariantView:
    """One variant of a claim: its reading (kind, text; ``None`` when undescribed) and its report rows."""

    claim: Claim
    variant: str
    methods: list[str]
    rows: list[Verdict]

    @property
    def unreported(self) -> list[str]:
        """The checks (by method) of this variant that no row of the report comes from."""
        return [m for m in dict.fromkeys(self.methods) if not any(r.method.startswith(m) for r in self.rows)]

    @property
    def kind(self) -> str:
        r = self.claim.reading(self.variant)
        return r.kind if r is not None else "?"

    @property
    def text(self) -> str:
        r = self.claim.reading(self.variant)
        return r.text if r is not None else "(not described)"


def variant_views(claim: Claim, rows: Iterable[Verdict] | None = None) -> list[VariantView]:
    """The claim's variants in order, each with its checks' methods and the report's rows for it."""
    by_variant: dict[str, list[Verdict]] = {}
    for r in rows or ():
        if r.id == claim.id:
            by_variant.setdefault(r.variant, []).append(r)
    views: dict[str, VariantView] = {}
    for chk in claim.checks:
        v = views.setdefault(chk.variant, VariantView(claim, chk.variant, [], by_variant.get(chk.variant, [])))
        v.methods.append(chk.method)
    return list(views.values())


def unmatched_rows(claims: dict[str, Claim], rows: Iterable[Verdict]) -> list[Verdict]:
    """Rows of the report whose claim or variant the loaded claims do not have (an older report)."""
    known = {(c.id, v) for c in claims.values() for v in c.variant_names()}
    return [r for r in rows if (r.id, r.variant) not in known]


def verdict_text(r: Verdict) -> str:
    """``refuted (counterexample at n = 2; …)``: the verdict with its scope."""
    return f"{r.shown_verdict} ({r.scope})" if r.scope else r.shown_verdict


def outcome_text(r: Verdict) -> str:
    """What a row found beyond its verdict: the counterexample, where it is inherited from, why unknown."""
    parts = []
    if r.verdict == "refuted":
        parts.append(counterexample_summary(r))
        if r.inherited_from:
            parts.append(inherited_text(r))
    elif r.verdict in ("unknown", "error") and r.notes:
        parts.append(r.notes[-1])
    return "; ".join(p for p in parts if p)


def render_text(claims: dict[str, Claim], rows: list[Verdict] | None, is_label: IsLabel = _every) -> str:
    """The terminal listing: per claim its variants (kind, reading), each check and, with a report, its verdict."""
    lines: list[str] = []
    for c in claims.values():
        ours = "" if is_label(c.id) else "  [id ours]"
        lines.append(f"{c.id:<28} {c.kind:<11} {c.statement}{ours}")
        for v in variant_views(c, rows):
            lines.append(f"    {v.variant} [{v.kind}]: {v.text}")
            if rows is None:
                lines += [f"        {m}" for m in v.methods]
                continue
            for r in v.rows:
                lines.append(f"        {r.method}: {verdict_text(r)}")
                more = outcome_text(r)
                if more:
                    lines.append(f"            {more}")
            lines += [f"        {m}: not in the report" for m in v.unreported]
        lines.append(f"    where: {c.where}; default max size {c.default_max_size}")
    if rows is not None:
        extra = unmatched_rows(claims, rows)
        if extra:
            lines.append("\nReport rows without a claim variant here:")
            lines += [f"  {r.id} [{r.variant}]: {r.verdict}" for r in extra]
    return "\n".join(lines)


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown_tables(claims: dict[str, Claim], rows: list[Verdict], is_label: IsLabel = _every) -> str:
    """One reading × verdict table per claim: variant, kind, reading, checker, verdict, what it found."""
    out: list[str] = []
    for c in claims.values():
        ours = " (id ours)" if not is_label(c.id) else ""
        out += [f"#### `{c.id}`{ours}", "", _cell(c.statement), "",
                "| variant | kind | reading | checker | verdict | scope | counterexample (smallest) |",
                "|---|---|---|---|---|---|---|"]
        for v in variant_views(c, rows):
            for r in v.rows:
                out.append(f"| {v.variant} | {v.kind} | {_cell(v.text)} | {_cell(r.method)} | **{r.verdict}** | "
                           f"{_cell(r.scope)} | {_cell(outcome_text(r))} |")
            out += [f"| {v.variant} | {v.kind} | {_cell(v.text)} | {_cell(m)} | not in the report | | |"
                    for m in v.unreported]
        out.append("")
    return "\n".join(out)


def render_markdown_list(claims: dict[str, Claim], is_label: IsLabel = _every) -> str:
    """The claims table of docs/claims.md (no report): variants with their kind and checker."""
    out = ["| id | kind | statement | where | variants (kind; checker) | id ours? |", "|---|---|---|---|---|---|"]
    for c in claims.values():
        variants = "; ".join(f"{v.variant} ({v.kind}; {', '.join(dict.fromkeys(v.methods))})"
                             for v in variant_views(c))
        out.append(f"| `{c.id}` | {c.kind} | {_cell(c.statement)} | {c.where} | {_cell(variants)} | "
                   f"{'no' if is_label(c.id) else 'yes'} |")
    return "\n".join(out)


__all__ = ["VariantView", "load_report", "load_reports", "outcome_text", "render_markdown_list",
           "render_markdown_tables", "render_text", "unmatched_rows", "variant_views", "verdict_text"]
