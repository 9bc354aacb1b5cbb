"""Markdown report: the verdict table, then each refuted claim's counterexample rendered readably."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from symcot.check.inherit import inherited_text
from symcot.check.verdict import Verdict
from symcot.report.table import counterexample_summary


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _subjects(papers: list[dict[str, Any]]) -> list[str]:
    """What each paper package of the run checks (its ``SUBJECT``), one line each."""
    lines = [f"Subject: {p['subject']} (package `{p['package']}`, {p['claims']} claims)" for p in papers
             if p.get("subject")]
    return lines + [""] if lines else []


def render_markdown(rows: list[Verdict], meta: dict[str, Any] | None = None) -> str:
    """The report as Markdown (GitHub flavour)."""
    out = ["# symcot verification report", ""]
    if meta:
        out += _subjects(meta.get("papers") or [])
        out.append(", ".join(f"{k}: {v}" for k, v in meta.items() if k != "papers"))
        out.append("")
    out += ["| claim | variant | verdict | scope | method | max size | inputs | seconds | counterexample |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        size = "-" if r.max_size is None else r.max_size
        cex = counterexample_summary(r) + (f" ({inherited_text(r)})" if r.inherited_from else "")
        out.append(f"| `{r.id}` | {_cell(r.variant)} | **{r.shown_verdict}** | {_cell(r.scope)} | {_cell(r.method)} | "
                   f"{size} | {r.inputs_checked} | {r.seconds:.1f} | {_cell(cex)} |")
    refuted = [r for r in rows if r.verdict == "refuted" and r.counterexample]
    for r in refuted:
        c = r.counterexample or {}
        out += ["", f"## `{r.id}` [{r.variant}]: refuted", ""]
        if c.get("kind") == "size":
            out += [f"- {d['quantity']}: paper states `{d['paper']}`, construction has `{d['construction']}`"
                    for d in c.get("differences", [])]
            continue
        inp = c.get("input", {})
        text = inp.get("text") if isinstance(inp, dict) else None
        out.append(f"- **input** ({c.get('family', '')}, size {c.get('size')}): "
                   f"{_cell(text) if text else '`' + json.dumps(inp, ensure_ascii=False) + '`'}")
        where = f"step {c.get('step')}" + (f", layer {c.get('layer')}" if c.get("layer") is not None else "")
        what = c.get("block") or c.get("head") or c.get("what")
        out.append(f"- **where**: {where}, {c.get('kind', '')} `{what}`")
        out.append(f"- **expected**: `{c.get('expected')}`")
        out.append(f"- **got**: `{c.get('got')}`")
        for key, label in (("explanation", "why"), ("proof_says", "the proof says"),
                           ("reference_state", "reference state")):
            if c.get(key):
                out.append(f"- **{label}**: {_cell(c[key])}")
        if c.get("other_differences"):
            out.append(f"- **also differs**: {', '.join(c['other_differences'])}")
        if r.inherited_from:
            h = r.inherited_from
            out.append(f"- **{inherited_text(r)}** ({_cell(h.get('how', ''))}; there: expected "
                       f"`{h.get('expected')}`, got `{h.get('got')}`)")
        extra = {k: v for k, v in c.items() if k not in {
            "family", "size", "input", "step", "layer", "kind", "block", "head", "what", "expected", "got",
            "explanation", "proof_says", "reference_state", "other_differences"}}
        if extra:
            out.append(f"- **details**: `{json.dumps(extra, ensure_ascii=False)}`")
        if r.notes:
            out += [f"- note: {_cell(n)}" for n in r.notes]
    errors = [r for r in rows if r.verdict in ("error", "unknown")]
    for r in errors:
        out += ["", f"## `{r.id}` [{r.variant}]: {r.verdict}", ""] + [f"- {_cell(n)}" for n in r.notes]
    return "\n".join(out) + "\n"


def write_markdown(path: str | Path, rows: list[Verdict], meta: dict[str, Any] | None = None) -> None:
    """Write the Markdown report to ``path``."""
    Path(path).write_text(render_markdown(rows, meta))
