r"""The Dijkstra dynamic ``Dkst^(t)`` of Section 2.1 with symbolic weights: every comparison is a decision.

Paper: Section 2.1, "Dijkstra Algorithm" (the reference
:func:`proofs.cot_path_to_tree.algorithms.dijkstra.dijkstra_dynamic`
written from it). This module runs the same dynamic when the weights ``a_ij`` are symbols (or any
values the caller can compare): the two places the dynamic compares numbers are handed to a callback
``less(a, b)`` (``a < b``), so a symbolic engine can decide them under a path condition and fork.

* *Relaxation.* ``Dist^(t+1)[j] = min(Dist^(t)[j], Dist^(t)[i] + a_ij)`` is evaluated as Python's ``min``
  does in the numeric reference: the candidate replaces ``Dist^(t)[j]`` only when it is *strictly*
  smaller (``less(cand, Dist^(t)[j])``); ``∞`` (:data:`~proofs.cot_path_to_tree.algorithms.dijkstra.INF`) never needs a
  decision (``∞`` is never smaller, a finite value always is).
* *Selection.* ``cur^(t+1) = argmin_j {Dist^(t+1)[j] | vst^(t)(v_j) = 0}``, lowest index among ties:
  the unvisited vertices are scanned in index order and ``j`` replaces the best so far only when
  ``less(Dist[j], Dist[best])`` -- exactly the comparisons of the numeric reference.

With ``less = lambda a, b: a < b`` on exact numbers the states are those of ``dijkstra_dynamic``
(tests check it on every small input). The graph's topology is validated with unit weights; the
weights themselves are whatever the digraph carries (:func:`symbolic_weights` puts one symbol per arc).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from proofs.cot_path_to_tree.algorithms.dijkstra import INF, DkstState, validate_dijkstra_input
from symcot.inputs.graphs import Digraph
from symcot.inputs.weighted import symbolic_weights, weight_name

#: ``less(a, b)``: whether ``a < b`` (finite values only; the caller decides or forks).
Less = Callable[[Any, Any], bool]


def _lt(less: Less, a: Any, b: Any) -> bool:
    """``a < b`` with ``∞``: decided here when either side is ``∞``, else by ``less``."""
    if a is INF:
        return False
    if b is INF:
        return True
    return less(a, b)


def _add(a: Any, b: Any) -> Any:
    return INF if a is INF or b is INF else a + b


def weight_rows(g: Digraph) -> list[list[Any]]:
    """``a_ij``: the arc's weight (1 when unweighted), ``∞`` without an arc, ``a_ii = ∞``."""
    a: list[list[Any]] = [[INF] * g.n for _ in range(g.n)]
    ws = g.weights if g.weights is not None else (1,) * len(g.arcs)
    for (u, v), w in zip(g.arcs, ws):
        a[u][v] = w
    return a


def initial_state(g: Digraph, source: int) -> DkstState:
    """``Dkst^(0)``: ``Dist[p] = 0``, every other ``∞``, ``cur = vst = {p}``; the topology is validated."""
    validate_dijkstra_input(Digraph(g.n, g.arcs), source)
    dist: list[Any] = [INF] * g.n
    dist[source] = 0
    return DkstState(0, tuple(dist), source, frozenset({source}))


def step(g: Digraph, state: DkstState, less: Less, rows: list[list[Any]] | None = None) -> DkstState:
    """``Dkst^(t) → Dkst^(t+1)``: relax every ``v_j`` from ``cur``, select the argmin, mark it visited."""
    a = rows if rows is not None else weight_rows(g)
    i = state.cur
    dist = list(state.dist)
    for j in range(g.n):
        cand = _add(dist[i], a[i][j])
        if _lt(less, cand, dist[j]):
            dist[j] = cand
    best: int | None = None
    for j in range(g.n):
        if j not in state.vst and (best is None or _lt(less, dist[j], dist[best])):
            best = j
    if best is None or dist[best] is INF:
        raise ValueError("no reachable unvisited vertex: the topology was validated, so this cannot happen")
    return DkstState(state.t + 1, tuple(dist), best, state.vst | {best})


def dijkstra_symbolic(g: Digraph, source: int, less: Less) -> list[DkstState]:
    """The ``n`` states ``Dkst^(0) … Dkst^(n-1)``, every comparison decided by ``less``."""
    rows = weight_rows(g)
    states = [initial_state(g, source)]
    for _ in range(1, g.n):
        states.append(step(g, states[-1], less, rows))
    return states


class DijkstraReference:
    """The dynamic as a weighted reference of :class:`symcot.prove.symbolic_target.SymbolicTarget`."""

    def initial(self, g: Digraph, source: int) -> DkstState:
        """``Dkst^(0)``."""
        return initial_state(g, source)

    def step(self, g: Digraph, state: DkstState, less: Less) -> DkstState:
        """``Dkst^(t+1)``, every comparison decided by ``less``."""
        return step(g, state, less)

    def steps(self, g: Digraph) -> int:
        """``n - 1`` steps."""
        return g.n - 1


__all__ = ["DijkstraReference", "Less", "dijkstra_symbolic", "initial_state", "step", "symbolic_weights",
           "weight_name", "weight_rows"]
