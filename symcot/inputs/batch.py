"""Inputs in batches: a rank range of Dyck words, or of the ordered trees ψ(w), as arrays.

Exhaustive checks at large sizes enumerate millions of inputs; building one Python object per input (a
string, a :class:`~symcot.inputs.graphs.Digraph`) and validating it costs more than replaying it. An
:class:`InputBatch` holds a rank range of one size as arrays, built vectorised and in rank order:

* :class:`WordBatch` -- the Dyck words of ``size`` vertices (semilength ``size - 1``) with rank in
  ``[start, stop)`` of :func:`symcot.inputs.dyck.dyck_words_range`'s order, as rows of ``+1`` (``U``) and
  ``-1`` (``D``): :func:`unrank_words` unranks every row at once with the same ballot numbers as
  :func:`~symcot.inputs.dyck.dyck_unrank`;
* :class:`TreeBatch` -- the same words as the ordered trees ψ(w) (preorder labels, root 0), the inputs
  ``(ψ(w).to_digraph(), 0)`` of :func:`symcot.inputs.dyck_families.ordered_rooted_trees`: the parent arrays
  (:func:`parents_from_words`, ψ of lem:bijectionpathtree on every row) and the adjacency matrices.

Enumerated inputs are valid by construction, so nothing here validates them; :meth:`InputBatch.item` builds
row ``i`` as the per-input enumerator yields it (validated as usual), for spot checks and counterexamples.

A batch also *stands in* for one input in code written for one input (:attr:`InputBatch.stand_in`): the
prompt keys of a construction (:meth:`~symcot.constructions.base.Construction.token_keys`) and a
conclusion's step count read the stand-in as they read an input, and get a row-indexed array (a *leaf*)
wherever the value differs between rows. :class:`WordColumns` stands in for a word (its length, and per
position the letters of every row), :class:`DigraphColumns` for a tree (``n``, the adjacency rows as
columns of every row, the out-arcs as a :class:`RaggedArcs` leaf).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from symcot.errors import InvalidInputError
from symcot.inputs.dyck import DOWN, UP, _ballot_table, catalan
from symcot.inputs.graphs import Digraph
from symcot.inputs.trees import OrderedTree

#: Letters as stored in a :class:`WordBatch`.
U_STEP, D_STEP = 1, -1


def _ballot_array(length: int) -> np.ndarray:
    """``N[L][h]`` of :func:`~symcot.inputs.dyck._ballot_table` as int64, padded with zeros (``h ≤ length + 2``)."""
    table = _ballot_table(length)
    out = np.zeros((length + 1, length + 3), dtype=np.int64)
    for steps, row in enumerate(table):
        out[steps, : len(row)] = row
    return out


def unrank_words(m: int, start: int, stop: int) -> np.ndarray:
    """The Dyck words of semilength ``m`` with rank in ``[start, stop)``: ``(stop - start, 2m)`` int8 of ``±1``.

    Row ``k`` is ``dyck_unrank(m, start + k)``, unranked for every row at once: at each position the row takes
    ``U`` when its remaining rank is below the number of completions that start with ``U``.
    """
    total = catalan(m)
    if not (0 <= start <= stop <= total):
        raise InvalidInputError(f"rank range [{start}, {stop}) outside 0..{total} for semilength {m}")
    length = 2 * m
    r = np.arange(start, stop, dtype=np.int64)
    out = np.empty((len(r), length), dtype=np.int8)
    if length == 0 or not len(r):
        return out
    table = _ballot_array(length)
    h = np.zeros(len(r), dtype=np.int64)
    for i in range(length):
        with_up = table[length - i - 1, h + 1]
        up = r < with_up
        out[:, i] = np.where(up, U_STEP, D_STEP)
        r -= np.where(up, 0, with_up)
        h += np.where(up, 1, -1)
    return out


def parents_from_words(words: np.ndarray) -> np.ndarray:
    """ψ on every row: ``(B, |w|/2 + 1)`` parent arrays (``-1`` for the root 0), vertices in preorder.

    As :meth:`~symcot.inputs.trees.OrderedTree.from_dyck`: a ``U`` adds the next vertex as a child of the
    current one and enters it, a ``D`` returns to the parent.
    """
    b, length = words.shape
    n = length // 2 + 1
    parent = np.full((b, n), -1, dtype=np.int64)
    rows = np.arange(b)
    cur = np.zeros(b, dtype=np.int64)
    nxt = np.ones(b, dtype=np.int64)
    for i in range(length):
        up = words[:, i] > 0
        ru = rows[up]
        parent[ru, nxt[up]] = cur[up]
        back = parent[rows, cur]
        cur = np.where(up, nxt, back)
        nxt += up
    return parent


def adjacency_from_parents(parents: np.ndarray) -> np.ndarray:
    """``(B, n, n)`` 0/1 int8 adjacency matrices of the trees given by parent arrays (both arcs per edge)."""
    b, n = parents.shape
    adj = np.zeros((b, n, n), dtype=np.int8)
    bb, vv = np.nonzero(parents >= 0)
    pp = parents[bb, vv]
    adj[bb, vv, pp] = 1
    adj[bb, pp, vv] = 1
    return adj


def word_text(row: np.ndarray) -> str:
    """A row of ``±1`` as the word over ``U``/``D``."""
    return "".join(UP if x > 0 else DOWN for x in row.tolist())


# -- stand-ins ------------------------------------------------------------------------------------------


class WordColumns:
    """Stands in for one Dyck word in code written for a ``str``: ``len`` is ``|w|``, item ``τ`` the letters.

    Item ``τ`` (and iteration) gives the letters of every row at position ``τ`` as a ``(B,)`` array of ``"U"``
    and ``"D"`` (comparisons with ``UP`` work elementwise); :meth:`heights` gives ``s_0 … s_|w|`` as arrays
    (:func:`symcot.inputs.dyck.heights` hands a stand-in to it). :attr:`parents` is ψ of every row.
    """

    def __init__(self, words: np.ndarray):
        self.words = words

    @cached_property
    def parents(self) -> np.ndarray:
        """ψ(w) of every row as parent arrays (:func:`parents_from_words`)."""
        return parents_from_words(self.words)

    def __len__(self) -> int:
        return int(self.words.shape[1])

    def __getitem__(self, tau: int) -> np.ndarray:
        return np.where(self.words[:, tau] > 0, UP, DOWN)

    def __iter__(self) -> Iterator[np.ndarray]:
        return (self[tau] for tau in range(len(self)))

    def heights(self) -> list[np.ndarray]:
        """``s_0 … s_{|w|}`` of every row (``(B,)`` int64 each)."""
        s = np.concatenate([np.zeros((self.words.shape[0], 1), dtype=np.int64),
                            np.cumsum(self.words, axis=1, dtype=np.int64)], axis=1)
        return [s[:, t] for t in range(s.shape[1])]


class RaggedArcs:
    """A leaf: the out-arcs ``((j, a_ij), …)`` of vertex ``i`` in every row, as one row's code would list them.

    ``codes`` identifies the value by row (the row ``i`` of the weight matrix, 0 without an arc), ``value(r)``
    is row ``r``'s tuple, arcs in increasing ``j`` (as :meth:`Digraph.out_arcs`).
    """

    def __init__(self, weights: np.ndarray):
        self.codes = np.ascontiguousarray(weights, dtype=np.int64)

    def value(self, r: int) -> tuple[tuple[int, int], ...]:
        """Row ``r``'s out-arcs."""
        return tuple((j, w) for j, w in enumerate(self.codes[r].tolist()) if w != 0)


class DigraphColumns:
    """Stands in for one unweighted digraph in code written for a :class:`~symcot.inputs.graphs.Digraph`.

    ``n`` is shared; :meth:`adjacency` gives row ``u`` as the list of ``(B,)`` columns ``A[u][v]``, and
    :meth:`out_arcs` vertex ``i``'s out-arcs as a :class:`RaggedArcs` leaf. Unweighted: ``weights`` is
    ``None``. Where the rows are the trees of a :class:`TreeBatch`, ``parents`` holds them as parent arrays
    (rooted at 0, the stand-in's root) and ``memo`` is the batch's :meth:`InputBatch.memo` (a run that a
    statement read on the stand-in shares with the batch's reference), else both are ``None``.
    """

    weights = None
    weighted = False

    def __init__(self, adjacency: np.ndarray, parents: np.ndarray | None = None,
                 memo: Callable[[str, Callable[[], Any]], Any] | None = None):
        self._adj = adjacency
        self.n = int(adjacency.shape[1])
        self.parents = parents
        self.memo = memo

    def adjacency(self) -> list[list[np.ndarray]]:
        """``A[u][v]`` of every row (0/1 int64 columns, each contiguous: the matrices transposed once, rows last)."""
        a = np.ascontiguousarray(np.moveaxis(self._adj, 0, -1), dtype=np.int64)
        return [[a[u, v] for v in range(self.n)] for u in range(self.n)]

    def out_arcs(self) -> tuple[RaggedArcs, ...]:
        """Per vertex, its out-arcs with their weights (1) in every row."""
        return tuple(RaggedArcs(self._adj[:, i, :]) for i in range(self.n))


# -- batches --------------------------------------------------------------------------------------------


@dataclass
class InputBatch:
    """A rank range ``[start, start + count)`` of one size of a family, as arrays (module docstring).

    Attributes:
        size: the inputs' size (vertices of ψ(w)).
        start: the rank of row 0.
        words: ``(B, 2(size - 1))`` int8 of ``±1``, the Dyck words in rank order.
        total: how many inputs the size has in all (the batch is a range of them).

    """

    size: int
    start: int
    words: np.ndarray
    total: int = 0

    @property
    def count(self) -> int:
        """Rows ``B``."""
        return int(self.words.shape[0])

    def word(self, i: int) -> str:
        """Row ``i``'s word."""
        return word_text(self.words[i])

    def item(self, i: int) -> Any:
        """Row ``i`` as the per-input enumerator yields it."""
        raise NotImplementedError

    @property
    def stand_in(self) -> Any:
        """What stands in for one input (module docstring)."""
        raise NotImplementedError

    def rows(self, keep: np.ndarray) -> InputBatch:
        """The batch restricted to the rows ``keep`` (a boolean mask or indices; ranks are no longer consecutive)."""
        raise NotImplementedError

    def memo(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()``, once per batch and ``key``.

        For a run two statements of one claim both read (the DFS dynamic that a reference and an answer are
        both defined by).
        """
        memo = self.__dict__.setdefault("_memo", {})
        if key not in memo:
            memo[key] = compute()
        return memo[key]


@dataclass
class WordBatch(InputBatch):
    """Dyck words: row ``i`` is the word of rank ``start + i`` (a ``str``, as :func:`dyck_words_range` yields)."""

    def item(self, i: int) -> str:
        """Row ``i``'s word."""
        return self.word(i)

    @cached_property
    def stand_in(self) -> WordColumns:
        """The words as a :class:`WordColumns`."""
        return WordColumns(self.words)

    @property
    def parents(self) -> np.ndarray:
        """ψ(w) of every row as parent arrays (:func:`parents_from_words`, computed once, by the stand-in)."""
        return self.stand_in.parents

    def rows(self, keep: np.ndarray) -> WordBatch:
        """Only the rows ``keep``."""
        return WordBatch(self.size, self.start, self.words[keep], self.total)


@dataclass
class TreeBatch(InputBatch):
    """Ordered trees ψ(w), preorder labels, rooted at 0: row ``i`` is ``(ψ(w_i).to_digraph(), 0)``."""

    known_parents: np.ndarray | None = None  # ψ of the rows, when already computed (a restriction of a batch)

    @cached_property
    def parents(self) -> np.ndarray:
        """ψ(w) of every row as parent arrays (:func:`parents_from_words`)."""
        return self.known_parents if self.known_parents is not None else parents_from_words(self.words)

    @cached_property
    def adjacency(self) -> np.ndarray:
        """``(B, n, n)`` 0/1 int8."""
        return adjacency_from_parents(self.parents)

    @property
    def roots(self) -> np.ndarray:
        """The root of every row: 0."""
        return np.zeros(self.count, dtype=np.int64)

    def item(self, i: int) -> tuple[Digraph, int]:
        """Row ``i`` as ``(ψ(w).to_digraph(), 0)``."""
        return OrderedTree.from_dyck(self.word(i)).to_digraph(), 0

    @cached_property
    def stand_in(self) -> tuple[DigraphColumns, int]:
        """``(DigraphColumns, 0)``: every row's tree (with its parent array and the batch's memo), the shared root 0."""
        return DigraphColumns(self.adjacency, self.parents, self.memo), 0

    def rows(self, keep: np.ndarray) -> TreeBatch:
        """Only the rows ``keep``."""
        return TreeBatch(self.size, self.start, self.words[keep], self.total, self.parents[keep])


def word_batch(size: int, start: int, stop: int) -> WordBatch:
    """The Dyck words of ``size`` vertices with rank in ``[start, stop)`` (``stop`` clipped to the count)."""
    m = _semilength(size)
    total = catalan(m)
    stop = min(stop, total)
    return WordBatch(size, start, unrank_words(m, start, max(start, stop)), total)


def tree_batch(size: int, start: int, stop: int) -> TreeBatch:
    """The ordered trees ψ(w) of ``size`` vertices, root 0, with rank in ``[start, stop)`` (``stop`` clipped)."""
    m = _semilength(size)
    total = catalan(m)
    stop = min(stop, total)
    return TreeBatch(size, start, unrank_words(m, start, max(start, stop)), total)


def _semilength(size: int) -> int:
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise InvalidInputError(f"a size is a number of vertices >= 1, got {size!r}")
    return size - 1
