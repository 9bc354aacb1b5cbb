"""The DFS dynamic and the Strahler fold on batches equal the per-input references (every input up to 9 vertices)."""

import numpy as np
import pytest

import proofs.cot_path_to_tree.algorithms.batched.dfs as batched_dfs
from proofs.cot_path_to_tree.algorithms.batched.dfs import (
    dfs_dynamic_batch,
    dfs_moves_batch,
    fold_case_batch,
    strahler_dynamic_batch,
)
from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic, dfs_moves
from proofs.cot_path_to_tree.algorithms.strahler import fold_case, strahler_dynamic
from symcot.inputs import digraphs_with_sources, rooted_labeled_trees
from symcot.inputs.batch import tree_batch
from tests.fixtures.fields import field_mismatches

DFS_FIELDS = {"t": "int", "cur": "int", "has_cur": "bool", "par_cur": "int", "vst": "set", "step_sign": "int"}
STRAHLER_FIELDS = {**{k: v for k, v in DFS_FIELDS.items() if k != "step_sign"}, "acc_m": "int", "acc_c": "int"}


def _graphs(inputs):
    n = inputs[0][0].n
    adj = np.array([g.adjacency() for g, _ in inputs], dtype=np.int8).reshape(len(inputs), n, n)
    return adj, np.array([s for _, s in inputs], dtype=np.int64)


@pytest.mark.parametrize("size", range(1, 10))
def test_every_ordered_tree_up_to_9_vertices(size):
    b = tree_batch(size, 0, 10**9)
    items = [b.item(i) for i in range(b.count)]
    assert field_mismatches(dfs_dynamic_batch(b.adjacency, b.roots), [dfs_dynamic(*x) for x in items],
                            DFS_FIELDS) == []
    assert field_mismatches(strahler_dynamic_batch(b.adjacency, b.roots), [strahler_dynamic(*x) for x in items],
                            STRAHLER_FIELDS) == []
    moves = dfs_moves_batch(b.adjacency, b.roots)
    assert ["".join("U" if m > 0 else "D" for m in row) for row in moves.tolist()] == [dfs_moves(*x) for x in items]


@pytest.mark.parametrize("size", range(1, 6))
def test_labeled_trees_with_every_root(size):
    items = list(rooted_labeled_trees(size))
    adj, roots = _graphs(items)
    assert field_mismatches(strahler_dynamic_batch(adj, roots), [strahler_dynamic(*x) for x in items],
                            STRAHLER_FIELDS) == []


@pytest.mark.parametrize("size", range(1, 5))
def test_digraphs_with_every_source_rows_of_different_lengths(size):
    items = list(digraphs_with_sources(size))
    adj, sources = _graphs(items)
    fields = dfs_dynamic_batch(adj, sources)
    assert field_mismatches(fields, [dfs_dynamic(*x) for x in items], DFS_FIELDS) == []
    if size > 1:
        assert len(set(fields.lengths.tolist())) > 1


def test_the_fold_elementwise():
    for s in range(5):
        for m in range(5):
            for c in range(3):
                got = fold_case_batch(np.array([s]), np.array([m]), np.array([c]))
                assert (int(got[0][0]), int(got[1][0])) == fold_case(s, (m, c))


def test_a_broken_batch_fold_is_caught(monkeypatch):
    """Negative: a fold that swaps the D < 0 and D > 0 cases differs from the reference on small trees."""
    def swapped(str_v, m_u, c_u):
        return fold_case_batch(m_u, str_v, c_u)

    monkeypatch.setattr(batched_dfs, "fold_case_batch", swapped)
    b = tree_batch(5, 0, 10**9)
    items = [b.item(i) for i in range(b.count)]
    assert field_mismatches(strahler_dynamic_batch(b.adjacency, b.roots), [strahler_dynamic(*x) for x in items],
                            STRAHLER_FIELDS)


def test_the_comparison_sees_a_wrong_run():
    b = tree_batch(6, 0, 10**9)
    items = [b.item(i) for i in range(b.count)]
    shifted = [dfs_dynamic(*x) for x in items[1:] + items[:1]]
    assert field_mismatches(dfs_dynamic_batch(b.adjacency, b.roots), shifted, DFS_FIELDS)
