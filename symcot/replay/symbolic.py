r"""Symbolic replay: λ and edge weights as symbols, every order decision settled by Z3.

The decoder is run by the Section-3 rules of :mod:`symcot.model.semantics` (``Context.push``), with
token coordinates that are *polynomials* in the symbols -- ``λ`` (:data:`LAMBDA`) and, for a weighted claim,
one symbol per arc weight -- with exact rational coefficients (:class:`Poly`, in
:mod:`symcot.replay.symbolic_poly`). The two decisions the rules leave to a
:class:`~symcot.model.semantics.Semantics` object are replaced:

* ``ReLU(v)`` with ``v`` symbolic is ``v`` where the current *path condition* (the domain constraints
  plus every decision taken so far) implies ``v ≥ 0``, ``0`` where it implies ``v ≤ 0``; only when both
  ``v > 0`` and ``v < 0`` are possible does the replay fork, into ``v > 0`` and ``v ≤ 0``;
* unique hard attention with symbolic scores asks, for each candidate position ``j``, whether
  ``a_j > a_i`` for every ``i < j`` and ``a_j ≥ a_i`` for every ``i > j`` (``j`` is then the smallest
  index attaining the maximum, rule 1) is satisfiable.

When only one outcome is possible the replay goes on; when several are, it *forks* (symbolic
execution): each outcome becomes a branch whose path condition records it. A branch is never merged
back. Every symbol is positive on the domain (``λ > 0``, weights ``> 0``), so a polynomial whose
coefficients all share one sign is decided without Z3 (:meth:`PathSolver.implied
<symcot.replay.symbolic_solver.PathSolver.implied>`); a fact learned on a path (an atom of the path condition,
or a Z3 answer) is reused on that path and below it. The path solver is :mod:`symcot.replay.symbolic_solver`.

How forking works without copying the interpreter (:class:`Explorer`): a *unit* of work (one
``Context.push`` of a token, one step of a symbolic reference) is deterministic given the outcomes of
its decisions. A :class:`Decider` logs the outcome of each decision; at an undecided one it raises
:class:`Fork` with the log so far and the feasible outcomes. The explorer then re-runs the unit once
per outcome with the log forced, after truncating the causal context to where the unit began (a
``Context`` only ever appends, so truncation restores it exactly). Z3 is asked nothing twice: forced
outcomes are replayed from the log.

Exact arithmetic only: ``int``, :class:`fractions.Fraction` and :class:`Poly` over them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from symcot.errors import SymcotError
from symcot.model.decoder import ConcreteDecoder
from symcot.model.semantics import Context, HeadChoice, Semantics
from symcot.replay.symbolic_poly import (
    LAMBDA,
    Atom,
    Mono,
    Number,
    Poly,
    SolverUnknown,
    UndecidedComparison,
    Value,
    evaluate,
    from_sympy,
    ge,
    gt,
    is_symbolic,
    rational_model,
    symbolic_decoder,
    z3_formula,
    z3_term,
)
from symcot.replay.symbolic_solver import PathSolver, SolverStats

__all__ = ["LAMBDA", "Atom", "BadPiece", "Decider", "Exploration", "Explorer", "Fork", "Instance", "Mono",
           "Number", "PathSolver", "Poly", "SolverStats", "SolverUnknown", "SymbolicSemantics",
           "UndecidedComparison", "Value", "evaluate", "from_sympy", "ge", "gt", "is_symbolic", "rational_model",
           "symbolic_decoder", "z3_formula", "z3_term"]


# -- decisions: logging, forcing, forking --------------------------------------------------------------


class Fork(Exception):  # noqa: N818 - control flow, not an error
    """An undecided decision: ``options`` are the feasible ``(outcome, atoms)``; ``log`` the outcomes so far."""

    def __init__(self, log: list[Any], options: list[tuple[Any, list[Atom]]]):
        super().__init__(f"fork after {len(log)} decisions into {len(options)} branches")
        self.log = log
        self.options = options


class Decider:
    """Decides each decision of a unit under the path condition, replaying forced outcomes first."""

    def __init__(self, ps: PathSolver):
        self.ps = ps
        self.forced: list[Any] = []
        self.log: list[Any] = []

    def start(self, forced: Sequence[Any] = ()) -> None:
        """Begin (or re-run) a unit with the outcomes ``forced`` for its first decisions."""
        self.forced = list(forced)
        self.log = []

    def _replay(self) -> tuple[bool, Any]:
        if len(self.log) < len(self.forced):
            o = self.forced[len(self.log)]
            self.log.append(o)
            return True, o
        return False, None

    def holds(self, a: Atom) -> bool:
        """Whether ``a`` holds on this branch (forks when the path condition allows both)."""
        done, o = self._replay()
        if done:
            return bool(o)
        r = self.ps.decide(a)
        if r is None:
            neg = a.negate()
            if len(neg) != 1:
                raise SymcotError("a decision on an equality atom cannot fork into one conjunction")
            raise Fork(list(self.log), [(True, [a]), (False, neg[0])])
        self.log.append(r)
        return r

    def relu_positive(self, v: Poly) -> bool:
        """Whether ``ReLU(v) = v`` on this branch: ``True`` where ``v ≥ 0``, ``False`` where ``v ≤ 0``; else fork."""
        done, o = self._replay()
        if done:
            return bool(o)
        pos, neg = Atom(v, ">"), Atom(-v, ">")
        r: bool | None = None
        if self.ps.implied(Atom(v, ">=")) is True:
            r = True
        elif self.ps.implied(Atom(-v, ">=")) is True:
            r = False
        if r is not None:
            self.ps.stats.fast += 1
        elif not self.ps.sat([neg]):
            self.ps._learn(neg, False)
            r = True
        elif not self.ps.sat([pos]):
            self.ps._learn(pos, False)
            r = False
        else:
            raise Fork(list(self.log), [(True, [pos]), (False, [Atom(-v, ">=")])])
        self.log.append(r)
        return r

    def choose(self, options: Sequence[tuple[Any, Sequence[Atom]]]) -> Any:
        """The outcome among ``options`` (exhaustive, mutually exclusive) that holds on this branch."""
        done, o = self._replay()
        if done:
            return o
        feasible: list[tuple[Any, list[Atom]]] = []
        open_: list[tuple[Any, list[Atom]]] = []
        for outcome, atoms in options:
            rest = self._undecided(atoms)
            if rest is None:  # refuted by the path
                self.ps.stats.fast += 1
                continue
            if not rest:  # implied by the path: the only possible outcome
                self.ps.stats.fast += 1
                self.log.append(outcome)
                return outcome
            open_.append((outcome, rest))
        for k, (outcome, rest) in enumerate(open_):
            if k == len(open_) - 1 and not feasible:
                feasible.append((outcome, rest))  # exhaustive: the last open outcome must be possible
                break
            if self.ps.sat(rest):
                feasible.append((outcome, rest))
        if not feasible:
            raise SymcotError("no outcome of a decision is possible: the path condition is inconsistent")
        if len(feasible) == 1:
            self.log.append(feasible[0][0])
            return feasible[0][0]
        raise Fork(list(self.log), feasible)

    def _undecided(self, atoms: Sequence[Atom]) -> list[Atom] | None:
        """The atoms the path condition leaves open; ``None`` when it refutes one of them."""
        rest: list[Atom] = []
        for a in atoms:
            r = self.ps.implied(a)
            if r is False:
                return None
            if r is None:
                rest.append(a)
        return rest

    def less(self, a: Any, b: Any) -> bool:
        """``a < b`` for finite exact or symbolic values."""
        return self.holds(gt(b, a))


class SymbolicSemantics(Semantics):
    """ReLU and unique hard attention decided by a :class:`Decider` (forking when undecided)."""

    def __init__(self, decider: Decider):
        self.decider = decider

    def relu(self, v: Any) -> Any:
        """``max(0, v)``; for a polynomial, ``v`` where ``v ≥ 0`` and ``0`` where ``v ≤ 0``.

        Only when the path condition allows both ``v > 0`` and ``v < 0`` does the replay fork (into
        ``v > 0`` and ``v ≤ 0``): where ``v = 0`` is the only other possibility, both formulas agree.
        """
        if not isinstance(v, Poly):
            return v if v > 0 else 0
        return v if self.decider.relu_positive(v) else 0

    def select(self, head: str, scores: Sequence[Any]) -> HeadChoice:
        """Rule 1 with symbolic scores: the smallest index among the maximal scores, on each branch."""
        if not any(isinstance(s, Poly) for s in scores):
            return super().select(head, scores)
        first: dict[Any, int] = {}
        for i, s in enumerate(scores):
            first.setdefault(s.key if isinstance(s, Poly) else ("const", s), i)
        cands = sorted(first.values())
        options = []
        for j in cands:
            atoms = [gt(scores[j], scores[i]) if i < j else ge(scores[j], scores[i]) for i in cands if i != j]
            options.append((j, atoms))
        j0 = self.decider.choose(options)
        win = scores[j0].key if isinstance(scores[j0], Poly) else ("const", scores[j0])
        tied = [i for i, s in enumerate(scores) if (s.key if isinstance(s, Poly) else ("const", s)) == win]
        return HeadChoice(head, j0, scores[j0], None, None, len(tied) > 1, tied)


# -- the explorer -----------------------------------------------------------------------------------------


@dataclass
class Instance:
    """One input topology, ready for symbolic replay.

    Attributes:
        inp: the input as the target's families give it (numeric topology).
        decoder: the decoder with :class:`Poly` coefficients.
        tokens: the prompt ``[…, y_0]`` with symbolic coordinates.
        labels: token names.
        variables: the symbols, ``λ`` first.
        domain: atoms every point of the domain satisfies (every symbol ``> 0`` among them).
        steps: ``T``, the number of CoT steps the reference takes.
        ref_initial: the reference state ``s_0``.
        ref_step: ``ref_step(s_t, t, decider) -> s_{t+1}``; decides its comparisons with ``decider``.
        expected: ``expected(s_t, t)``: ``{block: values}`` (or ``(block, values)`` pairs) that ``y_t``
            must carry (symbolic).
        terminal: the construction's stop rule on ``y_t`` (``None``: the run has exactly ``T`` steps).
        final: a whole-run check ``final(outputs, y_0)`` on the branch's tokens ``y_1 … y_T`` (the last one
            with every coordinate the path condition fixes settled to its number); a message when it fails.

    """

    inp: Any
    decoder: ConcreteDecoder
    tokens: list[list[Any]]
    labels: list[str]
    variables: list[str]
    domain: list[Atom]
    steps: int
    ref_initial: Any
    ref_step: Callable[[Any, int, Decider], Any]
    expected: Callable[[Any, int], Any]
    terminal: Callable[[list[Any]], bool] | None
    final: Callable[[list[list[Any]], list[Any]], str | None] | None = None


@dataclass
class Difference:
    """A coordinate where ``y_t`` and the reference can differ on a branch."""

    block: str
    index: int
    got: Any
    want: Any

    @property
    def diff(self) -> Any:
        return self.got - self.want


@dataclass
class BadPiece:
    """A region of the domain where the decoder departs from the reference.

    The region is ``atoms ∧ (some difference ≠ 0)``; ``always`` when a difference is a nonzero
    constant (then the region is ``atoms`` itself).
    """

    step: int
    atoms: list[Atom]
    diffs: list[Difference]
    always: bool
    what: str = "block"
    point: dict[str, Number] | None = None

    def regions(self) -> list[list[Atom]]:
        """Convex pieces (conjunctions) whose union is the region."""
        if self.always:
            return [list(self.atoms)]
        out = []
        for d in self.diffs:
            if isinstance(d.diff, Poly):
                out += [[*self.atoms, Atom(d.diff, ">")], [*self.atoms, Atom(-d.diff, ">")]]
        return out


class StopExploration(Exception):  # noqa: N818 - control flow
    """Raised to end the exploration at the first departure."""


@dataclass
class Exploration:
    """What one symbolic replay of one input found: branches, and the first departure if any."""

    branches: int = 0
    agree: int = 0
    bad: list[BadPiece] = field(default_factory=list)
    stats: SolverStats = field(default_factory=SolverStats)
    seconds: float = 0.0
    #: With ``Explorer(record=True)``: the path condition of every agreeing leaf, in exploration order (the
    #: leaves of the branch tree; a common prefix of two lists is their common ancestor).
    leaves: list[list[Atom]] = field(default_factory=list)


class Explorer:
    """Symbolic replay of one :class:`Instance` against its reference, forking on every undecided decision.

    Every branch is followed to the end of the run (``T`` CoT steps) unless, at some step, ``y_t`` can
    differ from the reference on it: then the exploration stops with that branch's region
    (:class:`BadPiece`) and a rational point of it. No departure on any branch is a proof for the whole
    domain: the branches' path conditions cover it (each fork splits a region into outcomes that
    exhaust it).
    """

    def __init__(self, inst: Instance, timeout_ms: int = 20_000, record: bool = False):
        self.inst = inst
        self.record = record
        self.ps = PathSolver(inst.variables, timeout_ms)
        self.decider = Decider(self.ps)
        self.ctx = Context(inst.decoder, SymbolicSemantics(self.decider))
        self.layout = inst.decoder.layout
        self.result = Exploration()
        self.trail: list[list[Any]] = []  # y_1 … y_t of the branch being explored

    # -- units -----------------------------------------------------------------------------------------
    def _lengths(self) -> tuple[Any, ...]:
        return (tuple(len(r) for r in self.ctx.reps), tuple(tuple(len(h) for h in ks) for ks in self.ctx.keys))

    def _truncate(self, lengths: tuple[Any, ...]) -> None:
        reps, keys = lengths
        for r, k in zip(self.ctx.reps, reps):
            del r[k:]
        for ks, ls in zip(self.ctx.keys, keys):
            for h, k in zip(ks, ls):
                del h[k:]

    def _unit(self, fn: Callable[[], Any], forced: Sequence[Any] = ()) -> Iterator[Any]:
        """Every branch of ``fn``: yields its result with the branch's atoms pushed on the path."""
        self.decider.start(forced)
        try:
            res = fn()
        except Fork as f:
            self.ps.stats.forks += 1
            for outcome, atoms in f.options:
                self.ps.push(atoms)
                try:
                    yield from self._unit(fn, [*f.log, outcome])
                finally:
                    self.ps.pop()
            return
        yield res

    def _push_token(self, token: list[Any], lengths: tuple[Any, ...]) -> Iterator[tuple[list[Any], tuple[Any, ...]]]:
        def run() -> tuple[list[Any], tuple[Any, ...]]:
            self._truncate(lengths)
            out, _ = self.ctx.push(token)
            return out, self._lengths()

        yield from self._unit(run)

    # -- comparison ----------------------------------------------------------------------------------
    def _differences(self, y: list[Any], state: Any, t: int) -> list[Difference]:
        out = []
        exp = self.inst.expected(state, t)
        for block, want in (exp.items() if isinstance(exp, dict) else exp):
            got = self.layout.pi(block, y)
            if len(got) != len(want):
                raise SymcotError(f"block {block}: {len(got)} coordinates, expected {len(want)}")
            for i, (g, w) in enumerate(zip(got, want)):
                d = g - w
                if isinstance(d, Poly) or d != 0:
                    out.append(Difference(block, i, g, w))
        return out

    def _check(self, y: list[Any], state: Any, t: int) -> None:
        """Compare ``y_t`` with the reference; stop the exploration where they can differ."""
        diffs = self._differences(y, state, t)
        const = [d for d in diffs if not isinstance(d.diff, Poly)]
        sym = [d for d in diffs if isinstance(d.diff, Poly)]
        if const:
            self._bad(BadPiece(t, list(self.ps.atoms), const + sym, True), self.ps.model())
        can_differ = [d for d in sym if self.ps.implied(Atom(d.diff, "==")) is not True]
        if not can_differ:
            return
        neq = z3.Or(*[self.ps.term(d.diff) != 0 for d in can_differ])
        point = self.ps.model(extra=[neq])
        if point is not None:
            self._bad(BadPiece(t, list(self.ps.atoms), can_differ, False), point)

    def _leaf(self) -> None:
        self.result.branches += 1
        self.result.agree += 1
        if self.record:
            self.result.leaves.append(list(self.ps.atoms))

    def _bad(self, piece: BadPiece, point: dict[str, Number] | None) -> None:
        piece.point = point
        self.result.bad.append(piece)
        self.result.branches += 1
        raise StopExploration

    def _settled(self, y: list[Any]) -> list[Any]:
        """``y`` with every coordinate the path condition fixes to one value replaced by that number."""
        if not any(isinstance(v, Poly) for v in y):
            return y
        point = self.ps.model()
        out = []
        for v in y:
            if isinstance(v, Poly) and point is not None:
                val = v.evaluate(point)
                if self.ps.decide(Atom(v - val, "==")) is True:
                    v = val
            out.append(v)
        return out

    def _stop_rule(self, y: list[Any], t: int) -> None:
        """The stop rule must fire exactly at ``T``; stop the exploration otherwise."""
        if self.inst.terminal is None:
            return
        stops = self.inst.terminal(y)
        if stops != (t == self.inst.steps):
            self._bad(BadPiece(t, list(self.ps.atoms), [], True, what="termination"), self.ps.model())

    # -- the run ---------------------------------------------------------------------------------------
    def run(self) -> Exploration:
        """Explore every branch, or until the first departure."""
        t0 = time.perf_counter()
        self.ps.push(self.inst.domain)
        if not self.ps.sat():
            raise SymcotError("the domain constraints are unsatisfiable")
        try:
            self._check(self.inst.tokens[-1], self.inst.ref_initial, 0)
            self._prompt(0, self._lengths(), self.inst.ref_initial)
        except StopExploration:
            pass
        self.result.stats = self.ps.stats
        self.result.seconds = time.perf_counter() - t0
        return self.result

    def _prompt(self, k: int, lengths: tuple[Any, ...], ref0: Any) -> None:
        toks = self.inst.tokens
        for out, after in self._push_token(toks[k], lengths):
            if k < len(toks) - 1:
                self._prompt(k + 1, after, ref0)
            elif self.inst.steps == 0:  # no CoT step: y_0 alone is compared (done in run)
                self._leaf()
            else:
                self._after_push(out, after, ref0, 0)

    def _after_push(self, y: list[Any], lengths: tuple[Any, ...], ref_t: Any, t: int) -> None:
        """``y = y_{t+1}`` was produced from ``y_t``: step the reference, compare, go on."""
        step = self.inst.ref_step
        del self.trail[t:]
        self.trail.append(y)
        for ref_next in self._unit(lambda: step(ref_t, t, self.decider)):
            self._check(y, ref_next, t + 1)
            self._stop_rule(y, t + 1)
            if t + 1 == self.inst.steps:
                msg = None
                if self.inst.final is not None:
                    msg = self.inst.final([*self.trail[:-1], self._settled(y)], self.inst.tokens[-1])
                if msg:
                    self._bad(BadPiece(t + 1, list(self.ps.atoms), [], True, what=f"final: {msg}"), self.ps.model())
                self._leaf()
                continue
            for out, after in self._push_token(y, lengths):
                self._after_push(out, after, ref_next, t + 1)
