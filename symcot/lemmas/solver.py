"""Concrete-size proofs: one Z3 query per (gate value, output coordinate), with unsat cores.

For sizes ``env`` (empty for a lemma without dimensions), every assignment of the finite gates is a
separate solver; the domain's hypotheses are asserted behind tracking literals, and each output
coordinate's negated target (``out_o ≠ target_o``) is checked under them with a resource limit. ``unsat`` at
every coordinate proves the lemma at these sizes; ``sat`` gives a model that is re-checked by exact
replay (:func:`check_model`) before it is reported; ``unknown`` is never a proof.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

import z3

from symcot.ir.layout import ConcreteLayout
from symcot.ir.symbols import Env
from symcot.lemmas.encode import LazyHidden, Z3Rows, concrete_maps, replay
from symcot.lemmas.kit import ExactKit, Unsupported, Z3Kit, exact_str, is_z3, z3_to_exact
from symcot.lemmas.lemma import ConcreteX, Hyp, Lemma
from symcot.replay.z3limits import BACKSTOP, RLIMIT_PER_MS, budget  # noqa: F401 - the limits, re-exported

#: Hypothesis kinds in the order cores are minimised: the structural ones are dropped first, so the
#: core that remains names the weakest (per-coordinate) facts a proof needs.
CORE_ORDER = {"whole": 0, "lam": 1, "dim": 2, "each": 3, "int": 4}
#: The incremental solver's first try; an undecided query is retried by :func:`tactic_check`.
FIRST_TRY_MS = 200


@dataclass
class Counterexample:
    """An input in the domain where the FFN and the target differ, confirmed by exact replay."""

    sizes: dict[str, int]
    lam: Any
    bound: Any
    inputs: dict[str, list[Any]]
    mismatches: list[dict[str, Any]]
    query: str
    hidden: list[Any] = field(default_factory=list)

    @property
    def text(self) -> str:
        """One line: sizes, λ, inputs."""
        parts = [f"{k}={v}" for k, v in self.sizes.items()]
        if self.lam is not None:
            parts.append(f"λ={exact_str(self.lam)}")
        if self.bound is not None:
            parts.append(f"bound={exact_str(self.bound)}")
        for b, vals in self.inputs.items():
            parts.append(f"{b}={exact_str(vals[0])}" if len(vals) == 1 else
                         f"{b}=[{', '.join(exact_str(v) for v in vals)}]")
        return ", ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        """The report's counterexample object (``expected``/``got`` of the first differing coordinate)."""
        first = self.mismatches[0]
        return {
            "kind": "output",
            "input": {"sizes": self.sizes, "lambda": self.lam, "bound": self.bound, "blocks": self.inputs,
                      "text": self.text},
            "block": f"{first['block']}[{first['index']}]",
            "expected": first["expected"],
            "got": first["got"],
            "mismatches": self.mismatches,
            "query": self.query,
            "replayed": "exact: ConcreteMap.__call__ on int/Fraction, ReLU = max(0, x)",
        }


@dataclass
class Outcome:
    """What the queries at one size (or one relaxation, one λ) established."""

    status: str  # proved | refuted | unknown | vacuous
    queries: int = 0
    seconds: float = 0.0
    used: set[str] = field(default_factory=set)
    counterexample: Counterexample | None = None
    notes: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


def new_solver(timeout_ms: int) -> z3.Solver:
    """A solver with a limit (:func:`budget`) on every ``check``.

    ``auto_config_simplex`` keeps mixed integer/real queries with uninterpreted functions (the
    all-dimension encoding) from stalling in Z3's default arithmetic configuration.
    """
    s = z3.Solver()
    budget(s, timeout_ms)
    s.set("smt.arith.auto_config_simplex", True)
    return s


def tactic_check(constraints: list[Any], timeout_ms: int) -> tuple[Any, Any]:
    """``(result, model or None)`` of the conjunction, by ``simplify; solve-eqs; smt``.

    Queries that mix integers (indices, integrality witnesses ``v = n``), reals and uninterpreted
    functions can stall the incremental solver with assumptions; eliminating the equalities first
    decides them in milliseconds. Used for the all-dimension proof and as the fallback of a per-size
    query the incremental solver leaves undecided.
    """
    s = z3.Then("simplify", "propagate-values", "solve-eqs", "smt").solver()
    budget(s, timeout_ms)
    for c in constraints:
        s.add(c)
    r = s.check()
    return r, (s.model() if r == z3.sat else None)


def _sizes_text(env: Env) -> dict[str, int]:
    return {str(k): int(v) for k, v in env.items()}


def terms(lemma: Lemma, lam_term: Any = None, bound_term: Any = None) -> tuple[Any, Any]:
    """``(λ, bound)`` as Z3 terms or exact values: fixed where the lemma fixes them, else fresh variables."""
    if lam_term is None and lemma.has_lam:
        lam_term = lemma.lam_value if lemma.lam_value is not None else z3.Real("λ")
    if not lemma.decoupled:
        return lam_term, lam_term
    if bound_term is None:
        if lemma.bound_value is not None:
            bound_term = lemma.bound_value
        else:
            bound_term = z3.Int("B") if lemma.bound_int else z3.Real("B")
    return lam_term, bound_term


def input_vars(lemma: Lemma, cl: ConcreteLayout, gate_vals: dict[str, Any]) -> dict[str, list[Any]]:
    """Z3 variables per input block (Int or Real by the block's sort); gates take their value."""
    out: dict[str, list[Any]] = {}
    for b in cl.names:
        if b in gate_vals:
            out[b] = [gate_vals[b]]
            continue
        mk = z3.Int if b in lemma.int_blocks else z3.Real
        s = cl.sizes[b]
        out[b] = [mk(b) if s == 1 and cl.layout.size(b) == 1 else mk(f"{b}[{j}]") for j in range(s)]
    return out


def encode_hyp(h: Hyp, x: ConcreteX, K: Any, env: Env) -> Any:
    """A hypothesis at concrete sizes: a Z3 formula or a Python boolean."""
    if h.kind in ("each", "int"):
        return K.And(*[h.pred(v, K) for v in x.vec(h.on)])
    if h.kind == "whole":
        return h.pred(x, K)
    if h.kind == "dim":
        return h.pred(dict(env), K)
    return h.pred(K)


def gate_assignments(lemma: Lemma) -> list[dict[str, Any]]:
    """Every combination of the gates' values, in the order stated."""
    if not lemma.gates:
        return [{}]
    return [dict(zip([g.block for g in lemma.gates], vals))
            for vals in itertools.product(*[g.values for g in lemma.gates])]


def _deletion_core(named: list[tuple[str, str, Any]], goal: Any, timeout_ms: int) -> set[str]:
    """Minimal set of named hypotheses under which ``goal`` is still unsat (by :func:`tactic_check`)."""
    keep = sorted(named, key=lambda t: (CORE_ORDER.get(t[1], 9), t[0]))
    for cand in list(keep):
        trial = [t for t in keep if t is not cand]
        if tactic_check([c for _n, _k, c in trial] + [goal], timeout_ms)[0] == z3.unsat:
            keep = trial
    return {n for n, _k, _c in keep}


def minimize_core(s: z3.Solver, core: list[z3.BoolRef], kinds: dict[str, str], formulas: dict[str, Any],
                  goal: Any, timeout_ms: int) -> list[z3.BoolRef]:
    """Deletion-based minimal core of ``core`` (structural hypotheses tried first).

    A hypothesis is dropped when the query stays ``unsat`` without it; an ``unknown`` from the
    incremental solver is re-decided by :func:`tactic_check` (full timeout), so a slow check does not
    leave a hypothesis in the core that the proof does not need.
    """
    core = sorted(core, key=lambda c: (CORE_ORDER.get(kinds.get(str(c), "each"), 9), str(c)))
    keep = list(core)
    for c in core:
        trial = [k for k in keep if not k.eq(c)]
        r = s.check(*trial)
        if r == z3.unknown:
            r = tactic_check([formulas[str(k)] for k in trial] + [goal], timeout_ms)[0]
        if r == z3.unsat:
            keep = trial
    return keep


def check_model(lemma: Lemma, env: Env, gate_vals: dict[str, Any], xs: dict[str, list[Any]], model: z3.ModelRef,
                lam_t: Any, bound_t: Any, query: str) -> tuple[Counterexample | None, str]:
    """Read the model exactly and replay it with the same maps; ``(None, why)`` if it does not replay."""
    def val(t: Any) -> Any:
        return z3_to_exact(model.eval(t, model_completion=True)) if is_z3(t) else t

    try:
        inputs = {b: [val(v) for v in vs] for b, vs in xs.items()}
        lam_v = val(lam_t) if lam_t is not None else None
        bound_v = val(bound_t) if bound_t is not None else None
    except Unsupported as e:
        return None, f"model not exact: {e}"
    K = ExactKit(lam_v, bound_v, env)
    x = ConcreteX(inputs)
    for h in lemma.hyps:
        ok = encode_hyp(h, x, K, env)
        if not ok:
            return None, f"model violates hypothesis {h.name!r} on exact re-evaluation"
    cl = ConcreteLayout(lemma.inputs, env)
    vec = cl.assemble(inputs)
    hidden, out = replay(lemma, env, lam_v, vec)
    co = ConcreteLayout(lemma.w2.dst, env)
    mism = []
    for b, row in lemma.target.items():
        got_b = co.pi(b, out)
        for i in range(co.sizes[b]):
            want = row(x, i, K)
            if want != got_b[i]:
                mism.append({"block": b, "index": i, "expected": want, "got": got_b[i]})
    if not mism:
        return None, "model does not differ from the target on exact replay"
    show_lam = lam_v if lemma.has_lam else None
    show_bound = bound_v if lemma.decoupled else None
    return Counterexample(_sizes_text(env), show_lam, show_bound, inputs, mism, query, hidden), ""


def _polish(hard: list[Any], xs: dict[str, list[Any]], extra: list[Any], timeout_ms: int) -> z3.ModelRef | None:
    """A readable model of ``hard``: smallest denominator (1, 2, 3, 4, 6, 12), then smallest ``Σ|x|``.

    Each real input is written ``x = n/q`` with an integer ``n``; the first ``q`` with a model wins. Among models
    of equal ``Σ|x|`` the inputs are compared in order, ``|x|`` first, then ``x`` (the same counterexample
    whatever model the solver would find first).
    ``None`` when no such model is found in time (the solver's own model is used then).
    """
    real_vs = [v for vals in xs.values() for v in vals if is_z3(v)] + [t for t in extra if is_z3(t)]
    real_vs = list({str(v): v for v in real_vs}.values())
    f = z3.And(*hard) if hard else z3.BoolVal(True)
    for q in (1, 2, 3, 4, 6, 12):
        ns = [z3.Int(f"__n_{k}") for k in range(len(real_vs))]
        pairs = [(v, (z3.ToReal(n) / q) if z3.is_real(v) else n)
                 for v, n in zip(real_vs, ns) if z3.is_real(v) or q == 1]
        g = z3.substitute(f, *pairs) if pairs else f
        opt = z3.Optimize()
        budget(opt, timeout_ms)
        opt.add(g)
        used = [n for (v, _t), n in zip(pairs, ns)]
        if used:
            opt.minimize(z3.Sum([z3.If(n >= 0, n, -n) for n in used]))
            for n in used:  # lexicographic after the sum: the tie-break
                opt.minimize(z3.If(n >= 0, n, -n))
            for n in used:
                opt.minimize(n)
        if opt.check() != z3.sat:
            continue
        m = opt.model()
        back = z3.Solver()
        back.add(f)
        for v, t in pairs:
            back.add(v == m.eval(t, model_completion=True))
        if back.check() == z3.sat:
            return back.model()
    return None


@dataclass
class _Gate:
    """One assignment of the finite gates: its input variables and a solver holding the domain's hypotheses.

    Each hypothesis is asserted behind a tracking literal (``lits``), so that cores name hypotheses.
    """

    values: dict[str, Any]
    xs: dict[str, list[Any]]
    x: ConcreteX
    kit: Z3Kit
    solver: z3.Solver
    lits: list[z3.BoolRef] = field(default_factory=list)
    hard: list[Any] = field(default_factory=list)
    named: list[tuple[str, str, Any]] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)
    formulas: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """``g=1, h=0`` (empty without gates)."""
        return ", ".join(f"{b}={v}" for b, v in self.values.items())

    def assume(self, lemma: Lemma, env: Env) -> str:
        """Assert every non-dimension hypothesis; the name of one that no input satisfies, else ``""``."""
        for k, h in enumerate(lemma.hyps):
            if h.kind == "dim":
                continue
            c = encode_hyp(h, self.x, self.kit, env)
            if c is True:
                continue
            if c is False:
                return h.name
            lit = z3.Bool(f"hyp{k}:{h.name}")
            self.kinds[str(lit)] = h.kind
            self.formulas[str(lit)] = c
            self.solver.add(z3.Implies(lit, c))
            self.lits.append(lit)
            self.hard.append(c)
            self.named.append((h.name, h.kind, c))
        return ""


def _open_gate(lemma: Lemma, env: Env, cl: ConcreteLayout, values: dict[str, Any], lam_t: Any, bound_t: Any,
               res: Outcome) -> _Gate | None:
    """The solver of one gate assignment, or ``None`` (noted in ``res``) when its domain is empty."""
    xs = input_vars(lemma, cl, values)
    gate = _Gate(values, xs, ConcreteX(xs), Z3Kit(lam_t, bound_t, env), new_solver(min(lemma.timeout_ms, FIRST_TRY_MS)))
    out_of_domain = gate.assume(lemma, env)
    if out_of_domain:
        res.notes.append(f"{gate.text or 'input'}: excluded by {out_of_domain}")
        return None
    t0 = time.perf_counter()
    empty = gate.solver.check(*gate.lits) == z3.unsat  # a proof over an empty domain would be vacuous
    res.seconds += time.perf_counter() - t0
    if empty:
        res.notes.append(f"{gate.text or 'input'}: excluded: no input satisfies the hypotheses")
        return None
    return gate


def _decide(lemma: Lemma, env: Env, gate: _Gate, goal: Any, label: str, res: Outcome, lam_t: Any, bound_t: Any,
            cores: bool, polish: bool) -> bool:
    """Decide one output coordinate's negated target ``goal`` under the gate's hypotheses; whether it refuted."""
    if isinstance(goal, bool):
        if not goal:  # the row equals the target identically
            res.queries += 1
            return False
        goal = z3.BoolVal(True)
    s = gate.solver
    s.push()
    try:
        s.add(goal)
        t0 = time.perf_counter()
        r = s.check(*gate.lits)
        fallback_model = None
        via_tactic = r == z3.unknown
        if via_tactic:  # retry without assumptions, equalities eliminated first
            r, fallback_model = tactic_check(gate.hard + [goal], lemma.timeout_ms)
        res.queries += 1
        if r == z3.unsat:
            if cores and via_tactic:
                res.used |= _deletion_core(gate.named, goal, lemma.timeout_ms)
            elif cores:
                # From every hypothesis, not Z3's core: the result is then the same minimal core
                # whatever core the solver happened to return (structural hypotheses dropped first).
                core = minimize_core(s, list(gate.lits), gate.kinds, gate.formulas, goal, lemma.timeout_ms)
                res.used |= {str(c).split(":", 1)[1] for c in core}
            res.seconds += time.perf_counter() - t0
            return False
        if r == z3.sat:
            model = fallback_model if via_tactic else s.model()
            if polish:
                model = _polish(gate.hard + [goal], gate.xs, [lam_t, bound_t], min(lemma.timeout_ms, 2000)) or model
            cex, why = check_model(lemma, env, gate.values, gate.xs, model, lam_t, bound_t, label)
            if cex is None and polish and not via_tactic:
                cex, why = check_model(lemma, env, gate.values, gate.xs, s.model(), lam_t, bound_t, label)
            res.seconds += time.perf_counter() - t0
            if cex is None:
                res.unknown.append(f"{label}: solver model rejected ({why})")
                res.status = "unknown"
                return False
            res.status, res.counterexample = "refuted", cex
            return True
        res.seconds += time.perf_counter() - t0
        res.unknown.append(f"{label}: undecided ({s.reason_unknown()}) within {lemma.timeout_ms * RLIMIT_PER_MS:,} "
                           f"resource units ({lemma.timeout_ms} ms nominal)")
        if res.status == "proved":
            res.status = "unknown"
        return False
    finally:
        s.pop()


def prove_at(lemma: Lemma, env: Env, *, cores: bool = True, polish: bool = True, lam_term: Any = None,
             bound_term: Any = None, stop_at_first: bool = True) -> Outcome:
    """Prove or refute the lemma at concrete sizes ``env`` (every gate value, every target coordinate)."""
    lam_t, bound_t = terms(lemma, lam_term, bound_term)
    res = Outcome("proved")
    size_txt = ", ".join(f"{k}={v}" for k, v in _sizes_text(env).items())
    # before the layouts: a size outside the domain may not even be a size (n/2 for odd n)
    outside = next((h.name for h in lemma.hyps if h.kind == "dim" and not h.pred(dict(env), ExactKit())), None)
    if outside is not None:
        res.status = "vacuous"
        res.notes.append(f"{size_txt}: outside the domain ({outside})")
        return res
    cl = ConcreteLayout(lemma.inputs, env)
    co = ConcreteLayout(lemma.w2.dst, env)
    w1c, w2c = concrete_maps(lemma, env, lam_t if not is_z3(lam_t) else None)
    w1z = Z3Rows(w1c, lam_t) if w1c is not None else None
    w2z = Z3Rows(w2c, lam_t)
    any_gate_in_domain = False
    for gv in gate_assignments(lemma):
        gate = _open_gate(lemma, env, cl, gv, lam_t, bound_t, res)
        if gate is None:
            continue
        any_gate_in_domain = True
        hid = LazyHidden(w1z, cl.assemble(gate.xs), lemma.relu)
        for b, row in lemma.target.items():
            for i in range(co.sizes[b]):
                goal = w2z.row(co.offsets[b] + i, hid) != row(gate.x, i, gate.kit)
                label = ", ".join(p for p in (size_txt, gate.text, f"{b}[{i}]") if p)
                if _decide(lemma, env, gate, goal, label, res, lam_t, bound_t, cores, polish) and stop_at_first:
                    return res
    if not any_gate_in_domain:
        res.status = "vacuous"
    return res
