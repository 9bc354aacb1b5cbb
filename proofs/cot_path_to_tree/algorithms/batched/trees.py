"""Tree quantities of Section 2.2 on a batch of rooted trees given by parent arrays (``-1`` at the root).

Array restatements of the definitions the theorems' conclusions compare with: depths and ``wd``
(:func:`proofs.cot_path_to_tree.algorithms.dijkstra.tree_width`,
:func:`proofs.cot_path_to_tree.algorithms.paths.tree_width`), the Strahler
number by the recursive definition (:func:`proofs.cot_path_to_tree.algorithms.strahler.strahler_number`,
:func:`proofs.cot_path_to_tree.algorithms.paths.strahler`) and the adjacency matrix
(:func:`proofs.cot_path_to_tree.algorithms.paths.tree_adjacency`). None of them assumes preorder labels; the tests
compare
them with the per-input functions on every ordered tree up to 9 vertices.

The theorems' answers (``Conclusion.answer``) are stated once, for one input, with the functions of the last
section: each takes one input -- a rooted tree ``(G_T, root)`` or a Dyck word -- and computes the definition
with the per-input function, or a batch's stand-in (:attr:`symcot.inputs.batch.InputBatch.stand_in`) and
gives every row's value with the array restatement above.
"""

from __future__ import annotations

import numpy as np

from proofs.cot_path_to_tree.algorithms import dijkstra, paths
from proofs.cot_path_to_tree.algorithms.batched.dfs import DFS_MEMO, dfs_dynamic_batch, moves_of
from proofs.cot_path_to_tree.algorithms.bijection import phi, psi
from proofs.cot_path_to_tree.algorithms.strahler import strahler_number
from symcot.algorithms.batched.fields import Fields
from symcot.errors import InvalidInputError
from symcot.inputs.batch import DigraphColumns, WordColumns, adjacency_from_parents
from symcot.inputs.dyck import DOWN, UP
from symcot.inputs.graphs import Digraph


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


# -- the theorems' answers: of one input, or of every row of a batch's stand-in ----------------------------



def _parents(g: DigraphColumns, root: int) -> np.ndarray:
    """The stand-in's trees as parent arrays (rooted at 0, the root a tree batch's stand-in shares)."""
    if g.parents is None or root != 0:
        raise InvalidInputError("a stand-in's trees are read from their parent arrays, rooted at 0")
    return g.parents


def width_of(g: Digraph | DigraphColumns, root: int) -> int | np.ndarray:
    """``wd(G_T)`` (:func:`.dijkstra.tree_width`); on a stand-in, every row's (:func:`tree_width_batch`)."""
    if isinstance(g, DigraphColumns):
        return tree_width_batch(_parents(g, root))
    return dijkstra.tree_width(g, root)


def strahler_of(g: Digraph | DigraphColumns, root: int) -> int | np.ndarray:
    """``str(G_T)`` (:func:`.strahler.strahler_number`); on a stand-in, every row's (:func:`strahler_batch`)."""
    if isinstance(g, DigraphColumns):
        return strahler_batch(_parents(g, root))
    return strahler_number(g, root)


def spelled(moves: np.ndarray) -> np.ndarray:
    """Rows of ``+1``/``-1`` moves ``(B, L)`` as words over ``U``/``D`` (``(B,)``)."""
    letters = np.ascontiguousarray(np.where(moves > 0, UP, DOWN).astype("<U1"))
    if not letters.shape[1]:
        return np.full(len(letters), "", dtype="<U1")
    return letters.view(f"<U{letters.shape[1]}")[:, 0]  # a row's L letters side by side are its word


def phi_of(g: Digraph | DigraphColumns, root: int) -> str | np.ndarray:
    """``φ(G_T)`` (:func:`.bijection.phi`); on a stand-in, every row's word (the moves of the batched DFS dynamic).

    A tree batch's stand-in keeps the DFS run in the batch's memo under :data:`DFS_MEMO`, where a batch
    reference defined by the same dynamic (thm:cotdfs:phi's) finds it too.
    """
    if isinstance(g, DigraphColumns):
        parents = _parents(g, root)

        def run() -> Fields:
            return dfs_dynamic_batch(adjacency_from_parents(parents), np.zeros(len(parents), dtype=np.int64))

        return spelled(moves_of(run() if g.memo is None else g.memo(DFS_MEMO, run)))
    return phi(g, root)


def width_of_psi(word: str | WordColumns) -> int | np.ndarray:
    """``wid(ψ(w))`` on the tree (:func:`.paths.tree_width`); on a stand-in, every row's (:func:`tree_width_batch`)."""
    if isinstance(word, WordColumns):
        return tree_width_batch(word.parents)
    return paths.tree_width(psi(word))


def strahler_of_psi(word: str | WordColumns) -> int | np.ndarray:
    """``str(ψ(w))`` on the tree (:func:`.paths.strahler`); on a stand-in, every row's (:func:`strahler_batch`)."""
    if isinstance(word, WordColumns):
        return strahler_batch(word.parents)
    return paths.strahler(psi(word))


def adjacency_of_psi(word: str | WordColumns) -> list[int] | np.ndarray:
    """The adjacency matrix of ``ψ(w)`` (:func:`.paths.tree_adjacency`), its rows one after the other.

    On a stand-in: every row's, ``(B, n²)`` (:func:`adjacency_batch`).
    """
    if isinstance(word, WordColumns):
        return adjacency_batch(word.parents).reshape(len(word.parents), -1)
    return [v for row in paths.tree_adjacency(psi(word)) for v in row]
