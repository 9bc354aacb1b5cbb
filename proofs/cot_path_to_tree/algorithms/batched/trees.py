"""Tree quantities of Section 2.2 on a batch of rooted trees given by parent arrays (``-1`` at the root).

Array restatements of the definitions the theorems' conclusions compare with: depths and ``wd``
(:func:`proofs.cot_path_to_tree.algorithms.dijkstra.tree_width`,
:func:`proofs.cot_path_to_tree.algorithms.paths.tree_width`), the Strahler
number by the recursive definition (:func:`proofs.cot_path_to_tree.algorithms.strahler.strahler_number`,
:func:`proofs.cot_path_to_tree.algorithms.paths.strahler`) and the adjacency matrix
(:func:`proofs.cot_path_to_tree.algorithms.paths.tree_adjacency`). None of them assumes preorder labels; the tests
compare
them with the per-input functions on every ordered tree up to 9 vertices.
"""

from __future__ import annotations

import numpy as np

from symcot.inputs.batch import adjacency_from_parents


def depths_batch(parents: np.ndarray) -> np.ndarray:
    """``dep(v)``: edges from the root, by following parents (``(B, n)``)."""
    b, n = parents.shape
    rows = np.arange(b)[:, None]
    up = np.where(parents >= 0, parents, np.arange(n)[None, :])  # the root points to itself
    dep = np.zeros((b, n), dtype=np.int64)
    for _ in range(n):
        new = np.where(parents >= 0, dep[rows, up] + 1, 0)
        if (new == dep).all():
            break
        dep = new
    return dep


def tree_width_batch(parents: np.ndarray) -> np.ndarray:
    """``wd(G_T) = max_k |{v : dep(v) = k}|`` of every row (``(B,)``)."""
    dep = depths_batch(parents)
    n = parents.shape[1]
    counts = (dep[:, :, None] == np.arange(n)[None, None, :]).sum(axis=1)
    return counts.max(axis=1)


def strahler_batch(parents: np.ndarray, leaf: int = 0) -> np.ndarray:
    """``str`` of every row's root by the recursive definition: a leaf ``leaf``; ``M + 1[c ≥ 2]`` above (``(B,)``).

    Vertices are finished deepest first (every row in its own order): a vertex's value is final once every
    child's is, and each finished value updates its parent's ``(M, c)`` = (largest child value, how many
    children have it).
    """
    b, n = parents.shape
    rows = np.arange(b)
    order = np.argsort(-depths_batch(parents), axis=1, kind="stable")
    top = np.full((b, n), -1, dtype=np.int64)  # M of the children so far (-1: no child yet)
    cnt = np.zeros((b, n), dtype=np.int64)
    val = np.zeros(b, dtype=np.int64)
    for k in range(n):
        v = order[:, k]
        tv = top[rows, v]
        val = np.where(tv < 0, leaf, tv + (cnt[rows, v] >= 2))
        p = parents[rows, v]
        has = p >= 0
        q = np.where(has, p, v)
        tp, cp = top[rows, q], cnt[rows, q]
        top[rows, q] = np.where(has, np.maximum(tp, val), tp)
        cnt[rows, q] = np.where(has & (val > tp), 1, np.where(has & (val == tp), cp + 1, cp))
    return val  # the last vertex finished is the root (depth 0)


def adjacency_batch(parents: np.ndarray) -> np.ndarray:
    """The symmetric 0/1 adjacency matrices ``(B, n, n)`` (int64)."""
    return adjacency_from_parents(parents).astype(np.int64)
