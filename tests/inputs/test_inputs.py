"""Input spaces: counts, distinctness, validity, ranking, ordering and error messages."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import networkx as nx
import pytest

from symcot.errors import InvalidInputError
from symcot.inputs import (
    Digraph,
    OrderedTree,
    catalan,
    digraph_count,
    digraphs_with_sources,
    dyck_rank,
    dyck_unrank,
    dyck_words,
    dyck_words_range,
    heights,
    labeled_tree_count,
    labeled_trees,
    labeled_trees_range,
    ordered_trees,
    prufer_decode,
    prufer_rank,
    prufer_sequence,
    prufer_unrank,
    random_digraph,
    random_labeled_tree,
    rooted_labeled_trees,
    simple_digraphs,
    validate_connected_from,
    validate_dyck,
    validate_tree,
)

CATALAN = [1, 1, 2, 5, 14, 42, 132, 429, 1430]


def _is_dyck(w: str) -> bool:
    h = 0
    for c in w:
        h += {"U": 1, "D": -1}[c]
        if h < 0:
            return False
    return h == 0


# -- Dyck words ----------------------------------------------------------------------------------


@pytest.mark.parametrize("m", range(9))
def test_dyck_words_count_distinct_valid_sorted(m: int) -> None:
    words = list(dyck_words(m))
    assert catalan(m) == CATALAN[m]
    assert len(words) == CATALAN[m]
    assert len(set(words)) == len(words)
    assert all(len(w) == 2 * m and _is_dyck(w) for w in words)
    # lexicographic with U < D: map U -> "0", D -> "1" and compare as strings
    keys = [w.replace("U", "0").replace("D", "1") for w in words]
    assert keys == sorted(keys)


def test_dyck_words_match_brute_force() -> None:
    for m in range(6):
        brute = sorted(
            ("".join(p) for p in itertools.product("UD", repeat=2 * m) if _is_dyck("".join(p))),
            key=lambda w: w.replace("U", "0").replace("D", "1"),
        )
        assert list(dyck_words(m)) == brute


def test_dyck_small_cases() -> None:
    assert list(dyck_words(0)) == [""]
    assert list(dyck_words(2)) == ["UUDD", "UDUD"]
    assert dyck_rank("") == 0
    assert dyck_unrank(0, 0) == ""


@pytest.mark.parametrize("m", range(8))
def test_dyck_rank_unrank_round_trip(m: int) -> None:
    for k, w in enumerate(dyck_words(m)):
        assert dyck_rank(w) == k
        assert dyck_unrank(m, k) == w


def test_dyck_words_range_matches_slices() -> None:
    for m in range(7):
        full = list(dyck_words(m))
        c = len(full)
        for start, stop in [(0, c), (0, 1), (1, c), (c // 3, 2 * c // 3 + 1), (c - 1, c), (c, c + 5), (2, 1)]:
            assert list(dyck_words_range(m, start, stop)) == full[start:stop], (m, start, stop)
        assert list(dyck_words_range(m, 0, c + 10)) == full


def test_dyck_unrank_out_of_range() -> None:
    with pytest.raises(InvalidInputError, match=r"rank 5 out of range.*0\.\.4"):
        dyck_unrank(3, 5)
    with pytest.raises(InvalidInputError, match="rank -1 out of range"):
        dyck_unrank(3, -1)
    with pytest.raises(InvalidInputError, match="start must be >= 0"):
        dyck_words_range(3, -1, 2)
    with pytest.raises(InvalidInputError, match="semilength m must be >= 0"):
        dyck_words(-1)
    with pytest.raises(InvalidInputError, match="integer"):
        catalan(2.0)  # type: ignore[arg-type]


def test_heights() -> None:
    assert heights("") == [0]
    assert heights("UUDUDD") == [0, 1, 2, 1, 2, 1, 0]
    assert heights("DU") == [0, -1, 0]  # any U/D word, not only Dyck words
    for w in dyck_words(5):
        hs = heights(w)
        assert len(hs) == len(w) + 1 and hs[0] == 0 and hs[-1] == 0 and min(hs) == 0


def test_validate_dyck_accepts_and_returns() -> None:
    assert validate_dyck("") == ""
    assert validate_dyck("UDUUDD") == "UDUUDD"


def test_validate_dyck_bad_letter_names_letter_and_position() -> None:
    with pytest.raises(InvalidInputError, match=r"letter 'x' at position 2.*use U .* and D"):
        validate_dyck("UDxD")
    with pytest.raises(InvalidInputError, match=r"letter 'u' at position 0"):
        validate_dyck("ud")
    with pytest.raises(InvalidInputError, match="string"):
        validate_dyck(["U", "D"])  # type: ignore[arg-type]


def test_validate_dyck_dip_names_position() -> None:
    with pytest.raises(InvalidInputError, match=r"D at position 2 goes below zero"):
        validate_dyck("UDDU")
    with pytest.raises(InvalidInputError, match=r"D at position 0 goes below zero"):
        validate_dyck("DU")


def test_validate_dyck_unbalanced_names_height() -> None:
    with pytest.raises(InvalidInputError, match=r"unbalanced.*ends at height 2"):
        validate_dyck("UUDUU" + "D")
    with pytest.raises(InvalidInputError, match=r"ends at height 1"):
        validate_dyck("U")


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


# -- simple digraphs -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3])
def test_simple_digraphs_count_distinct_order(n: int) -> None:
    gs = list(simple_digraphs(n))
    assert digraph_count(n) == 2 ** (n * (n - 1))
    assert len(gs) == 2 ** (n * (n - 1))
    assert len(set(gs)) == len(gs)
    assert all(g.n == n and g.weights is None for g in gs)
    keys = [(len(g.arcs), g.arcs) for g in gs]
    assert keys == sorted(keys)
    assert gs[0].arcs == ()
    assert len(gs[-1].arcs) == n * (n - 1)
    pairs = list(digraphs_with_sources(n))
    assert len(pairs) == n * 2 ** (n * (n - 1))
    assert pairs == [(g, s) for g in gs for s in range(n)]


def test_simple_digraphs_n4_count() -> None:
    assert sum(1 for _ in simple_digraphs(4)) == 4096


def test_random_digraph() -> None:
    rng = random.Random(3)
    assert random_digraph(5, rng, 0.0).arcs == ()
    assert len(random_digraph(5, rng, 1.0).arcs) == 20
    arcs = sum(len(random_digraph(8, rng, 0.3).arcs) for _ in range(200))
    assert 0.25 * 56 * 200 < arcs < 0.35 * 56 * 200
    with pytest.raises(InvalidInputError, match="probability"):
        random_digraph(3, rng, 1.5)


def test_validate_connected_from() -> None:
    g = Digraph(4, ((0, 1), (1, 2), (3, 0)))
    validate_connected_from(g, 3)
    with pytest.raises(InvalidInputError, match=r"source 0: vertices \{3\} are unreachable"):
        validate_connected_from(g, 0)
    with pytest.raises(InvalidInputError, match=r"vertices \{0, 1, 3\}"):
        validate_connected_from(g, 2)
    with pytest.raises(InvalidInputError, match="source 4 is not a vertex"):
        validate_connected_from(g, 4)
