"""Digraphs (symcot.inputs.graphs): what a Digraph refuses, with the message naming the problem."""

from __future__ import annotations

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from symcot.errors import InvalidInputError
from symcot.inputs import (
    Digraph,
    digraphs_with_sources,
    labeled_trees,
    ordered_trees,
    rooted_labeled_trees,
    simple_digraphs,
)

# -- Digraph validation (symcot.inputs.graphs) -----------------------------------------------


def test_digraph_validation_errors() -> None:
    with pytest.raises(InvalidInputError, match="self-loop at vertex 1"):
        Digraph(3, ((1, 1),))
    with pytest.raises(InvalidInputError, match=r"arc \(0, 1\) appears twice"):
        Digraph(3, ((0, 1), (0, 1)))
    with pytest.raises(InvalidInputError, match=r"weight of arc \(0, 1\) is 0; weights must be positive"):
        Digraph.from_weighted_arcs(2, {(0, 1): 0})
    with pytest.raises(InvalidInputError, match=r"weight of arc \(1, 0\) is -1/2"):
        Digraph.from_weighted_arcs(2, {(0, 1): 1, (1, 0): Fraction(-1, 2)})
    with pytest.raises(InvalidInputError, match="float 0.5.*exact"):
        Digraph.from_weighted_arcs(2, {(0, 1): 0.5})
    with pytest.raises(InvalidInputError, match=r"n >= 1\), got n = 0"):
        Digraph(0, ())
    for make in (labeled_trees, ordered_trees, simple_digraphs, digraphs_with_sources, rooted_labeled_trees):
        with pytest.raises(InvalidInputError, match="at least one vertex"):
            make(0)


# -- what a notebook has: numpy, SymPy, strings, networkx --------------------------------------


def test_networkx_graph_with_named_nodes_is_numbered_and_keeps_the_names():
    g = Digraph.from_networkx(nx.Graph([("b", "c"), ("a", "b")]))
    assert g.labels == ("a", "b", "c") and g.mapping() == {"a": 0, "b": 1, "c": 2}
    assert g == Digraph.undirected(3, [(0, 1), (1, 2)])  # the names are not part of equality
    assert str(g) == "Digraph(n=3; 0->1, 1->0, 1->2, 2->1; 0=a, 1=b, 2=c)"
    assert g.vertex("c") == 2
    with pytest.raises(InvalidInputError, match="'z' is not a vertex; the vertices are 'a', 'b', 'c'"):
        g.vertex("z")


def test_networkx_nodes_of_mixed_types_and_weights():
    d = nx.DiGraph()
    d.add_edge((0, 1), "x", w=2)
    d.add_edge("x", 3, w=1)
    g = Digraph.from_networkx(d, weight="w")
    assert g.n == 3 and g.labels == ((0, 1), "x", 3) and g.weight(0, 1) == 2
    plain = Digraph.from_networkx(nx.path_graph(3, create_using=nx.DiGraph))
    assert plain.labels is None and str(plain) == "Digraph(n=3; 0->1, 1->2)"
    with pytest.raises(InvalidInputError, match="self-loop at node 'a'"):
        Digraph.from_networkx(nx.DiGraph([("a", "a")]))


def test_numpy_integer_arrays_as_arcs():
    arcs = np.array([[0, 1], [1, 2]], dtype=np.int32)
    assert Digraph.from_arcs(np.int64(3), arcs) == Digraph.from_arcs(3, [(0, 1), (1, 2)])
    assert Digraph.undirected(3, arcs) == Digraph.undirected(3, [(0, 1), (1, 2)])
    with pytest.raises(InvalidInputError, match="must hold integers, got dtype float64"):
        Digraph.from_arcs(3, np.array([[0.0, 1.0]]))
    with pytest.raises(InvalidInputError, match="a boolean"):
        Digraph.from_arcs(3, [(True, 1)])


def test_out_arcs_per_vertex_with_weights():
    g = Digraph.from_weighted_arcs(3, {(1, 0): 2, (0, 2): Fraction(1, 3), (0, 1): 5})
    assert g.out_arcs() == (((1, 5), (2, Fraction(1, 3))), ((0, 2),), ())
    assert Digraph.from_arcs(2, [(0, 1)]).out_arcs() == (((1, 1),), ())
