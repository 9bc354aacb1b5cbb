"""The tree/Dyck-word bijection of Section 2 (Lemma bijectionpathtree) and Algorithm 1 (algo:pathtotree).

``phi`` reads a rooted labeled tree by the DFS dynamic: ``U`` for each traverse, ``D`` for each
backtrack, leaving out the final backtrack from the root (so the word has length ``2(n-1)``). ``psi``
builds the ordered tree of a Dyck word: ``U`` attaches a new node as the next ordered child of the
current node and moves to it, ``D`` returns to the parent; it is stated once, as
:meth:`~symcot.inputs.trees.OrderedTree.from_dyck` (input families enumerate ordered trees with it), and
``phi_ordered`` is :meth:`~symcot.inputs.trees.OrderedTree.to_dyck`. ``psi_adjacency`` is Algorithm 1 as
printed.
"""

from __future__ import annotations

from proofs.cot_path_to_tree.algorithms.dfs import dfs_moves
from symcot.inputs.dyck import UP, validate_dyck
from symcot.inputs.graphs import Digraph
from symcot.inputs.trees import OrderedTree, validate_tree


def phi(tree: Digraph, root: int) -> str:
    """Return the Dyck word of a rooted labeled tree: its DFS moves from ``root`` (lowest index first)."""
    validate_tree(tree, root)
    return dfs_moves(tree, root)


def phi_ordered(tree: OrderedTree) -> str:
    """Return the contour word of an ordered tree: ``U`` down, ``D`` back up, children in stored order."""
    return tree.to_dyck()


def psi(word: str) -> OrderedTree:
    """Build the ordered tree of a Dyck word: ``U`` adds the next child and enters it, ``D`` goes up."""
    return OrderedTree.from_dyck(word)


def psi_adjacency(word: str) -> list[list[int]]:
    """Run Algorithm 1 (algo:pathtotree) as printed: the ``(m+1) x (m+1)`` adjacency matrix of ``psi(w)``.

    ``m = |w| / 2``. Line 8 ("Search j < i s.t. A_w[j, i] = 1") is done by scanning ``j = 0 .. i-1``;
    the paper's correctness proof claims exactly one such ``j`` exists, and this function raises
    ``RuntimeError`` if that invariant ever fails (it cannot for a validated Dyck word).
    """
    validate_dyck(word)
    size = len(word) // 2 + 1
    a = [[0] * size for _ in range(size)]  # line 1
    nl, i = 0, 0  # line 2
    for c in word:  # line 3
        if c == UP:  # line 4
            nl = nl + 1  # line 5
            a[i][nl] = 1  # line 6
            a[nl][i] = 1
            i = nl  # line 7
        else:
            found = [j for j in range(i) if a[j][i] == 1]  # line 8
            if len(found) != 1:
                raise RuntimeError(
                    f"Algorithm 1 invariant broken: {len(found)} indices j < {i} with A_w[j, {i}] = 1"
                )
            i = found[0]  # line 9
    return a
