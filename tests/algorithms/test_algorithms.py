"""Reference algorithms: the DFS dynamic against networkx, and the phi/psi bijection."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from symcot.algorithms import DfsState, dfs_dynamic, dfs_moves, phi, phi_ordered, psi, psi_adjacency
from symcot.errors import InvalidInputError
from symcot.inputs import (
    Digraph,
    OrderedTree,
    digraphs_with_sources,
    dyck_words,
    heights,
    random_digraph,
    random_labeled_tree,
    rooted_labeled_trees,
)


def _random_cases() -> list[tuple[Digraph, int]]:
    rng = random.Random(20240601)
    cases = []
    for i in range(240):
        n = rng.randint(1, 10)
        p = [0.1, 0.2, 0.3, 0.5, 0.8][i % 5]
        cases.append((random_digraph(n, rng, p), rng.randrange(n)))
    return cases


def _check_against_networkx(g: Digraph, s: int) -> None:
    states = dfs_dynamic(g, s)
    G = g.to_networkx()  # arcs inserted in increasing order: networkx explores lowest index first
    reach = nx.descendants(G, s) | {s}

    # shape of the run
    assert states[0] == DfsState(0, s, (None,) * g.n, frozenset({s}), "init")
    assert [st.t for st in states] == list(range(len(states)))
    assert states[-1].cur is None and states[-1].move == "backtrack"
    assert all(st.cur is not None for st in states[:-1])
    assert len(states) - 1 == 2 * (len(reach) - 1) + 1

    # traverse moves = networkx's forward (tree) edges, in order
    steps = zip(states, states[1:], strict=False)
    traversals = [(prev.cur, st.cur) for prev, st in steps if st.move == "traverse"]
    forward = [(u, v) for u, v, d in nx.dfs_labeled_edges(G, source=s) if d == "forward" and u != v]
    assert traversals == forward

    # final par map = DFS predecessor map; visited set = reachable set
    pred = nx.dfs_predecessors(G, source=s)
    assert states[-1].par == tuple(pred.get(v) for v in range(g.n))
    assert states[-1].vst == frozenset(reach)

    # the dynamic's own rules, step by step
    for prev, st in zip(states, states[1:], strict=False):
        assert prev.cur is not None
        if st.move == "traverse":
            unvisited = [v for v in g.out_neighbors(prev.cur) if v not in prev.vst]
            assert st.cur == min(unvisited)
            assert st.par[st.cur] == prev.cur and st.vst == prev.vst | {st.cur}
        else:
            assert all(v in prev.vst for v in g.out_neighbors(prev.cur))
            assert st.cur == prev.par[prev.cur] and st.par == prev.par and st.vst == prev.vst

    moves = dfs_moves(g, s)
    assert len(moves) == 2 * (len(reach) - 1)
    assert moves == "".join("U" if st.move == "traverse" else "D" for st in states[1:-1])


def test_dfs_matches_networkx_random_digraphs() -> None:
    cases = _random_cases()
    assert len(cases) >= 200 and max(g.n for g, _ in cases) == 10
    for g, s in cases:
        _check_against_networkx(g, s)


@pytest.mark.parametrize("n", range(1, 5))
def test_dfs_matches_networkx_all_small_digraphs(n: int) -> None:
    count = 0
    for g, s in digraphs_with_sources(n):
        _check_against_networkx(g, s)
        count += 1
    assert count == n * 2 ** (n * (n - 1))


@pytest.mark.parametrize("n", range(1, 6))
def test_dfs_matches_networkx_all_rooted_trees(n: int) -> None:
    for t, r in rooted_labeled_trees(n):
        _check_against_networkx(t, r)
        assert len(dfs_dynamic(t, r)) == 2 * n  # init + 2(n-1) moves + final backtrack from r


def test_dfs_example_and_errors() -> None:
    g = Digraph(4, ((0, 2), (0, 1), (1, 3), (2, 1)))
    states = dfs_dynamic(g, 0)
    assert [st.cur for st in states] == [0, 1, 3, 1, 0, 2, 0, None]
    assert states[-1].par == (None, 0, 0, 1)
    assert dfs_moves(g, 0) == "UUDDUD"
    assert dfs_dynamic(Digraph(1, ()), 0) == [
        DfsState(0, 0, (None,), frozenset({0}), "init"),
        DfsState(1, None, (None,), frozenset({0}), "backtrack"),
    ]
    with pytest.raises(InvalidInputError, match="source 4 is not a vertex"):
        dfs_dynamic(g, 4)
    with pytest.raises(InvalidInputError, match="source True is not a vertex"):
        dfs_dynamic(g, True)


# -- phi / psi -------------------------------------------------------------------------------


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
