"""The DFS dynamic eq:dfsdynamic and the ``(M, c)`` fold of obs:dynamicstrdfs along it, on a batch.

The numpy readings (:func:`symcot.algorithms.transition.run_batch`) of the transitions
:data:`~proofs.cot_path_to_tree.algorithms.dfs.DFS` and :data:`~proofs.cot_path_to_tree.algorithms.strahler.STRAHLER`,
which :func:`~proofs.cot_path_to_tree.algorithms.dfs.dfs_dynamic` and
:func:`~proofs.cot_path_to_tree.algorithms.strahler.strahler_dynamic` run (the tests compare them on every ordered
tree up to 9 vertices and on labeled trees and digraphs). One step moves every row still running: to the
lowest-index unvisited out-neighbour of its current vertex (*traverse*), else back to the current vertex's
parent (*backtrack*); a row ends with the backtrack from its source into ``φ``. :func:`fold_case_batch` is
eq:dynamicstrdfs's case form elementwise (the path fold of ``algorithms.batched.paths`` reads it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from proofs.cot_path_to_tree.algorithms.dfs import DFS, DfsInput, dfs_input, states_of
from proofs.cot_path_to_tree.algorithms.strahler import STRAHLER, FoldRule, case_form, fold_transition, strahler_states
from symcot.algorithms.batched.fields import Fields, MatrixRows, step_numbers
from symcot.algorithms.batched.run import BatchRun, run_batch
from symcot.algorithms.reference import Reference
from symcot.inputs.graphs import Digraph
from symcot.inputs.trees import validate_tree

#: ``move`` codes: the letter each state's move writes (``step_sign`` of
#: :class:`~proofs.cot_path_to_tree.algorithms.dfs.DfsState`).
INIT, TRAVERSE, BACKTRACK = 0, 1, -1


class BatchGraphs(MatrixRows):
    """A batch's input symbols for :data:`~proofs.cot_path_to_tree.algorithms.dfs.DFS`.

    ``n``, ``src`` ``(B,)``, ``adj(i, j)`` row by row (false outside the range).
    """

    def adj(self, i: np.ndarray | int, j: np.ndarray | int) -> np.ndarray:
        """``a_ij = 1`` of every row."""
        return self.entry(i, j) != 0


def dfs_dynamic_batch(adjacency: np.ndarray, sources: np.ndarray) -> Fields:
    """The DFS dynamic from ``sources[b]`` on the digraph ``adjacency[b]`` (``A[u][v] ≠ 0``: an arc), every row.

    The numpy reading of :data:`~proofs.cot_path_to_tree.algorithms.dfs.DFS`.

    Fields (as :class:`~proofs.cot_path_to_tree.algorithms.dfs.DfsState`'s): ``t``, ``cur`` (missing: ``φ``),
    ``has_cur``, ``par_cur`` (missing: ``φ`` or no current vertex), ``vst``, ``step_sign``. A row has
    ``2(r - 1) + 2`` states, ``r`` the vertices reachable from its source.
    """
    g = BatchGraphs(adjacency, sources)
    return dfs_fields(run_batch(DFS, g, g.batch, 2 * g.n + 1))


def dfs_fields(r: BatchRun) -> Fields:
    """The fields of :func:`dfs_dynamic_batch` from a batch run.

    The run is of :data:`~proofs.cot_path_to_tree.algorithms.dfs.DFS` or of a transition that extends it.
    """
    cur, par = r.states["cur"], r.states["par"]
    none = cur < 0
    here = np.where(none, 0, cur)
    par_cur = np.take_along_axis(par, here[:, :, None], axis=2)[:, :, 0]
    sign = np.zeros(cur.shape, dtype=np.int64)
    sign[:, 1:] = np.where(r.aux["tr"][:, :-1], TRAVERSE, BACKTRACK)
    fields = Fields(r.lengths, {"t": step_numbers(len(cur), r.steps), "cur": here, "has_cur": ~none,
                                "par_cur": np.maximum(par_cur, 0), "vst": r.states["vis"], "step_sign": sign},
                    {"cur": none, "par_cur": none | (par_cur < 0)})
    return fields


def _tree_batch(batch: Any) -> tuple[BatchGraphs, int, int]:
    g = BatchGraphs(batch.adjacency, batch.roots)
    return g, g.batch, 2 * g.n + 1


#: eq:dfsdynamic as a claim's reference: :data:`~proofs.cot_path_to_tree.algorithms.dfs.DFS` on a ``(graph,
#: source)`` input, and on a batch of rooted trees (its ``adjacency`` and ``roots``).
DFS_REFERENCE = Reference(DFS, lambda inp: dfs_input(*inp), lambda r, inp: states_of(r), _tree_batch,
                          lambda r, g: dfs_fields(r), memo="dfs")
#: The key of the DFS dynamic's fields in a tree batch's memo (:meth:`~symcot.inputs.batch.InputBatch.memo`).
DFS_MEMO = DFS_REFERENCE.memo_key


def dfs_moves_batch(adjacency: np.ndarray, sources: np.ndarray) -> np.ndarray:
    """``algorithms.dfs.dfs_moves`` of every row: ``(B, L)`` of ``+1`` (``U``) and ``-1`` (``D``).

    The traverses and backtracks, leaving out the final backtrack from the source; every row must have the
    same ``L`` (trees on ``n`` vertices: ``L = 2(n - 1)``).
    """
    return moves_of(dfs_dynamic_batch(adjacency, sources))


def moves_of(fields: Fields) -> np.ndarray:
    """:func:`dfs_moves_batch` from the DFS dynamic's fields (:func:`dfs_dynamic_batch`)."""
    lengths = fields.lengths
    if len(lengths) and (lengths != lengths[0]).any():
        raise ValueError("the rows' DFS runs have different lengths")
    last = int(lengths[0]) - 1 if len(lengths) else 1
    return fields.values["step_sign"][:, 1:last]


def fold_case_batch(str_v: np.ndarray, m_u: np.ndarray, c_u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """eq:dynamicstrdfs's case form (:func:`proofs.cot_path_to_tree.algorithms.strahler.fold_case`) elementwise.

    With ``D = str(τ_v) - M_u``: ``D < 0`` keeps ``(M_u, c_u)``; ``D = 0`` gives ``(M_u + 1[c_u ≥ 1],
    1[c_u + 1 < 2])``; ``D > 0`` gives ``(str(τ_v), 1)``.
    """
    d = str_v - m_u
    m = np.where(d < 0, m_u, np.where(d == 0, m_u + (c_u >= 1), str_v))
    c = np.where(d < 0, c_u, np.where(d == 0, (c_u + 1 < 2).astype(np.int64), 1))
    return m.astype(np.int64), c.astype(np.int64)


def str_of_batch(m: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``str(τ_v) = M_v + 1[c_v ≥ 2]`` elementwise."""
    return m + (c >= 2)


def strahler_dynamic_batch(adjacency: np.ndarray, roots: np.ndarray, rule: FoldRule = case_form) -> Fields:
    """The DFS dynamic on rooted trees with the accumulators of obs:dynamicstrdfs, every row.

    The numpy reading of :func:`~proofs.cot_path_to_tree.algorithms.strahler.fold_transition` with ``rule`` (by
    default the case form eq:dynamicstrdfs: :data:`~proofs.cot_path_to_tree.algorithms.strahler.STRAHLER`, the
    statement :func:`~proofs.cot_path_to_tree.algorithms.strahler.strahler_dynamic` runs). Fields: those of
    :func:`dfs_dynamic_batch` and ``acc_m``, ``acc_c`` (the accumulator each state carries).
    """
    g = BatchGraphs(adjacency, roots)
    tr = STRAHLER if rule is case_form else fold_transition(rule)
    return _strahler_fields(run_batch(tr, g, g.batch, 2 * g.n + 1, STRAHLER_KEEP), g)


#: The state variables the fold's fields read at every step (the kept accumulators only drive the fold).
STRAHLER_KEEP = ("cur", "vis", "par", "accM", "accC")


def _strahler_fields(r: BatchRun, g: BatchGraphs) -> Fields:
    fields = dfs_fields(r)
    fields.values["acc_m"] = r.states["accM"].astype(np.int64)
    fields.values["acc_c"] = r.states["accC"].astype(np.int64)
    return fields


def _tree(inp: tuple[Digraph, int]) -> DfsInput:
    validate_tree(*inp)
    return dfs_input(*inp)


#: obs:dynamicstrdfs's fold with the case form eq:dynamicstrdfs as a claim's reference (thm:cottreestrahler):
#: :data:`~proofs.cot_path_to_tree.algorithms.strahler.STRAHLER` on a rooted tree and on a batch of them.
STRAHLER_REFERENCE = Reference(STRAHLER, _tree, lambda r, inp: strahler_states(r), _tree_batch, _strahler_fields,
                               keep=STRAHLER_KEEP)
