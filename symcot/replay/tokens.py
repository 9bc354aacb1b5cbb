"""Prompt tokens for the batched engines: a batch's distinct tokens as one integer table, and an index.

Constructions build prompts from a few recurring tokens (an input letter at a position, an arc), often the
very same objects. :func:`intern_tokens` groups the tokens of a batch by identity (in C: the ``id`` of every
token, then ``np.unique``), :func:`exact_table` scales the distinct ones to integers (the token scale of
:mod:`symcot.replay.scaling`), and a :class:`TokenTable` hands each position of every prompt to an engine
in the number type of its path. The numpy engine (:mod:`symcot.replay.batched`) and the native kernel
(:mod:`symcot.replay.native`) read the same table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from itertools import chain
from typing import Any

import numpy as np

from symcot.errors import DimensionError
from symcot.replay.scaling import DTYPES, INT64_MAX, NotNumericError, as_rational, unscale


class TokenTable:
    """A batch of prompts as distinct token rows and an index.

    ``table`` is ``(T, d)`` at scale ``scale``; ``index`` is ``(B, P)``: row ``b``'s token at position ``p``
    is ``table[index[b, p]]``.
    """

    def __init__(self, table: np.ndarray, index: np.ndarray, scale: int):
        self.table, self.index, self.scale = table, index, scale
        self._typed: dict[str, np.ndarray] = {}

    @property
    def positions(self) -> int:
        """Prompt length ``P``."""
        return self.index.shape[1]

    @property
    def batch(self) -> int:
        """Number of prompts ``B``."""
        return self.index.shape[0]

    @property
    def exact_only(self) -> bool:
        """Tokens beyond int64 (held as exact objects)."""
        return self.table.dtype == object

    def at(self, p: int, path: str, rows: np.ndarray | None = None) -> np.ndarray:
        """Position ``p`` of every prompt (or of ``rows``) as ``(d, B)`` in the number type of ``path``."""
        tab = self._typed.get(path)
        if tab is None:  # the table, transposed to (d, T), in the path's type (exact values on "object")
            if path == "object":
                tab = (unscale(self.table, self.scale) if self.scale != 1 else self.table.astype(object)).T
            else:
                tab = self.table.astype(DTYPES[path]).T
            tab = self._typed[path] = np.ascontiguousarray(tab)
        idx = self.index[:, p] if rows is None else self.index[rows, p]
        return np.take(tab, idx, axis=1)  # C-contiguous (d, B); tab[:, idx] would not be

    def bounds(self) -> np.ndarray:
        """``(P, d)``: the largest magnitude of each coordinate at each position over the batch (float64)."""
        mag = np.abs(self.table).astype(np.float64)
        return np.stack([mag[np.unique(self.index[:, p])].max(axis=0) for p in range(self.positions)])

    def shared_prefix(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Rows with equal prompts before the last token: ``(one row per class, class of each row)``, or ``None``.

        Equal tokens have equal indices, so prompts are compared by their index rows. Only worth it (and
        only tried) when neighbouring rows share prefixes and at most three quarters of the rows are distinct.
        """
        b, npos = self.index.shape
        if self.exact_only or b < 8 or npos < 2:
            return None
        key = np.ascontiguousarray(self.index[:, :-1])
        # cheap test first: families list shared prefixes next to each other (a graph, then every source)
        probe = min(b - 1, 64)
        if (key[1:probe + 1] == key[:probe]).all(axis=1).mean() < 0.25:
            return None
        void = key.view(np.dtype((np.void, key.shape[1] * key.itemsize))).ravel()
        _, reps, inverse = np.unique(void, return_index=True, return_inverse=True)
        if len(reps) > 0.75 * b:
            return None
        return reps, inverse.ravel()


def _sum_kind(key: Sequence[Any]) -> str:
    """What the entries of ``key`` are: ``"int"``, ``"exact"`` (ints and Fractions) or ``"other"``.

    ``"int"``: every entry a Python ``int`` (or ``bool``); ``"other"``: a float, a numpy or SymPy number…,
    which the caller looks at closely. One pass in C: a sum is exactly an ``int`` only when every term is,
    a ``Fraction`` only when the terms are ints and Fractions; a float or a numpy number changes its type.
    """
    try:
        total = sum(key)
    except (OverflowError, TypeError):
        return "other"
    kind = type(total)
    return "int" if kind is int else "exact" if kind is Fraction else "other"


def intern_tokens(prompts: Sequence[Sequence[Any]]) -> tuple[np.ndarray, np.ndarray]:
    """The distinct tokens of ``prompts`` as a table ``(T, d)`` and, per prompt and position, their index.

    Prompts must have one length. Tokens are grouped by object identity, in C (``id`` of every token, then
    ``np.unique``): constructions reuse token objects (``Construction._token_cache``), and equal tokens held
    by different objects only cost a table row each, never a wrong value. The table is int64 when every
    entry is a Python ``int`` (read in C); otherwise numpy's conversion decides (object for Fractions),
    and :func:`exact_table` scales it.
    """
    b = len(prompts)
    npos = len(prompts[0]) if b else 0
    flat = list(chain.from_iterable(prompts))
    if len(flat) != b * npos:
        raise DimensionError("prompts of different lengths in one batch")
    ids = np.fromiter(map(id, flat), dtype=np.int64, count=len(flat))
    uniq, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    rows = [flat[pos] for pos in first.tolist()]
    ints_only = True
    for tok in rows:
        kind = _sum_kind(tok)
        if kind != "int":
            ints_only = False
            if kind == "other" and any(isinstance(v, (float, np.floating)) for v in tok):
                raise NotNumericError("floats in the prompt tokens; tokens must be exact (int or Fraction)")
    if len({len(r) for r in rows}) > 1:
        raise DimensionError("tokens of different lengths in one batch")
    width = len(rows[0]) if rows else 0
    table: np.ndarray | None = None
    if ints_only:  # every entry a Python int (the sum of a token is an int exactly then): converted in C
        try:
            table = np.array(rows, dtype=np.int64).reshape(len(rows), width)
        except OverflowError:  # beyond int64: numpy's object conversion below
            table = None
    if table is None:
        table = np.array(rows) if rows else np.zeros((0, width), dtype=np.int64)
        if table.ndim != 2:
            raise DimensionError(f"prompts must be (batch, positions, d); got tokens of shape {table.shape[1:]}")
    return table, inverse.ravel().astype(np.intp).reshape(b, npos)


def exact_table(arr: np.ndarray) -> tuple[np.ndarray, int]:
    """Token rows ``(T, d)`` of exact numbers → (int64 rows at the token scale, or exact objects; scale)."""
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64), 1
    if arr.dtype.kind == "f":
        raise NotNumericError("floats in the prompt tokens; tokens must be exact (int or Fraction)")
    vals = np.frompyfunc(as_rational, 1, 1)(arr).astype(object)
    scale = 1
    for v in vals.flat:
        if isinstance(v, Fraction):
            scale = math.lcm(scale, v.denominator)
    ints = np.frompyfunc(lambda v: int(v * scale), 1, 1)(vals).astype(object)
    top = max((abs(v) for v in ints.flat), default=0)
    return (ints.astype(np.int64) if top <= INT64_MAX else ints), scale


def token_table(prompts: Any, d_model: int) -> TokenTable:
    """Prompts ``(B, P, d)`` of exact numbers as their distinct tokens and an index (:class:`TokenTable`).

    A list of prompts is converted through its *distinct* tokens (:func:`intern_tokens`): constructions build
    prompts from a few recurring tokens (an input letter at a position, an arc), so only those are
    converted element by element; a position's tokens are gathered when it is pushed.
    """
    if isinstance(prompts, np.ndarray):
        if prompts.ndim != 3:
            raise DimensionError(f"prompts must be (batch, positions, d); got shape {prompts.shape}")
        b, npos, d = prompts.shape
        table, index = prompts.reshape(-1, d), np.arange(b * npos, dtype=np.intp).reshape(b, npos)
    else:
        lens = {len(p) for p in prompts}
        if len(lens) > 1:
            raise DimensionError(f"prompts of different lengths {sorted(lens)} in one batch")
        table, index = intern_tokens(prompts)
        d = table.shape[1]
    if d != d_model:
        raise DimensionError(f"tokens of length {d} given to a decoder with d = {d_model}")
    table, scale = exact_table(table)
    return TokenTable(table, index, scale)
