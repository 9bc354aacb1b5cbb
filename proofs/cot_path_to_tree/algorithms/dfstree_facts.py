r"""The DFS dynamic on a graph reachable from its source (a tree ``G_T`` from its root): H1, ``T = 2n - 1``.

Extends :mod:`proofs.cot_path_to_tree.algorithms.dfsstack_facts` (DFS with its stack) by a breadth-first tree
``hop``/``pre`` from ``s`` (:mod:`proofs.cot_path_to_tree.algorithms.reach`).

*Domain*: ``reachable`` (every vertex is reachable from ``s``; a tree is, from its root). *Derived*, each by Z3:
at the end every vertex within ``h`` arcs of ``s`` is visited (``spread``, by induction on ``h``: its ``pre`` is
visited and done, and a done vertex's out-neighbours are visited), so every vertex is (``visited``), all ``n``
(``count-full``), and

* ``tree-steps`` -- ``T = 2n - 1``: H1, the sentence after thm:cotdfs ("the number of required CoT steps is
  2(n-1)", the stop rule firing one step later);
* ``tree-root`` -- after ``2(n - 1)`` steps the traversal is back at ``s`` with every vertex visited.

No fact is proved by hand. Nothing here needs the graph to be a tree: reachability is all the count uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms import reach
from proofs.cot_path_to_tree.algorithms.dfs import dfs_input
from proofs.cot_path_to_tree.algorithms.dfs_facts import VERTEX
from proofs.cot_path_to_tree.algorithms.dfs_facts import inputs as dfs_inputs
from proofs.cot_path_to_tree.algorithms.dfsstack_facts import BOUND, lemma
from proofs.cot_path_to_tree.algorithms.dfsstack_facts import VOCABULARY as DFS_STACK_VOCABULARY
from symcot.algorithms.logic import Direct, Fact, Induction
from symcot.inputs import Digraph

DOMAIN = (
    Fact("reachable", (VERTEX,), reach.reachable("adj"), "domain",
         source="every vertex is reachable from s (a tree G_T from its root), in first-order form: a path "
                "s = pre^h(v) → … → pre(v) → v with h = hop(v) ≤ n - 1 arcs (a breadth-first tree)", lemma=True),
)

DERIVED = (
    *(lemma(f) for f in (
        Fact("spread", (reach.HOPS, VERTEX), lambda c, h, x: c.implies(c.hop(x) <= h, c.vis(c.T, x)), "derived",
             Induction("h"), source="every vertex within h arcs of s is visited at the end (its pre is, and is done)"),
        Fact("visited", (VERTEX,), lambda c, v: c.vis(c.T, v), "derived", Direct(hints=lambda c, v: [c.hop(v), v]),
             source="every vertex is visited at the end (it is within hop(v) ≤ n - 1 arcs of s)"),
        Fact("count-full", (BOUND,), lambda c, k: c.cnt(c.T, k) == k, "derived",
             Induction("k", hints=lambda c, k: [c.T, k]), source="all n vertices are visited at the end"))),
    Fact("tree-steps", (), lambda c: c.T == 2 * c.n - 1, "derived", Direct(),
         source="H1: the run ends with the backtrack from s at step 2n - 1 (\"the number of required CoT steps is "
                "2(n-1)\", the stop rule firing one step later)"),
    Fact("tree-root", (VERTEX,), lambda c, v: c.and_(c.cur(c.T - 1) == c.src, c.vis(c.T - 1, v)), "derived", Direct(),
         source="after 2(n - 1) steps the traversal is back at s with every vertex visited"),
)


def interpret(inp: tuple[Any, int], states: Sequence[Any]) -> dict[str, Any]:
    """The symbols' values on the run of ``inp = (graph, source)``: the stack vocabulary's, ``hop``/``pre`` of a BFS."""
    g = dfs_input(*inp)
    return {**DFS_STACK_VOCABULARY.interpret(inp, states), **reach.breadth_first(g.n, g.src, g.adj)}


def inputs(inp: tuple[Any, Any]) -> dict[str, Any]:
    """The DFS input symbols and, of one input, ``hop``/``pre`` of a BFS: ``reachable`` reads the input alone.

    A batch's stand-in (a graph that is not a :class:`~symcot.inputs.Digraph`) gets the DFS symbols only: no prompt
    reads ``hop`` or ``pre``.
    """
    out = dfs_inputs(inp)
    if isinstance(inp[0], Digraph):
        out.update(reach.breadth_first(out["n"], out["src"], out["adj"]))
    return out


VOCABULARY = DFS_STACK_VOCABULARY.extended("eq:dfsdynamic on a graph reachable from s", reach.SYMBOLS,
                                           DOMAIN + DERIVED, interpret=interpret, inputs=inputs)
