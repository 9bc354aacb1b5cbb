"""Reference algorithms from Section 2's definitions: the DFS dynamic and the tree/path bijection."""

from symcot.algorithms.bijection import phi, phi_ordered, psi, psi_adjacency
from symcot.algorithms.dfs import DfsState, Move, dfs_dynamic, dfs_moves

__all__ = [
    "DfsState",
    "Move",
    "dfs_dynamic",
    "dfs_moves",
    "phi",
    "phi_ordered",
    "psi",
    "psi_adjacency",
]
