"""Algorithm 1, the width counts and the Strahler fold along a Dyck word, on a batch of words.

Array restatements of :func:`proofs.cot_path_to_tree.algorithms.paths.algorithm1_states`,
:func:`~proofs.cot_path_to_tree.algorithms.paths.width_states`
and :func:`~proofs.cot_path_to_tree.algorithms.paths.strahler_fold` (the definitions; the tests compare them on every
Dyck word
up to 9 vertices). Words are rows of ``+1`` (``U``) and ``-1`` (``D``), all of one length ``L``; every row has
``L + 1`` states.
"""

from __future__ import annotations

import numpy as np

from proofs.cot_path_to_tree.algorithms.batched.dfs import fold_case_batch, str_of_batch
from symcot.algorithms.batched.fields import Fields, Recorder
from symcot.errors import InvalidInputError


def heights_batch(words: np.ndarray) -> np.ndarray:
    """``s_0 … s_L`` of every row: ``(B, L + 1)``."""
    b = words.shape[0]
    return np.concatenate([np.zeros((b, 1), dtype=np.int64), np.cumsum(words, axis=1, dtype=np.int64)], axis=1)


def algorithm1_batch(words: np.ndarray) -> Fields:
    """Algorithm 1 (algo:pathtotree) as printed on every row, one state per letter read.

    Fields (as :class:`~proofs.cot_path_to_tree.algorithms.paths.Alg1State`'s): ``t``, ``i``, ``nl``, ``a`` (``(B, S, m,
    m)``
    int8), ``par`` (missing after a ``D`` and at ``t = 0``), ``cursor`` (missing once the word is read).

    Raises:
        RuntimeError: line 8 finds no or several ``j < i`` with ``A_w[j, i] = 1`` (the proof's invariant).

    """
    b, length = words.shape
    m = length // 2 + 1
    rows = np.arange(b)
    a = np.zeros((b, m, m), dtype=np.int8)  # line 1
    nl = np.zeros(b, dtype=np.int64)  # line 2
    i = np.zeros(b, dtype=np.int64)
    par = np.zeros(b, dtype=np.int64)
    no_par = np.ones(b, dtype=bool)
    rec = Recorder(b, length + 1)
    below = np.arange(m)[None, :]
    for t in range(length + 1):
        if t:
            up = words[:, t - 1] > 0  # line 4
            before = i
            nl = nl + up  # line 5
            ru = rows[up]
            a[ru, before[up], nl[up]] = 1  # line 6
            a[ru, nl[up], before[up]] = 1
            col = (a[rows, :, i] != 0) & (below < i[:, None])  # line 8: j < i with A_w[j, i] = 1
            found = col.sum(axis=1)
            if ((found != 1) & ~up).any():
                raise RuntimeError("Algorithm 1: no unique index j < i with A_w[j, i] = 1")
            i = np.where(up, nl, col.argmax(axis=1))  # lines 7 and 9
            par, no_par = np.where(up, before, 0), ~up
        rec.put(t, "t", np.full(b, t, dtype=np.int64))
        rec.put(t, "i", i)
        rec.put(t, "nl", nl)
        rec.put(t, "a", a)
        rec.put(t, "par", par, no_par)
        rec.put(t, "cursor", np.full(b, t if t < length else 0, dtype=np.int64), np.full(b, t >= length))
    return rec.fields(np.full(b, length + 1, dtype=np.int64))


def width_states_batch(words: np.ndarray, levels: int) -> Fields:
    """thm:cotwidofpath's quantities per prefix: ``ht = s_t``, ``p_i`` (up-steps ending at height ``i``), ``wd``.

    As :func:`proofs.cot_path_to_tree.algorithms.paths.width_states` with ``levels`` counters: fields ``t``, ``ht``,
    ``p``
    (``(B, S, levels)``), ``wd = max_i p_i``.

    Raises:
        InvalidInputError: an up-step ends at a height outside ``1..levels``.

    """
    b, length = words.shape
    s = heights_batch(words)
    rows = np.arange(b)
    p = np.zeros((b, levels), dtype=np.int64)
    wd = np.zeros(b, dtype=np.int64)
    rec = Recorder(b, length + 1)
    for t in range(length + 1):
        if t:
            up = s[:, t] - s[:, t - 1] == 1
            h = s[:, t]
            if (up & ((h < 1) | (h > levels))).any():
                raise InvalidInputError(f"a height outside the p block of {levels} levels")
            ru = rows[up]
            p[ru, h[up] - 1] += 1
            wd = np.where(up, np.maximum(wd, p[rows, np.clip(h - 1, 0, levels - 1)]), wd)
        rec.put(t, "t", np.full(b, t, dtype=np.int64))
        rec.put(t, "ht", s[:, t])
        rec.put(t, "p", p)
        rec.put(t, "wd", wd)
    return rec.fields(np.full(b, length + 1, dtype=np.int64))


def strahler_fold_batch(words: np.ndarray) -> Fields:
    """eq:dynamicstrdfs carried along every row (:func:`proofs.cot_path_to_tree.algorithms.paths.strahler_fold`).

    The accumulator of the vertex at each height of the current path: a ``U`` gives the new vertex ``(0, 0)``,
    a ``D`` finishes the vertex one level up with ``str = M + 1[c ≥ 2]`` and folds it into the vertex at the
    new height. Fields: ``t``, ``height``, ``m``, ``c``, ``reading`` (a letter is left), ``next_q`` (``±1``
    of that letter; missing once the word is read), ``q_in`` (``±1`` of the letter just read; missing at
    ``t = 0``).
    """
    b, length = words.shape
    s = heights_batch(words)
    rows = np.arange(b)
    top = length // 2 + 2
    m_at = np.zeros((b, top), dtype=np.int64)
    c_at = np.zeros((b, top), dtype=np.int64)
    m = np.zeros(b, dtype=np.int64)
    c = np.zeros(b, dtype=np.int64)
    rec = Recorder(b, length + 1)
    for t in range(length + 1):
        if t:
            up = words[:, t - 1] > 0
            h = s[:, t]
            ru = rows[up]
            m_at[ru, h[up]] = 0
            c_at[ru, h[up]] = 0
            dn = ~up
            sv = str_of_batch(m_at[rows, np.minimum(h + 1, top - 1)], c_at[rows, np.minimum(h + 1, top - 1)])
            m_new, c_new = fold_case_batch(sv, m_at[rows, h], c_at[rows, h])
            rd = rows[dn]
            m_at[rd, h[dn]] = m_new[dn]
            c_at[rd, h[dn]] = c_new[dn]
            m, c = m_at[rows, h], c_at[rows, h]
        reading = t < length
        rec.put(t, "t", np.full(b, t, dtype=np.int64))
        rec.put(t, "height", s[:, t])
        rec.put(t, "m", m)
        rec.put(t, "c", c)
        rec.put(t, "reading", np.full(b, reading))
        rec.put(t, "next_q", words[:, t].astype(np.int64) if reading else np.zeros(b, dtype=np.int64),
                np.full(b, not reading))
        rec.put(t, "q_in", words[:, t - 1].astype(np.int64) if t else np.zeros(b, dtype=np.int64),
                np.full(b, t == 0))
    return rec.fields(np.full(b, length + 1, dtype=np.int64))
