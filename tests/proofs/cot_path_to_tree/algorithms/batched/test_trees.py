"""Tree quantities on batches of parent arrays equal the per-input definitions."""

import numpy as np
import pytest

from proofs.cot_path_to_tree.algorithms.batched.dfs import dfs_dynamic_batch
from proofs.cot_path_to_tree.algorithms.batched.trees import (
    DFS_MEMO,
    adjacency_batch,
    adjacency_of_psi,
    depths_batch,
    phi_of,
    strahler_batch,
    strahler_of,
    strahler_of_psi,
    tree_width_batch,
    width_of,
    width_of_psi,
)
from proofs.cot_path_to_tree.algorithms.bijection import phi, psi
from proofs.cot_path_to_tree.algorithms.dijkstra import tree_depths, tree_width
from proofs.cot_path_to_tree.algorithms.paths import strahler, tree_adjacency
from proofs.cot_path_to_tree.algorithms.paths import tree_width as ordered_width
from proofs.cot_path_to_tree.algorithms.strahler import strahler_number
from symcot.errors import InvalidInputError
from symcot.inputs import rooted_labeled_trees
from symcot.inputs.batch import DigraphColumns, tree_batch, word_batch


@pytest.mark.parametrize("size", range(1, 10))
def test_every_ordered_tree_up_to_9_vertices(size):
    t = tree_batch(size, 0, 10**9)
    items = [t.item(i) for i in range(t.count)]
    assert depths_batch(t.parents).tolist() == [tree_depths(*x) for x in items]
    assert tree_width_batch(t.parents).tolist() == [tree_width(*x) for x in items]
    assert strahler_batch(t.parents).tolist() == [strahler_number(*x) for x in items]
    w = word_batch(size, 0, 10**9)
    trees = [psi(w.item(i)) for i in range(w.count)]
    assert tree_width_batch(w.parents).tolist() == [ordered_width(x) for x in trees]
    assert strahler_batch(w.parents).tolist() == [strahler(x) for x in trees]
    assert strahler_batch(w.parents, leaf=1).tolist() == [strahler(x, leaf=1) for x in trees]
    assert adjacency_batch(w.parents).tolist() == [tree_adjacency(x) for x in trees]


@pytest.mark.parametrize("size", range(1, 6))
def test_labeled_trees_with_every_root_not_in_preorder(size):
    items = list(rooted_labeled_trees(size))
    parents = np.full((len(items), size), -1, dtype=np.int64)
    for b, (g, root) in enumerate(items):
        dep = tree_depths(g, root)
        for u, v in g.arcs:
            if dep[v] == dep[u] + 1:
                parents[b, v] = u
    assert tree_width_batch(parents).tolist() == [tree_width(*x) for x in items]
    assert strahler_batch(parents).tolist() == [strahler_number(*x) for x in items]


def _rows(v, count):
    return np.broadcast_to(np.asarray(v), (count, *np.shape(v)[1:])).tolist()


@pytest.mark.parametrize("size", range(1, 9))
def test_the_answers_of_one_input_or_of_every_row_of_a_stand_in(size):
    """The per-input definition on one input; every row's value, the same, on a batch's stand-in."""
    t = tree_batch(size, 0, 10**9)
    items = [t.item(i) for i in range(t.count)]
    for answer, one in ((width_of, tree_width), (strahler_of, strahler_number), (phi_of, phi)):
        want = [one(*x) for x in items]
        assert [answer(*x) for x in items] == want
        assert _rows(answer(*t.stand_in), t.count) == want
    w = word_batch(size, 0, 10**9)
    words = [w.item(i) for i in range(w.count)]
    for answer, one in ((width_of_psi, lambda x: ordered_width(psi(x))), (strahler_of_psi, lambda x: strahler(psi(x))),
                        (adjacency_of_psi, lambda x: [v for row in tree_adjacency(psi(x)) for v in row])):
        want = [one(x) for x in words]
        assert [answer(x) for x in words] == want
        assert _rows(answer(w.stand_in), w.count) == want


def test_a_stand_in_without_parent_arrays_or_rooted_elsewhere_is_refused():
    t = tree_batch(4, 0, 10**9)
    g, _ = t.stand_in
    with pytest.raises(InvalidInputError):
        width_of(g, 1)
    with pytest.raises(InvalidInputError):
        strahler_of(DigraphColumns(t.adjacency), 0)


def test_phi_on_a_stand_in_reads_the_dfs_run_the_batch_keeps():
    t = tree_batch(5, 0, 10**9)
    kept = dfs_dynamic_batch(t.adjacency, t.roots)
    assert t.memo(DFS_MEMO, lambda: kept) is kept
    calls = []
    g, root = t.stand_in
    g.memo = lambda key, compute: calls.append(key) or t.memo(key, compute)
    assert phi_of(g, root).tolist() == [phi(*t.item(r)) for r in range(t.count)] and calls == [DFS_MEMO]
