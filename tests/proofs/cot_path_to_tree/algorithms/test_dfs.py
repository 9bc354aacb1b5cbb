"""The DFS dynamic (proofs.cot_path_to_tree.algorithms.dfs) against networkx, on every small digraph and random ones."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from proofs.cot_path_to_tree.algorithms import DfsState, dfs_dynamic, dfs_moves
from symcot.errors import InvalidInputError
from symcot.inputs import (
    Digraph,
    digraphs_with_sources,
    random_digraph,
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
