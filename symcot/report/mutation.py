"""Rendering of a mutation analysis (:mod:`symcot.study.adequacy`): text, JSON and Markdown.

Per claim variant: the mutation score (killed / behaviour-changing), each survivor with the smallest input
that exposes it and where its run parts from the original's, the kill sizes, the mutants that change only
scratch blocks (per block), the equivalent ones, the coverage of activation regions, and the recommended
default size with its reasons, also said in plain words (:func:`advice`).
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

from symcot.study.adequacy import STATUSES, Analysis, MutantResult
from symcot.study.coverage import Coverage


def _input_text(inp: Any) -> str:
    if isinstance(inp, dict) and "text" in inp:
        return str(inp["text"])
    return json.dumps(inp, ensure_ascii=False)


def _where(w: dict[str, Any] | None) -> str:
    """A check's counterexample location: ``step 3, layer 2, block par: expected [1, 0], got [0, 0]``."""
    if not w:
        return ""
    kind = w.get("kind")
    name = w.get("block") or w.get("head") or w.get("what") or ""
    layer = f", layer {w['layer']}" if w.get("layer") is not None else ""
    return f"step {w.get('step')}{layer}, {kind} {name}: expected {w.get('expected')}, got {w.get('got')}"


def _departure(d: dict[str, Any] | None) -> str:
    if not d:
        return ""
    where = f"step {d['step']} (reading {d['token']})" if d.get("step") else f"prompt token {d['token']}"
    return f"{where}, layer {d['layer']}, {d['kind']} {d['name']}: {d['base']} → {d['other']}"


def kill_sizes(a: Analysis) -> dict[int, int]:
    """Behaviour-changing mutants per kill size."""
    return dict(sorted(Counter(r.kill_size for r in a.behaviour_changing if r.kill_size is not None).items()))


def scratch_blocks(a: Analysis) -> dict[str, list[str]]:
    """Scratch-only mutants per block whose tokens they change."""
    out: dict[str, list[str]] = {}
    for r in a.by_status("scratch-only"):
        for b in (r.beyond or {}).get("scratch", {}):
            out.setdefault(b, []).append(r.id)
    return dict(sorted(out.items()))


def survivor_line(r: MutantResult) -> str:
    """One survivor: what it changes, its kill size, the smallest input exposing it, where it departs."""
    b = r.beyond or {}
    how = "every input of that size" if b.get("exhaustive") else "a seeded random input"
    bound = "" if b.get("smallest") else "; an upper bound: not every exhaustive family was compared below it"
    return (f"{r.text}: passes the check, fails at n = {r.kill_size} ({how}, {b.get('family')}{bound}) on "
            f"{_input_text(b.get('input'))}: {_where(b.get('where'))}; the runs part at "
            f"{_departure(b.get('departure'))}")


def _span(sizes: list[int]) -> str:
    return str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]}..{sizes[-1]}"


def compared(b: dict[str, Any]) -> str:
    """What a survivor was compared on: per family, the sizes on every input and on random inputs."""
    parts = []
    for fam in dict.fromkeys([*b.get("every", {}), *b.get("sampled", {})]):
        here = []
        if b.get("every", {}).get(fam):
            here.append(f"every input n = {_span(b['every'][fam])}")
        if b.get("sampled", {}).get(fam):
            here.append(f"random n = {_span(b['sampled'][fam])}")
        parts.append(f"{fam}: {', '.join(here)}")
    return "; ".join(parts) + f" ({b.get('inputs_compared', 0)} inputs)"


def coverage_lines(cov: Coverage) -> list[str]:
    """Summary of a coverage record: regions per kind, new regions per size, the saturation size."""
    kinds = Counter(r[0] for r in cov.first)
    per = ", ".join(f"n={s}: {k}" for s, k in cov.new_per_size().items())
    return [f"coverage: {sum(kinds.values())} regions ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}); "
            f"new regions per size: {per}; saturation n = {cov.saturation} (none new up to n = {cov.largest})"]


def render_text(a: Analysis) -> str:
    """The analysis of one claim variant as plain text."""
    killed, bc = a.score
    counts = Counter(r.status for r in a.done())
    out = [f"{a.claim_id} [{a.variant}]: {a.total_mutants} single-coefficient mutants, {len(a.selected)} selected, "
           f"{len(a.done())} decided at n = {a.settings.size} (default {a.current_default})"]
    out.append("  " + ", ".join(f"{counts.get(s, 0)} {s}" for s in STATUSES))
    pct = f"{100 * killed / bc:.1f}%" if bc else "n/a"
    out.append(f"  mutation score: {killed}/{bc} behaviour-changing mutants killed at n = {a.settings.size} ({pct})")
    ks = kill_sizes(a)
    if ks:
        out.append("  kill sizes: " + ", ".join(f"n={k}: {v}" for k, v in ks.items()))
    for r in a.by_status("exposed"):
        out.append("  SURVIVOR " + survivor_line(r))
    for r in a.by_status("error"):
        out.append(f"  ERROR {r.text}: {r.reason}")
    for block, ids in scratch_blocks(a).items():
        out.append(f"  scratch-only in block {block} (not compared by the check): {len(ids)} mutants, e.g. {ids[0]}")
    eq = a.by_status("equivalent")
    if eq:
        out.append(f"  equivalent on every input compared: {len(eq)} (e.g. {eq[0].id}: {compared(eq[0].beyond or {})})")
    un = a.by_status("inert")
    if un:
        out.append(f"  inert, equivalent at every size (the change reaches no output, read off the statement): "
                   f"{len(un)}")
    if a.coverage is not None:
        out += ["  " + line for line in coverage_lines(a.coverage)]
    if not a.complete:
        out.append(f"  incomplete: {len(a.done())} of {len(a.selected)} selected mutants decided so far")
    out.append(f"  recommended default size: {a.recommended_default()} ({reasons(a)})")
    out += textwrap.wrap(advice(a), 110, initial_indent="    ", subsequent_indent="    ")
    return "\n".join(out)


def reasons(a: Analysis) -> str:
    """Why the recommended default is what it is."""
    parts = [f"current {a.current_default}"]
    if a.max_kill_size is not None:
        parts.append(f"largest kill size {a.max_kill_size} + 1 = {a.max_kill_size + 1}")
    if a.coverage is not None and a.coverage.saturation is not None:
        parts.append(f"coverage saturation {a.coverage.saturation}")
    return "; ".join(parts)


def advice(a: Analysis) -> str:
    """The recommended default size explained in plain words: what a kill size is and which reason decides."""
    cur, want = a.current_default, a.recommended_default()
    parts = []
    k = a.max_kill_size
    deepest = next((r for r in a.behaviour_changing if r.kill_size == k), None)
    if k is None or deepest is None:
        parts.append("No mutant changed the check's verdict on the inputs compared, so the mutants ask for no "
                     "particular size.")
    else:
        n_deep = sum(1 for r in a.behaviour_changing if r.kill_size == k)
        parts.append(f"A mutant's kill size is the least input size n at which the claim's check first refutes it "
                     f"(its smallest counterexample). The largest kill size here is {k} ({n_deep} "
                     f"mutant{'s' if n_deep > 1 else ''}, e.g. {deepest.id}), so a default of at least {k + 1}, "
                     f"one size more, refutes every behaviour-changing mutant found with a size to spare (one "
                     f"refuted only at exactly the default would pass a check one size smaller).")
    sat = a.coverage.saturation if a.coverage is not None else None
    if sat is not None:
        parts.append(f"The last new activation region appears at n = {sat}, so the default should reach it too.")
    if want > cur:
        parts.append(f"The current default {cur} is below that: raise the claim's default_max_size to {want}.")
    elif deepest is not None or sat is not None:
        parts.append(f"The current default {cur} is already at least that, so the advice keeps it: it never lowers "
                     f"a default (a larger one checks more inputs; lowering it to save time is your choice).")
    else:
        parts.append(f"The advice keeps the current default {cur}.")
    return " ".join(parts)


def analysis_dict(a: Analysis) -> dict[str, Any]:
    """The JSON object of one analysis."""
    killed, bc = a.score
    return {
        "claim": a.claim_id, "variant": a.variant, "default_size": a.current_default, "settings": a.settings.as_dict(),
        "mutants_total": a.total_mutants, "selected": len(a.selected), "decided": len(a.done()),
        "complete": a.complete, "counts": {s: len(a.by_status(s)) for s in STATUSES},
        "score": {"killed": killed, "behaviour_changing": bc},
        "kill_sizes": {str(k): v for k, v in kill_sizes(a).items()},
        "max_kill_size": a.max_kill_size, "recommended_default": a.recommended_default(), "reasons": reasons(a),
        "scratch_blocks": scratch_blocks(a), "coverage": a.coverage.as_dict() if a.coverage else None,
        "seconds": round(a.seconds, 3), "mutants": [r.as_dict() for r in a.done()],
    }


def write_json(path: str | Path, analyses: list[Analysis], meta: dict[str, Any]) -> None:
    """Write the JSON report of several analyses."""
    data = {"schema": "symcot-mutate/1", "meta": meta, "analyses": [analysis_dict(a) for a in analyses]}
    Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False))


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(analyses: list[Analysis], meta: dict[str, Any] | None = None) -> str:
    """The analyses as Markdown: a summary table, then each variant's survivors and scratch-only mutants."""
    out = ["# symcot mutation analysis", ""]
    if meta:
        out += [", ".join(f"{k}: {v}" for k, v in meta.items()), ""]
    out += ["| claim | variant | mutants | selected | killed / behaviour-changing | kill sizes | scratch-only | "
            "equivalent | inert | errors | coverage saturation | default | recommended |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for a in analyses:
        killed, bc = a.score
        ks = ", ".join(f"{k}: {v}" for k, v in kill_sizes(a).items())
        sat = a.coverage.saturation if a.coverage else "-"
        out.append(f"| `{a.claim_id}` | {a.variant} | {a.total_mutants} | {len(a.selected)} | {killed} / {bc} | {ks} | "
                   f"{len(a.by_status('scratch-only'))} | {len(a.by_status('equivalent'))} | "
                   f"{len(a.by_status('inert'))} | {len(a.by_status('error'))} | {sat} | {a.current_default} | "
                   f"{a.recommended_default()} |")
    for a in analyses:
        out += ["", f"## `{a.claim_id}` [{a.variant}]", "", "```", render_text(a), "```"]
    return "\n".join(out) + "\n"


def write_markdown(path: str | Path, analyses: list[Analysis], meta: dict[str, Any] | None = None) -> None:
    """Write the Markdown report."""
    Path(path).write_text(render_markdown(analyses, meta))
