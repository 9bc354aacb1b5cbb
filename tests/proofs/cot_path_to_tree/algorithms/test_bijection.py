"""The bijection of lem:bijectionpathtree (proofs.cot_path_to_tree.algorithms.bijection): φ, ψ and Algorithm 1."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from proofs.cot_path_to_tree.algorithms import dfs_dynamic, phi, phi_ordered, psi, psi_adjacency
from symcot.errors import InvalidInputError
from symcot.inputs import (
    Digraph,
    OrderedTree,
    dyck_words,
    heights,
    random_labeled_tree,
    rooted_labeled_trees,
)


def _preorder_relabel(t: Digraph, r: int) -> Digraph:
    """Relabel a rooted tree by the order in which the DFS dynamic first enters each vertex."""
    order = [r] + [st.cur for st in dfs_dynamic(t, r) if st.move == "traverse"]
    new = {v: i for i, v in enumerate(order)}
    return Digraph(t.n, tuple((new[u], new[v]) for u, v in t.arcs))


@pytest.mark.parametrize("n", range(1, 6))
def test_phi_psi_round_trip_rooted_trees(n: int) -> None:
    for t, r in rooted_labeled_trees(n):
        w = phi(t, r)
        assert len(w) == 2 * (n - 1)
        tree = psi(w)
        assert tree.n == n
        assert phi_ordered(tree) == w
        # psi(phi(T, r)) is T relabeled in DFS preorder, root first
        assert tree.to_digraph() == _preorder_relabel(t, r)


def test_phi_random_larger_trees() -> None:
    rng = random.Random(11)
    for _ in range(50):
        n = rng.randint(1, 40)
        t, r = random_labeled_tree(n, rng), rng.randrange(n)
        w = phi(t, r)
        assert len(w) == 2 * (n - 1)
        assert phi_ordered(psi(w)) == w


@pytest.mark.parametrize("m", range(8))
def test_phi_ordered_inverts_psi(m: int) -> None:
    trees = []
    for w in dyck_words(m):
        tree = psi(w)
        assert tree.n == m + 1
        assert phi_ordered(tree) == w
        trees.append(tree)
    assert len(set(trees)) == len(trees)


@pytest.mark.parametrize("m", range(7))
def test_psi_adjacency_is_algorithm_1(m: int) -> None:
    for w in dyck_words(m):
        tree = psi(w)
        assert psi_adjacency(w) == tree.to_digraph().adjacency()
        # phi on the labeled tree, rooted at 0, recovers w: psi numbers children left to right
        assert phi(tree.to_digraph(), 0) == w


def test_psi_examples() -> None:
    assert psi("") == OrderedTree(((),))
    assert psi("UDUD") == OrderedTree(((1, 2), (), ()))
    assert psi("UUDD") == OrderedTree(((1,), (2,), ()))
    assert psi_adjacency("") == [[0]]
    assert psi_adjacency("UDUD") == [[0, 1, 1], [1, 0, 0], [1, 0, 0]]


def test_bijection_errors() -> None:
    with pytest.raises(InvalidInputError, match="D at position 0 goes below zero"):
        psi("DU")
    with pytest.raises(InvalidInputError, match="ends at height 1"):
        psi_adjacency("UUD")
    with pytest.raises(InvalidInputError, match="has a cycle"):
        phi(Digraph.undirected(3, [(0, 1), (1, 2), (2, 0)]), 0)
    with pytest.raises(InvalidInputError, match=r"disconnected: vertices \{2\}"):
        phi(Digraph.undirected(3, [(0, 1)]), 0)


@pytest.mark.parametrize("n", range(2, 6))
def test_height_and_width_propositions(n: int) -> None:
    """Propositions heightpathtree and widthpathtree on every rooted labeled tree."""
    for t, r in rooted_labeled_trees(n):
        depth = nx.single_source_shortest_path_length(t.to_networkx(), r)
        hgt = max(depth.values())
        wid = max(sum(1 for d in depth.values() if d == k) for k in range(hgt + 1))
        s = heights(phi(t, r))
        assert max(s) == hgt
        ups = [
            sum(1 for i in range(1, len(s)) if s[i] == level and s[i] - s[i - 1] == 1)
            for level in range(1, hgt + 1)
        ]
        assert max(ups) == wid


@pytest.mark.parametrize("n", range(1, 6))
def test_phi_is_the_contour_word_of_the_ordered_tree_with_children_by_label(n: int) -> None:
    """φ (the DFS dynamic's moves) and ``OrderedTree.from_rooted(...).to_dyck()`` (inputs) agree everywhere."""
    for t, r in rooted_labeled_trees(n):
        assert OrderedTree.from_rooted(t, r).to_dyck() == phi(t, r)
