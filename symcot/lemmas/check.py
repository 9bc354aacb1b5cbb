"""``LemmaCheck``: a lemma as a claim variant, so ``symcot verify lem:mMc`` runs the Z3 prover.

It implements the ``Check`` protocol of :mod:`symcot.claims`: ``variant``, ``method`` and
``run(ctx) -> Verdict``. ``ctx.max_size`` bounds the dimension sweep of a
lemma over ``H`` or ``d`` coordinates (ignored by a lemma without dimensions). The verdict's ``details``
hold the solver seconds, the number of queries, the dimension statement, the unsat core (hypotheses a
proof used), the unused hypotheses, the relaxations tried and, where ``λ`` appears, the ``λ`` analysis;
a refutation's counterexample is the exactly replayed one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from symcot.check.context import RunContext
from symcot.check.verdict import Verdict, jsonable
from symcot.lemmas.lam import LambdaSpec, analyse
from symcot.lemmas.lam import answer as lam_answer
from symcot.lemmas.lemma import Lemma
from symcot.lemmas.prover import prove

METHOD = "Z3: negated target unsat over the domain (If-ReLU, per gate value and output coordinate)"


def lemma_scope(lem: Lemma, status: str, dimension: str) -> str:
    """What a lemma row covers: the stated domain, the dimensions, and λ (quantified or fixed)."""
    if status not in ("proved", "verified"):
        return ""
    lam = ""
    if lem.has_lam:
        lam = f", λ = {lem.lam_value}" if lem.lam_value is not None else ", every λ the domain allows"
    dims = "" if dimension == "no dimension" else f"; {dimension}"
    return f"every input of the stated domain{lam}{dims}"


@dataclass
class LemmaCheck:
    """One variant of a lemma claim, decided by :func:`symcot.lemmas.prover.prove`.

    Attributes:
        lemma: a zero-argument function building the :class:`Lemma` (built when the check runs).
        variant: ``as-written``, ``repaired``, or a named reading such as ``use-site:thm:main``.
        lam: the ``λ`` analysis to run (``None`` for a lemma without ``λ``).
        notes: shown with the verdict (interpretive choices of this variant).
        method: the report's method column.

    """

    lemma: Callable[[], Lemma]
    variant: str = "as-written"
    lam: LambdaSpec | None = None
    notes: list[str] = field(default_factory=list)
    method: str = METHOD

    def run(self, ctx: RunContext) -> Verdict:
        """Prove, refute or leave undecided (dimensions up to ``ctx.max_size``); never raises (a crash: ``error``)."""
        t0 = time.perf_counter()
        claim_id, max_size = ctx.claim_id, ctx.max_size
        notes = list(self.notes)
        try:
            lem = self.lemma()
            notes += list(lem.notes)
            res = prove(lem, max_size)
            details: dict[str, Any] = res.details()
            details["gates_enumerated"] = [g.label for g in lem.gates]
            details["hypotheses"] = [h.name for h in lem.hyps]
            if self.lam is not None and lem.has_lam and res.status in ("proved", "refuted"):
                if lem.dims:
                    notes.append("λ analysis skipped: it is implemented for lemmas without a dimension")
                else:
                    details["lambda"] = analyse(lem, self.lam, proved_for_free_lambda=res.status == "proved")
                    details["lambda_answers"] = [lam_answer(details["lambda"]).as_dict()]
                    if "decoupled" in details["lambda"]:
                        details["lambda_answers"].append(lam_answer(details["lambda"], decoupled=True).as_dict())
            cex = res.counterexample.as_dict() if res.counterexample is not None else None
            notes += res.notes
            if res.unknown:
                notes.append(f"{len(res.unknown)} solver queries undecided (timeout or unsupported); "
                             "an undecided query is never counted as proved")
            return Verdict(claim_id, self.variant, res.status, self.method, res.max_size, res.queries,
                           time.perf_counter() - t0, jsonable(cex), notes, None, [], jsonable(details),
                           scope=lemma_scope(lem, res.status, res.dimension))
        except Exception as e:  # noqa: BLE001 - the check failing is an "error" verdict, not a crash
            return Verdict(claim_id, self.variant, "error", self.method, None, 0, time.perf_counter() - t0, None,
                           notes + [f"check failed: {type(e).__name__}: {e}"])
