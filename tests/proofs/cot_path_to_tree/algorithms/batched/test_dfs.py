"""The DFS dynamic and the Strahler fold on batches equal the per-input references (every input up to 9 vertices)."""

import numpy as np
import pytest

from proofs.cot_path_to_tree.algorithms.batched.dfs import (
    dfs_dynamic_batch,
    dfs_moves_batch,
    fold_case_batch,
    strahler_dynamic_batch,
)
from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic, dfs_moves
from proofs.cot_path_to_tree.algorithms.strahler import case_form, fold_case, strahler_dynamic
from symcot.algorithms.logic import Concrete
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


def _no_reset(o, s, m_u, c_u):
    """A wrong fold: on ``D = 0`` it counts the repeated maximum instead of resetting ``c``."""
    m, c = case_form(o, s, m_u, c_u)
    return m, o.ite(s - m_u == 0, c_u + 1, c)


def test_a_wrong_fold_is_caught_and_each_rule_reads_the_same_in_numpy():
    """Negative: the numpy reading of a fold that never resets ``c`` differs from the reference; it agrees with
    the per-input reading of the same wrong rule."""
    b = tree_batch(5, 0, 10**9)
    items = [b.item(i) for i in range(b.count)]
    wrong = strahler_dynamic_batch(b.adjacency, b.roots, _no_reset)
    bad = field_mismatches(wrong, [strahler_dynamic(*x) for x in items], STRAHLER_FIELDS)
    assert bad and all(m.split(", ")[2].startswith(("acc_m", "acc_c")) for m in bad)
    as_python = lambda s, acc: _no_reset(Concrete({}), s, *acc)  # noqa: E731
    assert field_mismatches(wrong, [strahler_dynamic(*x, as_python) for x in items], STRAHLER_FIELDS) == []


def test_the_comparison_sees_a_wrong_run():
    b = tree_batch(6, 0, 10**9)
    items = [b.item(i) for i in range(b.count)]
    shifted = [dfs_dynamic(*x) for x in items[1:] + items[:1]]
    assert field_mismatches(dfs_dynamic_batch(b.adjacency, b.roots), shifted, DFS_FIELDS)
