r"""``AllNCheck``: a claim variant decided for every size by the all-n prover (``symcot verify --all-n``).

The check runs, in order: the statement on concrete runs (:mod:`symcot.prove.alln.concrete`: every input of
the claim's exhaustive families up to ``concrete_size``, facts up to ``facts_size``), the families against the
statement's domain facts (:mod:`symcot.prove.alln.domain`: an ``error`` where they differ), the witness runs, then
every proof obligation (:mod:`symcot.prove.alln.prover`). Verdicts:

* ``proved`` with scope ``all n`` (and the derived ``λ`` rule where the weights have ``λ``) when every
  obligation is proved;
* ``refuted`` when the concrete phase finds the decoder departing from the reference's encoding (the
  smallest such input in the families' order, re-checked by exact replay: it *is* exact replay);
* ``unknown`` otherwise, with the first failing obligation (or concrete check) and why in ``notes``.

``details`` lists every obligation (layer, head or block, statement, status, method, facts used), the
trusted base of the proof and what the concrete phase covered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.algorithms.logic import Vocabulary
from symcot.check.context import RunContext
from symcot.check.exhaustive import Family, run_construction_check
from symcot.check.spec import StepwiseSpec
from symcot.check.verdict import Verdict
from symcot.constructions.alln import AllNStatement
from symcot.constructions.base import Construction
from symcot.errors import SymcotError, locate
from symcot.prove.alln.conclude import (
    Concluded,
    check_concludes,
    concluded,
    narrowed,
    prove_extension,
    trusted_items,
)
from symcot.prove.alln.concrete import ConcreteFailure, check_statement, check_witness, witness_sizes
from symcot.prove.alln.context import DEFAULT_TIMEOUT_S
from symcot.prove.alln.domain import check_domain
from symcot.prove.alln.kernel import assumptions, decide, refusal, traced
from symcot.prove.alln.ops import NameClash, SymbolicTruthiness
from symcot.prove.alln.prover import AllNResult, prove
from symcot.prove.alln.second import DEFAULT_TIMEOUT_S as SECOND_TIMEOUT_S
from symcot.prove.alln.second import second_opinion
from symcot.prove.alln.trace import TraceError
from symcot.prove.alln.trust import trusted_base, trusted_summary
from symcot.prove.alln.unproved import settle

METHOD = "all-n proof: one CoT step at symbolic n and t, by Z3 on the IR's block algebra"



@dataclass
class AllNCheck:
    """One claim variant, decided by the all-n prover.

    Attributes:
        construction: builds the construction (its ``all_n`` statement is what is proved).
        spec: the claim's reference (the concrete phase's runs).
        families: the claim's input families (exhaustive ones are used by the concrete phase).
        concrete_size: the largest size of the concrete phase.
        facts_size: the largest size at which every fact is evaluated at every assignment.
        conclusion: what the claim concludes beyond the step-by-step encoding and how that part stands
            (it is not proved here; e.g. "π_M(y_{2n-1}) = str(G_T) is obs:dynamicstrdfs"); reported with the row.
        beyond: set when the claim *is* such a conclusion (a step count on trees) and no fact states it: the
            realization may be proved, but the row stays ``unknown`` with this reason.
        vocabulary: the statement read over this extension of its vocabulary (the claim's narrower domain, and the
            facts its conclusions need; :mod:`symcot.prove.alln.conclude`): the concrete phase checks it, the step
            obligations are proved over the statement's own vocabulary, and the facts it adds after them.
        concludes: the spec's conclusions stated by derived facts of the vocabulary: proved with it, each with its
            reading in the trusted base.
        timeout_s: Z3's limit per obligation.
        reading_size: the prover's (Z3) reading of the statement is compared with the concrete one on every
            input up to this size (and ``facts_size``) and on the witness run.
        witness_size: the size of the real runs that must satisfy every hypothesis together (default: one
            beyond ``concrete_size``).
        second_solver: re-prove every obligation of a proved row with cvc5 (:mod:`symcot.prove.alln.second`):
            the row says ``proved (Z3, cvc5)``, or which obligations only Z3 closed; ``sat`` from cvc5 makes it
            an ``error``.
        second_timeout_s: cvc5's limit per obligation (and per try).
        smt2_dir: write every obligation as an SMT-LIB 2 file into this directory (``--smt2 DIR``).

    """

    construction: Callable[[], Construction]
    spec: StepwiseSpec
    families: Sequence[Family]
    concrete_size: int = 4
    facts_size: int = 3
    conclusion: str = ""
    beyond: str = ""
    vocabulary: Vocabulary | None = None
    concludes: Sequence[Concluded] = ()
    timeout_s: float = DEFAULT_TIMEOUT_S
    reading_size: int = 4
    witness_size: int | None = None
    method: str = METHOD
    all_n: bool = True
    notes: list[str] = field(default_factory=list)
    second_solver: bool = True
    second_timeout_s: float = SECOND_TIMEOUT_S
    smt2_dir: str | None = None

    @property
    def variant(self) -> str:
        """The construction's variant name."""
        return self.construction().variant

    def effort(self) -> int:
        """A rough size of the proof, to hand the longest out first in a pooled run.

        The facts of the vocabulary it is read over; 0 without a statement (such a row is refuted by replay in about
        a second).
        """
        try:
            stmt = self.construction().all_n
        except Exception:  # noqa: BLE001 - the row reports it when it runs; the order only needs a number
            return 0
        if stmt is None:
            return 0
        return len((self.vocabulary or stmt.vocabulary).facts)

    def run(self, ctx: RunContext) -> Verdict:
        """The verdict row (only ``ctx.claim_id`` is read: the proof is for every size)."""
        t0 = time.perf_counter()
        claim_id = ctx.claim_id
        notes = list(self.notes)
        try:
            cons = self.construction()
        except Exception as e:  # noqa: BLE001 - a crashing check is an "error" row; the run goes on
            return self._error(claim_id, "?", e, "while building the construction", notes, t0)
        stmt = cons.all_n
        if stmt is None:
            return self._without_statement(ctx, cons, notes, t0)
        try:
            if self.vocabulary is not None:
                stmt = narrowed(stmt, self.vocabulary)
            check_concludes(self.concludes, self.spec, stmt.vocabulary)
        except ValueError as e:
            return self._error(claim_id, cons.variant, e, "the all-n check is misstated", notes, t0)
        why = refusal(cons)
        if why is not None:
            return Verdict(claim_id, cons.variant, "unknown", self.method, None, 0, time.perf_counter() - t0, None,
                           [*notes, f"not proved: {why}"], scope="nothing established for all n",
                           details={"obligations": []})
        try:
            kcons, own, stmt = traced(cons, self.vocabulary)
        except (SymbolicTruthiness, NameClash, TraceError) as e:
            return self._error(claim_id, cons.variant, e, "the all-n statement cannot be traced into terms", notes,
                               t0)
        try:
            return self._checked(claim_id, kcons, own, stmt, notes, t0)
        except (SymbolicTruthiness, NameClash, TraceError) as e:
            return self._error(claim_id, cons.variant, e, "the all-n statement cannot be read", notes, t0)
        except Exception as e:  # noqa: BLE001 - a crashing check is an "error" row; the run goes on
            return self._error(claim_id, cons.variant, e, "the all-n check failed", notes, t0)

    def _without_statement(self, ctx: RunContext, cons: Construction, notes: list[str], t0: float) -> Verdict:
        """No statement to prove: ``refuted`` where exact replay finds the decoder departing, else ``unknown``.

        The replay is the claim's own check (its spec, its exhaustive families) up to ``concrete_size`` (and the
        run's size); its counterexample is the first step, layer and block where the run leaves the reference.
        """
        size = min(self.concrete_size, ctx.max_size)
        replayed = self._replay(ctx.claim_id, cons, size, ctx.jobs)
        why = ("no all-n statement: the construction does not state what every token holds (an AllNStatement; see "
               "symcot/constructions/alln.py), so no obligation can be stated")
        if replayed.verdict == "refuted" and replayed.counterexample is not None:
            return Verdict(ctx.claim_id, cons.variant, "refuted", self._replay_method(size), replayed.max_size,
                           replayed.inputs_checked, time.perf_counter() - t0, replayed.counterexample,
                           [*notes, f"{why}; exact replay of every input up to size {size} refutes the variant for "
                                    "every n: the counterexample is where the run first leaves the reference"],
                           details={"obligations": [], "replay": {"max_size": size,
                                                                  "inputs": replayed.inputs_checked}})
        return Verdict(ctx.claim_id, cons.variant, "unknown", self.method, None, replayed.inputs_checked,
                       time.perf_counter() - t0, None,
                       [*notes, f"{why}; exact replay up to size {size}: {replayed.verdict}"],
                       scope="nothing established for all n", details={"obligations": []})

    def _replay(self, claim_id: str, cons: Construction, size: int, jobs: int) -> Verdict:
        """The claim's own check (its spec, its exhaustive families) of ``cons`` by exact replay up to ``size``."""
        return run_construction_check(claim_id, cons, self.spec, [f for f in self.families if f.exhaustive], size,
                                      jobs=jobs)

    @staticmethod
    def _replay_method(size: int) -> str:
        return f"all-n row refuted by exact replay of every input up to size {size} (no proof needed)"

    def _error(self, claim_id: str, variant: str, e: BaseException, what: str, notes: list[str],
               t0: float) -> Verdict:
        """An ``error`` row naming the user's file and line where the exception was raised."""
        err = locate(e)
        kind = "" if isinstance(e, SymcotError) else f"{type(e).__name__}: "
        tb = getattr(err, "traceback_text", None)
        return Verdict(claim_id, variant, "error", self.method, None, 0, time.perf_counter() - t0, None,
                       [*notes, f"{what}: {kind}{err}" if kind and kind not in str(err) else f"{what}: {err}"],
                       scope="nothing established for all n",
                       details={"obligations": [], **({"traceback": tb} if tb else {})})

    def _checked(self, claim_id: str, cons: Construction, own: AllNStatement, stmt: AllNStatement,
                 notes: list[str], t0: float) -> Verdict:
        """The concrete phase, the witness runs, then the proof.

        ``own`` is the construction's traced statement, ``stmt`` the same over the claim's vocabulary.
        """
        conc = check_statement(cons, stmt, self.spec.reference, self.families, self.concrete_size, self.facts_size,
                               min(self.facts_size, self.reading_size))
        concrete: dict[str, Any] = {
            "inputs": conc.inputs, "sizes_complete": conc.max_size, "facts_size": conc.facts_size,
            "fact_instances": conc.fact_instances, "z3_reading_inputs": conc.z3_reading_inputs,
            "z3_reading_size": min(self.facts_size, self.reading_size, self.concrete_size),
            "families_skipped": conc.skipped, "seconds": round(conc.seconds, 3)}
        if conc.skipped:
            notes = [*notes, f"not in the concrete phase (not exhaustive): {', '.join(conc.skipped)}"]
        if conc.failure is not None:
            return self._concrete_failure(claim_id, cons, conc.failure, conc.max_size, conc.inputs, concrete, notes, t0)
        if conc.inputs == 0 or not conc.fact_instances:
            why = "no input" if conc.inputs == 0 else "no fact on any input"
            return Verdict(claim_id, cons.variant, "unknown", self.method, None, conc.inputs, time.perf_counter() - t0,
                           None, [*notes, f"the concrete phase checked {why} (no exhaustive family has an input up to "
                                          f"size {self.concrete_size}), so the statement is unchecked: no proof tried"],
                           scope="nothing established for all n", details={"concrete": concrete, "obligations": []})
        dom = check_domain(stmt, self.spec.reference, self.families, self.concrete_size)
        concrete["domain"] = dom.as_dict()
        if dom.failure is not None:
            return self._error(claim_id, cons.variant, SymcotError(dom.failure), "the input families against the "
                               "statement's domain facts", notes, t0)
        sizes = witness_sizes(self.concrete_size, self.witness_size)
        wit = check_witness(cons, stmt, self.spec.reference, self.families, sizes)
        concrete["witness"] = {"size": max(wit.sizes, default=None), "sizes": wit.sizes, "input": wit.input,
                               "inputs": len(wit.inputs), "seconds": round(wit.seconds, 3)}
        if wit.failure is not None:
            return self._witness_failure(claim_id, cons, wit.failure, conc, concrete, notes, t0)
        res = prove(cons, own if self.vocabulary is not None else stmt, timeout_s=self.timeout_s)
        if self.vocabulary is not None:
            prove_extension(res, own.vocabulary, stmt.vocabulary, self.timeout_s)
        return self._verdict(claim_id, cons, stmt, res, concrete, notes, time.perf_counter() - t0)

    def _witness_failure(self, claim_id: str, cons: Construction, f: ConcreteFailure, conc: Any,
                         concrete: dict[str, Any], notes: list[str], t0: float) -> Verdict:
        """A witness run that did not pass: ``refuted`` where the decoder departs, an ``error`` for a false fact."""
        if f.kind == "fact":
            return self._error(claim_id, cons.variant, SymcotError(
                f"a hypothesis of the proof is false on a real run beyond the concrete phase: {f.text()} (a fact "
                "that bounds the size, or facts that contradict each other, leave nothing to prove)"),
                "the witness runs", notes, t0)
        return self._concrete_failure(claim_id, cons, f, conc.max_size, conc.inputs, concrete,
                                      [*notes, "a witness run beyond the concrete phase does not pass"], t0)

    def _concrete_failure(self, claim_id: str, cons: Construction, f: ConcreteFailure, max_size: int | None,
                          inputs: int, concrete: dict[str, Any], notes: list[str], t0: float) -> Verdict:
        """``refuted`` where the decoder departs from the reference on a real run; else the statement is false."""
        ce = {"kind": f.kind, "input": f.input, "step": f.step, "what": f.what, "expected": f.expected,
              "got": f.got, "size": f.input.get("n", f.input.get("size"))}
        if f.decoder_departs:
            return Verdict(claim_id, cons.variant, "refuted", self.method, max_size, inputs,
                           time.perf_counter() - t0, ce,
                           [*notes, f"the decoder departs from the reference: {f.text()}"],
                           details={"concrete": concrete, "obligations": []})
        false = f"the all-n statement is false on a concrete run, so no proof was tried: {f.text()}"
        replayed = self._replay(claim_id, cons, self.concrete_size, 1)
        if replayed.verdict == "refuted" and replayed.counterexample is not None:
            return Verdict(claim_id, cons.variant, "refuted", self._replay_method(self.concrete_size),
                           replayed.max_size, replayed.inputs_checked, time.perf_counter() - t0,
                           replayed.counterexample,
                           [*notes, false, "exact replay refutes the variant for every n: the counterexample is where "
                                           "the run first leaves the reference"],
                           details={"concrete": concrete, "concrete_failure": ce, "obligations": []})
        row = Verdict(claim_id, cons.variant, "unknown", self.method, None, inputs, time.perf_counter() - t0,
                      None, [*notes, false], scope="nothing established for all n",
                      details={"concrete": concrete, "concrete_failure": ce, "obligations": []})
        # A statement false on a real run: a real counterexample searched for beyond the replay (refuted when found).
        return settle(self, claim_id, cons, cons.all_n, [], row)

    def _verdict(self, claim_id: str, cons: Construction, stmt: AllNStatement, res: AllNResult,
                 concrete: dict[str, Any], notes: list[str], seconds: float) -> Verdict:
        lam_words = (f"λ = {res.lam_fixed} (fixed)" if res.lam_fixed is not None else
                     f"λ ≥ {res.lam_bound} assumed" if res.lam_bound is not None else None)
        trusted = [*trusted_base(stmt, concrete, lam_words, self.conclusion, stops=cons.stop is not None),
                   *trusted_items(self.concludes)]
        second = second_opinion(claim_id, cons.variant, res.obligations, res.proved, self.second_solver,
                                self.second_timeout_s, self.smt2_dir)
        if second.recheck is not None:
            seconds += second.recheck.seconds
        details: dict[str, Any] = {
            "obligations": second.obligation_dicts(res.obligations), "counts": res.counts(),
            "trusted_base": trusted, "concrete": concrete, "prover_seconds": round(res.seconds, 3),
        }
        if res.proved:
            details["second_solver"] = second.details(res.obligations)
        both = second.agreement.notes(res.obligations)
        stated = concluded(self.concludes, res.obligations)
        if stated:
            details["conclusions"] = stated
            notes = [*notes, *(f"conclusion \"{c['conclusion']}\": " + (
                f"proved ({', '.join(c['facts'])}; {c['reads']})" if c["proved"] and res.proved else
                f"its facts {', '.join(c['facts'])} are proved, the realization is not" if c["proved"] else
                f"not proved (facts {', '.join(c['facts'])})") for c in stated)]
        if self.conclusion:
            details["conclusion_not_proved_here"] = self.conclusion
            notes = [*notes, f"not part of this proof: {self.conclusion}"]
        lam_text = f", λ = {res.lam_fixed} only" if res.lam_fixed is not None else ""
        if res.lam_bound is not None:
            details["lambda_assumed"] = f"λ ≥ {res.lam_bound}"
            lr = res.lam_rule
            if lr is not None:
                details["lambda_rule"] = {"derived": "every λ" if lr.every_lambda else
                                          None if lr.rule is None else f"λ ≥ {lr.rule}",
                                          "obligations_using_lambda": lr.obligations, "tries": lr.tries,
                                          "next_below": lr.below}
                details["lambda_answers"] = [lr.answer().as_dict()]
            if lr is not None and lr.every_lambda:
                lam_text = ", every λ"
            else:
                rule = lr.rule if lr is not None and lr.rule is not None else res.lam_bound
                lam_text = f", every λ ≥ {rule}"
        if res.proved and second.agreement.status == "error":
            return Verdict(claim_id, cons.variant, "error", self.method, None, concrete["inputs"], seconds, None,
                           [*notes, *both], details=details,
                           scope="nothing established for all n (the two solvers disagree)")
        unproved = [c["conclusion"] for c in stated if not c["proved"]]
        if res.proved and unproved:
            return Verdict(claim_id, cons.variant, "unknown", self.method, None, concrete["inputs"], seconds, None,
                           [*notes, *both, f"the realization is proved, but not the conclusions {unproved}"],
                           details=details, scope="the realization for all n; the claim's conclusions not established")
        if res.proved and self.beyond:
            return Verdict(claim_id, cons.variant, "unknown", self.method, None, concrete["inputs"], seconds, None,
                           [*notes, *both, f"the decoder's realization is proved for all n, but the claim is more: "
                                           f"{self.beyond}"], details=details,
                           scope=f"the realization for all n ({second.agreement.text}); the claim's own statement "
                                 "not established")
        ran = self.second_solver and "not installed" not in second.agreement.text
        assumed = assumptions(stmt, ran, (concrete.get("witness") or {}).get("sizes", []), self.concrete_size,
                              (concrete.get("domain") or {}).get("assumed", ["that the families cover the domain "
                                                                               "(not checked)"]))
        assumed += res.assumed_sizes()
        status = decide(res.proved, assumed)
        if status is not None:
            names = ", ".join(c.conclusion for c in self.concludes)
            also = f"; the claim's conclusions too ({names})" if stated else ""
            under = f"; assuming {'; '.join(assumed)}" if assumed else ""
            scope = (f"all n{lam_text} (every input of every size; the statement's trusted base in details){also}; "
                     f"{second.agreement.text}{under}")
            details["assumptions"] = assumed
            return Verdict(claim_id, cons.variant, status, f"{self.method}; {second.agreement.text}", None,
                           concrete["inputs"], seconds, None,
                           [*notes, *both, trusted_summary(stmt, concrete, lam_words)], details=details, scope=scope)
        first = res.first_failure
        why = first.line() if first is not None else "no step obligation was stated"
        row = Verdict(claim_id, cons.variant, "unknown", self.method, None, concrete["inputs"], seconds, None,
                      [*notes, f"first obligation not proved: {why}"], details=details,
                      scope="nothing established for all n")
        # Each obligation not proved explained; a real counterexample searched for (refuted when found).
        return settle(self, claim_id, cons, stmt, res.obligations, row)
