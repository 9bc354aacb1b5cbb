"""The precision study as data: rows per family and size, formulas, predictions beside measurements.

Exact figures stay exact (``int`` or ``"p/q"`` strings, via :func:`symcot.check.verdict.jsonable`);
β values are floats (``"inf"`` for deciding ties).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from symcot.check.extremal import PER_FAMILY, SEED
from symcot.check.extremal_search import WALKERS, Found, SearchLog
from symcot.check.verdict import jsonable
from symcot.prove.lam.fit import Formula, first_exceeding, fit
from symcot.replay.floating import FORMATS
from symcot.study.precision.margins import CATEGORIES, Extreme, RunStats
from symcot.study.precision.measure import Config
from symcot.study.precision.predict import beta_needed, bits, format_guarantee, gamma, tie_heads
from symcot.study.precision.run import ClaimPrecision, Measured, Row


def _num(x: Any) -> Any:
    if isinstance(x, float):
        return "inf" if math.isinf(x) else round(x, 4)
    return jsonable(x)


def _ext(e: Extreme, describe: Any) -> dict[str, Any] | None:
    if e.value is None:
        return None
    return {"value": _num(e.value), **(jsonable(e.witness.as_dict(describe)) if e.witness else {})}


def _gamma_ext(st: RunStats) -> Extreme:
    best = Extreme(largest=False)
    for h in st.heads.values():
        best.merge(h.gamma)
    return best


def row_json(row: Row, eps: float, formats: tuple[str, ...]) -> dict[str, Any]:
    """One family at one size."""
    st, desc = row.stats, row.family.describe
    heads = []
    for h in st.heads.values():
        heads.append({
            "layer": h.layer, "head": h.head, "events": h.events, "strict": h.strict, "ties": h.ties,
            "deciding_ties": h.deciding, "deciding_winners": dict(h.winners),
            "deciding_example": h.deciding_example.as_dict(desc) if h.deciding_example else None,
            "gamma": _ext(h.gamma, desc), "group_gap": _ext(h.group_gap, desc), "delta": _ext(h.delta, desc),
            "beta": _ext(h.beta, desc),
            "first_order_error": {f"{b:g}": _ext(e, desc) for b, e in sorted(h.error_at.items())},
        })
    return {
        "family": row.family.name, "n": row.size, "inputs": st.inputs, "extremal": row.extremal,
        "engine": sorted(row.engines), "seconds": round(row.seconds, 3), "context": st.context,
        "lambda": jsonable(sorted(row.lambdas)) if row.lambdas else None,
        "gamma": _ext(_gamma_ext(st), desc) if not row.extremal else None,
        "tie_heads": tie_heads(st), "heads": heads,
        "magnitudes": {c: _ext(st.magnitudes[c], desc) for c in CATEGORIES if c in st.magnitudes},
        "M": jsonable(st.stored), "S": _ext(st.sums, desc),
        "beta": {k: _num(v) for k, v in beta_needed(st, eps).items()} if not row.extremal else None,
        "bits": jsonable(bits(st, formats)),
        **({"search": search_json(row.search, desc)} if row.search is not None else {}),
    }


def _found(f: Found | None, describe: Any) -> dict[str, Any] | None:
    if f is None:
        return None
    return {"input": jsonable(describe(f.input)), "family": f.family.name, "rank": jsonable(f.rank),
            "M": jsonable(f.score.magnitude), "S": jsonable(f.score.sums), "gamma": jsonable(f.score.margin)}


def search_json(log: SearchLog, describe: Any) -> dict[str, Any]:
    """How far the guided search went at one size, and the most extreme inputs it found."""
    return {"n": log.size, "pool": log.pool, "refined": log.refined, "evaluated": log.evaluated,
            "budget_per_family": log.budget, "rounds": log.rounds, "walkers": log.walkers,
            "converged": log.converged, "largest_M": _found(log.largest, describe),
            "smallest_gamma": _found(log.smallest_margin, describe)}


def search_summary(rows: list[Row]) -> dict[str, Any] | None:
    """The guided search over every larger size (``None``: no search ran, e.g. the path and star were used)."""
    logs = [r.search for r in sorted(rows, key=lambda r: r.size) if r.search is not None]
    if not logs:
        return None
    return {"sizes": [g.size for g in logs], "evaluated": sum(g.evaluated for g in logs),
            "pool": sum(g.pool for g in logs), "refined": sum(g.refined for g in logs),
            "budget_per_family": logs[0].budget, "per_family_pool": PER_FAMILY, "walkers_per_objective": WALKERS,
            "seed": SEED}


def _series(rows: list[Row]) -> dict[str, dict[int, Any]]:
    out: dict[str, dict[int, Any]] = {"gamma": {}, "M": {}, "S": {}, "context": {}}
    for r in rows:
        st = r.stats
        out["gamma"][r.size] = gamma(st)
        out["M"][r.size] = st.stored
        out["S"][r.size] = st.sums.value
        out["context"][r.size] = st.context
        for c in CATEGORIES:
            out.setdefault(c, {})[r.size] = st.magnitudes[c].value
    return out


def formulas(rows: list[Row]) -> dict[str, dict[str, Formula | None]]:
    """Per family, the certified formula of each figure in ``n`` (``None``: no formula)."""
    fams: dict[str, list[Row]] = {}
    for r in rows:
        fams.setdefault(r.family.name, []).append(r)
    out: dict[str, dict[str, Formula | None]] = {}
    for name, rs in fams.items():
        out[name] = {k: fit({s: v for s, v in series.items() if v is not None})
                     for k, series in _series(rs).items() if any(v is not None for v in series.values())}
        if rs and all(len(r.lambdas) == 1 for r in rs):
            from symcot.ir.symbols import lam

            lams = {r.size: next(iter(r.lambdas)) for r in rs}
            out[name]["lambda"] = fit(lams)
            if len(set(lams.values())) == len(lams):
                out[name]["M(λ)"] = fit({lams[r.size]: r.stats.stored for r in rs}, lam)
                out[name]["S(λ)"] = fit({lams[r.size]: r.stats.sums.value for r in rs}, lam)
    return out


def _ordered(rows: list[Row], extremal: bool = False) -> list[Row]:
    return sorted([r for r in rows if r.extremal == extremal], key=lambda r: r.size)


def _first_lapse(fs: dict[str, Formula | None], fmt_name: str, den: int, start: int) -> int | None:
    """The smallest ``n ≥ start`` at which the formulas of ``M`` and ``S`` break the guarantee of a format."""
    fmt = FORMATS[fmt_name]
    assert fmt.bits is not None and fmt.accum_bits is not None and fmt.max_finite is not None
    m_fit, s_fit = fs.get("M"), fs.get("S")
    assert m_fit is not None and s_fit is not None
    cands = [first_exceeding(m_fit, Fraction(2**fmt.bits, den), start),
             first_exceeding(m_fit, Fraction(int(fmt.max_finite)), start),
             first_exceeding(s_fit, Fraction(2**fmt.accum_bits, den), start)]
    found = [c for c in cands if c is not None]
    return min(found) if found else None


def predict_hard(rows: list[Row], fits: dict[str, dict[str, Formula | None]], fmt_name: str) -> dict[str, Any]:
    """The first size at which the exactness guarantee of ``fmt_name`` fails.

    First on every input of the exhaustive families (exact figures); beyond them on the path and star:
    from the formulas of ``M`` and ``S`` certified on every size run there, else the sizes run.
    """
    fmt = FORMATS[fmt_name]
    exh = _ordered(rows)
    for r in exh:
        ok, why = format_guarantee(r.stats, fmt)
        if not ok:
            return {"n": r.size, "basis": f"exact figures, every input of {r.family.name}", "reason": why}
    last = exh[-1].size if exh else 0
    ex = _ordered(rows, extremal=True)
    if not ex:
        return {"n": None, "basis": f"guaranteed on every input up to n = {last}; no larger size run"}
    name = ex[0].family.name
    fs = fits.get(name, {})
    dens = {r.stats.denominator for r in ex}
    if fs.get("M") is not None and fs.get("S") is not None and len(dens) == 1:
        n = _first_lapse(fs, fmt_name, dens.pop(), last + 1)
        return {"n": n, "basis": f"{name}: M = {fs['M'].text}, S = {fs['S'].text}",  # type: ignore[union-attr]
                "reason": "the first n at which M·D or S·D exceeds what the format holds exactly" if n else
                "the formulas never exceed what the format holds"}
    lapse = [r.size for r in ex if not format_guarantee(r.stats, fmt)[0]]
    if lapse:
        return {"n": min(lapse), "basis": f"{name}, exact figures at the sizes run (no formula)",
                "reason": format_guarantee(next(r for r in ex if r.size == min(lapse)).stats, fmt)[1]}
    return {"n": None, "basis": f"guaranteed on {name} at every size run, up to n = {ex[-1].size}"}


def predict_softmax(rows: list[Row], beta: float) -> dict[str, Any]:
    """The first size at which some head's first-order softmax error at ``beta`` reaches half the reading grid."""
    for r in _ordered(rows):
        tol = 0.5 / r.stats.denominator
        worst = max((h.error_at[beta].value for h in r.stats.heads.values()
                     if beta in h.error_at and h.error_at[beta].value is not None), default=0.0)
        if worst >= tol:
            ties = tie_heads(r.stats)
            why = f"first-order error {worst:.3g} ≥ {tol:g}" + (f"; deciding ties at {', '.join(ties)}" if ties else "")
            return {"n": r.size, "basis": "first-order softmax error of the exact run", "reason": why}
    exh = _ordered(rows)
    return {"n": None, "basis": f"first-order error below half the reading grid up to n = {exh[-1].size}"
            if exh else "no size analysed"}


def measured_json(m: Measured) -> dict[str, Any]:
    """A setting's measured threshold."""
    out: dict[str, Any] = {"passed_exhaustive_sizes": m.passed,
                           "extremal_runs": [{"n": n, "passed": ok} for n, ok in m.extremal_runs]}
    if m.failure is not None:
        f = m.failure
        out.update({"n": f.size, "family": f.family.name, "input": jsonable(f.family.describe(f.input)),
                    "step": f.mismatch.step,
                    "mismatch": jsonable(f.mismatch.as_dict())})
    else:
        out["n"] = None
        top = max([*m.passed, *[n for n, ok in m.extremal_runs if ok]], default=None)
        out["no_failure_up_to"] = top
    if m.skipped:
        out["stopped"] = m.skipped
    return out


def _config_json(c: Config) -> dict[str, Any]:
    from symcot.replay.floating import Softmax

    return {"setting": c.key, "format": c.fmt, "attention": "softmax" if c.softmax else "hard",
            "beta": c.attention.beta if isinstance(c.attention, Softmax) else None}


def claim_json(cp: ClaimPrecision) -> dict[str, Any]:
    """The whole study of one claim."""
    opts = cp.options
    fits = formulas(cp.rows)
    thresholds = []
    for m in cp.measured:
        c = m.config
        pred = predict_softmax(cp.rows, c.attention.beta) if c.softmax else predict_hard(cp.rows, fits, c.fmt)  # type: ignore[union-attr]
        thresholds.append({**_config_json(c), "predicted": pred, "measured": measured_json(m)})
    heads = sorted({h for r in cp.rows for h in tie_heads(r.stats)})
    first_tie = min((r.size for r in cp.rows if tie_heads(r.stats)), default=None)
    betas = {r.size: beta_needed(r.stats, opts.eps)["without_deciding_ties"] for r in _ordered(cp.rows)}
    sizes = sorted(betas)
    grows = len(sizes) > 1 and betas[sizes[-1]] > betas[sizes[0]]
    return {
        "claim": cp.claim, "variant": cp.variant,
        "variant_choice": "as written" if not cp.rejected else
        "; ".join(f"{r['variant']} departs from the spec at n = {r['counterexample']['size']}" for r in cp.rejected)
        + f"; {cp.variant} holds on every input analysed",
        "rejected": jsonable(cp.rejected),
        "options": {"max_size": opts.max_size, "reach": opts.reach, "eps": opts.eps, "betas": list(opts.betas),
                    "formats": list(opts.formats), "softmax_formats": list(opts.softmax_formats),
                    "measure_up_to": opts.measure_up_to, "search_budget": opts.search_budget,
                    "search_trees": opts.search_trees},
        "relies_on_ties": bool(heads), "tie_heads": heads, "first_deciding_tie_n": first_tie,
        "beta_grows_with_n": grows,
        "rows": [row_json(r, opts.eps, opts.formats) for r in sorted(cp.rows, key=lambda r: (r.extremal, r.size))],
        "formulas": {fam: {k: (f.text if f else "no formula") for k, f in fs.items()} for fam, fs in fits.items()},
        "thresholds": thresholds,
        "extremal_inputs_used": cp.extremal_used,
        "search": search_summary(cp.rows),
        "seconds": round(cp.seconds, 2),
    }
