r"""The algorithms along a Dyck word, each stated once as a :class:`~symcot.algorithms.transition.Transition`.

Paper: *Chain-of-Thought Shows the Path to a Tree*, Algorithm 1 (``algo:pathtotree``, realized by
``thm:cotpathtotree``), the fold of eq:dynamicstrdfs along the word (obs:strpathtwoMc, realized by
``thm:cotpathstrahler``) and the width counts of ``thm:cotwidofpath``.

Each step reads one letter: the step from ``τ`` to ``τ + 1`` reads ``w_τ``, an input symbol (``up(τ)``: ``w_τ = U``;
``ups(τ)``: the ``U`` among ``w_0 … w_{τ-1}``, so the height is ``s_τ = 2·ups(τ) - τ``). A step sees the state and
not its own index, so every transition carries ``nread``, the number of letters read (``nread(τ) = τ``), and reads
the letter ``w_{nread}``; the run stops once the word is read (``T = |w|``).

* :data:`ALG1` -- Algorithm 1 as printed: ``i``, ``nl``, ``A_w`` and the parent recorded by the last ``U``
  (``par``, thm:cotpathtotree's ``par`` block). ``A_w`` is an ``m × m`` matrix; a state variable has one index, so
  it is kept flattened: ``Aw[pair(a, b)] = A_w[a, b]`` with ``pair(a, b) = a·m + b`` an input symbol (:data:`PAIR`).
* :data:`FOLD` -- the ``(M, c)`` accumulator of the vertex the pointer rests at (``accM``, ``accC``), the
  accumulator last written at each height (``hM``, ``hC``) and the last point at each height (``lp``): a ``U``
  gives the new vertex ``(0, 0)``; a ``D`` folds ``str(τ_v) = M_v + 1[c_v ≥ 2]`` into the accumulator kept at the
  new height, by the case form of eq:dynamicstrdfs.
* :data:`WIDTH` -- ``ht = s_τ``, ``p_i = |{k ≤ τ : s_k = i, s_k - s_{k-1} = +1}|`` (``p`` over ``levels``
  counters) and ``wd = max_i p_i``.

The inputs: :class:`WordInput` (one word, Python values) and :class:`WordRows` (a batch of words of one length,
numpy rows); an interpretation of a vocabulary with the symbols ``m``, ``T``, ``up``, ``ups`` is the third.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

import numpy as np

from proofs.cot_path_to_tree.algorithms.strahler_facts import fold_c, fold_m, str_of
from symcot.algorithms.transition import Aux, Index, StateVar, Transition
from symcot.inputs.dyck import UP

#: The nodes ``0 … m - 1`` of ψ(w) (``m = |w|/2 + 1``).
NODE = Index("node", lambda g: g.m)
#: The entries of the flattened ``A_w``: ``pair(a, b) = a·m + b`` for the nodes ``a``, ``b``.
PAIR = Index("pair", lambda g: g.m * g.m)
#: The heights ``0 … T`` a point of the path can have.
HEIGHT = Index("height", lambda g: g.T + 1)
#: The levels ``1 … levels`` of thm:cotwidofpath's ``p`` block, as ``0 … levels - 1``.
LEVEL = Index("level", lambda g: g.levels)


def height(c: Any, t: Any) -> Any:
    """``s_τ = 2·ups(τ) - τ``."""
    return 2 * c.ups(t) - t


class WordInput:
    """One word's input symbols: ``T = |w|``, ``m = |w|/2 + 1``, ``up(τ)``, ``ups(τ)`` and ``levels``.

    Outside ``0 … T - 1`` (``up``) and ``0 … T`` (``ups``) they are ``False`` and ``0``.
    """

    def __init__(self, word: str, levels: int = 0):
        self.word, self.levels = word, levels
        self.T = len(word)
        self.m = self.T // 2 + 1
        self._ups = (0, *accumulate(1 if ch == UP else 0 for ch in word))

    def up(self, t: int) -> bool:
        """``w_τ = U``."""
        return 0 <= t < self.T and self.word[t] == UP

    def pair(self, a: int, b: int) -> int:
        """The index ``a·m + b`` of the entry ``(a, b)`` of an ``m × m`` matrix; -1 outside the matrix."""
        return a * self.m + b if 0 <= a < self.m and 0 <= b < self.m else -1

    def ups(self, t: int) -> int:
        """The ``U`` among ``w_0 … w_{τ-1}``."""
        return self._ups[t] if 0 <= t <= self.T else 0


class WordRows:
    """A batch's input symbols: words of one length ``T`` as rows of ``±1``; ``up(τ)``, ``ups(τ)`` row by row.

    Shapes as :class:`~symcot.algorithms.transition.NumpyOps` reads them: ``τ`` a number, a column ``(B, 1)`` or a
    row of indices, the result broadcast with ``(B, 1)``.
    """

    def __init__(self, words: np.ndarray, levels: int = 0):
        self.words = np.asarray(words)
        self.batch, self.T = self.words.shape
        self.m = self.T // 2 + 1
        self.levels = levels
        self.rows = np.arange(self.batch)[:, None]
        self._ups = np.concatenate([np.zeros((self.batch, 1), dtype=np.int64),
                                    np.cumsum(self.words > 0, axis=1, dtype=np.int64)], axis=1)

    def _at(self, table: np.ndarray, t: np.ndarray | int, top: int) -> tuple[np.ndarray, np.ndarray]:
        t = np.broadcast_to(t, np.broadcast_shapes(np.shape(t), (self.batch, 1)))
        ok = (t >= 0) & (t < top)
        return ok, table[self.rows, np.where(ok, t, 0)] if table.shape[1] else np.zeros(t.shape, table.dtype)

    def up(self, t: np.ndarray | int) -> np.ndarray:
        """``w_τ = U`` of every row."""
        ok, letter = self._at(self.words, t, self.T)
        return ok & (letter > 0)

    def pair(self, a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray:
        """``a·m + b`` of every row; -1 outside the matrix."""
        a, b = np.asarray(a), np.asarray(b)
        return np.where((a >= 0) & (a < self.m) & (b >= 0) & (b < self.m), a * self.m + b, -1)

    def ups(self, t: np.ndarray | int) -> np.ndarray:
        """The ``U`` among the first ``τ`` letters of every row."""
        ok, count = self._at(self._ups, t, self.T + 1)
        return np.where(ok, count, 0)


def _read(o: Any, g: Any, s: Any) -> Any:
    return s.nread < g.T


def _letters(g: Any) -> int:
    return int(g.T) + 1


NREAD = StateVar("nread", doc="the number of letters read, τ", result="step")


# -- Algorithm 1 (algo:pathtotree) --------------------------------------------------------------------------


def _alg1_step(o: Any, g: Any, s: Any) -> dict[str, Any]:
    """One letter of Algorithm 1: lines 4-7 on a ``U``, lines 8-9 on a ``D``."""
    up = g.up(s.nread)  # line 4
    new = s.nl + 1  # line 5
    pj = o.lowest("pj", lambda j: o.and_(j < s.i, o.at(s.Aw, g.pair(j, s.i), False)))  # line 8
    linked = o.put(o.put(s.Aw, g.pair(s.i, new), True), g.pair(new, s.i), True)  # line 6
    return {"nread": s.nread + 1, "i": o.ite(up, new, pj), "nl": o.ite(up, new, s.nl),  # lines 7 and 9
            "par": o.ite(up, s.i, -1), "Aw": o.ite(up, linked, s.Aw)}


#: algo:pathtotree: line 1 ``A_w ← 0``, line 2 ``nl ← 0, i ← 0``; for each letter (line 3), a ``U`` (line 4) sets
#: ``nl ← nl + 1`` (line 5), ``A_w[i, nl] ← 1``, ``A_w[nl, i] ← 1`` (line 6), ``i ← nl`` (line 7); a ``D`` searches
#: the ``j < i`` with ``A_w[j, i] = 1`` (line 8, the lowest such ``j``) and sets ``i ← j`` (line 9). ``par`` is
#: the node current before a ``U`` (-1 after a ``D`` and at ``τ = 0``). Input symbols: ``m``, ``T``, ``up``, ``pair``.
ALG1 = Transition(
    "algo:pathtotree",
    (NREAD,
     StateVar("i", doc="the current node after τ letters", result="node"),
     StateVar("nl", doc="the last created node after τ letters", result="node"),
     StateVar("par", doc="the node current before letter τ - 1 if it was U; -1 otherwise", result="node"),
     StateVar("Aw", "bool", PAIR, "A_w[a, b] = 1 after τ letters, at pair(a, b) = a·m + b")),
    init=lambda o, g: {"nread": 0, "i": 0, "nl": 0, "par": -1, "Aw": o.array(PAIR, lambda k: False)},
    step=_alg1_step,
    running=_read,
    bound=_letters,
    aux=(Aux("pj", "lowest", doc="the j < i with A_w[j, i] = 1 that line 8 finds at letter τ", over=NODE),),
)


# -- the fold of eq:dynamicstrdfs along the word (obs:strpathtwoMc) -----------------------------------------


def _fold_step(o: Any, g: Any, s: Any) -> dict[str, Any]:
    """One letter: a ``U`` gives the new vertex ``(0, 0)``; a ``D`` folds the vertex left into the one below it."""
    t1 = s.nread + 1
    h1 = height(g, t1)
    folded = str_of(o, s.accM, s.accC), o.at(s.hM, h1, 0), o.at(s.hC, h1, 0)
    up = g.up(s.nread)
    m1 = o.ite(up, 0, fold_m(o, *folded))
    c1 = o.ite(up, 0, fold_c(o, *folded))
    return {"nread": t1, "lp": o.put(s.lp, h1, t1), "hM": o.put(s.hM, h1, m1), "hC": o.put(s.hC, h1, c1),
            "accM": m1, "accC": c1}


#: eq:dynamicstrdfs along a Dyck word (obs:strpathtwoMc): the root starts with ``(M, c) = (0, 0)``; a ``U`` into
#: the height ``s_{τ+1}`` gives the new vertex ``(0, 0)``; a ``D`` finishes the vertex left, ``str(τ_v) = M_v +
#: 1[c_v ≥ 2]`` (the accumulator at ``τ``), and folds it into the accumulator last written at the height ``s_{τ+1}``
#: (at the point ``t' = lp(τ, s_{τ+1})``) by the case form. Every step writes the new accumulator and the point
#: ``τ + 1`` at the height ``s_{τ+1}``. Input symbols: ``T``, ``up``, ``ups``.
FOLD = Transition(
    "eq:dynamicstrdfs along a Dyck word",
    (NREAD,
     StateVar("lp", "int", HEIGHT, "the last point k ≤ τ with s_k = h; -1 if none", result="step"),
     StateVar("hM", "int", HEIGHT, "M of the accumulator last written at the height h (by the point lp(τ, h))"),
     StateVar("hC", "int", HEIGHT, "c of the accumulator last written at the height h (by the point lp(τ, h))"),
     StateVar("accM", doc="M of the accumulator at the point τ"),
     StateVar("accC", doc="c of the accumulator at the point τ")),
    init=lambda o, g: {"nread": 0, "lp": o.array(HEIGHT, lambda h: o.ite(h == 0, 0, -1)),
                       "hM": o.array(HEIGHT, lambda h: 0), "hC": o.array(HEIGHT, lambda h: 0), "accM": 0, "accC": 0},
    step=_fold_step,
    running=_read,
    bound=_letters,
)


# -- the width counts (thm:cotwidofpath) ---------------------------------------------------------------------


def _width_step(o: Any, g: Any, s: Any) -> dict[str, Any]:
    """One letter: a ``U`` into the height ``h`` adds one to ``p_h`` and raises ``wd`` to it if it is larger."""
    up = g.up(s.nread)
    ht = o.ite(up, s.ht + 1, s.ht - 1)
    count = o.at(s.p, ht - 1, 0) + 1
    return {"nread": s.nread + 1, "ht": ht, "p": o.ite(up, o.put(s.p, ht - 1, count), s.p),
            "wd": o.ite(o.and_(up, count > s.wd), count, s.wd)}


#: thm:cotwidofpath's quantities: ``ht = s_τ``, ``p_i`` (at index ``i - 1``) the up-steps so far that end at
#: height ``i``, ``wd = max_i p_i`` (``p`` only grows, one coordinate at a time). Input symbols: ``T``, ``up``,
#: ``levels``.
WIDTH = Transition(
    "thm:cotwidofpath",
    (NREAD,
     StateVar("ht", doc="s_τ, the height after τ letters"),
     StateVar("p", "int", LEVEL, "p_{h+1}: the up-steps among the first τ letters that end at height h + 1"),
     StateVar("wd", doc="max_i p_i")),
    init=lambda o, g: {"nread": 0, "ht": 0, "p": o.array(LEVEL, lambda h: 0), "wd": 0},
    step=_width_step,
    running=_read,
    bound=_letters,
)
