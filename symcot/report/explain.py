"""``symcot verify --all-n --explain``: the obligations of each all-n row, grouped by phase and layer."""

from __future__ import annotations

from typing import Any

from symcot.check.verdict import Verdict

_PHASES = ("lemma", "fact", "base", "sum", "step", "stop", "statement")


def _line(o: dict[str, Any]) -> str:
    at = f"layer {o['layer']} " if o.get("layer") is not None else ""
    used = f"\n        facts used: {', '.join(o['used'])}" if o.get("used") else ""
    detail = f"\n        why not proved: {o['detail']}" if o.get("detail") and o["status"] != "proved" else ""
    second = f"\n        cvc5: {o['second']}" if o.get("second") else ""
    smt2 = f"\n        SMT-LIB 2: {o['smt2']}" if o.get("smt2") else ""
    return (f"  [{o['status']}] {at}{o['where']}: {o['statement']}\n        discharged by: {o['method']} "
            f"({o['seconds']} s){used}{second}{smt2}{detail}")


def render_obligations(rows: list[Verdict]) -> str:
    """Every obligation of every row that has them, then the row's trusted base."""
    out: list[str] = []
    for r in rows:
        d = r.details or {}
        obs = d.get("obligations")
        if obs is None:
            continue
        out.append(f"== {r.id} [{r.variant}]: {r.verdict} ({r.scope})")
        if not obs:
            out.append("  no obligation was stated: " + (r.notes[-1] if r.notes else ""))
        for phase in _PHASES:
            group = [o for o in obs if o["phase"] == phase]
            if group:
                counts = {s: sum(o["status"] == s for o in group)
                          for s in ("proved", "failed", "unknown", "unsupported")}
                summary = ", ".join(f"{v} {k}" for k, v in counts.items() if v)
                out.append(f"-- {phase} ({summary})")
                out += [_line(o) for o in group]
        if d.get("lambda_rule"):
            lr = d["lambda_rule"]
            out.append(f"-- λ: assumed {d.get('lambda_assumed')}; derived {lr['derived']} "
                       f"({lr['obligations_using_lambda']} obligations use the bound)")
            for t in lr["tries"]:
                out.append(f"  {t['rule']}: {t['status']}" + (f" ({t['first_not_proved']})" if t["first_not_proved"]
                                                             else ""))
        if d.get("trusted_base"):
            out.append("-- trusted base")
            out += [f"  - {t}" for t in d["trusted_base"]]
        out.append("")
    return "\n".join(out) if out else "no row has obligations (run with --all-n)"
