"""Tree quantities on batches of parent arrays equal the per-input definitions."""

import numpy as np
import pytest

from proofs.cot_path_to_tree.algorithms.batched.trees import (
    adjacency_batch,
    depths_batch,
    strahler_batch,
    tree_width_batch,
)
from proofs.cot_path_to_tree.algorithms.bijection import psi
from proofs.cot_path_to_tree.algorithms.dijkstra import tree_depths, tree_width
from proofs.cot_path_to_tree.algorithms.paths import strahler, tree_adjacency
from proofs.cot_path_to_tree.algorithms.paths import tree_width as ordered_width
from proofs.cot_path_to_tree.algorithms.strahler import strahler_number
from symcot.inputs import rooted_labeled_trees
from symcot.inputs.batch import tree_batch, word_batch


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
