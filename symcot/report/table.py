"""Terminal table and JSON report of verdict rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from symcot.check.exhaustive import PARTIAL_NOTE
from symcot.check.inherit import inherited_text
from symcot.check.verdict import Verdict
from symcot.report.fit import INDENT, fit_table, wrap

SCHEMA_VERSION = 1


def counterexample_summary(v: Verdict) -> str:
    """One line: where the smallest counterexample fails."""
    c = v.counterexample
    if not c:
        return ""
    if c.get("kind") == "size":
        return "; ".join(f"{d['quantity']}: paper {d['paper']}, construction {d['construction']}"
                         for d in c.get("differences", []))
    inp = c.get("input", {})
    text = inp.get("text", str(inp)) if isinstance(inp, dict) else str(inp)
    where = [f"step {c['step']}"] if c.get("step") is not None else []
    if c.get("position") is not None:  # an encoder's counterexample
        where.append(f"position {c['position']}")
    if c.get("layer") is not None:
        where.append(f"layer {c['layer']}")
    what = " ".join(str(x) for x in (c.get("kind"), c.get("block") or c.get("head") or c.get("what")) if x)
    if what:
        where.append(what)
    tail = f"expected {c.get('expected')}, got {c.get('got')}" if "expected" in c or "got" in c else ""
    rest = {k: v for k, v in c.items() if k not in ("family", "size", "input", "step", "position", "layer", "kind",
                                                    "block", "head", "what", "expected", "got")}
    if not tail and rest:
        tail = ", ".join(f"{k}={v}" for k, v in list(rest.items())[:3])
    head = ", ".join(where)
    return f"{text}: {head}: {tail}" if head and tail else f"{text}: {head or tail}"


def render_table(rows: list[Verdict], width: int | None = None) -> str:
    """The final table: claim, variant, verdict, scope, max size, inputs, seconds, method, counterexample.

    With a ``width``, the scope and method columns wrap (or move under their row) and the lines under a row (the
    counterexample, an error's message, why a row is unknown) wrap, so that every line fits it; nothing is cut.
    """
    head = ["claim", "variant", "verdict", "scope", "max_size", "inputs", "seconds", "method"]
    data = [[r.id, r.variant, r.shown_verdict, r.scope, "-" if r.max_size is None else str(r.max_size),
             str(r.inputs_checked), f"{r.seconds:.1f}", r.method] for r in rows]
    table = fit_table(head, data, width, flexible=(3, 7))
    lines = table[0]
    for r, row_lines in zip(rows, table[1:]):
        lines += row_lines
        if r.verdict == "refuted":
            lines += wrap(f"counterexample: {counterexample_summary(r)}", width, INDENT)
            if r.inherited_from:
                lines += wrap(inherited_text(r), width, INDENT)
        if r.verdict == "error":  # its message, whatever check failed (``check failed: …``, else the last note)
            for note in [n for n in r.notes if n.startswith("check failed")] or r.notes[-1:]:
                lines += wrap(note, width, INDENT)
        for note in r.notes:
            if note.startswith(PARTIAL_NOTE):
                lines += wrap(note, width, INDENT)
        if r.verdict == "unknown" and r.notes:
            lines += wrap(f"why unknown: {r.notes[-1]}", width, INDENT)
    return "\n".join(lines)


def report_dict(rows: list[Verdict], meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON report: ``{"schema": 1, "claims": [...], "meta": {...}}``."""
    return {"schema": SCHEMA_VERSION, "claims": [r.as_dict() for r in rows], "meta": meta or {}}


def write_json(path: str | Path, rows: list[Verdict], meta: dict[str, Any] | None = None) -> None:
    """Write the JSON report to ``path``."""
    Path(path).write_text(json.dumps(report_dict(rows, meta), indent=2, ensure_ascii=False) + "\n")
