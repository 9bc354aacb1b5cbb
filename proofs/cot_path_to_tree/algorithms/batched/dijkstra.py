"""The Dijkstra dynamic ``Dkst^(t)`` and BFS with ``twd``/``mwd`` (obs:dynamicwidbfs), on a batch.

The numpy reading of :data:`proofs.cot_path_to_tree.algorithms.dijkstra.DIJKSTRA` (the algorithm's one statement)
and of :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.WIDTH_BFS` (BFS with the width fold of obs:dynamicwidbfs),
and the width fields of :func:`~proofs.cot_path_to_tree.algorithms.dijkstra.bfs_width_dynamic` over it (the tests
compare them on every ordered tree up to 9 vertices). Integer weights only (``weights[b, i, j] > 0`` for an arc,
0 without one); ``∞`` is the mask of ``Dist`` where it is not finite.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from proofs.cot_path_to_tree.algorithms.dijkstra import (
    DIJKSTRA,
    WIDTH_BFS,
    WeightedInput,
    dkst_state,
    validate_bfs_input,
    validate_dijkstra_input,
    weighted_input,
    width_states_of,
)
from symcot.algorithms.batched.fields import Fields, MatrixRows, step_numbers
from symcot.algorithms.batched.run import BatchRun, run_batch
from symcot.algorithms.reference import Reference
from symcot.errors import InvalidInputError
from symcot.inputs.graphs import Digraph
from symcot.inputs.trees import validate_tree

Reading = str  # "as-written", "repaired", "twd-repaired", "mwd-repaired" (algorithms.dijkstra.Reading)


class BatchWeights(MatrixRows):
    """A batch's input symbols for :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.DIJKSTRA`.

    ``n``, ``src`` ``(B,)``, ``arc(i, j)`` and ``w(i, j)`` row by row (integer weights, 0 without an arc).
    """

    def __init__(self, weights: np.ndarray, sources: np.ndarray):
        super().__init__(np.asarray(weights, dtype=np.int64), sources)

    def w(self, i: np.ndarray | int, j: np.ndarray | int) -> np.ndarray:
        """``a_ij`` of every row (0 without an arc or outside the range)."""
        return self.entry(i, j)

    def arc(self, i: np.ndarray | int, j: np.ndarray | int) -> np.ndarray:
        """An arc ``(v_i, v_j)`` in every row."""
        return self.w(i, j) > 0


def dijkstra_dynamic_batch(weights: np.ndarray, sources: np.ndarray) -> Fields:
    """``Dkst^(0) … Dkst^(n-1)`` of every row: fields ``t``, ``cur``, ``vst``, ``dist`` (missing: ``∞``), ``dist_cur``.

    The numpy reading of :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.DIJKSTRA`.

    Raises:
        InvalidInputError: a row with a vertex unreachable from its source (outside the dynamic's domain).

    """
    g = BatchWeights(weights, sources)
    return dkst_fields(run_batch(DIJKSTRA, g, g.batch, g.n), g)


def dkst_fields(r: BatchRun, g: BatchWeights) -> Fields:
    """The fields of :func:`dijkstra_dynamic_batch` from a batch run of DIJKSTRA."""
    if (r.states["cur"] < 0).any():
        raise InvalidInputError("a vertex is unreachable from the source: outside the Dijkstra dynamic's domain")
    cur, dist, inf = r.states["cur"], r.states["dist"], ~r.states["fin"]
    at = cur[:, :, None]
    return Fields(r.lengths, {"t": step_numbers(g.batch, r.steps), "cur": cur, "vst": r.states["vis"],
                              "dist": dist, "dist_cur": np.take_along_axis(dist, at, axis=2)[:, :, 0]},
                  {"dist": inf, "dist_cur": np.take_along_axis(inf, at, axis=2)[:, :, 0]})


def twd_batch(fields: Fields, over_visited: bool) -> np.ndarray:
    """``twd^(t)`` of every state (:func:`proofs.cot_path_to_tree.algorithms.dijkstra.twd_of`): ``(B, S)``.

    Visited ``v_i`` with no ``j`` (over ``V``, or over the visited vertices with ``over_visited``) such that
    ``Dist[j] ≠ ∞`` and ``Dist[j] > Dist[i]``.
    """
    dist = fields.values["dist"]
    finite = ~fields.missing["dist"]
    vst = fields.values["vst"]
    js = finite & vst if over_visited else finite
    top = np.where(js, dist, np.iinfo(np.int64).min).max(axis=2)
    return (vst & ~(finite & (dist < top[..., None]))).sum(axis=2)


def bfs_width_dynamic_batch(adjacency: np.ndarray, roots: np.ndarray, reading: Reading = "repaired") -> Fields:
    """BFS (unit weights) on every row's tree with ``twd``/``mwd`` by the Observation's definitions.

    As :func:`proofs.cot_path_to_tree.algorithms.dijkstra.bfs_width_dynamic`: ``as-written`` takes ``j`` over ``V`` in
    ``twd``
    and ``mwd^(t) = max_{t' < t} twd^(t')``; ``repaired`` takes ``j`` over the visited vertices and ``t' ≤ t``;
    ``twd-repaired`` and ``mwd-repaired`` one repair each; ``mwd^(0) = 1``. Also ``dif``: ``Dist[cur]`` minus
    the previous state's (0 at ``t = 0``).
    """
    if reading not in ("as-written", "repaired", "twd-repaired", "mwd-repaired"):
        raise ValueError(f"unknown reading {reading!r}")
    return width_fields(dijkstra_dynamic_batch((np.asarray(adjacency) != 0).astype(np.int64), roots), reading)


def width_fields(fields: Fields, reading: Reading = "repaired") -> Fields:
    """``twd``, ``mwd`` and ``dif`` added to the fields of BFS (:func:`bfs_width_dynamic_batch`)."""
    twd = twd_batch(fields, reading in ("repaired", "twd-repaired"))
    run = np.maximum.accumulate(twd, axis=1)
    if reading in ("repaired", "mwd-repaired"):
        mwd = run
    else:
        mwd = np.concatenate([np.ones_like(run[:, :1]), run[:, :-1]], axis=1)
    mwd[:, 0] = 1
    fields.values["twd"] = twd.astype(np.int64)
    fields.values["mwd"] = mwd.astype(np.int64)
    crd = fields.values["dist_cur"]
    fields.values["dif"] = np.concatenate([np.zeros_like(crd[:, :1]), np.diff(crd, axis=1)], axis=1)
    return fields


def _graphs(batch: Any) -> tuple[BatchWeights, int, int]:
    g = BatchWeights(batch.adjacency, batch.roots)
    return g, g.batch, g.n


def _dkst(inp: tuple[Digraph, int]) -> WeightedInput:
    return weighted_input(inp[0], validate_dijkstra_input(*inp))


#: Dkst (Section 2.1) as a claim's reference: :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.DIJKSTRA` on a
#: ``(graph, source)`` input and on a batch (its ``adjacency`` as the weights, its ``roots`` the sources).
DIJKSTRA_REFERENCE = Reference(DIJKSTRA, _dkst, lambda r, inp: [dkst_state(st) for st in r.states], _graphs,
                               dkst_fields)


def _bfs_tree(inp: tuple[Digraph, int]) -> WeightedInput:
    validate_tree(*inp)
    return weighted_input(inp[0], validate_bfs_input(*inp))


#: BFS on a tree with ``twd``/``mwd`` of obs:dynamicwidbfs, repaired reading (thm:cotwidoftree:width): the run of
#: :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.WIDTH_BFS` (Dkst with unit weights and the width fold, the
#: transition thm:cotwidoftree's all-n statement speaks of), and the Observation's definitions of ``twd``/``mwd`` read
#: off its states: the fold's own values are compared with these by the all-n check's concrete phase.
BFS_WIDTH_REFERENCE = Reference(WIDTH_BFS, _bfs_tree,
                                lambda r, inp: width_states_of([dkst_state(st) for st in r.states], "repaired"),
                                _graphs, lambda r, g: width_fields(dkst_fields(r, g), "repaired"))
