"""The smallest ``λ``: the exact condition on ``λ`` by quantifier elimination, then a certificate.

For a lemma whose weights contain ``λ``, the set of *bad* ``λ`` is ``∃x. dom(x) ∧ FFN_λ(x) ≠ target(x)``
(over every gate value and output coordinate). Z3's ``qe2`` tactic eliminates ``x`` and leaves a
quantifier-free formula ``G(λ)``; ``λ*`` is the infimum of ``{λ : hyps(λ) ∧ ¬G(λ)}`` (``Optimize``).
When ``qe2`` does not answer in time, bisection over exact rationals with the prover is the fallback
(the shared search, :func:`symcot.lemmas.least.least`; the result says so). The value is then *certified*:
the lemma is proved at ``λ = λ*`` and refuted at ``λ* - δ`` with a counterexample that exact replay confirms.

Where the domain's bound is the same ``λ`` (``x ∈ [0, λ]``, ``v_2 ≤ λ``), the lemma may hold for every
``λ`` (the domain shrinks with ``λ``). The *decoupled* analysis separates the two: weights use ``λ``,
inputs are bounded by ``B``; it derives ``λ*`` as a function of ``B``, proves sufficiency for every
``B`` with one query, and necessity for every ``B`` (when ``qe2`` handles ``B`` symbolically) or at the
listed values of ``B``. :func:`answer` reads :func:`analyse`'s result as a :class:`LambdaAnswer`, the shape
every λ analysis answers in.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import z3

from symcot.ir.layout import ConcreteLayout
from symcot.lemmas.encode import LazyHidden, Z3Rows, concrete_maps
from symcot.lemmas.kit import Z3Kit, exact_str, is_z3, z3_to_exact
from symcot.lemmas.least import Bisection, Certificate, LambdaAnswer, least
from symcot.lemmas.lemma import ConcreteX, Hyp, Lemma, lam_hyp
from symcot.lemmas.solver import encode_hyp, gate_assignments, input_vars, new_solver, prove_at
from symcot.replay.z3limits import budget


@dataclass(frozen=True)
class LambdaSpec:
    """How to analyse ``λ`` for one lemma.

    Attributes:
        bounds: values of the input bound ``B`` for the decoupled analysis (certified at ``bounds[-1]``).
        bound_int: ``B`` is an integer (the inputs it bounds are integers).
        bound_hyps: hypotheses on ``B`` alone (``B ≥ 0``), as ``lam`` hypotheses over ``K.bound``.
        delta: "just below": the certificate refutes at ``λ* - delta``.
        qe_timeout_ms: limit of each quantifier elimination.
        decoupled: run the decoupled analysis at all.
        qe_symbolic_bound: try ``qe2`` with ``B`` symbolic (it may not terminate on mixed integer/real
            problems; the per-value analysis is used without it).

    """

    bounds: tuple[Any, ...] = (1, 2, 3)
    bound_int: bool = False
    bound_hyps: tuple[Hyp, ...] = ()
    delta: Fraction = Fraction(1, 100)
    qe_timeout_ms: int = 5000
    decoupled: bool = True
    qe_symbolic_bound: bool = True


def bad_formula(lemma: Lemma, lam_t: Any, bound_t: Any) -> tuple[Any, list[Any]]:
    """``(∨_gates (hyps ∧ ∨_coords out ≠ target), input variables)`` at the lemma's (dimensionless) size."""
    env: dict[Any, int] = {}
    cl = ConcreteLayout(lemma.inputs, env)
    co = ConcreteLayout(lemma.w2.dst, env)
    w1c, w2c = concrete_maps(lemma, env, None)
    w1z = Z3Rows(w1c, lam_t) if w1c is not None else None
    w2z = Z3Rows(w2c, lam_t)
    K = Z3Kit(lam_t, bound_t)
    disj = []
    for gv in gate_assignments(lemma):
        xs = input_vars(lemma, cl, gv)
        x = ConcreteX(xs)
        hyps = [encode_hyp(h, x, K, env) for h in lemma.hyps if h.kind != "dim"]
        if any(h is False for h in hyps):
            continue
        hid = LazyHidden(w1z, cl.assemble(xs), lemma.relu)
        goals = []
        for b, row in lemma.target.items():
            for i in range(co.sizes[b]):
                g = w2z.row(co.offsets[b] + i, hid) != row(x, i, K)
                goals.append(g)
        disj.append(Z3Kit.And(*hyps, Z3Kit.Or(*goals)))
    f = Z3Kit.Or(*disj)
    f = z3.BoolVal(f) if isinstance(f, bool) else f
    # Quantify every constant but λ and the bound: the inputs and the integrality witnesses (v = n).
    keep = {str(t) for t in (lam_t, bound_t) if is_z3(t)}
    from z3.z3util import get_vars

    return f, [v for v in get_vars(f) if str(v) not in keep]


def _has_quantifier(e: z3.ExprRef) -> bool:
    if z3.is_quantifier(e):
        return True
    return any(_has_quantifier(c) for c in e.children())


def qe(f: Any, xs: list[Any], timeout_ms: int) -> Any:
    """Eliminate ``∃ xs`` from ``f`` with ``qe2`` (``None`` on timeout or if quantifiers remain)."""
    goal = z3.Goal()
    goal.add(z3.Exists(xs, f) if xs else f)
    try:
        r = z3.TryFor(z3.Then(z3.Tactic("qe2"), z3.Tactic("simplify")), timeout_ms)(goal)
    except z3.Z3Exception:
        return None
    out = r.as_expr()
    return None if _has_quantifier(out) else out


def _readable(f: Any) -> str:
    """A shorter equivalent form of a quantifier-free condition, for reports."""
    try:
        r = z3.TryFor(z3.Then("simplify", "ctx-simplify", "simplify"), 2000)(f).as_expr()
    except z3.Z3Exception:
        r = z3.simplify(f)
    return str(r)


def infimum(cond: Any, var: Any, timeout_ms: int = 10_000) -> tuple[Any, bool] | None:
    """``(inf {var : cond}, attained)`` as an exact number; ``None`` if empty, unbounded or undecided."""
    opt = z3.Optimize()
    budget(opt, timeout_ms)
    opt.add(cond)
    h = opt.minimize(var)
    if opt.check() != z3.sat:
        return None
    v = h.value()
    if z3.is_int_value(v) or z3.is_rational_value(v):
        return z3_to_exact(v), True
    if str(v) == "epsilon":
        return 0, False
    if z3.is_add(v):
        nums = [c for c in v.children() if z3.is_int_value(c) or z3.is_rational_value(c)]
        rest = [c for c in v.children() if not (z3.is_int_value(c) or z3.is_rational_value(c))]
        if len(nums) == 1 and len(rest) == 1 and str(rest[0]) == "epsilon":
            return z3_to_exact(nums[0]), False
    return None


def _certify(lemma: Lemma, lam_star: Any, delta: Fraction, bound: Any = None,
             drop: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Prove at ``λ*``, refute at ``λ* - δ`` (exact counterexample); ``drop``: hypotheses on λ left out below."""
    at = lemma.replace(lam_value=lam_star, bound_value=bound if lemma.decoupled else None)
    # Below λ* the lemma's own hypotheses on λ (λ ≥ 0, …) are dropped: the question is whether the
    # FFN still meets its target there, not whether λ is allowed.
    below = lemma.replace(lam_value=lam_star - delta, bound_value=bound if lemma.decoupled else None,
                          hyps=tuple(h for h in lemma.hyps if h.name not in drop))
    o1 = prove_at(at, {}, cores=False)
    o2 = prove_at(below, {}, cores=False)
    cert: dict[str, Any] = {"lambda_star": lam_star, "at_lambda_star": o1.status, "below": lam_star - delta,
                            "at_below": o2.status, "seconds": round(o1.seconds + o2.seconds, 3)}
    if bound is not None:
        cert["bound"] = bound
    if o2.counterexample is not None:
        cert["counterexample_below"] = o2.counterexample.as_dict()
    if drop:
        cert["dropped_below"] = sorted(drop)
    if o2.status == "vacuous":
        cert["at_below"] = "vacuous (no input satisfies the hypotheses there)"
    return cert


def analyse(lemma: Lemma, spec: LambdaSpec, proved_for_free_lambda: bool) -> dict[str, Any]:
    """The ``λ`` part of a verdict's details: condition, ``λ*``, certificate, decoupled analysis.

    ``proved_for_free_lambda``: the main proof, with ``λ`` a free real under the lemma's hypotheses on
    ``λ``, succeeded (then no ``λ`` in that range fails and no elimination is needed). Lemmas without a
    dimension only.
    """
    t0 = time.perf_counter()
    lam_v = z3.Real("λ")
    out: dict[str, Any] = {}
    lam_hyps = [h for h in lemma.hyps if h.kind == "lam"]
    hyp_f = Z3Kit.And(*[h.pred(Z3Kit(lam_v, lam_v)) for h in lam_hyps])
    hyp_f = z3.BoolVal(hyp_f) if isinstance(hyp_f, bool) else hyp_f
    if proved_for_free_lambda:
        out["condition"] = "every λ the lemma allows: " + (", ".join(h.name for h in lam_hyps) or "any λ")
        bad = z3.BoolVal(False)
        method = "direct proof with λ a free real (no λ fails)"
    else:
        f, xs = bad_formula(lemma, lam_v, lam_v)
        bad = qe(f, xs, spec.qe_timeout_ms)
        method = "qe2"
        if bad is None:
            out["condition"] = "qe2 did not answer in time; see bisection"
            bad = None
        else:
            out["condition"] = f"λ is good iff {_readable(z3.And(hyp_f, z3.Not(bad)))}"
    if bad is not None:
        inf = infimum(z3.And(hyp_f, z3.Not(bad)), lam_v)
        out["method"] = method
        if inf is not None:
            star, attained = inf
            out["lambda_star"] = star
            out["attained"] = attained
            if attained:
                out["certificate"] = _certify(lemma, star, spec.delta, drop=frozenset(h.name for h in lam_hyps))
    else:
        out.update(_bisect(lemma, spec))
    if spec.decoupled and lemma.has_lam:
        out["decoupled"] = decoupled(lemma, spec)
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def _bisect(lemma: Lemma, spec: LambdaSpec, lo: Fraction = Fraction(0), hi: Fraction = Fraction(1024),
            steps: int = 16) -> dict[str, Any]:
    """Fallback: bisection on exact rationals with the prover, ``steps`` halvings of ``(lo, hi]`` (an interval)."""
    def ok(v: Fraction) -> bool:
        return prove_at(lemma.replace(lam_value=v), {}, cores=False, polish=False).status == "proved"

    found = least(ok, Bisection(lo, hi, (hi - lo) / 2 ** steps))
    if found.interval is None:
        return {"method": "bisection", "lambda_star": None, "note": f"not proved even at λ = {hi}"}
    return {"method": "bisection", "lambda_star_interval": list(found.interval)}


def decoupled(lemma: Lemma, spec: LambdaSpec) -> dict[str, Any]:
    """Weights with ``λ``, inputs bounded by ``B``: ``λ*(B)``, sufficiency and necessity for every ``B``."""
    dl = lemma.replace(decoupled=True, bound_int=spec.bound_int, hyps=lemma.hyps + tuple(spec.bound_hyps))
    lam_v = z3.Real("λ")
    b_v = z3.Int("B") if spec.bound_int else z3.Real("B")
    hyp_f = Z3Kit.And(*[h.pred(Z3Kit(lam_v, b_v)) for h in dl.hyps if h.kind == "lam"])
    hyp_f = z3.BoolVal(hyp_f) if isinstance(hyp_f, bool) else hyp_f
    f, xs = bad_formula(dl, lam_v, b_v)
    g_sym = qe(f, xs, spec.qe_timeout_ms) if spec.qe_symbolic_bound else None
    out: dict[str, Any] = {"weights": "λ", "inputs bounded by": "B",
                           "qe_symbolic_B": "yes" if g_sym is not None else "no (per value of B)"}
    if g_sym is not None:
        out["condition"] = f"λ is good iff {_readable(z3.And(hyp_f, z3.Not(g_sym)))}"
    stars: dict[Any, Any] = {}
    for b in spec.bounds:
        if g_sym is not None:
            gb = z3.substitute(g_sym, (b_v, z3.IntVal(b) if spec.bound_int else z3.RealVal(b)))
        else:
            fb, xb = bad_formula(dl.replace(bound_value=b), lam_v, b)
            gb = qe(fb, xb, spec.qe_timeout_ms)
            if gb is None:
                stars[b] = None
                continue
        hb = z3.substitute(hyp_f, (b_v, z3.IntVal(b) if spec.bound_int else z3.RealVal(b)))
        inf = infimum(z3.And(hb, z3.Not(gb)), lam_v)
        stars[b] = None if inf is None else inf[0] if inf[1] else f"> {exact_str(inf[0])}"
    out["lambda_star_by_B"] = {str(b): v for b, v in stars.items()}
    pts = [(Fraction(b), Fraction(v)) for b, v in stars.items() if isinstance(v, (int, Fraction))]
    if len(pts) >= 2 and len(pts) == len(stars):
        (b1, v1), (b2, v2) = pts[0], pts[1]
        a = (v2 - v1) / (b2 - b1)
        c = v1 - a * b1
        if all(v == a * b + c for b, v in pts):
            out["lambda_star"] = _affine_text(a, c)
            def rule(K: Any, a: Fraction = a, c: Fraction = c) -> Any:
                return K.lam >= _z(a) * K.bound + _z(c)

            suff = dl.replace(hyps=dl.hyps + (lam_hyp(f"λ ≥ {_affine_text(a, c)}", rule),))
            o = prove_at(suff, {}, cores=False)
            out["sufficient_for_every_B"] = o.status
            if g_sym is not None:
                s = new_solver(spec.qe_timeout_ms)
                s.add(hyp_f, lam_v < _z(a) * b_v + _z(c), z3.Not(g_sym))
                r = s.check()
                out["necessary_for_every_B"] = "proved" if r == z3.unsat else "refuted" if r == z3.sat else "unknown"
            else:
                out["necessary_for_every_B"] = f"shown for B ∈ {{{', '.join(str(b) for b in spec.bounds)}}} (qe2)"
    b = spec.bounds[-1]
    if isinstance(stars.get(b), (int, Fraction)):
        own = frozenset(h.name for h in lemma.hyps if h.kind == "lam")
        out["certificate"] = _certify(dl, stars[b], spec.delta, bound=b, drop=own)
    return out


def _below(cert: dict[str, Any]) -> dict[str, Any]:
    out = {"λ": cert["below"], "status": cert["at_below"]}
    if "counterexample_below" in cert:
        out["counterexample"] = cert["counterexample_below"]
    return out


def answer(out: dict[str, Any], decoupled: bool = False) -> LambdaAnswer:
    """:func:`analyse`'s result as a :class:`LambdaAnswer`: ``λ*`` on every input of the lemma's domain.

    ``decoupled``: the decoupled analysis instead (``λ*`` as a function of the inputs' bound ``B``; the
    certificate is the one at the last bound).
    """
    part = out.get("decoupled", {}) if decoupled else out
    cert = part.get("certificate") or {}
    interval = part.get("lambda_star_interval")
    value = part.get("lambda_star", None if interval is None else interval[1])
    at = part.get("sufficient_for_every_B") if decoupled else cert.get("at_lambda_star")
    return LambdaAnswer(value, "all inputs", out.get("method", "qe2") if not decoupled else "qe2 per bound B",
                        Certificate(at, _below(cert) if cert else None),
                        holds_at_value=part.get("attained", True) if value is not None else None,
                        interval=None if interval is None else (interval[0], interval[1]),
                        certified=at == "proved" and cert.get("at_below") == "refuted",
                        at="every B" if decoupled else "")


def _z(v: Fraction) -> Any:
    return v.numerator if v.denominator == 1 else z3.Q(v.numerator, v.denominator)


def _affine_text(a: Fraction, c: Fraction) -> str:
    if a == 0:
        return exact_str(c)
    head = "B" if a == 1 else f"{exact_str(a)}·B"
    if c == 0:
        return head
    return f"{head} {'+' if c > 0 else '-'} {exact_str(abs(c))}"
