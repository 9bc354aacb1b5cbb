"""``prove(lemma)``: the size sweep, the all-dimension proof, unsat cores and relaxations, in one result.

A lemma without dimensions is decided by :func:`~symcot.lemmas.solver.prove_at` alone. A lemma over
``H`` or ``d`` coordinates is proved at every size from its least one up to ``max_size`` (one query per
gate value and output coordinate, each with a timeout), then for *all* sizes by the index-function
encoding (:mod:`symcot.lemmas.symbolic`) when its rows are local. When a row sums over a whole block of
symbolic size, the result is ``verified`` up to ``max_size``, never ``proved``.

Verdicts: ``proved`` (every query ``unsat``: for all inputs in the domain, at all sizes where a size is
involved), ``verified`` (all sizes ``≤ max_size``), ``refuted`` (a counterexample that exact replay
confirmed), ``unknown`` (a timeout or an unsupported statement; never a proof).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from symcot.lemmas.induction import prove_by_induction
from symcot.lemmas.kit import Unsupported
from symcot.lemmas.lemma import Lemma, Relaxation
from symcot.lemmas.solver import Counterexample, prove_at, terms
from symcot.lemmas.symbolic import check_local, check_summed, local_matrices, prove_all_sizes, summed_matrices


@dataclass
class LemmaResult:
    """The outcome of :func:`prove`."""

    status: str
    max_size: int | None = None
    queries: int = 0
    solver_seconds: float = 0.0
    used: set[str] = field(default_factory=set)
    unused: list[str] = field(default_factory=list)
    counterexample: Counterexample | None = None
    dimension: str = ""
    sizes_checked: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    relaxations: list[dict[str, Any]] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    def details(self) -> dict[str, Any]:
        """The JSON-friendly part of the verdict's ``details``."""
        d: dict[str, Any] = {
            "solver_seconds": round(self.solver_seconds, 3),
            "queries": self.queries,
            "dimension": self.dimension,
            "core": sorted(self.used),
            "unused_hypotheses": self.unused,
        }
        if self.sizes_checked:
            d["sizes_checked"] = [self.sizes_checked[0], self.sizes_checked[-1]]
        if self.relaxations:
            d["relaxations"] = self.relaxations
        if self.unknown:
            d["undecided_queries"] = self.unknown[:10]
        return d


def _dim_text(lemma: Lemma, lo: int, hi: int) -> str:
    names = ", ".join(str(s) for s in lemma.dims)
    return f"{names} = {lo}..{hi}"


def prove(lemma: Lemma, max_size: int | None = None, *, cores: bool = True, polish: bool = True,
          relax_size: int | None = None) -> LemmaResult:
    """Decide ``lemma`` (see the module docstring); ``max_size`` bounds the size sweep."""
    if not lemma.dims:
        res = _from_outcome(lemma, prove_at(lemma, {}, cores=cores, polish=polish))
        res.dimension = "no dimension"
    else:
        res = _sweep(lemma, max_size if max_size is not None else 8, cores, polish)
    if res.status in ("proved", "verified") and cores:
        for h in lemma.hyps:
            if h.kind == "int":  # encoded as a sort: needed iff the lemma fails with the block real
                again = prove(lemma.relaxed(Relaxation(h.name, drop=(h.name,))), max_size, cores=False, polish=False)
                res.queries += again.queries
                res.solver_seconds += again.solver_seconds
                if again.status not in ("proved", "verified"):
                    res.used.add(h.name)
        res.unused = [h.name for h in lemma.hyps if h.name not in res.used]
    for r in lemma.relaxations:
        rr = prove(lemma.relaxed(r), relax_size if relax_size is not None else max_size, cores=False, polish=polish)
        entry: dict[str, Any] = {"relaxation": r.name, "dropped": list(r.drop), "added": [h.name for h in r.add],
                                 "status": rr.status, "dimension": rr.dimension}
        if rr.counterexample is not None:
            entry["counterexample"] = rr.counterexample.as_dict()
        res.relaxations.append(entry)
        res.queries += rr.queries
        res.solver_seconds += rr.solver_seconds
    return res


def _from_outcome(lemma: Lemma, o: Any) -> LemmaResult:
    status = o.status
    notes = list(o.notes)
    if status == "vacuous":
        status = "unknown"
        notes.append("the domain is empty: nothing to prove")
    return LemmaResult(status, None, o.queries, o.seconds, set(o.used), [], o.counterexample, "", [], notes,
                       [], list(o.unknown))


def _sweep(lemma: Lemma, max_size: int, cores: bool, polish: bool) -> LemmaResult:
    res = _concrete_sweep(lemma, max_size, cores, polish)
    if res.status != "proved":  # refuted or undecided at a size, or no size in the domain
        return res
    assert res.max_size is not None  # a complete sweep checked at least one size
    if not lemma.symbolic:
        res.status = "verified"
        res.dimension = f"checked for {_dim_text(lemma, res.sizes_checked[0], res.max_size)} " \
                        "(all-dimension encoding not used)"
        return res
    return _all_dimensions(lemma, res, polish)


def _concrete_sweep(lemma: Lemma, max_size: int, cores: bool, polish: bool) -> LemmaResult:
    """Every size from the smallest the dimension hypotheses name up to ``max_size``, one by one.

    The result is final when its status is not ``proved`` (a size refuted or undecided, or none in the
    domain); otherwise ``max_size`` is the largest size checked and the all-dimension step may follow.
    """
    syms = list(lemma.dims)
    lo = max(lemma.dims.values())
    res = LemmaResult("proved")
    mats = [m for mp in (lemma.w1, lemma.w2) if mp is not None for m in local_matrices(mp)]
    summed = [m for mp in (lemma.w1, lemma.w2) if mp is not None for m in summed_matrices(mp)]
    last_ok: int | None = None
    for size in range(lo, max_size + 1):
        env = {s: size for s in syms}
        for m in mats:
            check_local(m, env)
        for sm in summed:
            check_summed(sm, env)
        o = prove_at(lemma, env, cores=cores and size == max_size, polish=polish)
        res.queries += o.queries
        res.solver_seconds += o.seconds
        res.used |= o.used
        res.notes += [n for n in o.notes if "excluded" not in n]
        if o.status == "vacuous":
            res.notes = [n for n in res.notes if "outside the domain" not in n]
            continue
        res.sizes_checked.append(size)
        if o.status == "refuted":
            res.status, res.counterexample = "refuted", o.counterexample
            res.max_size = last_ok
            res.dimension = f"smallest failing size {size}"
            return res
        if o.status == "unknown":
            res.status, res.unknown = "unknown", o.unknown
            res.max_size = last_ok
            res.dimension = f"undecided at size {size}"
            return res
        last_ok = size
    res.max_size = last_ok
    if last_ok is None:
        res.status = "unknown"
        res.notes.append("no size in the sweep is inside the domain")
    return res


def _all_dimensions(lemma: Lemma, res: LemmaResult, polish: bool) -> LemmaResult:
    """After a complete concrete sweep, the all-dimension query; a model it finds is re-run concretely."""
    syms = list(lemma.dims)
    assert res.max_size is not None
    checked = _dim_text(lemma, res.sizes_checked[0], res.max_size)
    lam_t, bound_t = terms(lemma)
    try:
        sym = prove_all_sizes(lemma, lam_t, bound_t)
    except Unsupported as e:
        sym = {"status": "nonlocal", "reason": str(e), "queries": 0, "seconds": 0.0, "used": set(), "dropped": set()}
    res.queries += sym["queries"]
    res.solver_seconds += sym["seconds"]
    names = ", ".join(str(s) for s in syms)
    if sym["status"] == "proved":
        res.status = "proved"
        res.used |= sym["used"]
        dims_hyp = [h.name for h in lemma.hyps if h.kind == "dim"]
        res.dimension = (f"every {names}{' with ' + ', '.join(dims_hyp) if dims_hyp else ''} "
                         f"(index-function encoding, symbolic {names}); also {checked} concretely")
        if sym["dropped"]:
            res.notes.append("not needed for any size (left out of the all-dimension proof): "
                             + ", ".join(sorted(sym["dropped"])))
        return res
    if sym["status"] == "nonlocal" and lemma.induction is not None:
        return _by_induction(lemma, res, checked, names, sym["reason"])
    if sym["status"] == "nonlocal":
        res.status = "verified"
        res.dimension = f"checked for {checked}; not proved for all {names}: {sym['reason']}"
        return res
    if sym["status"] == "sat":
        env = {s: int(v) for s, v in sym["model_sizes"].items()}
        o = prove_at(lemma, env, cores=False, polish=polish)
        res.queries += o.queries
        res.solver_seconds += o.seconds
        if o.status == "refuted":
            res.status, res.counterexample = "refuted", o.counterexample
            res.dimension = f"checked for {checked}; fails at {_env_text(env)} (found by the all-dimension query)"
            return res
        res.status = "verified"
        res.dimension = f"checked for {checked}"
        res.notes.append(f"the all-dimension query has a model at {_env_text(env)} that violates a hypothesis it "
                         "left out; no proof for all sizes")
        return res
    res.status = "verified"
    res.dimension = f"checked for {checked}; the all-dimension query was undecided"
    res.unknown = sym.get("unknown", [])
    return res


def _by_induction(lemma: Lemma, res: LemmaResult, checked: str, names: str, nonlocal_reason: str) -> LemmaResult:
    """A row that sums over a block of symbolic size, proved for all sizes by induction on the sum."""
    assert lemma.induction is not None
    lam_t, bound_t = terms(lemma)
    ind = prove_by_induction(lemma, lam_t, bound_t)
    res.queries += ind["queries"]
    res.solver_seconds += ind["seconds"]
    others = {b: row for b, row in lemma.target.items() if b != lemma.induction.block}
    if ind["status"] == "proved" and others:  # the other target blocks by the index-function encoding
        rest = prove_all_sizes(lemma.replace(target=others, induction=None), lam_t, bound_t)
        res.queries += rest["queries"]
        res.solver_seconds += rest["seconds"]
        if rest["status"] != "proved":
            ind = {"status": "failed", "failed": f"the other blocks ({', '.join(others)}): {rest['status']} "
                                                 f"{rest.get('reason', '')}".rstrip()}
    if ind["status"] == "proved":
        res.status = "proved"
        dims_hyp = [h.name for h in lemma.hyps if h.kind == "dim"]
        res.dimension = (f"every {names}{' with ' + ', '.join(dims_hyp) if dims_hyp else ''} (induction on the "
                         f"sum of block {lemma.induction.block!r}: {lemma.induction.fold.what}; symbolic {names}); "
                         f"also {checked} concretely")
        res.notes.append("induction obligations unsat: " + ", ".join(ind["obligations"]))
        return res
    res.status = "verified"
    why = ind.get("failed") or ind.get("reason", "")
    res.dimension = f"checked for {checked}; not proved for all {names}: {nonlocal_reason}; the induction: {why}"
    return res


def _env_text(env: dict[sp.Symbol, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in env.items())
