"""The Dijkstra dynamic ``Dkst^(t)`` and BFS with ``twd``/``mwd`` (obs:dynamicwidbfs), on a batch.

Array restatements of :func:`proofs.cot_path_to_tree.algorithms.dijkstra.dijkstra_dynamic` and
:func:`~proofs.cot_path_to_tree.algorithms.dijkstra.bfs_width_dynamic` (the definitions; the tests compare them on every
ordered
tree up to 9 vertices). Integer weights only (``weights[b, i, j] > 0`` for an arc, 0 without one); ``∞`` is
tracked as a mask. Every row takes ``n - 1`` transitions: relax the arcs out of the current vertex
(``Dist[j] = min(Dist[j], Dist[i] + a_ij)``), then visit the unvisited vertex of least ``Dist``, the lowest
index among ties.
"""

from __future__ import annotations

import numpy as np

from symcot.algorithms.batched.fields import Fields, Recorder, since, step_numbers
from symcot.errors import InvalidInputError

Reading = str  # "as-written", "repaired", "twd-repaired", "mwd-repaired" (algorithms.dijkstra.Reading)


def dijkstra_dynamic_batch(weights: np.ndarray, sources: np.ndarray) -> Fields:
    """``Dkst^(0) … Dkst^(n-1)`` of every row: fields ``t``, ``cur``, ``vst``, ``dist`` (missing: ``∞``), ``dist_cur``.

    Raises:
        InvalidInputError: a row with a vertex unreachable from its source (outside the dynamic's domain).

    """
    w = np.asarray(weights, dtype=np.int64)
    b, n = w.shape[:2]
    rows = np.arange(b)
    cur = np.asarray(sources, dtype=np.int64).copy()
    inf = np.ones((b, n), dtype=bool)
    inf[rows, cur] = False
    dist = np.zeros((b, n), dtype=np.int64)
    vst = np.zeros((b, n), dtype=bool)
    vst[rows, cur] = True
    joined = np.where(vst, 0, n)  # the step each vertex became visited
    rec = Recorder(b, n)
    _record(rec, 0, cur, dist, inf)
    for t in range(1, n):
        wi = w[rows, cur]
        cand = dist[rows, cur][:, None] + wi
        better = (wi > 0) & (inf | (cand < dist))  # an arc, and a strictly smaller tentative distance
        dist = np.where(better, cand, dist)
        inf &= ~better
        open_ = ~vst & ~inf
        if not open_.any(axis=1).all():
            raise InvalidInputError("a vertex is unreachable from the source: outside the Dijkstra dynamic's domain")
        key = np.where(open_, dist, np.iinfo(np.int64).max)
        cur = key.argmin(axis=1)  # the first index of the least finite distance among the unvisited
        vst[rows, cur] = True
        joined[rows, cur] = t
        _record(rec, t, cur, dist, inf)
    fields = rec.fields(np.full(b, n, dtype=np.int64))
    fields.values["t"] = step_numbers(b, n)
    fields.values["vst"] = since(joined, n)
    return fields


def _record(rec: Recorder, t: int, cur: np.ndarray, dist: np.ndarray, inf: np.ndarray) -> None:
    b = len(cur)
    rows = np.arange(b)
    rec.put(t, "cur", cur)
    rec.put(t, "dist", dist, inf)
    rec.put(t, "dist_cur", dist[rows, cur], inf[rows, cur])


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
    fields = dijkstra_dynamic_batch((np.asarray(adjacency) != 0).astype(np.int64), roots)
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
