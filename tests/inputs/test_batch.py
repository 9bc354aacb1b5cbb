"""Batches of Dyck words and ordered trees: the enumerators' inputs, in rank order, as arrays."""

import numpy as np
import pytest

from symcot.errors import InvalidInputError
from symcot.inputs import Digraph, OrderedTree, catalan, dyck_words_range
from symcot.inputs.batch import (
    DigraphColumns,
    RaggedArcs,
    WordColumns,
    adjacency_from_parents,
    parents_from_words,
    tree_batch,
    unrank_words,
    word_batch,
)
from symcot.inputs.dyck import heights
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS, ordered_rooted_trees, words_by_rank


@pytest.mark.parametrize("size", range(1, 10))
def test_every_word_and_tree_up_to_9_vertices_in_rank_order(size):
    words = word_batch(size, 0, 10**9)
    assert words.count == catalan(size - 1)
    assert [words.item(i) for i in range(words.count)] == list(words_by_rank(size))
    trees = tree_batch(size, 0, 10**9)
    items = list(ordered_rooted_trees(size))
    assert [trees.item(i) for i in range(trees.count)] == items
    for i, (g, root) in enumerate(items):
        t = OrderedTree.from_dyck(trees.word(i))
        assert trees.parents[i].tolist() == [-1] + [t.parent(v) for v in range(1, size)]
        assert trees.adjacency[i].tolist() == g.adjacency() and root == 0
    assert np.array_equal(words.parents, trees.parents) and not trees.roots.any()


def test_a_rank_range_in_the_middle_and_its_clipping():
    assert [word_batch(12, 1000, 3000).item(i) for i in range(2000)] == list(words_by_rank(12, 1000, 3000))
    last = word_batch(8, catalan(7) - 3, 10**9)
    assert last.count == 3 and last.start == catalan(7) - 3
    assert word_batch(8, 5, 5).count == 0
    assert unrank_words(3, 2, 4).tolist() == [[1 if c == "U" else -1 for c in w] for w in dyck_words_range(3, 2, 4)]
    with pytest.raises(InvalidInputError, match="rank range"):
        unrank_words(3, 4, 2)
    with pytest.raises(InvalidInputError, match="size"):
        word_batch(0, 0, 1)


def test_rows_of_a_batch():
    b = tree_batch(6, 10, 20)
    sub = b.rows(np.array([1, 4]))
    assert [sub.item(i) for i in range(2)] == [b.item(1), b.item(4)]
    w = word_batch(6, 10, 20).rows(np.arange(10) % 2 == 0)
    assert [w.item(i) for i in range(5)] == list(words_by_rank(6, 10, 20))[::2]


def test_psi_on_arrays_against_from_dyck_and_parents_in_any_labelling():
    words = unrank_words(5, 0, catalan(5))
    parents = parents_from_words(words)
    for row, par in zip(words, parents):
        w = "".join("U" if x > 0 else "D" for x in row)
        t = OrderedTree.from_dyck(w)
        assert par.tolist() == [-1] + [t.parent(v) for v in range(1, 6)]
    adj = adjacency_from_parents(np.array([[2, 2, -1, 0]]))  # root 2, children 0 and 1; 3 under 0
    assert adj[0].tolist() == Digraph.undirected(4, [(2, 0), (2, 1), (0, 3)]).adjacency()


def test_the_stand_ins_read_as_one_input():
    words = word_batch(4, 0, 5)
    cols = words.stand_in
    assert isinstance(cols, WordColumns) and len(cols) == 6
    assert ["".join(c[i] for c in cols) for i in range(5)] == [words.item(i) for i in range(5)]
    hs = heights(cols)  # heights() hands the stand-in to it
    assert [[int(h[i]) for h in hs] for i in range(5)] == [heights(words.item(i)) for i in range(5)]
    trees = tree_batch(4, 0, 5)
    g, root = trees.stand_in
    assert isinstance(g, DigraphColumns) and g.n == 4 and root == 0 and g.weights is None
    a = g.adjacency()
    for i in range(5):
        gi = trees.item(i)[0]
        assert [[int(a[u][v][i]) for v in range(4)] for u in range(4)] == gi.adjacency()
        arcs = g.out_arcs()
        assert all(isinstance(x, RaggedArcs) for x in arcs)
        assert tuple(x.value(i) for x in arcs) == gi.out_arcs()


def test_families_hand_out_batches():
    fam = NONEMPTY_DYCK_WORDS
    assert fam.batch_range(1, 0, 5).count == 0  # below the family's domain
    b = fam.batch_range(5, 3, 9)
    assert [b.item(i) for i in range(b.count)] == list(fam.inputs(5))[3:9]
