"""Reference Dkst/BFS/width (Section 2.1-2.2) against networkx, the weighted input families, validation."""

from __future__ import annotations

import random
from fractions import Fraction

import networkx as nx
import pytest

from proofs.cot_path_to_tree.algorithms.dijkstra import (
    INF,
    bfs_dynamic,
    bfs_levels,
    bfs_width_dynamic,
    dijkstra_dynamic,
    state_text,
    tree_depths,
    tree_width,
    widsup,
    width_dynamic,
    width_update_rule,
)
from symcot.errors import InvalidInputError
from symcot.inputs import Digraph, ordered_trees, random_digraph, random_labeled_tree, rooted_labeled_trees
from symcot.inputs.digraphs import reachable_from
from symcot.inputs.weighted import (
    connected_count,
    connected_digraphs_with_sources,
    random_weighted_digraph,
    validate_weighted,
    weighted_digraphs_with_sources,
)


def _nx_weighted(g: Digraph) -> nx.DiGraph:
    return g.to_networkx()


def test_infinity_sentinel_orders_and_absorbs():
    assert INF > 10**9 and Fraction(1, 3) < INF and not INF < 5 and INF == INF
    assert 3 + INF is INF and INF + Fraction(1, 2) is INF
    assert min(INF, 7) == 7 and min(Fraction(5, 2), INF) == Fraction(5, 2)
    assert str(INF) == "∞"


def _check_run(g: Digraph, s: int) -> None:
    states = dijkstra_dynamic(g, s)
    assert len(states) == g.n and [st.t for st in states] == list(range(g.n))
    assert states[0].cur == s and states[0].vst == {s} and states[0].dist[s] == 0
    assert all(d is INF for v, d in enumerate(states[0].dist) if v != s)
    # final distances = networkx's single-source Dijkstra (exact rationals)
    want = nx.single_source_dijkstra_path_length(_nx_weighted(g), s)
    assert list(states[-1].dist) == [want[v] for v in range(g.n)]
    # the rules of Section 2.1, step by step
    a = {(u, v): w for (u, v), w in zip(g.arcs, g.weights or (1,) * len(g.arcs))}
    for prev, st in zip(states, states[1:]):
        relaxed = [min(prev.dist[j], prev.dist[prev.cur] + a.get((prev.cur, j), INF)) for j in range(g.n)]
        assert list(st.dist) == relaxed
        unvisited = [j for j in range(g.n) if j not in prev.vst]
        best = min(relaxed[j] for j in unvisited)
        assert st.cur == min(j for j in unvisited if relaxed[j] == best)  # lowest index among ties
        assert st.vst == prev.vst | {st.cur}
    # visiting order is by final distance
    order = [st.cur for st in states]
    final = states[-1].dist
    assert all(final[u] <= final[v] for u, v in zip(order, order[1:]))


def test_dijkstra_matches_networkx_on_random_rational_graphs():
    rng = random.Random(7)
    for k in range(150):
        g, s = random_weighted_digraph(rng.randint(1, 9), rng, p=[0.1, 0.3, 0.6][k % 3])
        _check_run(g, s)


def test_dijkstra_matches_networkx_exhaustively_small():
    for n in (1, 2, 3):
        for g, s in weighted_digraphs_with_sources(n):
            _check_run(g, s)


def test_bfs_is_the_unit_weight_case_and_levels_match_networkx():
    rng = random.Random(11)
    for _ in range(150):
        n = rng.randint(1, 9)
        g = random_digraph(n, rng, 0.35)
        s = rng.randrange(n)
        if len(reachable_from(g, s)) != n:
            with pytest.raises(InvalidInputError, match="unreachable"):
                bfs_dynamic(g, s)
            continue
        levels = bfs_levels(g, s)
        assert levels == [sorted(x) for x in nx.bfs_layers(g.to_networkx(), [s])]
        dist = bfs_dynamic(g, s)[-1].dist
        assert all(dist[v] == k for k, lev in enumerate(levels) for v in lev)


def test_tree_width_from_depths_matches_networkx_layers():
    rng = random.Random(5)
    for _ in range(200):
        n = rng.randint(1, 12)
        t, r = random_labeled_tree(n, rng), rng.randrange(n)
        deps = tree_depths(t, r)
        assert deps == [nx.shortest_path_length(t.to_networkx(), r, v) for v in range(n)]
        assert tree_width(t, r) == max(len(x) for x in nx.bfs_layers(t.to_networkx(), [r]))


def test_width_readings_on_the_two_smallest_counterexamples():
    star = Digraph.undirected(3, [(0, 1), (0, 2)])
    st = bfs_dynamic(star, 0)
    assert width_dynamic(st, "as-written") == [(1, 1), (1, 1), (2, 1)]  # mwd^(2) = max_{t'<2} twd = 1
    assert width_dynamic(st, "repaired") == [(1, 1), (1, 1), (2, 2)]
    assert tree_width(star, 0) == 2
    t4 = next(t for t in ordered_trees(4) if t.children == ((1, 3), (2,), (), ()))
    st = bfs_dynamic(t4.to_digraph(), 0)
    assert width_dynamic(st, "as-written")[2][0] == 0  # vertex 2 (depth 2) has Dist 2 before 3 is visited
    assert width_dynamic(st, "twd-repaired")[2][0] == 2  # vertices 1 and 3 at depth 1
    assert [x[1:] for x in width_update_rule(st)] == [(1, 1), (1, 1), (2, 2), (1, 2)]
    assert width_dynamic(st, "repaired") == [(1, 1), (1, 1), (2, 2), (1, 2)]


def test_update_rule_equals_repaired_definition_and_width_on_all_small_rooted_trees():
    for n in range(1, 7):
        for t, r in rooted_labeled_trees(n):
            states = bfs_width_dynamic(t, r)
            rule = width_update_rule(states)
            assert [(s.twd, s.mwd) for s in states] == [x[1:] for x in rule]
            assert states[-1].mwd == tree_width(t, r)
            assert all(d in (0, 1) for d, _, _ in rule)


def test_widsup_is_lemma_f_and_refuses_other_differences():
    assert widsup(0, 2, 2) == (3, 3) and widsup(0, 1, 4) == (2, 4) and widsup(1, 5, 5) == (1, 5)
    with pytest.raises(ValueError, match="dif"):
        widsup(2, 1, 1)


def test_counts_match_enumeration():
    for c, ws in ((1, (1,)), (2, (1, 2)), (3, (1, 2, 3))):
        for n in (1, 2, 3):
            assert connected_count(n, c) == sum(1 for _ in weighted_digraphs_with_sources(n, ws))
    assert connected_count(4) == sum(1 for _ in connected_digraphs_with_sources(4)) == 9728
    assert [connected_count(n, 3) for n in (1, 2, 3, 4)] == [1, 24, 10368, 62816256]


def test_enumeration_order_is_fewest_arcs_then_source_then_weights():
    got = [(g.arcs, s, g.weights) for g, s in weighted_digraphs_with_sources(2, (1, 2))]
    assert got[:3] == [(((0, 1),), 0, (1,)), (((0, 1),), 0, (2,)), (((1, 0),), 1, (1,))]
    assert all(len(reachable_from(g, s)) == g.n for g, s in weighted_digraphs_with_sources(3))


def test_invalid_inputs_are_rejected_clearly():
    with pytest.raises(InvalidInputError, match="weights must be positive"):
        Digraph.from_weighted_arcs(2, {(0, 1): 0})
    with pytest.raises(InvalidInputError, match="weights must be positive"):
        Digraph.from_weighted_arcs(2, {(0, 1): "-1/2"})
    with pytest.raises(InvalidInputError, match="self-loop"):
        Digraph.from_weighted_arcs(2, {(1, 1): 3})
    with pytest.raises(InvalidInputError, match="float"):
        Digraph.from_weighted_arcs(2, {(0, 1): 0.5})
    g = Digraph.from_weighted_arcs(3, {(0, 1): 2, (2, 1): 1})
    with pytest.raises(InvalidInputError, match=r"not connected from source 0: vertices \{2\} are unreachable"):
        dijkstra_dynamic(g, 0)
    with pytest.raises(InvalidInputError, match="unreachable"):
        validate_weighted(g, 0)
    with pytest.raises(InvalidInputError, match="source 3"):
        dijkstra_dynamic(g, 3)
    with pytest.raises(InvalidInputError, match="A = {1, ∞}"):
        bfs_dynamic(Digraph.from_weighted_arcs(2, {(0, 1): 2}), 0)
    with pytest.raises(InvalidInputError, match="not a tree"):
        tree_width(Digraph.from_arcs(2, [(0, 1)]), 0)
    with pytest.raises(InvalidInputError, match="weights must be exact positive"):
        list(weighted_digraphs_with_sources(2, (0, 1)))


def test_state_text_is_exact():
    g = Digraph.from_weighted_arcs(2, {(0, 1): "3/2"})
    assert state_text(dijkstra_dynamic(g, 0)[1]) == "t=1: cur=v1, Dist=[0, 3/2], vst=[0, 1]"
