"""A lemma where a decoder uses it: the decoder's own gadget weights, on the domain the decoder feeds them.

An :class:`InUseCheck` is the claim variant ``in:<claim>`` (``in:<claim>/<variant>`` for a repaired or
re-read construction) of a lemma. For every gadget of the lemma's label in that construction's decoder
(``FFN.gadgets``; :mod:`symcot.gadgets.audit` checks that the maps are the gadget's rows) it

1. states the lemma on the gadget's inputs at the use (:func:`symcot.lemmas.gadget_lemma.use_lemma`): the
   same gadget function with the decoder's parameters (``λ = V_max = n``, the first pulse, …), the
   decoder's block sizes (``p`` of size ``n/2 + 1``, …), and named hypotheses for the values the decoder
   feeds it; and decides it with :func:`symcot.lemmas.prove` (for every size where the encoding allows,
   else size by size up to the largest size the replay reached);
2. confirms that domain by replay (:mod:`symcot.lemmas.survey`): every input of the using claim's
   exhaustive families up to its default size is replayed and every value the decoder feeds the gadget
   is checked against every hypothesis and gate, and against the lemma's target on the gadget's own
   network.

The row's verdict says exactly what was shown: ``refuted`` when a value the decoder really feeds breaks
the target (that value, with the claim input and step, is the counterexample); ``unknown`` when the
lemma fails on the stated domain only at values the decoder never fed, when the decoder feeds a value
outside the stated domain (the proof does not cover it; the smallest such input is reported), or when
the solver is undecided; otherwise ``verified``: proved on the stated domain (scope in ``details``) and
the domain confirmed on every input up to ``max_size``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.check.context import RunContext
from symcot.check.size import size_text_of
from symcot.check.verdict import Verdict, jsonable
from symcot.claims import ConstructionCheck
from symcot.errors import SymcotError
from symcot.ir.layout import ConcreteLayout
from symcot.ir.symbols import lam as LAM  # noqa: N812 - the paper's λ
from symcot.lemmas.encode import concrete_maps
from symcot.lemmas.gadget_lemma import use_lemma
from symcot.lemmas.kit import ExactKit, exact_str
from symcot.lemmas.lemma import ConcreteX, Gate, Hyp, Lemma, Override, Row
from symcot.lemmas.prover import prove
from symcot.lemmas.solver import encode_hyp
from symcot.lemmas.survey import Survey, split, survey
from symcot.model.semantics import EXACT

METHOD = ("Z3 on the decoder's own gadget weights over the domain it feeds them, domain confirmed by exhaustive "
          "exact replay")

#: Per gadget instance: the hypotheses, gates or target (a constant, or a function of the instance).
PerInstance = Callable[[Any], Any]


@dataclass
class InUseCheck:
    """The variant ``in:<claim>[/<variant>]`` of a lemma (see the module docstring).

    Attributes:
        label: the lemma's label; the decoder's gadgets with this label are the uses.
        using: the using claim (a :class:`~symcot.claims.Claim` with a construction check per variant).
        construction_variant: which construction variant of ``using`` (``as-written`` by default).
        target: output role → row, or a function of the gadget instance giving it.
        hyps: the named hypotheses of the domain the decoder feeds, or a function of the instance.
        gates: finite domains of scalar inputs, or a function of the instance.
        dims: size symbols of the use and their least value (``{n: 2}``).
        notes: shown with the verdict.
        overrides: coefficient mutations of every instance's lemma (negative tests: a wrong gadget).
        survey_size: replay size (default: the using claim's ``in_use_size``, else its ``default_max_size``).

    """

    label: str
    using: Any
    target: Mapping[str, Row] | PerInstance
    hyps: Sequence[Hyp] | PerInstance = ()
    gates: Sequence[Gate] | PerInstance = ()
    dims: dict[Any, int] = field(default_factory=dict)
    construction_variant: str = "as-written"
    notes: list[str] = field(default_factory=list)
    overrides: tuple[Override, ...] = ()
    survey_size: int | None = None
    method: str = METHOD

    @property
    def variant(self) -> str:
        """``in:<claim>`` for the as-written construction, ``in:<claim>/<variant>`` otherwise."""
        base = f"in:{self.using.id}"
        return base if self.construction_variant == "as-written" else f"{base}/{self.construction_variant}"

    @property
    def default_max_size(self) -> int:
        """The using claim's replay size for its lemmas' rows (``symcot verify`` replays up to it)."""
        if self.survey_size is not None:
            return self.survey_size
        size = getattr(self.using, "in_use_size", None)
        return size if size is not None else self.using.default_max_size

    def _construction_check(self) -> ConstructionCheck:
        """The using claim's exhaustive replay of the construction variant (its construction, spec, families)."""
        for chk in self.using.checks:
            if isinstance(chk, ConstructionCheck) and chk.variant == self.construction_variant:
                return chk
        raise SymcotError(f"{self.using.id} has no construction check of variant {self.construction_variant!r}")

    def _per(self, what: Any, g: Any) -> Any:
        return what(g) if callable(what) else what

    def instance_lemma(self, claim_id: str, g: Any) -> Lemma:
        """The lemma of one gadget instance at the use (with this check's overrides)."""
        lem = use_lemma(g, claim_id, self._per(self.target, g), self._per(self.hyps, g), self._per(self.gates, g),
                        self.dims, name=f"{g.label}.in:{self.using.id}")
        return lem.mutate(*self.overrides) if self.overrides else lem

    def run(self, ctx: RunContext) -> Verdict:
        """Prove each instance on its use domain, replay the using claim up to ``ctx.max_size``; never raises."""
        t0 = time.perf_counter()
        claim_id = ctx.claim_id
        notes = list(self.notes)
        try:
            chk = self._construction_check()
            cons = chk.construction()
            insts = [(k, i, g) for k, layer in enumerate(cons.decoder.layers, start=1)
                     for i, g in enumerate(layer.ffn.gadgets) if g.label == self.label]
            if not insts:
                raise SymcotError(f"the decoder of {cons.label} builds no FFN from {self.label}")
            sv = survey(cons, chk.spec, chk.families, ctx.max_size, ctx.progress, jobs=ctx.jobs)
            return self._verdict(claim_id, cons, insts, sv, notes, t0)
        except Exception as e:  # noqa: BLE001 - the check failing is an "error" verdict, not a crash
            return Verdict(claim_id, self.variant, "error", self.method, None, 0, time.perf_counter() - t0, None,
                           notes + [f"check failed: {type(e).__name__}: {e}"])

    # -- combining ------------------------------------------------------------------------------------
    def _instance_row(self, claim_id: str, k: int, i: int, g: Any, sv: Survey, found: _Findings) -> dict[str, Any]:
        """The proof of one gadget instance on its stated domain and what the replay fed it (noted in ``found``)."""
        lem = self.instance_lemma(claim_id, g)
        reached = [v for vk in sv.fed[(k, i)].values for name, v in vk[0][0] if name in {str(s) for s in lem.dims}]
        res = prove(lem, max(reached) if reached else None)
        ev = _evaluate(lem, g, sv, k, i)
        row = {"layer": k, "gadget": g.describe(), "hypotheses": [h.name for h in lem.hyps],
               "gates": [gt.label for gt in lem.gates], "target": sorted(lem.target),
               "proof": {"status": res.status, "dimension": res.dimension, "core": sorted(res.used),
                         "unused_hypotheses": res.unused, "queries": res.queries, "max_size": res.max_size,
                         "solver_seconds": round(res.solver_seconds, 3)},
               "fed": ev["summary"]}
        if res.counterexample is not None:
            row["proof"]["counterexample"] = res.counterexample.as_dict()
            if found.z3_refuted is None:
                found.z3_refuted = {"layer": k, "gadget": g.describe(), **res.counterexample.as_dict()}
        if res.status == "unknown" or (res.status not in ("proved", "verified", "refuted")):
            found.undecided = True
        where = {"layer": k, "gadget": g.describe()}
        for occ, info in ev["failures"][:1]:
            if found.fed_fail is None or occ.order < found.fed_fail[0].order:
                found.fed_fail = (occ, {**where, **info})
        for occ, info in ev["violations"][:1]:
            if found.outside is None or occ.order < found.outside[0].order:
                found.outside = (occ, {**where, **info})
        return row

    def _verdict(self, claim_id: str, cons: Any, insts: list[tuple[int, int, Any]], sv: Survey, notes: list[str],
                 t0: float) -> Verdict:
        found = _Findings()
        rows = [self._instance_row(claim_id, k, i, g, sv, found) for k, i, g in insts]
        using = {"claim": sv.claim, "variant": sv.variant, "max_size": sv.size, "inputs": sv.inputs,
                 "steps": sv.steps, "families": sv.families}
        details: dict[str, Any] = {"using": using, "instances": rows}
        secs = time.perf_counter() - t0
        complete = sv.sizes_complete[-1] if sv.sizes_complete else None
        scope = (f"replayed every input of {', '.join(f['family'] for f in sv.families)} up to size {complete} "
                 f"({sv.inputs} inputs, {sv.steps} CoT steps) on {cons.label}")
        if found.outside is not None:
            occ, info = found.outside
            details["outside_domain"] = {**_where(sv, occ), **info}
        if found.fed_fail is not None:
            occ, info = found.fed_fail
            cex = {"kind": "fed", **_where(sv, occ), **info}
            notes.append(f"a value the decoder feeds breaks {self.label}: {info['text']}")
            return Verdict(claim_id, self.variant, "refuted", self.method, _below(sv, occ), sv.inputs, secs,
                           jsonable(cex), notes, None, sv.families, jsonable(details))
        open_notes = found.open_notes(self.label, scope, rows)
        if open_notes:
            return Verdict(claim_id, self.variant, "unknown", self.method, None, sv.inputs, secs, None,
                           notes + open_notes, None, sv.families, jsonable(details))
        proofs: dict[str, int] = {}
        for r in rows:
            key = f"{r['proof']['status']} ({r['proof']['dimension']})"
            proofs[key] = proofs.get(key, 0) + 1
        said = "; ".join(f"{k}" + (f" ×{c}" if c > 1 else "") for k, c in proofs.items())
        notes.append(f"on the stated domain: {said}; domain confirmed: {scope}")
        kinds = sorted({"every size" if r["proof"]["dimension"].startswith("every") else
                        "no size parameter" if r["proof"]["dimension"] == "no dimension" else
                        f"sizes {r['proof']['dimension'].removeprefix('checked for ').split(';')[0]}" for r in rows})
        lam = ", every λ the domain allows" if any(self.instance_lemma(claim_id, g).has_lam for _k, _i, g in insts) \
            else ""
        return Verdict(claim_id, self.variant, "verified", self.method, complete, sv.inputs, secs, None, notes, None,
                       sv.families, jsonable(details),
                       scope=f"the decoder's own gadget weights on the stated use domain ({', '.join(kinds)}{lam}); "
                             f"domain confirmed on every input, {self._sizes_text(cons, complete)}")

    def _sizes_text(self, cons: Any, complete: int | None) -> str:
        """``n ≤ 10`` (``n = |w| ≤ 18`` on a path-side construction): the sizes the replay covered completely."""
        if complete is None:
            return "no size complete"
        return size_text_of(self._construction_check(), cons)("≤", complete)


@dataclass
class _Findings:
    """What the instances of one check found.

    The first fed value that breaks the target, the first one outside the stated domain, a counterexample on
    the stated domain, an undecided proof.
    """

    fed_fail: tuple[Any, dict[str, Any]] | None = None
    outside: tuple[Any, dict[str, Any]] | None = None
    z3_refuted: dict[str, Any] | None = None
    undecided: bool = False

    def open_notes(self, label: str, scope: str, rows: list[dict[str, Any]]) -> list[str]:
        """Why the row cannot be ``verified`` (no fed value breaks the target), one note each; empty when it can."""
        notes = []
        if self.z3_refuted is not None:
            notes.append(f"{label} fails on the stated use domain ({self.z3_refuted['input']['text']}), but the "
                         f"decoder never fed such a value: {scope}; the stated domain is wider than the use")
        if self.outside is not None:
            _occ, info = self.outside
            notes.append(f"the decoder feeds a value outside the stated domain ({info['violates']} fails at "
                         f"{info['text']}); the proof does not cover it, though the gadget computed its target "
                         "on every value fed")
        if self.undecided:
            notes.append("a proof query was undecided; an undecided query is never counted as proved")
        idle = [r for r in rows if r["fed"]["distinct_values"] == 0]
        if idle:
            notes.append(f"the decoder never ran {len(idle)} of the {len(rows)} uses on the inputs replayed (no CoT "
                         "step reached them): their domain is not confirmed")
        return notes


def _where(sv: Survey, occ: Any) -> dict[str, Any]:
    """Where a fed value occurred: the claim's input (described by its family), size, CoT step (1-based)."""
    desc = sv.describe.get(occ.family) if sv.describe else None
    return {"family": occ.family, "size": occ.size, "input": desc(occ.input) if desc else str(occ.input),
            "step": occ.step + 1, "position": f"the position of y_{occ.step}, producing y_{occ.step + 1}"}


def _below(sv: Survey, occ: Any) -> int | None:
    """The largest size below the counterexample's."""
    done = [s for s in sv.sizes_complete if s < occ.size]
    return done[-1] if done else None


def _evaluate(lem: Lemma, g: Any, sv: Survey, k: int, i: int) -> dict[str, Any]:
    """Every distinct value fed to instance ``(k, i)``: hypotheses, gates and target on the lemma's network."""
    failures: list[tuple[Any, dict[str, Any]]] = []
    violations: list[tuple[Any, dict[str, Any]]] = []
    first_violation: dict[str, Any] = {}
    lo: dict[str, Any] = {}
    hi: dict[str, Any] = {}
    maps_cache: dict[Any, Any] = {}
    fed = sv.fed[(k, i)]
    dim_names = {str(s): s for s in lem.dims}
    for (ctx, vals), occ in sorted(fed.values.items(), key=lambda kv: kv[1].order):
        env_all = dict(ctx[0])
        subs = dict(ctx[1])
        env = {s: env_all[name] for name, s in dim_names.items() if name in env_all}
        full_env = {_sym(lem, name): v for name, v in env_all.items()}
        lam_v = subs.get(str(LAM))
        cl = ConcreteLayout(lem.inputs, full_env)
        values: dict[str, Any] = split(g, vals, cl.sizes)
        for r, vs in values.items():
            for v in vs:
                lo[r] = v if r not in lo or v < lo[r] else lo[r]
                hi[r] = v if r not in hi or v > hi[r] else hi[r]
        K = ExactKit(lam_v, lam_v, env)
        x = ConcreteX(values)
        bad = [gt.label for gt in lem.gates if values[gt.block][0] not in gt.values]
        bad += [h.name for h in lem.hyps if not encode_hyp(h, x, K, env)]
        text = ", ".join([f"{n}={v}" for n, v in env_all.items()]
                         + ([f"λ={exact_str(lam_v)}"] if lam_v is not None else [])
                         + [f"{r}={_show(v)}" for r, v in values.items()])
        if bad:
            for b in bad:
                first_violation.setdefault(b, {"text": text, **{"size": occ.size, "step": occ.step}})
            violations.append((occ, {"violates": bad, "text": text, "values": values}))
        mk = (tuple(sorted(full_env.items(), key=lambda t: str(t[0]))), lam_v)
        if mk not in maps_cache:
            maps_cache[mk] = concrete_maps(lem, full_env, lam_v)
        w1, w2 = maps_cache[mk]
        vec = cl.assemble(values)
        hidden = vec if w1 is None else [EXACT.relu(v) if lem.relu else v for v in w1(vec)]
        out = w2(hidden)
        co = ConcreteLayout(lem.w2.dst, full_env)
        for b, row in lem.target.items():
            got_b = co.pi(b, out)
            for j in range(co.sizes[b]):
                want = row(x, j, K)
                if want != got_b[j]:
                    failures.append((occ, {"text": text, "values": values, "block": f"{b}[{j}] at {text}",
                                           "expected": want, "got": got_b[j], "violates": bad}))
                    break
            else:
                continue
            break
    summary = {"distinct_values": len(fed.values), "steps": fed.steps,
               "ranges": {r: [lo[r], hi[r]] for r in lo}, "hypotheses_failing": first_violation,
               "target_failures": len(failures)}
    return {"summary": summary, "failures": failures, "violations": violations}


def _sym(lem: Lemma, name: str) -> Any:
    """The size symbol called ``name`` among the lemma's dims and input sizes (else a fresh one)."""
    import sympy as sp

    for s in lem.dims:
        if str(s) == name:
            return s
    for b in lem.inputs.blocks:
        for s in sp.sympify(b.size).free_symbols:
            if str(s) == name:
                return s
    return sp.Symbol(name, integer=True, positive=True)


def _show(vs: list[Any]) -> str:
    return exact_str(vs[0]) if len(vs) == 1 else "[" + ", ".join(exact_str(v) for v in vs) + "]"
