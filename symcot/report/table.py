"""Terminal table and JSON report of verdict rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from symcot.check.exhaustive import PARTIAL_NOTE
from symcot.check.inherit import inherited_text
from symcot.check.verdict import Verdict

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
    if c.get("layer") is not None:
        where.append(f"layer {c['layer']}")
    what = " ".join(str(x) for x in (c.get("kind"), c.get("block") or c.get("head") or c.get("what")) if x)
    if what:
        where.append(what)
    tail = f"expected {c.get('expected')}, got {c.get('got')}" if "expected" in c or "got" in c else ""
    rest = {k: v for k, v in c.items() if k not in ("family", "size", "input", "step", "layer", "kind", "block",
                                                    "head", "what", "expected", "got")}
    if not tail and rest:
        tail = ", ".join(f"{k}={v}" for k, v in list(rest.items())[:3])
    head = ", ".join(where)
    return f"{text}: {head}: {tail}" if head and tail else f"{text}: {head or tail}"


def render_table(rows: list[Verdict]) -> str:
    """The final table: claim, variant, verdict, scope, max size, inputs, seconds, method, counterexample."""
    head = ["claim", "variant", "verdict", "scope", "max_size", "inputs", "seconds", "method"]
    data = [[r.id, r.variant, r.verdict, r.scope, "-" if r.max_size is None else str(r.max_size),
             str(r.inputs_checked), f"{r.seconds:.1f}", r.method] for r in rows]
    widths = [max(len(h), *(len(d[i]) for d in data)) if data else len(h) for i, h in enumerate(head)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    lines = [fmt.format(*head), fmt.format(*("-" * w for w in widths))]
    for r, d in zip(rows, data):
        lines.append(fmt.format(*d))
        if r.verdict == "refuted":
            lines.append(f"    counterexample: {counterexample_summary(r)}")
            if r.inherited_from:
                lines.append(f"    {inherited_text(r)}")
        if r.verdict == "error":
            lines += [f"    {note}" for note in r.notes if note.startswith("check failed")]
        lines += [f"    {note}" for note in r.notes if note.startswith(PARTIAL_NOTE)]
        if r.verdict == "unknown" and r.notes:
            lines.append(f"    why unknown: {r.notes[-1]}")
    return "\n".join(lines)


def report_dict(rows: list[Verdict], meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON report: ``{"schema": 1, "claims": [...], "meta": {...}}``."""
    return {"schema": SCHEMA_VERSION, "claims": [r.as_dict() for r in rows], "meta": meta or {}}


def write_json(path: str | Path, rows: list[Verdict], meta: dict[str, Any] | None = None) -> None:
    """Write the JSON report to ``path``."""
    Path(path).write_text(json.dumps(report_dict(rows, meta), indent=2, ensure_ascii=False) + "\n")
