r"""The DFS dynamic on a rooted tree with the ``(M, c)`` fold of obs:dynamicstrdfs, as a vocabulary of runs.

Extends :mod:`proofs.cot_path_to_tree.algorithms.dfs_facts` (the same symbols and facts) with:

* ``stM(τ, v)``, ``stC(τ, v)`` -- the accumulator the fold keeps for ``v`` after step ``τ`` (the dictionary of
  :func:`proofs.cot_path_to_tree.algorithms.strahler.strahler_dynamic`; ``(0, 0)`` before ``v`` is visited);
* ``accM(τ)``, ``accC(τ)`` -- the accumulator the state at ``τ`` carries (``StrahlerState.acc``);
* ``last(τ, u)`` -- the last step ``τ' ≤ τ`` at which ``u`` is the current vertex.

The definitions transcribe the fold with the case form eq:dynamicstrdfs
(:func:`~proofs.cot_path_to_tree.algorithms.strahler.
fold_case`): a traverse gives the new vertex ``(0, 0)``; a backtrack from ``v`` into ``u`` folds
``str(τ_v) = M_v + 1[c_v ≥ 2]`` into ``u``'s accumulator; the final backtrack folds ``str(s)`` into φ's empty
accumulator. Derived: the state carries the current vertex's accumulator, and a visited vertex's
accumulator is the one the state carried when it was last current (what the decoder's backtrack head
reads). One fact is proved by hand: on a tree with ``n`` vertices the run has ``T = 2n - 1`` steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.dfs_facts import MOVE, STEP, VERTEX, valid
from proofs.cot_path_to_tree.algorithms.dfs_facts import VOCABULARY as DFS
from proofs.cot_path_to_tree.algorithms.dfs_facts import interpret as dfs_interpret
from proofs.cot_path_to_tree.algorithms.strahler import StrahlerState
from symcot.algorithms.logic import Direct, Fact, Induction, Sig, Var

SYMBOLS = (
    Sig("stM", 2, "int", "M of the accumulator kept for v after step τ", ("step", "vertex")),
    Sig("stC", 2, "int", "c of the accumulator kept for v after step τ", ("step", "vertex")),
    Sig("accM", 1, "int", "M of the accumulator y_τ carries", ("step",)),
    Sig("accC", 1, "int", "c of the accumulator y_τ carries", ("step",)),
    Sig("last", 2, "int", "the last step τ' ≤ τ at which u is current", ("step", "vertex"), "step"),
)


def str_of(c: Any, m: Any, k: Any) -> Any:
    """``str(τ_v) = M_v + 1[c_v ≥ 2]``."""
    return m + c.ite(k >= 2, 1, 0)


def fold_m(c: Any, s: Any, m_u: Any, c_u: Any) -> Any:
    """``M`` of eq:dynamicstrdfs, case form: ``M_u`` (``D < 0``), ``M_u + 1[c_u ≥ 1]`` (``D = 0``), ``str`` (else)."""
    d = s - m_u
    return c.ite(d < 0, m_u, c.ite(d == 0, m_u + c.ite(c_u >= 1, 1, 0), s))


def fold_c(c: Any, s: Any, m_u: Any, c_u: Any) -> Any:
    """``c`` of eq:dynamicstrdfs (case form): ``c_u`` if ``D < 0``, ``1[c_u + 1 < 2]`` if ``D = 0``, 1 if ``D > 0``."""
    d = s - m_u
    return c.ite(d < 0, c_u, c.ite(d == 0, c.ite(c_u + 1 < 2, 1, 0), 1))


def finished(c: Any, t: Any) -> Any:
    """``str(τ_v)`` of the vertex a backtrack at ``t`` leaves (its kept accumulator)."""
    return str_of(c, c.stM(t, c.cur(t)), c.stC(t, c.cur(t)))


def _store_after(c: Any, t: Any, v: Any) -> Any:
    u = c.par(t, c.cur(t))
    s = finished(c, t)
    bt = c.and_(c.not_(c.tr(t)), u != -1, v == u)
    return c.and_(
        c.stM(t + 1, v) == c.ite(c.and_(c.tr(t), v == c.nxt(t)), 0,
                                 c.ite(bt, fold_m(c, s, c.stM(t, u), c.stC(t, u)), c.stM(t, v))),
        c.stC(t + 1, v) == c.ite(c.and_(c.tr(t), v == c.nxt(t)), 0,
                                 c.ite(bt, fold_c(c, s, c.stM(t, u), c.stC(t, u)), c.stC(t, v))))


def _acc_after(c: Any, t: Any) -> Any:
    u = c.par(t, c.cur(t))
    s = finished(c, t)
    return c.and_(
        c.accM(t + 1) == c.ite(c.tr(t), 0, c.ite(u == -1, fold_m(c, s, 0, 0), c.stM(t + 1, u))),
        c.accC(t + 1) == c.ite(c.tr(t), 0, c.ite(u == -1, fold_c(c, s, 0, 0), c.stC(t + 1, u))))


DEFINITION = (
    Fact("fold-init", (VERTEX,),
         lambda c, v: c.and_(c.stM(0, v) == 0, c.stC(0, v) == 0, c.accM(0) == 0, c.accC(0) == 0), "definition",
         source="every accumulator starts empty (y_0 carries (0, 0))"),
    Fact("fold-store", (MOVE, VERTEX), _store_after, "definition",
         source="traverse: the new vertex gets (0, 0); backtrack from v into u: u's accumulator becomes the fold "
                "of str(τ_v) = M_v + 1[c_v ≥ 2] into it (eq:dynamicstrdfs, case form); the rest is kept"),
    Fact("fold-state", (MOVE,), _acc_after, "definition",
         source="y_{τ+1} carries the current vertex's accumulator; after the backtrack from s, the fold of str(s) "
                "into φ's empty accumulator"),
    Fact("last", (STEP, Var("τ'", lambda c, *_: 0, lambda c, t, *_: t, "step"), VERTEX),
         lambda c, t, t1, v: c.implies(c.cur(t1) == v, c.and_(t1 <= c.last(t, v), c.last(t, v) <= t,
                                                                c.cur(c.last(t, v)) == v)),
         "definition", source="last(τ, u): the greatest step τ' ≤ τ at which u is current"),
)

HAND = (
    Fact("tree", (VERTEX, Var("w", lambda c, *_: 0, lambda c, *_: c.n - 1, "vertex")),
         lambda c, v, w: c.adj(v, w) == c.adj(w, v), "domain", source="G_T is a tree: A is symmetric"),
    Fact("tree-steps", (), lambda c: c.T == 2 * c.n - 1, "hand",
         source="on a tree with n vertices the run has 2n - 1 steps (docs/all-n.md, hand proof H1)"),
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
    Fact("fold-last", (STEP, VERTEX),
         lambda c, t, v: c.implies(c.vis(t, v), c.and_(c.stM(t, v) == c.accM(c.last(t, v)),
                                                       c.stC(t, v) == c.accC(c.last(t, v)))),
         "derived", Induction("τ", hints=lambda c, t: [t + 1]),
         source="a visited vertex's accumulator is the one y carried when it was last current"),
)


def interpret(inp: tuple[Any, int], states: Sequence[StrahlerState]) -> dict[str, Any]:
    """The symbols' values on the run (the DFS symbols from the DFS states)."""
    dfs = [st.dfs for st in states]
    out = dfs_interpret(inp, dfs)
    n, T = inp[0].n, len(states) - 1
    store: list[dict[int, tuple[int, int]]] = []
    cur: dict[int, tuple[int, int]] = {}
    for t, st in enumerate(states):
        v = st.dfs.cur
        if t == 0:
            cur = {}
        elif v is not None:  # a traverse always enters a vertex
            cur = {**cur, v: (0, 0) if st.dfs.move == "traverse" else st.acc}
        store.append(cur)
    last: dict[tuple[int, int], int] = {}
    for t in range(T + 1):
        for v in range(n):
            prev = last.get((t - 1, v), -1)
            last[(t, v)] = t if states[t].dfs.cur == v else prev
    out.update({
        "stM": lambda t, v: store[t].get(v, (0, 0))[0] if 0 <= t <= T else 0,
        "stC": lambda t, v: store[t].get(v, (0, 0))[1] if 0 <= t <= T else 0,
        "accM": lambda t: states[t].acc[0] if 0 <= t <= T else 0,
        "accC": lambda t: states[t].acc[1] if 0 <= t <= T else 0,
        "last": lambda t, v: last.get((t, v), -1),
    })
    return out


VIEWS = {"acc_m": lambda c, t: c.accM(t), "acc_c": lambda c, t: c.accC(t)}

VOCABULARY = DFS.extended("obs:dynamicstrdfs on eq:dfsdynamic", SYMBOLS, DEFINITION + HAND + DERIVED, VIEWS, interpret)

__all__ = ["VOCABULARY", "finished", "fold_c", "fold_m", "valid"]
