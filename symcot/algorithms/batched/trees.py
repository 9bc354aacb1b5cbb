"""Tree quantities of Section 2.2 on a batch of rooted trees given by parent arrays (``-1`` at the root).

Array restatements of the definitions the theorems' conclusions compare with: depths and ``wd``
(:func:`symcot.algorithms.dijkstra.tree_width`, :func:`symcot.algorithms.paths.tree_width`), the Strahler
number by the recursive definition (:func:`symcot.algorithms.strahler.strahler_number`,
:func:`symcot.algorithms.paths.strahler`) and the adjacency matrix
(:func:`symcot.algorithms.paths.tree_adjacency`). None of them assumes preorder labels; the tests compare
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

    Vertices are finished level by level from the deepest: a vertex's value is final once every child's is,
    and each finished value updates its parent's ``(M, c)`` = (largest child value, how many children have it).
    """
    b, n = parents.shape
    dep = depths_batch(parents)
    top = np.full((b, n), -1, dtype=np.int64)  # M of the children so far (-1: no child yet)
    cnt = np.zeros((b, n), dtype=np.int64)
    val = np.zeros((b, n), dtype=np.int64)
    for level in range(int(dep.max(initial=0)), -1, -1):
        at = dep == level
        val = np.where(at, np.where(top < 0, leaf, top + (cnt >= 2)), val)
        bb, vv = np.nonzero(at & (parents >= 0))
        pp = parents[bb, vv]
        np.maximum.at(top, (bb, pp), val[bb, vv])
        hit = val[bb, vv] == top[bb, pp]
        np.add.at(cnt, (bb[hit], pp[hit]), 1)
    roots = np.argmax(parents < 0, axis=1)
    return val[np.arange(b), roots]


def adjacency_batch(parents: np.ndarray) -> np.ndarray:
    """The symmetric 0/1 adjacency matrices ``(B, n, n)`` (int64)."""
    return adjacency_from_parents(parents).astype(np.int64)
