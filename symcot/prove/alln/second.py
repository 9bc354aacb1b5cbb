r"""A second solver (cvc5) re-proves each obligation Z3 proved, from the SMT-LIB 2 text of the query that proved it.

Every proved obligation keeps the query Z3 answered ``unsat`` (:class:`~symcot.prove.alln.context.Query`: the
hypotheses of Z3's unsat core, ground instances where the ground try succeeded, and the negated goal, with the
kinds and hints the prover instantiated at). :func:`recheck` hands its standalone SMT-LIB 2 text
(:mod:`symcot.prove.alln.smt2`) to cvc5 through its Python API (``InputParser`` on the string, ``checkSat`` under
a resource limit, ``rlimit-per``: :func:`cvc5_rlimit`) in the tries of :data:`TRIES`: enumerative instantiation
on the query, briefly; when that is
undecided, the text of the ground instances of its hypotheses (:mod:`symcot.prove.alln.ground`: weaker hypotheses,
so ``unsat`` of it proves the obligation as well; the text is kept for ``--smt2``), then those of more rounds and at
offsets; then E-matching on the query, briefly. A ground text of many instances is first narrowed to those of Z3's
unsat core over single instances (:func:`narrowed`: fewer hypotheses, so again a proof; Z3 only chooses what cvc5
reads), and read whole where cvc5 does not decide the narrowed one briefly. An obligation that every try left open
is tried once more at the end, each brief limit :data:`PATIENT` times longer. Every limit is a count of cvc5's
resource units (:data:`UNITS_PER_S` per nominal second), the clock only a backstop, so the answers do not depend
on the machine's speed or load; an answer the backstop gave says so and is never shared. It
records cvc5's answer on the obligation (``Obligation.second``). An obligation whose query is one answered before
in this process (or, in a pooled run, by another worker: :func:`share`), asked under the same limits, takes that
answer: the key is the query's canonical serialisation as the prover built it
(:meth:`~symcot.prove.alln.cache.QueryCache.key`: equal only up to a consistent renaming of fresh constants), never
a text, and a ground text written for it is made again from its own query. The statuses:

* ``proved`` -- cvc5 answered ``unsat`` too: the obligation is closed by both solvers;
* ``unknown`` -- cvc5 gave up (its time limit, or incompleteness with quantifiers or non-linear terms);
* ``sat`` -- cvc5 found a model of a query Z3 called unsat: one of the two solvers is wrong, and the row is
  an ``error`` (:func:`agreement`);
* ``error`` -- cvc5 rejected the text or failed.

cvc5 is optional (the ``smt`` extra): without it nothing is re-checked and the row says
``proved (Z3; cvc5 not installed)``, never two solvers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from symcot.prove.alln.cache import CACHE
from symcot.prove.alln.context import BACKSTOP, BACKSTOP_MIN_S, Obligation, Query, unsat_core
from symcot.prove.alln.ground import ground
from symcot.prove.alln.smt2 import ground_file_name, obligation_text, text, write_obligations

#: Seconds of cvc5's try on the ground instances of an obligation (the quantified tries have :data:`QUICK_S`). The
#: largest ground texts (hundreds of kilobytes, an induction step over a long run) take cvc5 up to about 10 s.
DEFAULT_TIMEOUT_S = 20.0
#: Seconds of each try on the quantified query. Where cvc5 closes a prover obligation's query it does so within a
#: second (the longest measured in docs/all-n.md: 0.74 s); an obligation it cannot close there
#: runs to the limit, and the ground instances decide those in a fraction of a second.
QUICK_S = 3.0
#: The patient pass: an obligation every try left open is tried once more with each quick limit (and the
#: narrowing's) this many times longer; the pass costs only where the first left something open.
PATIENT = 4.0
#: cvc5's resource units per nominal second of a limit. On the prover's obligations cvc5 spends 110,000 to 600,000
#: units a second of CPU time on the 2-core machine (the long queries 110,000 to 250,000); a nominal second is
#: about a second of an idle core on the heavy queries, less on the light ones (which end long before).
UNITS_PER_S = 250_000


def cvc5_rlimit(timeout_s: float) -> int:
    """cvc5's resource limit (``rlimit-per``) for a try of ``timeout_s`` nominal seconds (:data:`UNITS_PER_S`)."""
    return max(1, round(timeout_s * UNITS_PER_S))


#: The detail of an ``unknown`` the clock backstop gave, not the resource limit (never shared: it depends on load).
CVC5_BACKSTOP = "cvc5: the clock backstop ran out before the resource limit"


@dataclass(frozen=True)
class Try:
    """One cvc5 try on an obligation: its options, on which text, and its time limit."""

    name: str
    options: dict[str, str]
    #: On the text of the ground instances of the hypotheses (else on the query as Z3 proved it).
    ground: bool
    #: Under ``min(QUICK_S, timeout_s)`` (else under ``timeout_s``).
    quick: bool
    #: Rounds of instantiation of a ground try (:func:`~symcot.prove.alln.ground.ground`).
    rounds: int = 2
    #: A ground try's instances also at the offsets (``∀τ: cur(τ + 1) = …`` at ``τ = t`` for ``cur(t + 1)``).
    offsets: bool = False

    def limit(self, timeout_s: float, patient: bool = False) -> float:
        """The try's time limit in seconds when the full one is ``timeout_s`` (quick ones longer when ``patient``)."""
        return min(_quick(patient), timeout_s) if self.quick else timeout_s


def _quick(patient: bool) -> float:
    """The quick limit, :data:`PATIENT` times longer in the patient pass."""
    return QUICK_S * PATIENT if patient else QUICK_S


#: cvc5's tries on one obligation, in order, until one answers other than ``unknown``: enumerative instantiation
#: (every quantifier also at the ground terms; it closes the obligations whose quantifiers no ground term triggers,
#: where E-matching alone gives up or runs to its limit); the ground instances of the hypotheses, taken as the
#: prover takes them (weaker: ``unsat`` proves the obligation, ``sat`` does not refute it); those of four rounds and
#: at the offsets (a chain of facts, each instance's terms instantiating the next, and a fact of ``τ + 1`` read at
#: ``τ``: larger texts, so only where the first left the obligation open); then cvc5's defaults (E-matching).
TRIES: tuple[Try, ...] = (Try("enumerative instantiation", {"enum-inst": "true"}, ground=False, quick=True),
                          Try("the ground instances", {}, ground=True, quick=False),
                          Try("the ground instances, four rounds and offsets", {}, ground=True, quick=False, rounds=4,
                              offsets=True),
                          Try("E-matching", {}, ground=False, quick=True))
#: Options of every try: a name bound by a quantifier may also be a constant of the query (Z3's ``N`` of the sum
#: lemmas); SMT-LIB scopes it, and with fresh binders cvc5 does so without a warning on stderr.
BASE_OPTIONS = {"fresh-binders": "true"}
#: Ground hypotheses of more conjuncts than this are narrowed to Z3's core over single conjuncts (:func:`narrowed`).
NARROW_MIN = 40
#: Nominal seconds (Z3's resource count) of the query that narrows them: about a second of the prover's queries; a
#: SAT-heavy one counts resources about ten times slower (a pigeonhole of 13: about 250 units a millisecond).
NARROW_S = 1.0
#: Most obligations a row names in its notes (``details["second_solver"]`` has them all).
NAMED = 5


def load_cvc5() -> Any | None:
    """The ``cvc5`` module, or ``None`` when it is not installed."""
    try:
        import cvc5
    except ImportError:
        return None
    return cvc5


def _check_once(cvc5: Any, text: str, timeout_s: float, options: dict[str, str], name: str) -> tuple[str, str]:
    try:
        tm = cvc5.TermManager()
        slv = cvc5.Solver(tm)
        slv.setOption("rlimit-per", str(cvc5_rlimit(timeout_s)))
        slv.setOption("tlimit-per", str(int(1000 * max(timeout_s * BACKSTOP, BACKSTOP_MIN_S))))
        for key, value in {**BASE_OPTIONS, **options}.items():
            slv.setOption(key, value)
        sm = cvc5.SymbolManager(tm)
        parser = cvc5.InputParser(slv, sm)
        parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, name)
        result = None
        t0 = time.perf_counter()
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            if cmd.getCommandName() == "check-sat":
                result = slv.checkSat()
            else:
                cmd.invoke(slv, sm)
    except Exception as e:  # noqa: BLE001 - cvc5 raises RuntimeError (and others) on input it rejects
        return "error", f"cvc5: {str(e).strip()[:300]}"
    if result is None:
        return "error", "cvc5: the text has no (check-sat)"
    if result.isUnsat():
        return "proved", ""
    if result.isSat():
        return "sat", "cvc5: sat (a model of the hypotheses and the negated goal)"
    if time.perf_counter() - t0 >= 0.95 * max(timeout_s * BACKSTOP, BACKSTOP_MIN_S):
        return "unknown", f"{CVC5_BACKSTOP} ({result.getUnknownExplanation()})"
    return "unknown", f"cvc5: unknown ({result.getUnknownExplanation()})"


def check_text(cvc5: Any, text: str, timeout_s: float, name: str = "obligation") -> tuple[str, str]:
    """cvc5's answer on an SMT-LIB 2 text: ``(status, detail)``; ``proved`` (unsat), ``sat``, ``unknown`` or ``error``.

    The options of the quantified tries of :data:`TRIES` in order, each under ``timeout_s``, until one answers other
    than ``unknown``.
    """
    status, detail = "unknown", ""
    for t in TRIES:
        if t.ground:
            continue
        status, detail = _check_once(cvc5, text, timeout_s, t.options, name)
        if status != "unknown":
            return status, detail
    return status, detail


class GroundTexts(Mapping[int, str]):
    """Ground-instance texts per obligation index, read as a mapping.

    Those cvc5 was given, and those of obligations whose answer was shared from an identical query, each made from
    the obligation's own query when it is first read.
    """

    def __init__(self) -> None:
        self._texts: dict[int, str] = {}
        self._later: dict[int, Callable[[], str | None]] = {}

    def add(self, k: int, text: str) -> None:
        """The text cvc5 closed obligation ``k`` on."""
        self._texts[k] = text
        self._later.pop(k, None)

    def later(self, k: int, make: Callable[[], str | None]) -> None:
        """Obligation ``k``'s text, made by ``make`` from its own query when read."""
        self._texts.pop(k, None)
        self._later[k] = make

    def _resolve(self) -> None:
        for k, make in list(self._later.items()):
            got = make()
            if got is not None:
                self._texts[k] = got
        self._later.clear()

    def __getitem__(self, k: int) -> str:
        self._resolve()
        return self._texts[k]

    def __iter__(self) -> Iterator[int]:
        self._resolve()
        return iter(sorted(self._texts))

    def __len__(self) -> int:
        self._resolve()
        return len(self._texts)


@dataclass
class Recheck:
    """What the second solver did on one row's obligations."""

    installed: bool
    seconds: float = 0.0
    #: cvc5's detail per obligation index where it did not answer ``unsat`` on the query as Z3 proved it.
    details: dict[int, str] = field(default_factory=dict)
    #: The SMT-LIB 2 text of the ground instances, per obligation index that cvc5 closed only in that form.
    ground_texts: GroundTexts = field(default_factory=lambda: GroundTexts())


def _conjuncts(hyps: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Each hypothesis split into its conjuncts (nested ``∧`` too), each under its hypothesis' name, in order."""
    out = []
    for name, f in hyps:
        todo = [f]
        while todo:
            e = todo.pop()
            if z3.is_and(e):
                todo.extend(reversed(e.children()))
            else:
                out.append((name, e))
    return out


def narrowed(q: Query, patient: bool = False) -> Query | None:
    """The ground query ``q`` restricted to the conjuncts of its hypotheses in Z3's unsat core over single conjuncts.

    A ground try's hypotheses are conjunctions of instances, and Z3's core keeps or drops each whole: the text may
    be hundreds of kilobytes where a few dozen instances decide it. A subset of the hypotheses is weaker, so
    ``unsat`` of the narrowed query proves the obligation as well; Z3 only chooses which instances cvc5 reads.
    ``None`` where the hypotheses have at most :data:`NARROW_MIN` conjuncts or Z3 does not answer ``unsat`` within
    :data:`NARROW_S` nominal seconds (:data:`PATIENT` times that when ``patient``).
    """
    parts = _conjuncts(q.hyps)
    if len(parts) <= NARROW_MIN:
        return None
    core = unsat_core(parts, q.goal, NARROW_S * PATIENT if patient else NARROW_S)
    if core is None:
        return None
    return Query(tuple(parts[k] for k in core), q.goal, True, True, q.kinds, q.hints)


def _title(ob: Obligation, what: str) -> str:
    at = f"layer {ob.layer} " if ob.layer is not None else ""
    return f"{ob.phase}: {at}{ob.where}: {ob.statement}\n{what} (weaker: unsat proves the obligation)"


def _ground_texts(ob: Obligation, rounds: int = 2, offsets: bool = False,
                  patient: bool = False) -> list[tuple[str, bool]]:
    """Texts of ``ob``'s query with its quantified hypotheses replaced by their ground instances.

    Each with whether it is tried under the quick limit: the instances of Z3's core over single ones
    (:func:`narrowed`) where there is one, briefly (cvc5 may need an instance Z3 did without), then all of them.
    None for a query without a quantifier.
    """
    q = ob.query
    if q is None or q.ground:
        return []
    inst = ground(list(q.hyps), q.goal, q.kinds, rounds, q.hints, offsets)
    if inst is None:
        return []
    return _narrowed_then_full(ob, Query(tuple(inst), q.goal, True, q.core, q.kinds, q.hints), None, patient)


def _narrowed_then_full(ob: Obligation, full: Query, body: str | None,
                        patient: bool = False) -> list[tuple[str, bool]]:
    """The texts of the ground query ``full``: narrowed (quick) where it can be, then whole (``body`` if given)."""
    what = "the ground instances of the hypotheses Z3 used"
    out = []
    fine = narrowed(full, patient)
    if fine is not None:
        out.append((text(fine, _title(ob, what + ", those of Z3's core over single instances"), ob.status), True))
    out.append((body if body is not None else text(full, _title(ob, what), ob.status), False))
    return out


@dataclass(frozen=True)
class _Answer:
    status: str
    detail: str
    #: Which text cvc5 closed where it was not the query's own: ``("query",)`` the narrowed ground query,
    #: ``("ground", rounds, offsets, narrowed)`` the ground instances of the quantified query (:func:`_ground_texts`).
    ground: tuple[Any, ...] | None
    timeout_s: float
    #: Given by the patient pass (:data:`PATIENT`).
    patient: bool = False


#: cvc5's answers in this process, by the key of the obligation's query (:func:`_key`): rows over one vocabulary
#: re-prove the same fact obligations, and an obligation cvc5 cannot close costs its whole time limit each time.
_ANSWERS: dict[bytes, _Answer] = {}


#: The answers other processes share (the workers of a pooled run; :func:`share`), or ``None``.
_SHARED: MutableMapping[bytes, _Answer] | None = None


def share(store: MutableMapping[bytes, Any] | None) -> None:
    """Also look cvc5's answers up in, and store them to, ``store``, which other processes read and write too."""
    global _SHARED
    _SHARED = store


def _key(q: Query, timeout_s: float, patient: bool) -> bytes | None:
    """The key of cvc5's answer on the query ``q`` under these limits; ``None``: it has none (never shared).

    The canonical serialisation of the query as the prover kept it (:meth:`~symcot.prove.alln.cache.QueryCache.key`:
    hypotheses with their names, goal, hints, kinds; equal only up to a consistent renaming of fresh constants),
    whether it is ground, and the limits: an answer is shared only with the same query asked the same way.
    """
    return CACHE.derived(CACHE.key(q.hyps, q.goal, q.hints, q.kinds), "cvc5", f"ground={q.ground}",
                         f"limit={timeout_s!r}", f"patient={patient}")


def _ground_again(ob: Obligation, how: tuple[Any, ...], patient: bool) -> str | None:
    """The text of ``ob``'s own query that an answer shared from an identical query was given on (``how``)."""
    q = ob.query
    if q is None:
        return None
    if how[0] == "query":
        texts = _narrowed_then_full(ob, q, None, patient)[:-1]
    else:
        _, rounds, offsets, brief = how
        texts = [t for t in _ground_texts(ob, rounds, offsets, patient) if t[1] == brief]
    return texts[0][0] if texts else None


def _recheck_one(mod: Any, ob: Obligation, k: int, timeout_s: float, out: Recheck, patient: bool = False) -> None:
    body = obligation_text(ob)
    if body is None or ob.query is None:  # proved without a kept query: nothing to hand over
        ob.second = "error"
        out.details[k] = "no query was kept for this obligation"
        return
    key = _key(ob.query, timeout_s, patient)
    known = None if key is None else _ANSWERS.get(key)
    if known is None and key is not None and _SHARED is not None:
        known = _SHARED.get(key)
    if known is None:
        t0 = time.perf_counter()
        known, text_ = _tries(mod, ob, body, k, timeout_s, patient)
        ob.second_seconds += time.perf_counter() - t0
        if text_ is not None:
            out.ground_texts.add(k, text_)
        if key is not None and not known.detail.startswith(CVC5_BACKSTOP):
            _ANSWERS[key] = known
            if _SHARED is not None:
                _SHARED[key] = known
    elif known.ground is not None:
        how = known.ground
        out.ground_texts.later(k, lambda: _ground_again(ob, how, patient))
    ob.second = known.status
    if known.detail:
        out.details[k] = known.detail


def _tries(mod: Any, ob: Obligation, body: str, k: int, timeout_s: float,
           patient: bool = False) -> tuple[_Answer, str | None]:
    """cvc5's answer on one obligation: the tries of :data:`TRIES` in order, until one answers other than unknown.

    A query Z3 proved from ground instances has no quantifier: its narrowed text briefly, then the query under the
    full limit (the texts are large; cvc5 takes seconds on some). ``patient``: only the brief tries again, their
    limits :data:`PATIENT` times longer (a try under the full limit is not repeated).
    """
    quick = _quick(patient)
    if ob.query is not None and ob.query.ground:
        *first, _ = _narrowed_then_full(ob, ob.query, body, patient)
        for alt, _quick_try in first:
            if _check_once(mod, alt, min(quick, timeout_s), {}, f"obligation {k}, narrowed")[0] == "proved":
                return _Answer("proved", "cvc5: unsat on the ground instances of Z3's core over single instances",
                               ("query",), timeout_s, patient), alt
        if patient:
            return _Answer("unknown", "", None, timeout_s, patient), None
        status, detail = _check_once(mod, body, timeout_s, {}, f"obligation {k}")
        return _Answer(status, detail, None, timeout_s, patient), None
    quantified = ""
    tried: set[str] = set()
    for t in TRIES:
        if not t.ground:
            status, detail = _check_once(mod, body, t.limit(timeout_s, patient), t.options, f"obligation {k}")
            if status != "unknown":
                return _Answer(status, detail, None, timeout_s, patient), None
            quantified = quantified or detail
            continue
        for alt, brief in _ground_texts(ob, t.rounds, t.offsets, patient):
            if alt in tried or (patient and not brief):  # the same text again, or one the full limit had
                continue
            tried.add(alt)
            limit = min(quick, t.limit(timeout_s, patient)) if brief else t.limit(timeout_s, patient)
            if _check_once(mod, alt, limit, t.options, f"obligation {k}, ground")[0] == "proved":
                return _Answer("proved", "cvc5: unsat on the ground instances of the hypotheses (the quantified "
                               f"query: {quantified.removeprefix('cvc5: ')})", ("ground", t.rounds, t.offsets, brief),
                               timeout_s, patient), alt
    return _Answer("unknown", quantified, None, timeout_s, patient), None


def recheck(obligations: Sequence[Obligation], timeout_s: float = DEFAULT_TIMEOUT_S,
            cvc5: Any | None = None) -> Recheck:
    """Re-check every proved obligation with cvc5, setting its ``second`` status (see the module docstring).

    ``cvc5``: the module (default: imported here; when it is missing nothing is re-checked).
    """
    mod = cvc5 if cvc5 is not None else load_cvc5()
    out = Recheck(mod is not None)
    if mod is None:
        return out
    t0 = time.perf_counter()
    for k, ob in enumerate(obligations):
        if ob.ok:
            _recheck_one(mod, ob, k, timeout_s, out)
    for k, ob in enumerate(obligations):  # the patient pass, on what every try left open
        if ob.ok and ob.second == "unknown":
            before = out.details.get(k, "")
            _recheck_one(mod, ob, k, timeout_s, out, patient=True)
            if ob.second == "unknown" and before:
                out.details[k] = f"{before}; unknown again with {PATIENT:g} times the brief limits"
    out.seconds = time.perf_counter() - t0
    return out


@dataclass(frozen=True)
class Agreement:
    """The row status from both solvers' answers on its proved obligations.

    Attributes:
        status: ``proved`` (every proved obligation stands) or ``error`` (cvc5 found a model of a query Z3 called
            unsat).
        text: ``proved (Z3, cvc5)``, ``proved (Z3; cvc5 closed k of N)``, ``proved (Z3; cvc5 not installed)``,
            ``proved (Z3; second solver not run)`` or, for an error, ``cvc5 answered sat on k of N …``.
        closed: proved obligations cvc5 closed.
        total: proved obligations.
        z3_only: indices of the proved obligations only Z3 closed.
        disputed: indices of the obligations cvc5 answered ``sat`` on.

    """

    status: str
    text: str
    closed: int = 0
    total: int = 0
    z3_only: tuple[int, ...] = ()
    disputed: tuple[int, ...] = ()

    def notes(self, obligations: Sequence[Obligation]) -> list[str]:
        """Lines for the row's notes: the obligations only Z3 closed, or the disputed ones."""
        if self.disputed:
            return [f"cvc5 answered sat where Z3 answered unsat, on {_names(obligations, self.disputed)}: one "
                    "solver is wrong, so the proof is not taken"]
        if self.z3_only:
            return [f"closed by Z3 only ({len(self.z3_only)} of {self.total}): {_names(obligations, self.z3_only)}"]
        return []

    def as_dict(self, obligations: Sequence[Obligation], rc: Recheck | None) -> dict[str, Any]:
        """JSON form (``details["second_solver"]``)."""
        out: dict[str, Any] = {"solver": "cvc5", "status": self.status, "text": self.text, "closed": self.closed,
                               "total": self.total, "z3_only": [_name(obligations, k) for k in self.z3_only],
                               "disputed": [_name(obligations, k) for k in self.disputed]}
        if rc is not None:
            out["installed"] = rc.installed
            out["seconds"] = round(rc.seconds, 3)
            out["cvc5_details"] = {_name(obligations, k): d for k, d in rc.details.items()}
        return out


def _name(obligations: Sequence[Obligation], k: int) -> str:
    ob = obligations[k]
    at = f"layer {ob.layer} " if ob.layer is not None else ""
    return f"#{k} {ob.phase}: {at}{ob.where}"


def _names(obligations: Sequence[Obligation], ks: Sequence[int]) -> str:
    shown = "; ".join(_name(obligations, k) for k in ks[:NAMED])
    return shown + (f"; … ({len(ks) - NAMED} more in details)" if len(ks) > NAMED else "")


def agreement(obligations: Sequence[Obligation], installed: bool = True, ran: bool = True) -> Agreement:
    """The row status from each proved obligation's Z3 status and second-solver status (``Obligation.second``)."""
    proved = [k for k, ob in enumerate(obligations) if ob.ok]
    total = len(proved)
    if not ran:
        return Agreement("proved", "proved (Z3; second solver not run)", 0, total, tuple(proved))
    if not installed:
        return Agreement("proved", "proved (Z3; cvc5 not installed)", 0, total, tuple(proved))
    disputed = tuple(k for k in proved if obligations[k].second == "sat")
    closed = sum(obligations[k].second == "proved" for k in proved)
    z3_only = tuple(k for k in proved if obligations[k].second != "proved")
    if disputed:
        return Agreement("error", f"cvc5 answered sat on {len(disputed)} of {total} obligations Z3 proved",
                         closed, total, z3_only, disputed)
    if closed == total:
        return Agreement("proved", "proved (Z3, cvc5)", closed, total)
    return Agreement("proved", f"proved (Z3; cvc5 closed {closed} of {total})", closed, total, z3_only)


@dataclass
class SecondOpinion:
    """What the second solver and the SMT-LIB 2 files add to one all-n row."""

    agreement: Agreement
    recheck: Recheck | None = None
    #: Per obligation index, the ``.smt2`` file written for it (and its ground-instance form, if cvc5 needed it).
    files: dict[int, str] = field(default_factory=dict)
    ground_files: dict[int, str] = field(default_factory=dict)

    def obligation_dicts(self, obligations: Sequence[Obligation]) -> list[dict[str, Any]]:
        """The obligations' JSON forms, each with its file names where files were written."""
        out = []
        for k, ob in enumerate(obligations):
            d = ob.as_dict()
            if k in self.files:
                d["smt2"] = self.files[k]
            if k in self.ground_files:
                d["smt2_ground"] = self.ground_files[k]
            out.append(d)
        return out

    def details(self, obligations: Sequence[Obligation]) -> dict[str, Any]:
        """``details["second_solver"]``."""
        return self.agreement.as_dict(obligations, self.recheck)


def second_opinion(claim_id: str, variant: str, obligations: Sequence[Obligation], proved: bool, run: bool = True,
                   timeout_s: float = DEFAULT_TIMEOUT_S, smt2_dir: str | None = None,
                   cvc5: Any | None = None) -> SecondOpinion:
    """Re-check a row's obligations with cvc5 when the row is ``proved`` and ``run``; write them to ``smt2_dir``.

    The files are written whatever the row's verdict (an obligation Z3 did not prove is written with the
    hypotheses it was tried under); an index of a whole run is :func:`symcot.prove.alln.smt2.write_index`.
    """
    rc = None
    if proved and run:
        rc = recheck(obligations, timeout_s, cvc5)
        agree = agreement(obligations, rc.installed)
    else:
        agree = agreement(obligations, ran=False)
    out = SecondOpinion(agree, rc)
    if smt2_dir:
        out.files = write_obligations(smt2_dir, claim_id, variant, obligations, dict(rc.ground_texts) if rc else None)
        out.ground_files = {k: ground_file_name(out.files[k]) for k in (rc.ground_texts if rc else {})
                            if k in out.files}
    return out
