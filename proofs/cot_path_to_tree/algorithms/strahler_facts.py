r"""The DFS dynamic on a rooted tree with the ``(M, c)`` fold of obs:dynamicstrdfs, as a vocabulary of runs.

Extends :mod:`proofs.cot_path_to_tree.algorithms.dfstree_facts` (DFS on a graph reachable from its source, with its
stack and its length ``T = 2n - 1``, all proved) with:

* ``stM(τ, v)``, ``stC(τ, v)`` -- the accumulator the fold keeps for ``v`` after step ``τ`` (``(0, 0)`` before
  ``v`` is visited);
* ``accM(τ)``, ``accC(τ)`` -- the accumulator the state at ``τ`` carries (``StrahlerState.acc``);
* ``last(τ, u)`` -- the last step ``τ' ≤ τ`` at which ``u`` is the current vertex.

The definitions are those of the transition :data:`~proofs.cot_path_to_tree.algorithms.strahler.STRAHLER` (the
fold with the case form eq:dynamicstrdfs, :func:`~proofs.cot_path_to_tree.algorithms.strahler.case_form`), the
one statement the per-input and batched references run: a traverse gives the new vertex ``(0, 0)``; a backtrack
from ``v`` into ``u`` folds ``str(τ_v) = M_v + 1[c_v ≥ 2]`` into ``u``'s accumulator; the final backtrack folds
``str(s)`` into φ's empty accumulator. Derived: the state carries the current vertex's accumulator, a vertex
visited after a step was visited before it or is the one it enters, and a visited vertex's accumulator is the one
the state carried when it was last current (what the decoder's backtrack head reads). The domain adds that ``A`` is
symmetric (``tree``). No fact is proved by hand: ``T = 2n - 1`` is the DFS tree vocabulary's ``tree-steps``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.dfs import dfs_input
from proofs.cot_path_to_tree.algorithms.dfs_facts import MOVE, STEP, VERTEX, valid
from proofs.cot_path_to_tree.algorithms.dfs_facts import inputs as dfs_inputs
from proofs.cot_path_to_tree.algorithms.dfstree_facts import VOCABULARY as DFS_TREE
from proofs.cot_path_to_tree.algorithms.strahler import FOLD_STATE, STRAHLER, StrahlerState, fold_c, fold_m
from proofs.cot_path_to_tree.algorithms.strahler import str_term as str_of
from symcot.algorithms.logic import Direct, Fact, Induction, Sig, Var
from symcot.algorithms.transition import Transition, definitions, interpretation, run

_FOLD = {v.name for v in FOLD_STATE}

SYMBOLS = (
    *(sig for sig in STRAHLER.symbols() if sig.name in _FOLD),
    Sig("last", 2, "int", "the last step τ' ≤ τ at which u is current", ("step", "vertex"), "step"),
)


#: The definitions of the fold's state variables (``init:stM``, ``step:stM``, …: those of the DFS are the DFS
#: vocabulary's) and the auxiliary ``last``.
DEFINITION = (
    *(f for f in definitions(STRAHLER, MOVE, STEP) if f.name.partition(":")[2] in _FOLD),
    Fact("last", (STEP, Var("τ'", lambda c, *_: 0, lambda c, t, *_: t, "step"), VERTEX),
         lambda c, t, t1, v: c.implies(c.cur(t1) == v, c.and_(t1 <= c.last(t, v), c.last(t, v) <= t,
                                                                c.cur(c.last(t, v)) == v)),
         "definition", source="last(τ, u): the greatest step τ' ≤ τ at which u is current"),
)

DOMAIN = (
    Fact("tree", (VERTEX, Var("w", lambda c, *_: 0, lambda c, *_: c.n - 1, "vertex")),
         lambda c, v, w: c.adj(v, w) == c.adj(w, v), "domain", source="G_T is a tree: A is symmetric"),
)

DERIVED = (
    Fact("fold-range", (STEP, VERTEX),
         lambda c, t, v: c.and_(c.stM(t, v) >= 0, 0 <= c.stC(t, v), c.stC(t, v) <= 1, c.accM(t) >= 0,
                                0 <= c.accC(t), c.accC(t) <= 1),
         "derived", Induction("τ", hints=lambda c, t: [c.cur(t), c.par(t, c.cur(t)), c.nxt(t)]),
         source="M ≥ 0 and c ∈ {0, 1} (the case form resets c when a maximum repeats)"),
    Fact("fold-current", (Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step"),),
         lambda c, t: c.and_(c.accM(t) == c.stM(t, c.cur(t)), c.accC(t) == c.stC(t, c.cur(t))),
         "derived", Induction("τ"), source="y_τ carries the current vertex's accumulator"),
    Fact("last-now", (Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step"),),
         lambda c, t: c.last(t, c.cur(t)) == t, "derived", Direct(), source="the current vertex is last current now"),
    Fact("last-keep", (Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step"), VERTEX),
         lambda c, t, v: c.implies(c.and_(c.vis(t, v), c.cur(t + 1) != v), c.last(t + 1, v) == c.last(t, v)),
         "derived", Direct(), source="a visited vertex that does not become current keeps its last step"),
    Fact("store-keep", (Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step"), VERTEX),
         lambda c, t, v: c.implies(c.cur(t + 1) != v, c.and_(c.stM(t + 1, v) == c.stM(t, v),
                                                             c.stC(t + 1, v) == c.stC(t, v))),
         "derived", Direct(), source="only the vertex that becomes current has its accumulator changed"),
    Fact("visit", (Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step"), VERTEX),
         lambda c, t, v: c.implies(c.vis(t + 1, v), c.or_(c.vis(t, v), c.cur(t + 1) == v)),
         "derived", Direct(), source="a vertex visited after a step was visited before it or is the one it enters"),
    Fact("fold-last", (STEP, VERTEX),
         lambda c, t, v: c.implies(c.vis(t, v), c.and_(c.stM(t, v) == c.accM(c.last(t, v)),
                                                       c.stC(t, v) == c.accC(c.last(t, v)))),
         "derived", Induction("τ", hints=lambda c, t: [t + 1]),
         source="a visited vertex's accumulator is the one y carried when it was last current"),
)


def run_symbols(inp: tuple[Any, int], tr: Transition = STRAHLER) -> dict[str, Any]:
    """The symbols' values on the run of ``tr`` (by default :data:`STRAHLER`) on ``inp = (tree, root)``."""
    r = run(tr, dfs_input(*inp))
    last: dict[tuple[int, int], int] = {}
    for t, st in enumerate(r.states):
        for v in range(len(st["vis"])):
            last[(t, v)] = t if st["cur"] == v else last.get((t - 1, v), -1)
    return {**DFS_TREE.interpret(inp, ()), **interpretation(tr, r), "last": lambda t, v: last.get((t, v), -1)}


def interpret(inp: tuple[Any, int], states: Sequence[StrahlerState]) -> dict[str, Any]:
    """The symbols' values on the run of ``inp = (tree, root)``.

    :data:`STRAHLER` is run again (``states`` is :func:`~proofs.cot_path_to_tree.algorithms.strahler.
    strahler_dynamic`'s reading of that run).
    """
    return run_symbols(inp)


def inputs(inp: tuple[Any, Any]) -> dict[str, Any]:
    """The input symbols of ``(tree, root)`` (or of a batch's stand-in), without a run: the DFS tree vocabulary's."""
    return DFS_TREE.inputs(inp) if DFS_TREE.inputs is not None else dfs_inputs(inp)


VIEWS = {"acc_m": lambda c, t: c.accM(t), "acc_c": lambda c, t: c.accC(t)}

VOCABULARY = DFS_TREE.extended("obs:dynamicstrdfs on eq:dfsdynamic", SYMBOLS, DOMAIN + DEFINITION + DERIVED, VIEWS,
                               interpret, inputs)

__all__ = ["VOCABULARY", "fold_c", "fold_m", "str_of", "valid"]
