r"""BFS with the width fold and the source's relaxed-back distance: the runs of thm:cotwidoftree as written.

The as-written reading of thm:cotwidoftree (app:cotwid) encodes "weights in ``{1, ∞}``" with ``∞`` on the diagonal
too (``a_ii = λ``), and ``y_0`` carries ``π_dis = λ^n``: layer 1's relaxation ``min(π_dis[j], π_crd + a_{cur,j})``
then never sets the source's own coordinate to ``Dist[s] = 0``. It stays ``λ`` until an arc ``(u, s)`` from a
current vertex ``u`` is relaxed, and is then the least ``Dist[u] + a_us`` over those arcs. Extends
:mod:`proofs.cot_path_to_tree.algorithms.widthtree_facts` (the same symbols, facts and views) with that coordinate:

* ``back(τ)`` -- some arc ``(cur^(τ'), s)``, ``τ' < τ``, has been relaxed;
* ``bdist(τ)`` -- the least ``Dist^(τ')[cur^(τ')] + a_{cur^(τ'), s}`` over those arcs (``0`` while there is none).

The definitions are those of the transition
:data:`~proofs.cot_path_to_tree.algorithms.dijkstra.WIDTH_BFS_SOURCE` (:data:`WIDTH_BFS` with the source's coordinate
relaxed from ``∞``). No hand fact. Derived, by Z3:

* ``back-range`` -- where an arc into the source was relaxed, ``1 ≤ bdist ≤ (n - 1)·W``: the relaxed-back distance is
  a relaxation candidate on a moving step (``candidate``), so below ``λ = 1 + (n - 1)·W`` (app:cotdij's "λ is a
  sufficiently large constant"): ``π_dis[s]`` never exceeds ``λ``, the bound layer 2's ``γ`` and layer 1's ReLU need.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.dfs_facts import MOVE, STEP
from proofs.cot_path_to_tree.algorithms.dijkstra import SOURCE_BACK_STATE, WIDTH_BFS_SOURCE, weighted_input
from proofs.cot_path_to_tree.algorithms.widthtree_facts import VOCABULARY as WIDTH
from symcot.algorithms.logic import Fact, Induction
from symcot.algorithms.transition import definitions, interpretation, run

_BACK = {v.name for v in SOURCE_BACK_STATE}

SYMBOLS = tuple(sig for sig in WIDTH_BFS_SOURCE.symbols() if sig.name in _BACK)

#: The definitions of ``back`` and ``bdist`` (``init:back``, ``step:bdist``, …; the rest are the width vocabulary's).
DEFINITION = tuple(f for f in definitions(WIDTH_BFS_SOURCE, MOVE, STEP) if f.name.partition(":")[2] in _BACK)


def _back_range(c: Any, t: Any) -> Any:
    return c.implies(c.back(t), c.and_(1 <= c.bdist(t), c.bdist(t) <= (c.n - 1) * c.W))


DERIVED = (
    Fact("back-range", (STEP,), _back_range, "derived",
         Induction("τ", hints=lambda c, t: [t, c.cur(t), c.src]),
         source="the source's relaxed-back distance is a relaxation candidate Dist[u] + a_us ≥ 1 of a moving step, "
                "at most (n - 1)·W (candidate): below λ = 1 + (n - 1)·W (app:cotdij: \"λ is a sufficiently large "
                "constant\")"),
)


def interpret(inp: tuple[Any, int], states: Sequence[Any]) -> dict[str, Any]:
    """The symbols' values on the run of ``inp = (tree, root)``: the width vocabulary's, and ``back``, ``bdist``.

    The latter from a run of :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.WIDTH_BFS_SOURCE`.
    """
    src = interpretation(WIDTH_BFS_SOURCE, run(WIDTH_BFS_SOURCE, weighted_input(*inp)))
    return {**WIDTH.interpret(inp, states), **{k: src[k] for k in _BACK}}


VOCABULARY = WIDTH.extended("obs:dynamicwidbfs on Dkst (BFS), the source relaxed from ∞", SYMBOLS,
                            DEFINITION + DERIVED, {}, interpret)
