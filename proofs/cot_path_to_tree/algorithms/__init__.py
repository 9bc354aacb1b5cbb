"""Reference algorithms from Section 2's definitions: the DFS dynamic and the tree/path bijection."""

from proofs.cot_path_to_tree.algorithms.bijection import phi, phi_ordered, psi, psi_adjacency
from proofs.cot_path_to_tree.algorithms.dfs import DfsState, Move, dfs_dynamic, dfs_moves

__all__ = ["DfsState", "Move", "dfs_dynamic", "dfs_moves", "phi", "phi_ordered", "psi", "psi_adjacency"]
