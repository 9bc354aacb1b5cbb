"""Algorithm 1, the width counts and the Strahler fold along a Dyck word, on a batch of words.

The numpy readings of :data:`~proofs.cot_path_to_tree.algorithms.path_transitions.ALG1`,
:data:`~proofs.cot_path_to_tree.algorithms.path_transitions.WIDTH` and
:data:`~proofs.cot_path_to_tree.algorithms.path_transitions.FOLD`, the transitions whose Python readings are
:func:`proofs.cot_path_to_tree.algorithms.paths.algorithm1_states`,
:func:`~proofs.cot_path_to_tree.algorithms.paths.width_states` and
:func:`~proofs.cot_path_to_tree.algorithms.paths.strahler_fold` (the tests compare them on every Dyck word up to 12
letters and beyond). Words are rows of ``+1`` (``U``) and ``-1`` (``D``), all of one length ``L``; every row has
``L + 1`` states.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from proofs.cot_path_to_tree.algorithms.path_transitions import ALG1, FOLD, WIDTH, WordInput, WordRows
from proofs.cot_path_to_tree.algorithms.paths import alg1_states, fold_states, width_of_run
from symcot.algorithms.batched.fields import Fields, step_numbers
from symcot.algorithms.batched.run import BatchRun, run_batch
from symcot.algorithms.reference import Reference
from symcot.algorithms.transition import Transition
from symcot.errors import InvalidInputError
from symcot.inputs.dyck import validate_dyck


def heights_batch(words: np.ndarray) -> np.ndarray:
    """``s_0 … s_L`` of every row: ``(B, L + 1)``."""
    b = words.shape[0]
    return np.concatenate([np.zeros((b, 1), dtype=np.int64), np.cumsum(words, axis=1, dtype=np.int64)], axis=1)


def _run(tr: Transition, g: WordRows, keep: tuple[str, ...] | None = None) -> BatchRun:
    return run_batch(tr, g, g.batch, g.T + 1, keep)


#: The state variables :func:`fold_fields` reads at every step (the per-height arrays only drive the fold).
FOLD_KEEP = ("accM", "accC")


def algorithm1_batch(words: np.ndarray) -> Fields:
    """Algorithm 1 (algo:pathtotree) as printed on every row, one state per letter read.

    Fields (as :class:`~proofs.cot_path_to_tree.algorithms.paths.Alg1State`'s): ``t``, ``i``, ``nl``, ``a``
    (``(B, S, m, m)`` int8), ``par`` (missing after a ``D`` and at ``t = 0``), ``cursor`` (missing once the word is
    read).

    Raises:
        RuntimeError: line 8 finds no or several ``j < i`` with ``A_w[j, i] = 1`` (the proof's invariant).

    """
    g = WordRows(words)
    return alg1_fields(_run(ALG1, g), g)


def alg1_fields(r: BatchRun, g: WordRows) -> Fields:
    """The fields of :func:`algorithm1_batch` from a batch run of ALG1."""
    words = g.words
    b, length, m = g.batch, g.T, g.m
    aw = r.states["Aw"]
    a = (aw.view(np.int8) if aw.dtype == np.bool_ else aw.astype(np.int8)).reshape(b, length + 1, m, m)
    i, par = r.states["i"], r.states["par"]
    if length:
        here = np.clip(i[:, :-1], 0, m - 1)
        col = np.take_along_axis(a[:, :-1], here[:, :, None, None], axis=3)[..., 0]  # A_w[j, i] before each letter
        below = np.arange(m)[None, None, :] < i[:, :-1, None]
        found = ((col != 0) & below).sum(axis=2)
        if ((found != 1) & (words < 0)).any():
            raise RuntimeError("Algorithm 1: no unique index j < i with A_w[j, i] = 1")
    t = step_numbers(b, length + 1)
    done = t >= length
    return Fields(r.lengths, {"t": t, "i": i, "nl": r.states["nl"], "a": a, "par": np.maximum(par, 0),
                              "cursor": np.where(done, 0, t)}, {"par": par < 0, "cursor": done})


def width_states_batch(words: np.ndarray, levels: int) -> Fields:
    """thm:cotwidofpath's quantities per prefix: ``ht = s_t``, ``p_i`` (up-steps ending at height ``i``), ``wd``.

    As :func:`proofs.cot_path_to_tree.algorithms.paths.width_states` with ``levels`` counters: fields ``t``, ``ht``,
    ``p`` (``(B, S, levels)``), ``wd = max_i p_i``.

    Raises:
        InvalidInputError: an up-step ends at a height outside ``1..levels``.

    """
    s = heights_batch(words)
    up = s[:, 1:] - s[:, :-1] == 1
    if (up & ((s[:, 1:] < 1) | (s[:, 1:] > levels))).any():
        raise InvalidInputError(f"a height outside the p block of {levels} levels")
    return width_fields(_run(WIDTH, WordRows(words, levels)), WordRows(words, levels))


def width_fields(r: BatchRun, g: WordRows) -> Fields:
    """The fields of :func:`width_states_batch` from a batch run of WIDTH."""
    return Fields(r.lengths, {"t": step_numbers(g.batch, g.T + 1), "ht": r.states["ht"], "p": r.states["p"],
                              "wd": r.states["wd"]})


def strahler_fold_batch(words: np.ndarray) -> Fields:
    """eq:dynamicstrdfs carried along every row (:func:`proofs.cot_path_to_tree.algorithms.paths.strahler_fold`).

    Fields: ``t``, ``height``, ``m``, ``c``, ``reading`` (a letter is left), ``next_q`` (``±1`` of that letter;
    missing once the word is read), ``q_in`` (``±1`` of the letter just read; missing at ``t = 0``).
    """
    g = WordRows(words)
    return fold_fields(_run(FOLD, g, FOLD_KEEP), g)


def fold_fields(r: BatchRun, g: WordRows) -> Fields:
    """The fields of :func:`strahler_fold_batch` from a batch run of FOLD."""
    words = g.words
    b, length = g.batch, g.T
    t = step_numbers(b, length + 1)
    q = words.astype(np.int64)
    zero = np.zeros((b, 1), dtype=np.int64)
    return Fields(r.lengths, {"t": t, "height": heights_batch(words), "m": r.states["accM"], "c": r.states["accC"],
                              "reading": t < length, "next_q": np.concatenate([q, zero], axis=1),
                              "q_in": np.concatenate([zero, q], axis=1)},
                  {"next_q": t >= length, "q_in": t == 0})


def _words(levels: Callable[[int], int] | None = None) -> Callable[[Any], tuple[WordRows, int, int]]:
    def read(batch: Any) -> tuple[WordRows, int, int]:
        words = batch.words
        g = WordRows(words, levels(words.shape[1]) if levels else 0)
        return g, g.batch, g.T + 1

    return read


def _dyck(word: str) -> str:
    validate_dyck(word)
    return word


#: algo:pathtotree as a claim's reference: ALG1 on a Dyck word and on a batch of words.
ALG1_REFERENCE = Reference(ALG1, lambda w: WordInput(_dyck(w)), lambda r, w: alg1_states(r, w), _words(),
                           alg1_fields)
#: The fold of eq:dynamicstrdfs along a Dyck word (thm:cotpathstrahler): FOLD per word and per batch.
FOLD_REFERENCE = Reference(FOLD, lambda w: WordInput(_dyck(w)), lambda r, w: fold_states(r, w), _words(),
                           fold_fields, keep=FOLD_KEEP)


def _levels(length: int) -> int:
    return length // 2 + 1


#: thm:cotwidofpath's counters with ``H = |w|/2 + 1`` levels: WIDTH per word and per batch.
WIDTH_REFERENCE = Reference(WIDTH, lambda w: WordInput(_dyck(w), _levels(len(w))), lambda r, w: width_of_run(r),
                            _words(_levels), width_fields)
