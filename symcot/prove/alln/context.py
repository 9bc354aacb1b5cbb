"""Proof obligations and the Z3 queries that discharge them, with the facts each one used.

An :class:`Obligation` is one statement the all-n proof needs (an attention inequality, a block identity, a
premise of a sum lemma, an induction step of an algorithm fact): where it sits (phase, layer, head or
block), the statement in words, how it was discharged, the facts in its unsat core, and its status:

* ``proved`` -- Z3 answered ``unsat`` for its negation under the stated hypotheses;
* ``failed`` -- Z3 found a model of the hypotheses that violates it (the model's values are kept);
* ``unknown`` -- Z3 gave up (timeout or incompleteness with quantifiers): never counted as a proof;
* ``unsupported`` -- the obligation could not be stated (a construct the prover does not know).

:class:`Context` holds the hypotheses every query of one proof shares: the vocabulary's facts (as
quantified formulas, asserted behind names so that unsat cores name them) and the side facts the sum
lemmas add as they are applied.

Each obligation keeps the query that decided it (:class:`Query`): for a proved one, the hypotheses of the try
that gave ``unsat`` (the ground instances when the ground try did), restricted to Z3's unsat core, and the
goal. That query is what a second solver re-checks (:mod:`symcot.prove.alln.second`) and what
:mod:`symcot.prove.alln.smt2` writes as SMT-LIB 2.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from symcot.prove.alln.cache import CACHE, Answer
from symcot.prove.alln.ground import ground
from symcot.prove.alln.ops import uninterpreted

STATUSES = ("proved", "failed", "unknown", "unsupported")
#: Nominal seconds Z3 may spend on one obligation (a resource count: :data:`RLIMIT_PER_S`).
DEFAULT_TIMEOUT_S = 60
#: Seconds for the first, quantified try of a query. Where Z3 proves a quantified query it mostly does so in under
#: 0.3 s (measured in docs/all-n.md: 202 of 209 such proofs on two rows; the slowest 2.5 s); a query it does not prove
#: so runs to this limit before the ground try, which decides most of them.
FIRST_TRY_S = 1.0
#: Seconds for the ground query tried next.
GROUND_TIMEOUT_S = 20
#: Statuses of the second solver on an obligation (``""``: not tried).
SECOND_STATUSES = ("", "proved", "unknown", "sat", "error")


@dataclass(frozen=True)
class Query:
    """One Z3 query: ``hyps ∧ ¬goal``; ``unsat`` proves ``goal`` (a subset of hypotheses that is unsat proves it too).

    Attributes:
        hyps: the named hypotheses (for a proved obligation: those of Z3's unsat core, in the order asserted).
        goal: the statement.
        ground: the hypotheses are ground instances (:mod:`symcot.prove.alln.ground`) of the stated ones.
        core: the hypotheses are restricted to Z3's unsat core.
        kinds: the vocabulary's symbol kinds and hints: the hint terms the query was asked with (what its ground
            instances are taken at: :func:`~symcot.prove.alln.ground.ground`).

    """

    hyps: tuple[tuple[str, Any], ...]
    goal: Any
    ground: bool = False
    core: bool = False
    kinds: dict[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)
    hints: tuple[Any, ...] = ()


@dataclass
class Obligation:
    """One statement of the proof and how it fared (see the module docstring)."""

    phase: str
    where: str
    statement: str
    status: str
    layer: int | None = None
    method: str = "Z3: the negation is unsat under the hypotheses"
    used: list[str] = field(default_factory=list)
    seconds: float = 0.0
    detail: str = ""
    #: The second solver's answer on :attr:`query` (:data:`SECOND_STATUSES`; ``""``: not tried).
    second: str = ""
    #: The second solver's seconds on it in this row (0 where its answer was taken from an earlier row's).
    second_seconds: float = 0.0
    #: The query that decided the obligation (Z3 formulas: not in the JSON form).
    query: Query | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"obligation status must be one of {STATUSES}, got {self.status!r}")
        if self.second not in SECOND_STATUSES:
            raise ValueError(f"second-solver status must be one of {SECOND_STATUSES}, got {self.second!r}")

    @property
    def ok(self) -> bool:
        """Proved."""
        return self.status == "proved"

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"phase": self.phase, "layer": self.layer, "where": self.where, "statement": self.statement,
                "status": self.status, "method": self.method, "used": list(self.used),
                "seconds": round(self.seconds, 3), "detail": self.detail, "second": self.second,
                "second_seconds": round(self.second_seconds, 3)}

    def line(self) -> str:
        """One line for ``--explain``."""
        at = f"layer {self.layer} " if self.layer is not None else ""
        used = f"; uses {', '.join(self.used)}" if self.used else ""
        tail = f" -- {self.detail}" if self.detail and not self.ok else ""
        second = f"; cvc5: {self.second}" if self.second else ""
        return (f"[{self.status}] {self.phase}: {at}{self.where}: {self.statement} ({self.method}{used}{second})"
                f"{tail}")


def _model_text(model: z3.ModelRef, limit: int = 12) -> str:
    """A few constants of a model (``n = 2, t = 0, …``): where a failed obligation breaks."""
    parts = []
    for d in sorted(model.decls(), key=lambda d: d.name()):
        name = d.name()
        if d.arity() == 0 and ("!" not in name or name.endswith("!")):  # the prover's t!, λ! read as t, λ
            parts.append(f"{name.rstrip('!')} = {model[d]}")
        if len(parts) >= limit:
            break
    return ", ".join(parts)


#: A query's limit is Z3's resource count (``rlimit``), this many units per second of its nominal limit, not the
#: clock: whether a query is decided does not depend on the machine's speed or load. Z3 spends about 2,400 units
#: a millisecond of CPU time on the prover's queries (measured on the 2-core machine: docs/all-n.md, "Z3 and
#: quantifiers"), so a nominal second is about a second of an idle core.
RLIMIT_PER_S = 2_500_000
#: The clock limit, a multiple of the nominal one (and at least :data:`BACKSTOP_MIN_S`): a backstop only, where the
#: resource count grows slowly (a SAT-heavy query counts about eight times slower than the prover's). Ten times was
#: too tight on the 2-core machine at a load of 13 (a λ-rule try ran into it); an answer the backstop gave says so
#: and is not cached (it depends on the load).
BACKSTOP = 30
BACKSTOP_MIN_S = 30.0


def rlimit(timeout_s: float) -> int:
    """Z3's resource limit for a query of ``timeout_s`` nominal seconds (:data:`RLIMIT_PER_S`)."""
    return max(1, round(timeout_s * RLIMIT_PER_S))


def budget(s: z3.Solver, timeout_s: float) -> None:
    """Limit ``s`` by resources (:func:`rlimit`), the clock (:data:`BACKSTOP` times the nominal limit) a backstop."""
    s.set("rlimit", rlimit(timeout_s))
    s.set("timeout", int(1000 * max(timeout_s * BACKSTOP, BACKSTOP_MIN_S)))


#: The detail of an ``unknown`` the clock backstop gave, not the resource limit.
CLOCK_BACKSTOP = "Z3: the clock backstop ran out before the resource limit"

#: ``_solve``'s default: the query's key is computed from the query itself.
_OWN_KEY = b""


def _solve(hyps: Sequence[tuple[str, Any]], goal: Any, timeout_s: float, key: bytes | None = _OWN_KEY,
           how: str = "quantified") -> tuple[str, list[str], str, list[int]]:
    """``(status, names in the core, detail, positions in hyps of the core)``; asked before, from :data:`CACHE`.

    ``key``: the query's key (:meth:`~symcot.prove.alln.cache.QueryCache.key`) where the caller has it (default:
    from the query; ``None``: it has none, so it is solved). The answer is stored under the key with ``how`` (the
    try) and the resource limit: a query under another limit is another query.
    """
    base = CACHE.key(hyps, goal) if key == _OWN_KEY else key
    full = CACHE.derived(base, how, f"rlimit={rlimit(timeout_s)}")
    known = CACHE.get(full)
    if known is not None:
        return known.status, list(known.used), known.detail, list(known.core)
    out = _solve_now(hyps, goal, timeout_s)
    if not out[2].startswith(CLOCK_BACKSTOP):  # the load's answer, not the query's: asked again next time
        CACHE.put(full, Answer(out[0], tuple(out[1]), out[2], tuple(out[3]), timeout_s))
    return out


def _solve_now(hyps: Sequence[tuple[str, Any]], goal: Any, timeout_s: float) -> tuple[str, list[str], str, list[int]]:
    s = z3.Solver()
    budget(s, timeout_s)
    for k, (_, f) in enumerate(hyps):
        s.assert_and_track(f, f"trk!{k}")
    s.add(z3.Not(goal))
    t0 = time.perf_counter()
    r = s.check()
    if r == z3.unsat:
        core = sorted(int(str(c).removeprefix("trk!")) for c in s.unsat_core())
        used = sorted({hyps[k][0] for k in core})
        return "proved", used, "", core
    if r == z3.sat:
        return "failed", [], f"Z3 model: {_model_text(s.model())}", []
    if time.perf_counter() - t0 >= 0.95 * max(timeout_s * BACKSTOP, BACKSTOP_MIN_S):
        return "unknown", [], f"{CLOCK_BACKSTOP} ({s.reason_unknown()}){_resources(s)}", []
    return "unknown", [], f"Z3: {s.reason_unknown()}{_resources(s)}", []


def _resources(s: z3.Solver) -> str:
    """`` (rlimit N)``: Z3's resource count when it stopped (what ``rlimit`` would have to exceed); ``""``: none."""
    stats = s.statistics()
    return next((f" (rlimit {stats.get_key_value(k)})" for k in stats.keys() if k == "rlimit count"), "")


def unsat_core(hyps: Sequence[tuple[str, Any]], goal: Any, timeout_s: float) -> list[int] | None:
    """The positions in ``hyps`` of Z3's unsat core of ``hyps ∧ ¬goal`` (asked now, not cached); ``None``: not unsat.

    Under Z3's resource limit for ``timeout_s`` nominal seconds (:func:`budget`), like every query: it decides no
    obligation, but it chooses which instances the second solver reads, so its answer must not depend on the load.
    """
    status, _, _, core = _solve_now(hyps, goal, timeout_s)
    return core if status == "proved" else None


#: How a query's ground try is asked (:func:`~symcot.prove.alln.ground.ground`'s defaults): part of its key.
GROUND_TRY = "ground, rounds=2, no offsets"


def _kept(hyps: Sequence[tuple[str, Any]], goal: Any, core: list[int] | None, ground: bool,
          kinds: dict[str, tuple[tuple[str, ...], str]], hints: Sequence[Any]) -> Query:
    """The query to keep: the hypotheses of ``core`` (all of them when ``None``) and the goal."""
    chosen = hyps if core is None else [hyps[k] for k in core]
    return Query(tuple(chosen), goal, ground, core is not None, kinds, tuple(hints))


class EarlyStop(Exception):
    """Raised by a context that stops at its first obligation not proved (a mutant needs only that one)."""


class Context:
    """Hypotheses shared by the queries of one proof, and the log of obligations."""

    def __init__(self, facts: Sequence[tuple[str, Any]], timeout_s: float = DEFAULT_TIMEOUT_S):
        self.facts = list(facts)
        self.side: list[tuple[str, Any, Any]] = []
        self.log: list[Obligation] = []
        self.timeout_s = timeout_s
        self.stop_early = False
        self.ground = True
        #: Keep each proved obligation's goal and the hypotheses in its unsat core (to re-check it under other
        #: hypotheses, e.g. another bound on λ).
        self.keep_queries = False
        self.queries: dict[int, tuple[Any, list[tuple[str, Any]]]] = {}
        #: The vocabulary's symbol kinds (for ground instantiation).
        self.kinds: dict[str, tuple[tuple[str, ...], str]] = {}
        self._side_names: dict[str, int] = {}
        #: The query that decided the last :meth:`query` (its proof when it was proved).
        self.last_query: Query | None = None

    def add_side(self, name: str, formula: Any, about: Any) -> None:
        """A side fact about the constant ``about`` (a sum lemma's conclusion, guarded by its premise's hypotheses).

        A query includes the side facts of the constants that occur in it (and, transitively, in those facts).
        """
        k = self._side_names.get(name, 0)
        self._side_names[name] = k + 1
        self.side.append((f"{name}#{k}" if k else name, formula, about))

    def _relevant_side(self, terms: Sequence[Any]) -> list[tuple[str, Any]]:
        if not self.side:
            return []
        seen: set[int] = set()
        present = {e.get_id() for e in uninterpreted(terms, seen=seen) if e.num_args() == 0}
        out: list[tuple[str, Any]] = []
        changed = True
        chosen: set[int] = set()
        while changed:
            changed = False
            for k, (name, f, about) in enumerate(self.side):
                if k not in chosen and about.get_id() in present:
                    chosen.add(k)
                    out.append((name, f))
                    changed = True
                    present |= {e.get_id() for e in uninterpreted([f], seen=seen) if e.num_args() == 0}
        return out

    def query(self, goal: Any, local: Sequence[tuple[str, Any]] = (), facts: Sequence[tuple[str, Any]] | None = None,
              timeout_s: float | None = None, hints: Sequence[Any] = ()) -> tuple[str, list[str], str, float]:
        """Decide ``hypotheses ∧ local → goal``: ``(status, used facts, detail, seconds)``.

        Three tries, each only if the one before did not give ``unsat``: the quantified query briefly; the
        query with the hypotheses' ground instances (:mod:`symcot.prove.alln.ground`, only weaker); where the first
        was undecided, the quantified query under the limit less the first try's. The limits are resource counts
        (:func:`budget`), so the tries and their answers do not depend on the machine's load.
        """
        side = self._relevant_side([goal, *[f for _, f in local]])
        hyps = [*(self.facts if facts is None else facts), *side, *local]
        limit = timeout_s or self.timeout_s
        t0 = time.perf_counter()
        key = CACHE.key(hyps, goal, hints, self.kinds)
        r, used, detail, core = _solve(hyps, goal, min(limit, FIRST_TRY_S), key)
        if r != "proved" and self.ground:
            inst = ground(hyps, goal, self.kinds, hints=hints)
            if inst is not None:
                r2, used2, _, core2 = _solve(inst, goal, min(limit, GROUND_TIMEOUT_S), key, GROUND_TRY)
                if r2 == "proved":
                    self.last_query = _kept(inst, goal, core2, True, self.kinds, hints)
                    return r2, used2, "", time.perf_counter() - t0
        if r == "unknown" and limit > FIRST_TRY_S:
            r, used, detail, core = _solve(hyps, goal, limit - FIRST_TRY_S, key)
        self.last_query = _kept(hyps, goal, core if r == "proved" else None, False, self.kinds, hints)
        return r, used, detail, time.perf_counter() - t0

    @staticmethod
    def solve(hyps: Sequence[tuple[str, Any]], goal: Any, timeout_s: float) -> str:
        """Z3's answer on exactly ``hyps ∧ ¬goal`` (no facts, no ground try): ``proved``, ``failed`` or ``unknown``."""
        return _solve(hyps, goal, timeout_s)[0]

    def check(self, goal: Any, phase: str, where: str, statement: str, local: Sequence[tuple[str, Any]] = (),
              layer: int | None = None, method: str | None = None, record: bool = True,
              facts: Sequence[tuple[str, Any]] | None = None, hints: Sequence[Any] = (),
              timeout_s: float | None = None) -> Obligation:
        """Discharge one obligation and log it (unless ``record`` is false); ``hints``: see :func:`ground`."""
        status, used, detail, dt = self.query(goal, local, facts, timeout_s=timeout_s, hints=hints)
        how = "Z3: the negation is unsat under the hypotheses" if status == "proved" else "Z3"
        ob = Obligation(phase, where, statement, status, layer, method or how, used, dt, detail,
                        query=self.last_query)
        if self.keep_queries and status == "proved":
            side = self._relevant_side([goal, *[f for _, f in local]])
            named = {name: f for name, f in [*(self.facts if facts is None else facts), *side, *local]}
            self.queries[id(ob)] = (goal, [(u, named[u]) for u in used if u in named])
        if record:
            self.log.append(ob)
            if self.stop_early and not ob.ok:
                raise EarlyStop(ob.line())
        return ob

    def unsupported(self, phase: str, where: str, statement: str, why: str, layer: int | None = None) -> Obligation:
        """Log an obligation that could not be stated."""
        ob = Obligation(phase, where, statement, "unsupported", layer, "not stated", [], 0.0, why)
        self.log.append(ob)
        if self.stop_early:
            raise EarlyStop(ob.line())
        return ob

    def first_failure(self) -> Obligation | None:
        """The first obligation that is not proved."""
        return next((o for o in self.log if not o.ok), None)
