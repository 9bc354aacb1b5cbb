"""Trees (symcot.inputs.trees): labeled trees in Prüfer order, ordered trees and ψ, validation."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from symcot.errors import InvalidInputError
from symcot.inputs import (
    Digraph,
    OrderedTree,
    dyck_words,
    labeled_tree_count,
    labeled_trees,
    labeled_trees_range,
    ordered_trees,
    prufer_decode,
    prufer_rank,
    prufer_sequence,
    prufer_unrank,
    random_labeled_tree,
    rooted_labeled_trees,
    validate_tree,
)

CATALAN = [1, 1, 2, 5, 14, 42, 132, 429, 1430]


# -- labeled trees ---------------------------------------------------------------------------


def _brute_labeled_trees(n: int) -> set[Digraph]:
    pairs = list(itertools.combinations(range(n), 2))
    out = set()
    for edges in itertools.combinations(pairs, n - 1):
        g = nx.Graph(list(edges))
        g.add_nodes_from(range(n))
        if nx.is_tree(g):
            out.add(Digraph.undirected(n, edges))
    return out


@pytest.mark.parametrize("n", range(1, 7))
def test_labeled_trees_count_distinct_valid(n: int) -> None:
    trees = list(labeled_trees(n))
    expected = 1 if n == 1 else n ** (n - 2)
    assert labeled_tree_count(n) == expected
    assert len(trees) == expected
    assert len(set(trees)) == expected
    for t in trees:
        assert t.n == n and len(t.arcs) == 2 * (n - 1) and t.is_symmetric()
        validate_tree(t, 0)
    if n <= 5:
        assert set(trees) == _brute_labeled_trees(n)


def test_labeled_trees_small_cases() -> None:
    assert list(labeled_trees(1)) == [Digraph(1, ())]
    assert list(labeled_trees(2)) == [Digraph.undirected(2, [(0, 1)])]


@pytest.mark.parametrize("n", range(1, 7))
def test_rooted_labeled_trees_count_and_order(n: int) -> None:
    pairs = list(rooted_labeled_trees(n))
    assert len(pairs) == n ** (n - 1)
    assert len(set(pairs)) == len(pairs)
    trees = list(labeled_trees(n))
    assert pairs == [(t, r) for t in trees for r in range(n)]


@pytest.mark.parametrize("n", range(1, 6))
def test_prufer_rank_unrank_round_trip(n: int) -> None:
    for k, t in enumerate(labeled_trees(n)):
        assert prufer_rank(t) == k
        assert prufer_unrank(n, k) == t
        assert prufer_decode(n, prufer_sequence(t)) == t
    full = list(labeled_trees(n))
    c = len(full)
    for start, stop in [(0, c), (c // 2, c), (1, 3), (c, c + 2), (c - 1, c + 9)]:
        assert list(labeled_trees_range(n, start, stop)) == full[start:stop]


def test_prufer_known_example() -> None:
    # star centred at 0 on 4 vertices: leaves 1, 2 are stripped, each recording 0
    star = Digraph.undirected(4, [(0, 1), (0, 2), (0, 3)])
    assert prufer_sequence(star) == (0, 0)
    assert prufer_rank(star) == 0
    path = Digraph.undirected(4, [(0, 3), (3, 2), (2, 1)])
    assert prufer_sequence(path) == (3, 2)  # strip leaf 0 (nbr 3), then leaf 1 (nbr 2)
    assert prufer_rank(path) == 3 * 4 + 2
    with pytest.raises(InvalidInputError, match="out of range"):
        prufer_unrank(4, 16)


def test_random_labeled_tree_valid_and_covers() -> None:
    rng = random.Random(7)
    seen = set()
    for _ in range(600):
        t = random_labeled_tree(4, rng)
        validate_tree(t, 0)
        seen.add(t)
    assert len(seen) == 16
    assert random_labeled_tree(1, rng) == Digraph(1, ())
    assert random_labeled_tree(6, random.Random(1)) == random_labeled_tree(6, random.Random(1))


# -- ordered trees ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 8))
def test_ordered_trees_count_distinct(n: int) -> None:
    trees = list(ordered_trees(n))
    assert len(trees) == CATALAN[n - 1]
    assert len(set(trees)) == len(trees)
    for t in trees:
        assert t.n == n and len(t.edges()) == n - 1
        validate_tree(t.to_digraph(), 0)


def test_ordered_tree_queries() -> None:
    t = OrderedTree(((1, 4), (2, 3), (), (), ()))
    assert t.n == 5
    assert [t.parent(v) for v in range(5)] == [None, 0, 1, 1, 0]
    assert [t.depth(v) for v in range(5)] == [0, 1, 2, 2, 1]
    assert t.edges() == [(0, 1), (1, 2), (1, 3), (0, 4)]
    assert t.to_digraph() == Digraph.undirected(5, [(0, 1), (1, 2), (1, 3), (0, 4)])
    with pytest.raises(InvalidInputError, match="vertex 5 is not a vertex"):
        t.parent(5)


def test_ordered_tree_validation() -> None:
    with pytest.raises(InvalidInputError, match="preorder"):
        OrderedTree(((2, 1), (), ()))
    with pytest.raises(InvalidInputError, match="child of both 0 and 1"):
        OrderedTree(((1, 2), (2,), ()))
    with pytest.raises(InvalidInputError, match=r"vertices \[2\] have no parent"):
        OrderedTree(((1,), (), ()))
    with pytest.raises(InvalidInputError, match="root 0 is listed as a child"):
        OrderedTree(((1,), (0,)))
    with pytest.raises(InvalidInputError, match="unreachable from the root 0"):
        OrderedTree(((), (2,), (1,)))
    with pytest.raises(InvalidInputError, match="at least one vertex"):
        OrderedTree(())


# -- validate_tree ---------------------------------------------------------------------------


def test_validate_tree_errors() -> None:
    with pytest.raises(InvalidInputError, match=r"disconnected: vertices \{2, 3\} unreachable from root 0"):
        validate_tree(Digraph.undirected(4, [(0, 1), (2, 3)]), 0)
    with pytest.raises(InvalidInputError, match=r"disconnected: vertices \{0, 1\} unreachable from root 3"):
        validate_tree(Digraph.undirected(4, [(0, 1), (2, 3)]), 3)
    with pytest.raises(InvalidInputError, match=r"has a cycle \(0 - 1 - 2 - 0\)"):
        validate_tree(Digraph.undirected(4, [(0, 1), (1, 2), (2, 0), (2, 3)]), 0)
    with pytest.raises(InvalidInputError, match=r"arc \(0, 1\) has no reverse \(1, 0\)"):
        validate_tree(Digraph(2, ((0, 1),)), 0)
    with pytest.raises(InvalidInputError, match="root 3 is not a vertex"):
        validate_tree(Digraph.undirected(3, [(0, 1), (1, 2)]), 3)
    with pytest.raises(InvalidInputError, match="root -1 is not a vertex"):
        validate_tree(Digraph.undirected(3, [(0, 1), (1, 2)]), -1)
    validate_tree(Digraph(1, ()), 0)


# -- ψ and the contour word ------------------------------------------------------------------


def test_from_dyck_is_psi_on_examples() -> None:
    assert OrderedTree.from_dyck("") == OrderedTree(((),))
    assert OrderedTree.from_dyck("UDUD") == OrderedTree(((1, 2), (), ()))
    assert OrderedTree.from_dyck("UUDD") == OrderedTree(((1,), (2,), ()))
    assert OrderedTree.from_dyck("UUDUDD") == OrderedTree(((1,), (2, 3), (), ()))
    with pytest.raises(InvalidInputError, match="D at position 0 goes below zero"):
        OrderedTree.from_dyck("DU")


@pytest.mark.parametrize("m", range(7))
def test_to_dyck_inverts_from_dyck(m: int) -> None:
    words = list(dyck_words(m))
    trees = [OrderedTree.from_dyck(w) for w in words]
    assert [t.to_dyck() for t in trees] == words
    assert len(set(trees)) == len(trees) == CATALAN[m]


@pytest.mark.parametrize("m", range(6))
def test_from_rooted_recovers_the_ordered_tree_of_its_digraph(m: int) -> None:
    for w in dyck_words(m):
        t = OrderedTree.from_dyck(w)
        assert OrderedTree.from_rooted(t.to_digraph(), 0) == t


def test_from_rooted_orders_children_by_label_and_renumbers_in_preorder() -> None:
    g = Digraph.undirected(5, [(3, 4), (3, 0), (0, 2), (3, 1)])  # root 3: children 0, 1, 4; 0 has child 2
    t = OrderedTree.from_rooted(g, 3)
    assert t == OrderedTree(((1, 3, 4), (2,), (), (), ()))
    assert t.to_dyck() == "UUDDUDUD"
    with pytest.raises(InvalidInputError, match="has a cycle"):
        OrderedTree.from_rooted(Digraph.undirected(3, [(0, 1), (1, 2), (2, 0)]), 0)
