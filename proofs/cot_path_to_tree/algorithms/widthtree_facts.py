r"""BFS (``Dkst`` with unit weights) carrying the width fold of obs:dynamicwidbfs, as a vocabulary of its runs.

The runs thm:cotwidoftree (app:cotwid) simulates. Extends :mod:`proofs.cot_path_to_tree.algorithms.dijkstra_facts`
(the same symbols, facts and views) with the fold's state (``-1`` stands for φ, as there):

* ``dif(τ)`` -- ``Dist^(τ)[cur^(τ)] - Dist^(τ-1)[cur^(τ-1)]``, the depth difference of consecutive visits (``0`` at
  ``τ = 0``);
* ``twd(τ)``, ``mwd(τ)`` -- ``twd^(τ)`` and ``mwd^(τ)`` of the update rule (lem:widsupffn's ``f``), from
  ``twd^(0) = mwd^(0) = 1``;
* ``rise(τ)`` -- the value the step from ``τ`` names, ``Dist[cur^(τ+1)] - Dist[cur^(τ)]`` (so ``dif(τ + 1) = rise(τ)``).

The definitions are those of the transition :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.WIDTH_BFS` (the one
statement the per-input and batched references run). The domain is the theorem's: "the tree ``G_T`` is (un)weighted
taking weights in ``{1, ∞}``" -- every arc weighs 1 (fact ``unit``); nothing more is assumed (the facts below hold on
every digraph with unit weights, a tree being one). Derived, each by Z3:

* ``dif-step`` -- ``dif(τ + 1) = Dist^(τ+1)[cur^(τ+1)] - Dist^(τ)[cur^(τ)]``;
* ``frontier`` -- BFS's invariant: an unvisited vertex of finite ``Dist`` is at most one level below the current
  vertex, ``Dist^(τ)[v] ≤ Dist^(τ)[cur^(τ)] + 1``;
* ``next-depth`` -- the vertex a step visits is at most one level below the current one (it was on the frontier,
  or its arc from the current vertex was just relaxed to ``Dist[cur] + 1``);
* ``dif-range`` -- ``dif ∈ {0, 1}`` at every step ("as we have already observed π_dif ∈ {0, 1} in
  obs:dynamicwidbfs", proof of thm:cotwidoftree): the selected vertex is at least as deep as the current one
  (Dijkstra's monotonicity) and at most one level deeper (``next-depth``);
* ``fold-range`` -- ``1 ≤ twd ≤ mwd ≤ τ + 1``;
* ``width-bound`` -- ``mwd ≤ n``: lem:widsupffn's bound ``v_2 ≤ λ`` with ``λ = V_max = n`` ("considering
  V_max = n"), and ``v_3 ≥ 1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.dfs_facts import MOVE, STEP, VERTEX, vertex
from proofs.cot_path_to_tree.algorithms.dijkstra import WIDTH_BFS, WIDTH_STATE, weighted_input
from proofs.cot_path_to_tree.algorithms.dijkstra_facts import VOCABULARY as DKST
from proofs.cot_path_to_tree.algorithms.dijkstra_facts import dist_cur
from symcot.algorithms.logic import Direct, Fact, Induction
from symcot.algorithms.transition import definitions, interpretation, run

_FOLD = {v.name for v in WIDTH_STATE}
#: The value the fold's step names (``rise(τ) = dif(τ + 1)``).
_NAMED = {"rise"}

SYMBOLS = tuple(sig for sig in WIDTH_BFS.symbols() if sig.name in _FOLD | _NAMED)

DOMAIN = (
    Fact("unit", (vertex("i"), vertex("j")), lambda c, i, j: c.implies(c.arc(i, j), c.w(i, j) == 1), "domain",
         source="BFS weights: \"the tree G_T is (un)weighted taking weights in {1, ∞}\" (proof of thm:cotwidoftree; "
                "BFS as Dkst with A = {1, ∞}, Section 2.1): every arc weighs 1"),
)

#: The definitions of the fold's state variables (``init:dif``, ``step:dif``, …; those of ``Dkst`` are its
#: vocabulary's).
DEFINITION = tuple(f for f in definitions(WIDTH_BFS, MOVE, STEP)
                   if f.name.partition(":")[2] in _FOLD or f.name in _NAMED)


def _frontier(c: Any, t: Any, v: Any) -> Any:
    return c.implies(c.and_(c.not_(c.vis(t, v)), c.fin(t, v)), c.dist(t, v) <= dist_cur(c, t) + 1)


def _fold_range(c: Any, t: Any) -> Any:
    return c.and_(1 <= c.twd(t), c.twd(t) <= c.mwd(t), c.mwd(t) <= t + 1)


def _step_hints(c: Any, t: Any) -> list[Any]:
    """The step itself, and the vertices it reads: the current one, the one it selects, the next current one."""
    return [t, c.cur(t), c.sel(t), c.cur(t + 1)]


DERIVED = (
    Fact("dif-step", (MOVE,), lambda c, t: c.dif(t + 1) == dist_cur(c, t + 1) - dist_cur(c, t), "derived", Direct(),
         source="π_dif(y_{t+1}) records \"the difference in distances π_crd(ỹ_{t+1}) and π_crd(ỹ_t)\" (proof of "
                "thm:cotwidoftree): Dist^(τ+1)[cur^(τ+1)] - Dist^(τ)[cur^(τ)]"),
    Fact("frontier", (STEP, VERTEX), _frontier, "derived", Induction("τ", hints=_step_hints),
         source="BFS on unit weights: an unvisited vertex of finite Dist is at most one level below the current "
                "vertex"),
    Fact("next-depth", (MOVE,), lambda c, t: dist_cur(c, t + 1) <= dist_cur(c, t) + 1, "derived", Direct(),
         source="the vertex a step visits is at most one level below the current one: it was on the frontier "
                "(frontier), or its arc from the current vertex was just relaxed to Dist[cur] + 1"),
    Fact("dif-range", (STEP,), lambda c, t: c.and_(0 <= c.dif(t), c.dif(t) <= 1), "derived",
         Induction("τ", hints=lambda c, t: [t]),
         source="\"we have already observed π_dif ∈ {0, 1} in obs:dynamicwidbfs\" (proof of thm:cotwidoftree): "
                "consecutive visits are at the same depth or one deeper"),
    Fact("fold-range", (STEP,), _fold_range, "derived", Induction("τ", hints=lambda c, t: [t]),
         source="1 ≤ twd^(τ) ≤ mwd^(τ) ≤ τ + 1: the update rule counts at most one more vertex per step"),
    Fact("width-bound", (STEP,), lambda c, t: c.mwd(t) <= c.n, "derived", Direct(),
         source="twd ≤ mwd ≤ T + 1 = n: lem:widsupffn's v_2 ≤ λ with λ = V_max = n (\"considering V_max = n\")"),
)


def interpret(inp: tuple[Any, int], states: Sequence[Any]) -> dict[str, Any]:
    """The symbols' values on the run of ``inp = (tree, root)``.

    ``Dkst``'s (:mod:`~proofs.cot_path_to_tree.algorithms.dijkstra_facts`), and the fold's from a run of
    :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.WIDTH_BFS`.
    """
    fold = interpretation(WIDTH_BFS, run(WIDTH_BFS, weighted_input(*inp)))
    return {**DKST.interpret(inp, states), **{k: fold[k] for k in _FOLD | _NAMED}}


#: The reference state's width fields (:class:`~proofs.cot_path_to_tree.algorithms.dijkstra.WidthState`'s ``dif``,
#: ``twd``, ``mwd``, there by the Observation's definitions) as the fold's values.
VIEWS = {"dif": lambda c, t: c.dif(t), "twd": lambda c, t: c.twd(t), "mwd": lambda c, t: c.mwd(t)}

VOCABULARY = DKST.extended("obs:dynamicwidbfs on Dkst (BFS)", SYMBOLS, DOMAIN + DEFINITION + DERIVED, VIEWS, interpret)
