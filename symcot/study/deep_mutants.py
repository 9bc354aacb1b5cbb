r"""Deep mutants (:mod:`symcot.constructions.deep`) against exact replay and the all-n check.

A deep mutant is the base on every input up to a size ``k`` beyond the all-n check's concrete phase and
(unless it is equivalent) wrong after it. For each one:

* :func:`replay` -- exact replay (:func:`symcot.check.stepwise.check_input`) on the claim's inputs at sizes
  ``k + 1, k + 2, …`` (every input where a size has few, else a seeded sample): *refuted at size s*, or
  *equivalent* as far as replay went (a term on a block nothing reads);
* :func:`run_all_n` -- the claim's :class:`~symcot.prove.alln.check.AllNCheck` with the mutant as its
  construction. By default the weight-independent parts are skipped (the facts and the sum lemmas) and the
  prover stops at its first obligation not proved; ``full`` runs the check as the claim declares it.

A mutant that replay refutes and the all-n check proves is a soundness failure of the prover
(:func:`soundness_failure`). :func:`study` runs both on a selection; ``symcot mutate --deep`` prints it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from symcot.check.context import RunContext
from symcot.check.shard import range_function
from symcot.check.stepwise import check_input
from symcot.constructions.base import Construction
from symcot.constructions.deep import VANISHING, DeepMutant, deep_mutants, same_weights, select
from symcot.errors import SymcotError
from symcot.inputs.family import Family
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.concrete import check_statement
from symcot.prove.alln.prover import prove

# -- exact replay beyond k --------------------------------------------------------------------------------------


@dataclass
class ReplayVerdict:
    """Exact replay of a mutant beyond ``k``: refuted at the first size where an input departs, or not."""

    refuted_at: int | None = None
    input: str | None = None
    what: str | None = None
    tried: dict[int, int] = field(default_factory=dict)
    exhaustive: dict[int, bool] = field(default_factory=dict)
    error: str | None = None
    seconds: float = 0.0

    @property
    def status(self) -> str:
        """``refuted``, ``equivalent`` (no input departed) or ``error``."""
        if self.error is not None:
            return "error"
        return "refuted" if self.refuted_at is not None else "equivalent"

    def text(self) -> str:
        """``refuted at size 6`` / ``equivalent (not refuted by replay up to size 8)``."""
        if self.error is not None:
            return f"error: {self.error}"
        if self.refuted_at is not None:
            return f"refuted at size {self.refuted_at}"
        upto = max(self.tried, default=None)
        return f"equivalent (not refuted by replay up to size {upto})"

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"status": self.status, "text": self.text(), "refuted_at": self.refuted_at, "input": self.input,
                "what": self.what, "tried": {str(s): c for s, c in self.tried.items()},
                "exhaustive": {str(s): e for s, e in self.exhaustive.items()}, "error": self.error,
                "seconds": round(self.seconds, 3)}


def inputs_at(fam: Family, size: int, per_size: int, seed: int = 0) -> tuple[list[Any], bool]:
    """Up to ``per_size`` inputs of ``fam`` at ``size`` and whether they are all of them.

    Every input when there are at most ``per_size``; else the first and last ones and a seeded sample of ranks
    (by the family's unrank where it has one, else its first ``per_size``).
    """
    total = fam.count(size)
    if total <= per_size:
        return list(fam.inputs(size)), True
    rng_fn = range_function(fam)
    if rng_fn is None:
        return list(islice(fam.inputs(size), per_size)), False
    rng = random.Random(f"{seed}/{fam.name}/{size}")
    ranks = sorted({0, total - 1, *(rng.randrange(total) for _ in range(per_size - 2))})
    out = [inp for r in ranks for inp in rng_fn(size, r, r + 1)]
    return out, False


def replay(mutant: Construction, spec: Any, families: Sequence[Family], first: int, last: int,
           per_size: int = 100, seed: int = 0, budget_s: float | None = None) -> ReplayVerdict:
    """Exact replay of ``mutant`` on the families' inputs at sizes ``first … last``; stops at the first departure."""
    t0 = time.perf_counter()
    out = ReplayVerdict()
    try:
        for size in range(first, last + 1):
            for fam in families:
                if not fam.exhaustive or size < fam.min_size or (fam.max_size is not None and size > fam.max_size):
                    continue
                inputs, complete = inputs_at(fam, size, per_size, seed)
                out.exhaustive[size] = out.exhaustive.get(size, True) and complete
                for inp in inputs:
                    out.tried[size] = out.tried.get(size, 0) + 1
                    mm = check_input(mutant, spec, inp)
                    if mm is not None:
                        out.refuted_at, out.input = size, fam.describe(inp).get("text", str(inp))
                        out.what = str(mm)
                        out.seconds = time.perf_counter() - t0
                        return out
                    if budget_s is not None and time.perf_counter() - t0 > budget_s:
                        out.exhaustive[size] = False
                        out.seconds = time.perf_counter() - t0
                        return out
    except Exception as e:  # noqa: BLE001 - a mutant may break the replay itself; reported, never a refutation
        out.error = f"{type(e).__name__}: {e}"
    out.seconds = time.perf_counter() - t0
    return out


# -- the all-n check ------------------------------------------------------------------------------------------


@dataclass
class AllNOutcome:
    """The all-n check on one mutant: ``proved``, ``refuted`` (concrete phase), ``not proved`` or ``error``."""

    verdict: str
    first_failure: str | None = None
    concrete: str = ""
    obligations: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    #: ``full`` when this is the check as the claim declares it, ``stop-early`` for the fast run.
    mode: str = "stop-early"
    #: The fast run's verdict when a fast proof was re-run as the full check (which decides the row).
    fast_verdict: str | None = None
    #: The first failing obligation in short: status, phase, layer, where, and the solver's word.
    first_short: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"verdict": self.verdict, "first_failure": self.first_failure, "concrete": self.concrete,
                "obligations": self.obligations, "counts": dict(self.counts), "seconds": round(self.seconds, 3),
                "mode": self.mode, "fast_verdict": self.fast_verdict, "first_short": self.first_short}


def run_all_n(mutant: DeepMutant, check: AllNCheck, timeout_s: float | None = None, full: bool = False,
              claim_id: str = "") -> AllNOutcome:
    """The claim's all-n check with ``mutant`` as its construction.

    ``full``: exactly :meth:`AllNCheck.run` (concrete phase with the facts, the sum lemmas, the facts' proofs,
    every obligation). Otherwise the weight-independent parts are skipped: the concrete phase runs without
    the facts (and not at all when the mutant compiles to the base's maps at every size it covers: its runs
    are the base's), and the prover stops at the first obligation not proved (``facts=False, lemmas=False,
    stop_early=True``).
    """
    t0 = time.perf_counter()
    timeout = check.timeout_s if timeout_s is None else timeout_s
    stmt = mutant.all_n
    try:
        if full:
            v = replace(check, construction=lambda: mutant, timeout_s=timeout).run(
                RunContext(claim_id or mutant.claim, check.concrete_size))
            details = v.details or {}
            verdict = {"proved": "proved", "refuted": "refuted"}.get(v.verdict, "not proved")
            first = None if verdict == "proved" or not v.notes else v.notes[-1]
            return AllNOutcome(verdict, first, str(details.get("concrete", "")), len(details.get("obligations", [])),
                               details.get("counts", {}), time.perf_counter() - t0, "full")
        if stmt is None:
            return AllNOutcome("not proved", "no all-n statement", seconds=time.perf_counter() - t0)
        if mutant.kind in VANISHING and all(same_weights(mutant, mutant.base, s)
                                            for s in range(1, check.concrete_size + 1)):
            concrete = f"same weights as the base to size {check.concrete_size}: its runs are the base's"
        else:
            rep = check_statement(mutant, stmt, check.spec.reference, check.families, check.concrete_size, 0)
            if rep.failure is not None:
                verdict = "refuted" if rep.failure.decoder_departs else "not proved"
                return AllNOutcome(verdict, f"concrete phase: {rep.failure.text()}",
                                   f"{rep.inputs} inputs, failed", seconds=time.perf_counter() - t0)
            concrete = f"{rep.inputs} inputs to size {rep.max_size}, passed"
        res = prove(mutant, stmt, timeout_s=timeout, facts=False, lemmas=False, stop_early=True,
                    derive_lambda=False)
        ff = res.first_failure
        short = None
        if ff is not None:
            at = f"layer {ff.layer} " if ff.layer is not None else ""
            why = ff.detail.split(",")[0] if ff.detail else ""
            short = f"[{ff.status}] {ff.phase}: {at}{ff.where}" + (f" ({why})" if why else "")
        return AllNOutcome("proved" if res.proved else "not proved", ff.line() if ff is not None else None,
                           concrete, len(res.obligations), res.counts(), time.perf_counter() - t0,
                           first_short=short)
    except Exception as e:  # noqa: BLE001 - reported as the row's error, never as a proof
        return AllNOutcome("error", f"{type(e).__name__}: {e}", seconds=time.perf_counter() - t0)


def soundness_failure(replayed: ReplayVerdict | None, outcome: AllNOutcome | None) -> bool:
    """A mutant exact replay refutes that the all-n check proves."""
    return replayed is not None and replayed.status == "refuted" and outcome is not None and \
        outcome.verdict == "proved"


# -- a study: every selected mutant of one all-n check ------------------------------------------------------------


@dataclass
class DeepRow:
    """One mutant's results: its replay beyond ``k`` and its all-n check."""

    claim: str
    variant: str
    mutant: DeepMutant
    replayed: ReplayVerdict
    outcome: AllNOutcome | None = None

    @property
    def soundness_failure(self) -> bool:
        """Proved by the all-n check though exact replay refutes it."""
        return soundness_failure(self.replayed, self.outcome)

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        mu = self.mutant
        return {"claim": self.claim, "variant": self.variant, "mutant": mu.id, "label": mu.label, "kind": mu.kind,
                "layer": mu.layer, "map": mu.map, "block": mu.block, "source": mu.source,
                "two_index": mu.two_index, "scalar": mu.scalar, "inert": mu.inert, "k": mu.k, "term": mu.term,
                "text": mu.text(),
                "replay": self.replayed.as_dict(), "all_n": None if self.outcome is None else self.outcome.as_dict(),
                "soundness_failure": self.soundness_failure}


@dataclass
class Settings:
    """How a study runs: ``k`` (``None``: the check's ``concrete_size + 1``), the selection, replay and prover."""

    k: int | None = None
    limit: int | None = None
    kinds: tuple[str, ...] | None = None
    ids: tuple[str, ...] = ()
    seed: int = 0
    replay_sizes: int = 3
    replay_inputs: int = 100
    all_n: bool = True
    timeout_s: float | None = 15.0
    full: bool = False


def k_of(check: AllNCheck, settings: Settings) -> int:
    """The size the mutants vanish up to: ``settings.k``, else one beyond the check's concrete phase."""
    return settings.k if settings.k is not None else check.concrete_size + 1


def chosen(base: Construction, check: AllNCheck, settings: Settings) -> list[DeepMutant]:
    """The mutants a study runs: by id when ids are given, else :func:`select` of the kinds asked for."""
    every = deep_mutants(base, k_of(check, settings), settings.kinds)
    if settings.ids:
        by_id = {mu.id: mu for mu in every}
        missing = [i for i in settings.ids if i not in by_id]
        if missing:
            raise SymcotError(f"{base.label} has no deep mutant {missing[0]!r} at k = {k_of(check, settings)} "
                              f"(e.g. {', '.join(mu.id for mu in every[:3])})")
        return [by_id[i] for i in settings.ids]
    return select(every, settings.limit, settings.seed, prefer=list(base.encoding.blocks))


def base_control(base: Construction, check: AllNCheck, settings: Settings) -> ReplayVerdict:
    """The base on the replay's inputs: a mutant's refutation counts only when the base passes them."""
    k = k_of(check, settings)
    return replay(base, check.spec, check.families, k + 1, k + settings.replay_sizes, settings.replay_inputs,
                  settings.seed)


def study(claim_id: str, check: AllNCheck, settings: Settings, mutants: Sequence[DeepMutant]) -> Iterator[DeepRow]:
    """Each mutant replayed beyond ``k`` (from size 1 for the substitutions) and, if asked, all-n checked.

    A mutant that replay refutes and the fast all-n run proves is run again through the check exactly as the
    claim declares it (facts, lemmas, the second solver), whose verdict is the row's.
    """
    for mu in mutants:
        first = mu.k + 1 if mu.kind in VANISHING else 1
        rv = replay(mu, check.spec, check.families, first, mu.k + settings.replay_sizes, settings.replay_inputs,
                    settings.seed)
        out = run_all_n(mu, check, settings.timeout_s, settings.full, claim_id) if settings.all_n else None
        if out is not None and out.mode != "full" and out.verdict == "proved" and rv.status == "refuted":
            fast = out  # a proof of a refuted mutant: the check as the claim declares it decides the row
            out = run_all_n(mu, check, None, True, claim_id)
            out.fast_verdict, out.seconds = fast.verdict, out.seconds + fast.seconds
        yield DeepRow(claim_id, mu.base.variant, mu, rv, out)
