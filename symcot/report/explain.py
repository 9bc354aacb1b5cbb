"""``symcot verify --all-n --explain``: the obligations of each all-n row, grouped by phase and layer."""

from __future__ import annotations

from typing import Any

from symcot.check.verdict import Verdict

_PHASES = ("lemma", "fact", "size", "base", "sum", "step", "stop", "statement")


_PAD = "        "


def _model(title: str, m: dict[str, Any]) -> list[str]:
    """A counter-model's lines: its values, the two sides there, each ReLU's argument."""
    out = [f"{_PAD}{title}: " + ", ".join(m["values"])]
    if m.get("sides"):
        out.append(f"{_PAD}  there the decoder gives {m['sides']['decoder']}, the statement {m['sides']['statement']}")
    out += [f"{_PAD}  compared: {c}" for c in m.get("compared", [])]
    return out + [f"{_PAD}  {u}" for u in m.get("relus", [])]


def _equation(e: dict[str, Any]) -> list[str]:
    """The equation (or goal) and what was in scope."""
    out: list[str] = []
    if "equation" in e:
        eq = e["equation"]
        out += [f"{_PAD}the equation that failed" + (f" (when {eq['when']})" if eq.get("when") else "") + ":",
                f"{_PAD}  decoder:   {eq['decoder']}", f"{_PAD}  statement: {eq['statement']}"]
    elif "goal" in e:
        out.append(f"{_PAD}the goal: {e['goal']}")
    scope = e.get("in_scope") or {}
    if scope.get("facts"):
        out.append(f"{_PAD}facts in scope:")
        out += [f"{_PAD}  - {f}" for f in scope["facts"]]
    if scope.get("hypotheses"):
        out.append(f"{_PAD}hypotheses: " + "; ".join(scope["hypotheses"]))
    return out


def _explanation(e: dict[str, Any]) -> list[str]:
    """The lines of a not-proved obligation's explanation (:mod:`symcot.prove.alln.explain`)."""
    if "unsupported" in e:
        return [f"{_PAD}not stated: {e['unsupported']}"]
    out = _equation(e)
    if e.get("counter_model"):
        out += _model("counter-model (least sizes and step, Z3's seeds fixed)", e["counter_model"])
    out += [f"{_PAD}{e[k]}" for k in ("no_query", "counter_model_lost") if e.get(k)]
    if e.get("timeout"):
        out.append(f"{_PAD}{e['timeout']}")
        out += [f"{_PAD}  usual cause: {c}" for c in e.get("causes", [])]
        out.append(f"{_PAD}  to raise the limit: {e['raise_limit']}")
    if e.get("candidate_model"):
        out += _model("candidate counter-model (the facts taken only at the terms of this obligation; least sizes "
                      "and step)", e["candidate_model"])
        out.append(f"{_PAD}  a fact that rules these values out (proved, e.g. by Induction) is what the proof needs")
    return out


def _line(o: dict[str, Any]) -> str:
    at = f"layer {o['layer']} " if o.get("layer") is not None else ""
    used = f"\n        facts used: {', '.join(o['used'])}" if o.get("used") else ""
    second = f"\n        cvc5: {o['second']}" if o.get("second") else ""
    smt2 = f"\n        SMT-LIB 2: {o['smt2']}" if o.get("smt2") else ""
    head = f"  [{o['status']}] {at}{o['where']}: {o['statement']}"
    if o["status"] == "proved":
        return f"{head}\n        discharged by: {o['method']} ({o['seconds']} s){used}{second}{smt2}"
    lines = _explanation(o["explain"]) if o.get("explain") else []
    detail = f"\n        why not proved: {o['detail']}" if o.get("detail") and not lines else ""
    return f"{head}\n        not proved ({o['seconds']} s){second}{smt2}{detail}" + "".join(f"\n{x}" for x in lines)


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
