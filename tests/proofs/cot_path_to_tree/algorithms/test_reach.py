"""Reachability in first-order form: the breadth-first tree of a graph satisfies the domain fact, and a vertex no
path reaches, or a ``pre`` that is not an arc, breaks it."""

from proofs.cot_path_to_tree.algorithms.reach import breadth_first, reachable
from symcot.algorithms.logic import Concrete


def _c(n, src, arcs, **over):
    arc = lambda i, j: (i, j) in arcs  # noqa: E731 - the graph's arcs as a predicate
    return Concrete({"n": n, "src": src, "arc": arc, **breadth_first(n, src, arc), **over})


def test_the_breadth_first_tree_of_a_reachable_graph_satisfies_reachable():
    arcs = {(0, 1), (1, 2), (0, 3), (3, 2)}
    c = _c(4, 0, arcs)
    assert [c.hop(v) for v in range(4)] == [0, 1, 2, 1] and [c.pre(v) for v in range(4)] == [-1, 0, 1, 0]
    assert all(reachable("arc")(c, v) for v in range(4))


def test_an_unreachable_vertex_or_a_wrong_pre_breaks_it():
    c = _c(3, 0, {(0, 1)})
    assert c.hop(2) == -1 and not reachable("arc")(c, 2) and reachable("arc")(c, 1)
    wrong = _c(3, 0, {(0, 1), (1, 2)}, pre=lambda v: {0: -1, 1: 0, 2: 0}[v])  # (0, 2) is no arc
    assert not reachable("arc")(wrong, 2)
