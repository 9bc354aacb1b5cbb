"""The DFS dynamic eq:dfsdynamic and the ``(M, c)`` fold of obs:dynamicstrdfs along it, on a batch.

Array restatements of :func:`proofs.cot_path_to_tree.algorithms.dfs.dfs_dynamic` and
:func:`proofs.cot_path_to_tree.algorithms.strahler.strahler_dynamic` (the definitions; the tests compare them on every
ordered
tree up to 9 vertices and on labeled trees and digraphs). One step moves every row still running: to the
lowest-index unvisited out-neighbour of its current vertex (*traverse*), else back to the current vertex's
parent (*backtrack*); a row ends with the backtrack from its source into ``φ``.
"""

from __future__ import annotations

import numpy as np

from symcot.algorithms.batched.fields import Fields, Recorder, since, step_numbers

#: ``move`` codes: the letter each state's move writes (``step_sign`` of
#: :class:`~proofs.cot_path_to_tree.algorithms.dfs.DfsState`).
INIT, TRAVERSE, BACKTRACK = 0, 1, -1


def dfs_dynamic_batch(adjacency: np.ndarray, sources: np.ndarray) -> Fields:
    """The DFS dynamic from ``sources[b]`` on the digraph ``adjacency[b]`` (``A[u][v] ≠ 0``: an arc) for every row.

    Fields (as :class:`~proofs.cot_path_to_tree.algorithms.dfs.DfsState`'s): ``t``, ``cur`` (missing: ``φ``),
    ``has_cur``,
    ``par_cur`` (missing: ``φ`` or no current vertex), ``vst``, ``step_sign``. A row has ``2(r - 1) + 2``
    states, ``r`` the vertices reachable from its source.
    """
    b, n = adjacency.shape[:2]
    arcs = np.asarray(adjacency) != 0
    rows = np.arange(b)
    steps = 2 * n
    cur = np.asarray(sources, dtype=np.int64).copy()
    par = np.full((b, n), -1, dtype=np.int64)
    vst = np.zeros((b, n), dtype=bool)
    vst[rows, cur] = True
    joined = np.where(vst, 0, steps)  # the step each vertex became visited (steps: never)
    rec = Recorder(b, steps)
    lengths = np.ones(b, dtype=np.int64)
    move = np.full(b, INIT, dtype=np.int64)
    _record(rec, 0, cur, par, move)
    alive = np.ones(b, dtype=bool)
    for t in range(1, steps):
        if not alive.any():
            break
        here = np.where(alive, cur, 0)
        unvisited = arcs[rows, here] & ~vst
        traverse = alive & unvisited.any(axis=1)
        back = alive & ~traverse
        v = unvisited.argmax(axis=1)  # the lowest-index unvisited out-neighbour
        tr = rows[traverse]
        par[tr, v[traverse]] = cur[traverse]
        vst[tr, v[traverse]] = True
        joined[tr, v[traverse]] = t
        cur = np.where(traverse, v, np.where(back, par[rows, here], cur))
        move = np.where(traverse, TRAVERSE, BACKTRACK)
        lengths += alive
        _record(rec, t, cur, par, move)
        alive &= cur >= 0
    fields = rec.fields(lengths)
    fields.values["t"] = step_numbers(b, steps)
    fields.values["vst"] = since(joined, steps)
    return fields


def _record(rec: Recorder, t: int, cur: np.ndarray, par: np.ndarray, move: np.ndarray) -> None:
    b = len(cur)
    none = cur < 0
    here = np.where(none, 0, cur)
    par_cur = par[np.arange(b), here]
    rec.put(t, "cur", here, none)
    rec.put(t, "has_cur", ~none)
    rec.put(t, "par_cur", np.maximum(par_cur, 0), none | (par_cur < 0))
    rec.put(t, "step_sign", move)


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


def strahler_dynamic_batch(adjacency: np.ndarray, roots: np.ndarray) -> Fields:
    """The DFS dynamic on rooted trees with the accumulators of obs:dynamicstrdfs (``fold_case``), every row.

    As :func:`proofs.cot_path_to_tree.algorithms.strahler.strahler_dynamic`: a traverse gives the new vertex ``(0, 0)``;
    a
    backtrack from ``v`` into ``u`` folds ``str(τ_v)`` into ``u``'s accumulator, and the final backtrack from the
    root folds it into ``φ``'s empty one. Fields: those of :func:`dfs_dynamic_batch` and ``acc_m``, ``acc_c``.
    """
    fields = dfs_dynamic_batch(adjacency, roots)
    b, n = adjacency.shape[:2]
    steps = fields.steps
    rows = np.arange(b)
    m_acc = np.zeros((b, n), dtype=np.int64)
    c_acc = np.zeros((b, n), dtype=np.int64)
    out_m = np.zeros((b, steps), dtype=np.int64)
    out_c = np.zeros((b, steps), dtype=np.int64)
    cur = fields.values["cur"]
    none = fields.missing["cur"]
    sign = fields.values["step_sign"]
    for t in range(1, steps):
        live = t < fields.lengths
        traverse = live & (sign[:, t] == TRAVERSE)
        back = live & (sign[:, t] == BACKTRACK)
        v_new = cur[:, t]
        m_acc[rows[traverse], v_new[traverse]] = 0
        c_acc[rows[traverse], v_new[traverse]] = 0
        v = cur[:, t - 1]  # the vertex a backtrack finishes
        s_v = str_of_batch(m_acc[rows, v], c_acc[rows, v])
        into_phi = none[:, t]
        u = np.where(into_phi, 0, v_new)
        m_u = np.where(into_phi, 0, m_acc[rows, u])
        c_u = np.where(into_phi, 0, c_acc[rows, u])
        m_new, c_new = fold_case_batch(s_v, m_u, c_u)
        keep = back & ~into_phi
        m_acc[rows[keep], u[keep]] = m_new[keep]
        c_acc[rows[keep], u[keep]] = c_new[keep]
        out_m[:, t] = np.where(back, m_new, 0)
        out_c[:, t] = np.where(back, c_new, 0)
    fields.values["acc_m"] = out_m
    fields.values["acc_c"] = out_c
    return fields
