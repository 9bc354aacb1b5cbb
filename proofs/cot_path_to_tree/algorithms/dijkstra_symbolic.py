r"""The Dijkstra dynamic ``Dkst^(t)`` of Section 2.1 with symbolic weights: every comparison is a decision.

Paper: Section 2.1, "Dijkstra Algorithm". This is :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.DIJKSTRA`
read with :class:`~symcot.algorithms.transition.DecidingOps`: the weights ``a_ij`` may be symbols (or any
values the caller can compare), and the two places the dynamic compares numbers are handed to a callback
``less(a, b)`` (``a < b``), so a symbolic engine can decide them under a path condition and fork.

* *Relaxation.* ``Dist^(t+1)[j] = min(Dist^(t)[j], Dist^(t)[i] + a_ij)``: the candidate replaces
  ``Dist^(t)[j]`` only when it is *strictly* smaller (``less(cand, Dist^(t)[j])``); ``∞`` never needs a
  decision (a finite value always replaces it).
* *Selection.* ``cur^(t+1) = argmin_j {Dist^(t+1)[j] | vst^(t)(v_j) = 0}``, lowest index among ties:
  the unvisited vertices are scanned in index order and ``j`` replaces the best so far only when
  ``less(Dist[j], Dist[best])``.

With ``less = lambda a, b: a < b`` on exact numbers the states are those of ``dijkstra_dynamic``
(tests check it on every small input). The graph's topology is validated with unit weights; the
weights themselves are whatever the digraph carries (:func:`symbolic_weights` puts one symbol per arc).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from proofs.cot_path_to_tree.algorithms.dijkstra import (
    DIJKSTRA,
    INF,
    DkstState,
    dkst_state,
    validate_dijkstra_input,
    weighted_input,
)
from symcot.algorithms.transition import DecidingOps, initial, step_once
from symcot.inputs.graphs import Digraph
from symcot.inputs.weighted import symbolic_weights, weight_name

#: ``less(a, b)``: whether ``a < b`` (finite values only; the caller decides or forks).
Less = Callable[[Any, Any], bool]


def initial_state(g: Digraph, source: int) -> DkstState:
    """``Dkst^(0)``: ``Dist[p] = 0``, every other ``∞``, ``cur = vst = {p}``; the topology is validated."""
    validate_dijkstra_input(Digraph(g.n, g.arcs), source)
    return dkst_state(initial(DIJKSTRA, weighted_input(g, source)))


def _as_state(st: DkstState) -> dict[str, Any]:
    return {"t": st.t, "cur": st.cur, "dist": tuple(0 if d is INF else d for d in st.dist),
            "fin": tuple(d is not INF for d in st.dist), "vis": tuple(v in st.vst for v in range(len(st.dist)))}


def step(g: Digraph, state: DkstState, less: Less) -> DkstState:
    """``Dkst^(t) → Dkst^(t+1)``, every comparison decided by ``less``.

    One step of :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.DIJKSTRA` read with ``DecidingOps``.
    """
    inp = weighted_input(g, state.cur)
    new, _ = step_once(DIJKSTRA, inp, _as_state(state), DecidingOps(DIJKSTRA, inp, less), state.t)
    if new["cur"] == -1:
        raise ValueError("no reachable unvisited vertex: the topology was validated, so this cannot happen")
    return dkst_state(new)


def dijkstra_symbolic(g: Digraph, source: int, less: Less) -> list[DkstState]:
    """The ``n`` states ``Dkst^(0) … Dkst^(n-1)``, every comparison decided by ``less``."""
    states = [initial_state(g, source)]
    for _ in range(1, g.n):
        states.append(step(g, states[-1], less))
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
           "weight_name"]
