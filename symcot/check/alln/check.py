r"""``AllNCheck``: a claim variant decided for every size by the all-n prover (``symcot verify --all-n``).

The check runs, in order: the statement on concrete runs (:mod:`symcot.check.alln.concrete`: every input of
the claim's exhaustive families up to ``concrete_size``, facts up to ``facts_size``), then every proof
obligation (:mod:`symcot.check.alln.prover`). Verdicts:

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

from symcot.check.alln.concrete import check_statement
from symcot.check.alln.context import DEFAULT_TIMEOUT_S
from symcot.check.alln.prover import AllNResult, prove
from symcot.check.exhaustive import Family, Progress
from symcot.check.spec import StepwiseSpec
from symcot.check.verdict import Verdict
from symcot.constructions.base import Construction

METHOD = "all-n proof: one CoT step at symbolic n and t, by Z3 on the IR's block algebra"

#: The trusted base every all-n proof shares (docs/all-n.md, "Trusted base").
TRUSTED = (
    "Z3: an unsat answer is a proof (ground instantiation only weakens hypotheses)",
    "sum lemmas L1 (finite support) and L2 (0/1 terms): Z3 induction on the length, hand proof in docs/all-n.md",
    "the symbolic block algebra reads the IR maps coordinate by coordinate: tested equal to the compiled maps "
    "(tests/check/alln/test_blocks.py)",
    "the layer semantics (attention by stated choices, W_O, residual, W_2 ReLU(W_1 ·)) mirror "
    "symcot/model/semantics.py; the statement's choices are checked against exact replay",
)


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
        beyond: set when the claim *is* such a conclusion (a step count on trees): the realization may be
            proved, but the row stays ``unknown`` with this reason.
        timeout_s: Z3's limit per obligation.

    """

    construction: Callable[[], Construction]
    spec: StepwiseSpec
    families: Sequence[Family]
    concrete_size: int = 4
    facts_size: int = 3
    conclusion: str = ""
    beyond: str = ""
    timeout_s: float = DEFAULT_TIMEOUT_S
    method: str = METHOD
    all_n: bool = True
    notes: list[str] = field(default_factory=list)

    @property
    def variant(self) -> str:
        """The construction's variant name."""
        return self.construction().variant

    def run(self, claim_id: str, max_size: int, progress: Progress | None = None, jobs: int = 1,
            **options: Any) -> Verdict:
        """The verdict row (``max_size`` is ignored: the proof is for every size)."""
        t0 = time.perf_counter()
        cons = self.construction()
        notes = list(self.notes)
        stmt = cons.all_n
        if stmt is None:
            return Verdict(claim_id, cons.variant, "unknown", self.method, None, 0, time.perf_counter() - t0, None,
                           [*notes, "no all-n statement: the construction does not state what every token holds "
                            "(an AllNStatement; see symcot/constructions/alln.py), so no obligation can be stated"],
                           scope="nothing established for all n", details={"obligations": []})
        conc = check_statement(cons, stmt, self.spec.reference, self.families, self.concrete_size, self.facts_size)
        concrete = {"inputs": conc.inputs, "sizes_complete": conc.max_size, "facts_size": conc.facts_size,
                    "fact_instances": conc.fact_instances, "seconds": round(conc.seconds, 3)}
        if conc.failure is not None:
            f = conc.failure
            ce = {"kind": f.kind, "input": f.input, "step": f.step, "what": f.what, "expected": f.expected,
                  "got": f.got, "size": f.input.get("n", f.input.get("size"))}
            if f.decoder_departs:
                return Verdict(claim_id, cons.variant, "refuted", self.method, conc.max_size, conc.inputs,
                               time.perf_counter() - t0, ce, [*notes, f"the decoder departs from the reference: "
                                                                   f"{f.text()}"],
                               details={"concrete": concrete, "obligations": []})
            return Verdict(claim_id, cons.variant, "unknown", self.method, None, conc.inputs, time.perf_counter() - t0,
                           None, [*notes, f"the all-n statement is false on a concrete run, so no proof was tried: "
                                          f"{f.text()}"],
                           scope="nothing established for all n",
                           details={"concrete": concrete, "concrete_failure": ce, "obligations": []})
        res = prove(cons, stmt, timeout_s=self.timeout_s)
        return self._verdict(claim_id, cons, res, concrete, notes, time.perf_counter() - t0)

    def _verdict(self, claim_id: str, cons: Construction, res: AllNResult, concrete: dict[str, Any],
                 notes: list[str], seconds: float) -> Verdict:
        stmt = cons.all_n
        assert stmt is not None
        trusted = [*TRUSTED, *trusted_facts(stmt, concrete)]
        details: dict[str, Any] = {
            "obligations": [o.as_dict() for o in res.obligations], "counts": res.counts(),
            "trusted_base": trusted, "concrete": concrete, "prover_seconds": round(res.seconds, 3),
        }
        if self.conclusion:
            details["conclusion_not_proved_here"] = self.conclusion
            notes = [*notes, f"not part of this proof: {self.conclusion}"]
        lam_text = ""
        if res.lam_bound is not None:
            details["lambda_assumed"] = f"λ ≥ {res.lam_bound}"
            lr = res.lam_rule
            if lr is not None:
                details["lambda_rule"] = {"derived": "every λ" if lr.every_lambda else
                                          None if lr.rule is None else f"λ ≥ {lr.rule}",
                                          "obligations_using_lambda": lr.obligations, "tries": lr.tries,
                                          "next_below": lr.below}
            if lr is not None and lr.every_lambda:
                lam_text = ", every λ"
            else:
                rule = lr.rule if lr is not None and lr.rule is not None else res.lam_bound
                lam_text = f", every λ ≥ {rule}"
        if res.proved and self.beyond:
            return Verdict(claim_id, cons.variant, "unknown", self.method, None, concrete["inputs"], seconds, None,
                           [*notes, f"the decoder's realization is proved for all n, but the claim is more: "
                                    f"{self.beyond}"], details=details,
                           scope="the realization for all n; the claim's own statement not established")
        if res.proved:
            scope = f"all n{lam_text} (every input of every size; the statement's trusted base in details)"
            return Verdict(claim_id, cons.variant, "proved", self.method, None, concrete["inputs"], seconds, None,
                           notes, details=details, scope=scope)
        first = res.first_failure
        why = first.line() if first is not None else "no step obligation was stated"
        return Verdict(claim_id, cons.variant, "unknown", self.method, None, concrete["inputs"], seconds, None,
                       [*notes, f"first obligation not proved: {why}"], details=details,
                       scope="nothing established for all n")


def trusted_facts(stmt: Any, concrete: dict[str, Any]) -> list[str]:
    """The statement's unproved items: definitions, domain and hand facts, each with where it is checked."""
    k = concrete.get("facts_size")
    out = []
    for f in stmt.vocabulary.facts:
        if f.kind == "definition":
            out.append(f"definition {f.name} ({f.source}): the algorithm as the paper states it; agrees with the "
                       f"reference implementation on every input to size {k}")
        elif f.kind == "domain":
            out.append(f"domain {f.name} ({f.source}): the theorem's hypothesis; holds on every input to size {k}")
        elif f.kind == "hand":
            out.append(f"hand fact {f.name} ({f.source}); holds on every input to size {k}")
    out.append(f"the prompt built from the statement's token encodings is the construction's prompt on every input "
               f"to size {concrete.get('sizes_complete')}")
    return out
