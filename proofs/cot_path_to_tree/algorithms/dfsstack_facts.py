r"""The DFS dynamic with its stack: how long a run is, on every simple digraph, and that it stops.

Extends :mod:`proofs.cot_path_to_tree.algorithms.dfs_facts` (the same symbols, facts and views) by the stack of
:data:`~proofs.cot_path_to_tree.algorithms.dfs.DFS_STACK` (the same run as
:data:`~proofs.cot_path_to_tree.algorithms.dfs.DFS`):

* ``dep(τ)`` -- the current vertex's depth on the stack (``+1`` per traverse, ``-1`` per backtrack, from 0);
* ``lvl(τ, v)`` -- the depth ``v`` was traversed to; ``done(τ, v)`` -- ``v`` was backtracked from;
* ``cnt(τ, k)`` -- the visited vertices below ``k``.

*Derived*, each by Z3: the open (visited, not done) vertices are the stack -- their depths are distinct and at most
``dep(τ)``, the current vertex is open at depth ``dep(τ)``, an open vertex's parent is open one level up (the
``stack-*`` facts, one joint induction); a done vertex's out-neighbours are visited (``closed``);
``τ + dep(τ) = 2·cnt(τ, n) - 2`` (``clock``: a traverse visits a vertex and pushes it, a backtrack pops); so a step
that moves is at most ``2n - 2`` (``moving``). These are proved *without* the definition ``ends`` (that the run
stops at ``T``): they hold on every prefix of a run that moves at each step, so no run moves ``2n - 1`` times --
the run stops, by step ``2n - 1`` (``O(|V|)`` steps, within thm:cotdfs's ``O(|V| + |E|)``). At the end the last
move is the backtrack from ``s`` (``final-move``), the stack is empty (``empty``), every visited vertex is done
(``all-done``), and ``T = 2·|vst^(T)| - 1`` (``length``). No fact is proved by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import accumulate
from typing import Any

from proofs.cot_path_to_tree.algorithms.dfs import DFS_STACK, STACK_STATE, dfs_input
from proofs.cot_path_to_tree.algorithms.dfs_facts import MOVE, STEP, VERTEX, vertex
from proofs.cot_path_to_tree.algorithms.dfs_facts import VOCABULARY as DFS_VOCABULARY
from symcot.algorithms.logic import Direct, Fact, Induction, Sig, Var
from symcot.algorithms.transition import definitions, interpretation, run

_STACK = {v.name for v in STACK_STATE}

SYMBOLS = (
    *(sig for sig in DFS_STACK.symbols() if sig.name in _STACK),
    Sig("cnt", 2, "int", "|{v < k : vst^(τ)(v) = 1}|", ("step", "vertex")),
)

#: ``k`` over ``0 … n`` (a count's bound).
BOUND = Var("k", lambda c, *_: 0, lambda c, *_: c.n, "vertex")

def lemma(f: Fact) -> Fact:
    """``f`` as a lemma: read by the facts after it, not by a statement's step obligations."""
    return replace(f, lemma=True)


DEFINITION = tuple(lemma(f) for f in (
    *(f for f in definitions(DFS_STACK, MOVE, STEP) if f.name.partition(":")[2] in _STACK),
    Fact("cnt:0", (STEP,), lambda c, t: c.cnt(t, 0) == 0, "definition", source="cnt(τ, 0) = 0: no vertex below 0"),
    Fact("cnt:step", (STEP, vertex("k")),
         lambda c, t, k: c.cnt(t, k + 1) == c.cnt(t, k) + c.ite(c.vis(t, k), 1, 0), "definition",
         source="cnt(τ, k + 1) = cnt(τ, k) + vst^(τ)(v_k): the visited vertices below k, counted"),
))


def _open(c: Any, t: Any, v: Any) -> Any:
    """``v`` is on the stack at ``τ``: visited, not yet backtracked from."""
    return c.and_(c.vis(t, v), c.not_(c.done(t, v)))


def _levels(c: Any, t: Any, v: Any) -> Any:
    """``lvl`` is the depth in the tree ``par`` draws; an open vertex is at most ``dep(τ)`` deep; done is visited."""
    return c.and_(
        c.implies(c.done(t, v), c.vis(t, v)),
        c.implies(c.vis(t, v), c.and_(0 <= c.lvl(t, v),
                                      c.implies(v == c.src, c.lvl(t, v) == 0),
                                      c.implies(v != c.src, c.lvl(t, v) == c.lvl(t, c.par(t, v)) + 1))),
        c.implies(_open(c, t, v), c.lvl(t, v) <= c.dep(t)),
        c.implies(c.and_(_open(c, t, v), v != c.src), _open(c, t, c.par(t, v))))


def _current(c: Any, t: Any) -> Any:
    """Before the end the current vertex is open, at depth ``dep(τ)``."""
    return c.implies(t <= c.T - 1, c.and_(_open(c, t, c.cur(t)), c.lvl(t, c.cur(t)) == c.dep(t)))


def _unique(c: Any, t: Any, u: Any, v: Any) -> Any:
    """Two open vertices at one depth are one vertex."""
    return c.implies(c.and_(_open(c, t, u), _open(c, t, v), c.lvl(t, u) == c.lvl(t, v)), u == v)


def _hints(c: Any, t: Any) -> list[Any]:
    """The vertices a step reads: the current one, its parent, the one a traverse moves to, and ``s``."""
    return [c.cur(t), c.par(t, c.cur(t)), c.nxt(t), c.src]


_STACK_GROUP = ("stack-levels", "stack-current", "stack-unique")
#: What the length bound is proved without: that the run stops (so the bound proves that it does).
_ENDS = ("ends",)


def _stack_fact(name: str, vs: tuple[Var, ...], body: Any, source: str) -> Fact:
    joint = tuple(g for g in _STACK_GROUP if g != name)
    return Fact(name, (STEP, *vs), body, "derived", Induction("τ", joint=joint, hints=_hints, without=_ENDS),
                source=source)


LEMMAS = tuple(lemma(f) for f in (
    _stack_fact("stack-levels", (VERTEX,), _levels,
                "done vertices are visited; lvl(v) = lvl(par(v)) + 1 ≥ 1 below s, lvl(s) = 0; an open vertex is at "
                "most dep(τ) deep and its parent is open"),
    _stack_fact("stack-current", (), _current, "before the end, cur^(τ) is open at depth dep(τ)"),
    _stack_fact("stack-unique", (vertex("u"), vertex("v")), _unique, "two open vertices at one depth are one"),
    Fact("closed", (STEP, vertex("u"), vertex("x")),
         lambda c, t, u, x: c.implies(c.and_(c.done(t, u), c.adj(u, x)), c.vis(t, x)), "derived",
         Induction("τ", hints=lambda c, t: [c.cur(t)]),
         source="a vertex is backtracked from only when it has no unvisited out-neighbour (eq:dfsdynamic)"),
    Fact("count-init", (BOUND,), lambda c, k: c.implies(0 <= c.T, c.cnt(0, k) == c.ite(c.src < k, 1, 0)),
         "derived", Induction("k", without=_ENDS), source="vst^(0) = {s} (counted where the run has a step 0)"),
    Fact("count-step", (MOVE, BOUND),
         lambda c, t, k: c.cnt(t + 1, k) == c.cnt(t, k) + c.ite(c.and_(c.tr(t), c.nxt(t) < k), 1, 0), "derived",
         Induction("k", without=_ENDS), source="a traverse visits one vertex, unvisited before; a backtrack none"),
    Fact("count-range", (STEP, BOUND), lambda c, t, k: c.and_(0 <= c.cnt(t, k), c.cnt(t, k) <= k), "derived",
         Induction("k", without=_ENDS), source="0 ≤ cnt(τ, k) ≤ k"),
    Fact("clock", (STEP,), lambda c, t: t + c.dep(t) == 2 * c.cnt(t, c.n) - 2, "derived",
         Induction("τ", hints=lambda c, t: [t], without=_ENDS),
         source="τ + dep(τ) = 2·(|vst^(τ)| - 1): a traverse visits a vertex and pushes it, a backtrack pops"),
    Fact("moving", (MOVE,), lambda c, t: c.and_(0 <= c.dep(t), t <= 2 * c.n - 2), "derived",
         Direct(hints=lambda c, t: [t, c.n, c.cur(t)], without=_ENDS),
         source="a step that moves is at most 2n - 2: its stack is not empty (dep ≥ 0) and at most n are visited"),
    Fact("final-move", (), lambda c: c.and_(c.cur(c.T - 1) == c.src, c.not_(c.tr(c.T - 1))), "derived", Direct(),
         source="the last move is the backtrack from s"),
    Fact("empty", (), lambda c: c.dep(c.T) == -1, "derived", Direct(hints=lambda c: [c.T - 1, c.src]),
         source="the backtrack from s leaves the stack empty: dep(T) = dep(T - 1) - 1 = lvl(s) - 1 = -1"),
    Fact("all-done", (VERTEX,), lambda c, v: c.implies(c.vis(c.T, v), c.done(c.T, v)), "derived", Direct(),
         source="at the end no vertex is open: an open one would be at depth at most dep(T) = -1"),
))

#: What a construction's statement may read: the run's length, and that it stops.
DERIVED = (
    *LEMMAS,
    Fact("length", (), lambda c: c.T == 2 * c.cnt(c.T, c.n) - 1, "derived", Direct(),
         source="T = 2·|vst^(T)| - 1: one traverse into and one backtrack out of every visited vertex but s, and the "
                "backtrack from s"),
    Fact("bound", (), lambda c: c.T <= 2 * c.n - 1, "derived", Direct(hints=lambda c: [c.T - 1], without=_ENDS),
         source="a run that moves at steps 0 … T - 1 has T ≤ 2n - 1, so the run stops, within 2n - 1 = O(|V|) steps "
                "(thm:cotdfs: O(|V| + |E|) CoT steps)"),
)


def interpret(inp: tuple[Any, int], states: Sequence[Any]) -> dict[str, Any]:
    """The symbols' values on the run of ``inp = (graph, source)``.

    The DFS vocabulary's, the stack's from a run of :data:`~proofs.cot_path_to_tree.algorithms.dfs.DFS_STACK`,
    ``cnt``.
    """
    g = dfs_input(*inp)
    r = run(DFS_STACK, g)
    stack = interpretation(DFS_STACK, r)
    counts = [list(accumulate((int(x) for x in st["vis"]), initial=0)) for st in r.states]

    def cnt(t: int, k: int) -> int:
        return counts[t][k] if 0 <= t < len(counts) and 0 <= k < len(counts[t]) else -1

    return {**DFS_VOCABULARY.interpret(inp, states), **{k: stack[k] for k in _STACK},
            "cnt": cnt}


VOCABULARY = DFS_VOCABULARY.extended("eq:dfsdynamic with its stack", SYMBOLS, DEFINITION + DERIVED,
                                     interpret=interpret)
