"""Rendering of ``symcot precision``: a text table per claim and the plot of predicted vs measured thresholds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from symcot.errors import SymcotError


def _short(text: str, width: int = 70) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _val(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, dict):
        return _val(x.get("value"))
    if x == "inf":
        return "∞"
    if isinstance(x, float):
        return f"{x:.3g}"
    return str(x)


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)]
    out = ["  " + "  ".join(h.ljust(w) for h, w in zip(head, widths)),
           "  " + "  ".join("-" * w for w in widths)]
    out += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return out


_FMT_SHORT = {"float64": "f64", "float32": "f32", "float16": "f16", "bfloat16": "bf16"}


def render_claim(js: dict[str, Any]) -> str:
    """The study of one claim as text."""
    lines = [f"{js['claim']} [{js['variant']}] ({js['variant_choice']}), {js['seconds']} s"]
    if js["relies_on_ties"]:
        lines.append(f"  relies on ties (smallest index among equal scores, values differ) from n = "
                     f"{js['first_deciding_tie_n']}: {', '.join(js['tie_heads'])}; softmax cannot reproduce them")
    else:
        lines.append("  no deciding ties: every choice that matters has a unique maximum")
    eps = js["options"]["eps"]
    rows = []
    for r in js["rows"]:
        b = r["beta"] or {}
        beta = "-" if not b else (_val(b["beta"]) if b["beta"] != "inf" else f"∞ ({_val(b['without_deciding_ties'])})")
        ties = "-" if r["extremal"] else str(sum(h["deciding_ties"] for h in r["heads"]))
        fmts = " ".join(_FMT_SHORT.get(f, f) for f in r["bits"]["formats_exact"]) or "none"
        rows.append([_short(r["family"], 34), str(r["n"]), str(r["inputs"]), _val(r["gamma"]), ties, _val(r["M"]),
                     _val(r["S"]), beta, str(r["bits"]["significand_bits"]), fmts])
    lines += _table(["family", "n", "inputs", "γ", "deciding ties", "M", "S", f"β(ε={eps:g})", "bits",
                     "exact formats"], rows)
    for fam, fs in js["formulas"].items():
        keys = ["gamma", "M", "S", "context", "lambda", "M(λ)", "S(λ)"]
        lines.append(f"  formulas, {_short(fam, 50)}: " + "; ".join(f"{k} = {fs[k]}" for k in keys if k in fs))
    lines += _search_lines(js)
    trows = []
    for t in js["thresholds"]:
        p, m = t["predicted"], t["measured"]
        if m["n"] is not None:
            why = m["mismatch"].get("explanation", "")
            where = f"{_short(m['input'].get('text', ''), 48)}, step {m['step']}: {why}"
            meas = str(m["n"])
        else:
            meas = f"none ≤ {m.get('no_failure_up_to')}" if m.get("no_failure_up_to") else "none"
            where = m.get("stopped", "")
        trows.append([t["setting"], "-" if p.get("n") is None else str(p["n"]), meas, _short(where, 90)])
    lines += ["", *_table(["setting", "predicted n", "measured n", "first failure"], trows)]
    return "\n".join(lines)


def _rank(r: int) -> str:
    return f"rank {r}" if r < 10**9 else f"rank ≈ {float(r):.3e}"


def _search_lines(js: dict[str, Any]) -> list[str]:
    """How far the guided search of the larger sizes went, and where it found the largest M and smallest γ."""
    sr = js.get("search")
    if not sr:
        return []
    sizes = sr["sizes"]
    shown = ", ".join(map(str, sizes)) if len(sizes) <= 8 else f"{', '.join(map(str, sizes[:6]))}, …, {sizes[-1]}"
    lines = [f"  search of the larger sizes (seed {sr['seed']}, budget {sr['budget_per_family']} per family and "
             f"size): n = {shown}; {sr['evaluated']} inputs evaluated ({sr['pool']} pool, {sr['refined']} refined)"]
    rows = [r for r in js["rows"] if r.get("search")]
    if rows:
        last = rows[-1]["search"]
        for what, key, fig in (("largest M", "largest_M", "M"), ("smallest γ", "smallest_gamma", "gamma")):
            f = last.get(key)
            if f is not None:
                text, fam = _short(f["input"].get("text", ""), 40), _short(f["family"], 40)
                lines.append(f"    {what} at n = {last['n']}: {f[fig]}, {text} ({_rank(f['rank'])} of {fam})")
    return lines


def _margin(x: dict[str, Any] | None) -> str:
    if x is None:
        return "-"
    v = str(x["value"])
    return v if "/" not in v or len(v) <= 12 else f"{x['approx']:.3g}"


def render_encoder(js: dict[str, Any]) -> str:
    """The margins study of one encoder claim as text."""
    lines = [f"{js['claim']} [{js['variant']}] (encoder: exact margins over every string checked)"]
    for r in js["rejected"]:
        lines.append(f"  {r['variant']} departs from its reference at n = {r['size']}: not studied")
    rows, units = [], []
    last = {r["family"]: r["n"] for r in js["rows"]}  # the ReLU table shows each family's largest size
    for r in js["rows"]:
        for h in r["heads"]:
            rows.append([_short(r["family"], 30), str(r["n"]), str(r["strings"]), f"{h['layer']}.{h['head']}",
                         h["attention"], str(h["events"]), str(h["ties"]), _margin(h["margin"]),
                         _margin(h["relative_margin"])])
        for u in r["relus"] if r["n"] == last[r["family"]] else []:
            if u["smallest"] is not None or u["zeros"] != u["evaluations"]:
                units.append([str(r["n"]), f"{u['layer']}.{u['unit']}", str(u["evaluations"]), str(u["zeros"]),
                              str(u["inexact"]), _margin(u["smallest"]), _margin(u["relative"])])
        if r["departures"]:
            d = r["first_departure"]
            lines.append(f"  n = {r['n']}: {r['departures']} of {r['strings']} strings depart from the reference, "
                         f"first {_short(d['input'].get('text', ''), 30)} ({d.get('kind')} at position "
                         f"{d.get('position')})")
    lines += _table(["family", "n", "strings", "head", "attention", "events", "ties", "margin", "relative"], rows)
    if units:
        lines += ["", *_table(["n", "ReLU", "evaluations", "zeros", "balls", "smallest |x|", "|x|/T"], units)]
    else:
        lines.append("  every ReLU pre-activation is 0 on every string (or there is no ReLU)")
    frows = []
    for fmt, f in js["formats"].items():
        frows.append([fmt, "-" if f["n"] is None else str(f["n"]), str(f["kept_up_to"]), _short(f["reason"] or "", 80)])
    lines += ["", *_table(["format", "first n broken", "kept up to n", "why (first order)"], frows)]
    if js.get("float_replay"):
        lines += ["", *_table(["format", "strings", "first n changed", "decisions changed there", "first string",
                               "largest readout error"], _replay_rows(js["float_replay"]))]
    return "\n".join(lines)


def _replay_rows(replay: list[dict[str, Any]]) -> list[list[str]]:
    """Per format: the measured float replay (the first size where a decision changes, the largest error)."""
    out = []
    for fmt in dict.fromkeys(r["format"] for r in replay):
        rs = [r for r in replay if r["format"] == fmt]
        first = next((r for r in sorted(rs, key=lambda r: r["n"]) if r["changed"]), None)
        text = "-" if first is None else _short(first["first_changed"]["input"].get("text", ""), 30)
        out.append([fmt, str(sum(r["strings"] for r in rs)), "-" if first is None else str(first["n"]),
                    "-" if first is None else f"{first['changed']} of {first['strings']}", text,
                    f"{max(r['max_readout_error'] for r in rs):.3g}"])
    return out


def render_precision(results: list[dict[str, Any]]) -> str:
    """Every claim's study."""
    return "\n\n".join(render_claim(js) for js in results)


def plot_thresholds(results: list[dict[str, Any]], path: str | Path) -> None:
    """One panel per claim: predicted and measured first-failure ``n`` per setting (log scale).

    Open circles: the predicted first failure (hard attention: where the sufficient condition for exactness
    first fails; softmax: where the first-order error reaches half the reading grid); ``∞`` at the top: no
    failure predicted. Crosses: the measured first failure; triangles: no failure up to the largest ``n`` run.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SymcotError("--plot needs matplotlib: pip install 'symcot[plot]'") from None
    k = len(results)
    cols = 2 if k > 1 else 1
    nrows = (k + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(6.5 * cols, 4.2 * nrows), squeeze=False)
    for ax, js in zip(axes.ravel(), results):
        ts = js["thresholds"]
        labels = [t["setting"].replace("softmax ", "sm ") for t in ts]
        nums = [js["options"]["measure_up_to"]] + [t["predicted"]["n"] or 0 for t in ts] + \
            [t["measured"]["n"] or 0 for t in ts]
        top = 8 * max(nums)
        for x, t in enumerate(ts):
            p, m = t["predicted"].get("n"), t["measured"]
            if p is not None:
                ax.scatter([x], [p], marker="o", facecolors="none", edgecolors="C0", s=70,
                           label="predicted first failure")
            else:
                ax.scatter([x], [top], marker="$\\infty$", color="C0", s=90, label="no failure predicted")
            if m["n"] is not None:
                ax.scatter([x], [m["n"]], marker="x", color="C3", s=60, label="measured first failure")
            elif m.get("no_failure_up_to"):
                ax.scatter([x], [m["no_failure_up_to"]], marker="^", color="C2", s=50,
                           label="no failure up to (largest n run)")
        ax.set_yscale("log")
        ax.set_ylim(0.7, top * 3)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=55, ha="right", fontsize=7)
        ax.set_ylabel("n (vertices)")
        ax.set_title(f"{js['claim']} [{js['variant']}]", fontsize=9)
        ax.grid(True, which="major", axis="y", alpha=0.3)
    handles: dict[str, Any] = {}
    for ax in axes.ravel()[:k]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    for ax in axes.ravel()[k:]:
        ax.axis("off")
    fig.legend(handles.values(), handles.keys(), loc="lower center", ncol=len(handles), fontsize=8)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)
