"""A construction's prompts for a whole batch, from its one statement of the prompt (``token_keys``, ``token``).

:meth:`~symcot.constructions.base.Construction.token_keys` is written for one input. Given a batch's stand-in
(:mod:`symcot.inputs.batch`), it returns keys in which every value that differs between rows is a *leaf*: a
``(B,)`` numpy array (row ``r``'s value is ``leaf[r]``; integers, booleans, strings, or hashable objects such as
exact numbers and a sentinel for ``∞``, coded by a table of the values seen in this process), or an object
with ``codes`` (``(B, k)`` integers that identify row ``r``'s value) and ``value(r)``
(:class:`~symcot.inputs.batch.RaggedArcs`). :func:`batch_prompt`
groups the rows of each position by their leaves, rebuilds the key of one row of every group exactly as
``token_keys`` would have built it for that row's input, and asks for its token once. The tests compare the
result with the per-input prompts on every input up to 9 vertices; the batched checker compares a few rows of
every batch.

A prompt stated by segments (:class:`~symcot.constructions.alln.PromptStatement`) reads its views through
:class:`Elementwise`, an interpretation of the input symbols whose values may be such rows: its condition
builders act row by row, and a set over rows is a :class:`RowSet` leaf.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from symcot.algorithms.logic import Concrete


class RowSet:
    """A leaf: the set ``{j < size : p(j)}`` in every row; ``codes`` ``(B, size)`` its indicator."""

    def __init__(self, members: list[Any]):
        rows = np.broadcast_arrays(*(np.asarray(x, dtype=bool) for x in members))
        self.codes = np.stack(rows, axis=1).astype(np.int64)

    def value(self, r: int) -> frozenset[int]:
        """Row ``r``'s set."""
        return frozenset(j for j, x in enumerate(self.codes[r].tolist()) if x)


def _rows(*xs: Any) -> bool:
    return any(isinstance(x, np.ndarray) for x in xs)


class Tagged:
    """A leaf whose row values are integers or hashable objects (a sentinel such as ``∞``), coded without a loop.

    Row ``r`` is the object of code ``tags[r]`` (:func:`_intern`'s, plus one) where ``tags[r] > 0``, else the integer
    ``ints[r]``; ``codes`` is ``(B, 2)``: ``[tag, integer]``. Equal codes mean equal values (in every batch, as
    :func:`_codes` requires); an integer-valued object gets its own code, so equal values may have two codes (their
    tokens are then built twice, equal). :meth:`Elementwise.ite` makes one where a branch is such an object, in place
    of an object array that :func:`_codes` would intern element by element.
    """

    def __init__(self, tags: np.ndarray, ints: np.ndarray):
        self.tags, self.ints = tags, ints

    @property
    def codes(self) -> np.ndarray:
        """``(B, 2)`` int64: the tag and the integer of every row."""
        return np.stack([self.tags, self.ints], axis=1)

    def value(self, r: int) -> Any:
        """Row ``r``'s value."""
        tag = int(self.tags[r])
        return _OBJECTS[tag - 1] if tag else int(self.ints[r])

    @staticmethod
    def parts(x: Any, batch: int) -> tuple[Any, Any] | None:
        """``x`` (an integer or integer array, an object, a :class:`Tagged`) as its tags and integers.

        Each is a number or a ``(B,)`` array; ``None``: not representable.
        """
        if isinstance(x, Tagged):
            return x.tags, x.ints
        if isinstance(x, np.ndarray):
            if x.dtype.kind not in "iub" or x.shape not in ((batch,), ()):
                return None
            return 0, x.astype(np.int64)
        if isinstance(x, (int, np.integer)):  # bool included
            return 0, int(x)
        try:
            return _intern(x) + 1, 0
        except TypeError:  # not hashable
            return None


def _tagged_where(cond: np.ndarray, a: Any, b: Any) -> Tagged | None:
    """``np.where(cond, a, b)`` as a :class:`Tagged` leaf where a branch is an object or one (else ``None``)."""
    if cond.ndim != 1 or not any(isinstance(x, Tagged) or not _plain(x) for x in (a, b)):
        return None
    pa, pb = Tagged.parts(a, len(cond)), Tagged.parts(b, len(cond))
    if pa is None or pb is None:
        if isinstance(a, Tagged) or isinstance(b, Tagged):
            raise NotImplementedError("a choice between a tagged leaf and a value it cannot hold: input by input")
        return None
    return Tagged(np.where(cond, pa[0], pb[0]).astype(np.int64, copy=False),
                  np.where(cond, pa[1], pb[1]).astype(np.int64, copy=False))


def _plain(x: Any) -> bool:
    """A value ``np.where`` keeps numeric: a Python or numpy number or boolean, or an array that is not of objects."""
    if isinstance(x, np.ndarray):
        return x.dtype.kind != "O"
    return isinstance(x, (int, float, np.number, np.bool_))


class Elementwise(Concrete):
    """Concrete values of which some may be a batch's rows (``(B,)`` arrays): the condition builders act row by row.

    On Python values it is :class:`~symcot.algorithms.logic.Concrete`. ``ite`` on a row condition is ``np.where``;
    ``and_``, ``or_``, ``not_`` and ``implies`` are the logical ufuncs; ``set`` over rows is a :class:`RowSet`.
    The symbols are read as plain attributes (a prompt reads them once per coordinate).
    """

    def __init__(self, values: dict[str, Any]):
        super().__init__(values)
        vars(self).update({k: v for k, v in values.items() if not hasattr(type(self), k)})

    @staticmethod
    def ite(cond: Any, a: Any, b: Any) -> Any:
        """``a`` if ``cond`` else ``b``, row by row."""
        if isinstance(cond, np.ndarray):
            tagged = _tagged_where(cond, a, b)
            return tagged if tagged is not None else np.where(cond, a, b)
        return a if cond else b

    @staticmethod
    def and_(*xs: Any) -> Any:
        """Conjunction, row by row."""
        if _rows(*xs):
            return np.logical_and.reduce(np.broadcast_arrays(*(np.asarray(x, dtype=bool) for x in xs)))
        return all(xs)

    @staticmethod
    def or_(*xs: Any) -> Any:
        """Disjunction, row by row."""
        if _rows(*xs):
            return np.logical_or.reduce(np.broadcast_arrays(*(np.asarray(x, dtype=bool) for x in xs)))
        return any(xs)

    @staticmethod
    def not_(x: Any) -> Any:
        """Negation, row by row."""
        return np.logical_not(x) if isinstance(x, np.ndarray) else not x

    @staticmethod
    def implies(a: Any, b: Any) -> Any:
        """``a → b``, row by row."""
        return Elementwise.or_(Elementwise.not_(a), b)

    @staticmethod
    def set(p: Any, size: int) -> Any:
        """``{j < size : p(j)}``: a frozenset, or a :class:`RowSet` when a member differs between rows."""
        members = [p(j) for j in range(size)]
        if _rows(*members):
            return RowSet(members)
        return frozenset(j for j, x in enumerate(members) if x)


@dataclass
class BatchPrompt:
    """Prompts of a batch: ``tokens`` (the distinct tokens, exact lists) and ``index`` ``(B, P)`` into them."""

    tokens: list[list[Any]]
    index: np.ndarray
    labels: list[str]


@dataclass(frozen=True)
class _Slot:
    k: int


def _is_leaf(x: Any) -> bool:
    return (isinstance(x, np.ndarray) and x.ndim >= 1) or (hasattr(x, "codes") and hasattr(x, "value"))


def _template(key: Any, leaves: list[Any]) -> Any:
    """``key`` with every leaf replaced by a slot (the leaves appended to ``leaves`` in order)."""
    if _is_leaf(key):
        leaves.append(key)
        return _Slot(len(leaves) - 1)
    if isinstance(key, (tuple, list)):
        return type(key)(_template(x, leaves) for x in key)
    return key


def _fill(tpl: Any, values: list[Any]) -> Any:
    if isinstance(tpl, _Slot):
        return values[tpl.k]
    if isinstance(tpl, (tuple, list)):
        return type(tpl)(_fill(x, values) for x in tpl)
    return tpl


def _codes(leaf: Any, batch: int) -> np.ndarray:
    """``(B, k)`` int64 codes of a leaf: equal rows exactly when the row values are equal (the same in every batch)."""
    if isinstance(leaf, np.ndarray):
        if leaf.shape != (batch,):
            raise ValueError(f"a key leaf of shape {leaf.shape} in a batch of {batch}")
        if leaf.dtype.kind in "iub":
            return leaf.astype(np.int64)[:, None]
        if leaf.dtype.kind == "U":  # fixed-width UCS-4: the code points
            return np.ascontiguousarray(leaf).view(np.uint32).reshape(batch, -1).astype(np.int64)
        if leaf.dtype.kind == "O":  # exact numbers and sentinels (a missing arc's ∞): interned
            try:
                return np.fromiter(map(_intern, leaf.tolist()), dtype=np.int64, count=batch)[:, None]
            except TypeError:
                raise ValueError("a key leaf of objects that are not hashable") from None
        raise ValueError(f"a key leaf of dtype {leaf.dtype}: integers, booleans, strings or hashable objects only")
    return np.asarray(leaf.codes, dtype=np.int64).reshape(batch, -1)


def _all_codes(leaves: list[Any], batch: int) -> np.ndarray:
    """The leaves' codes as columns of the rows, ``(K, B)`` int64: code ``k`` of every row is one contiguous line."""
    columns: list[np.ndarray] = []
    for x in leaves:
        if isinstance(x, np.ndarray) and x.dtype.kind in "iub" and x.shape == (batch,):
            columns.append(x)
        elif isinstance(x, Tagged):  # its two columns, without stacking them first
            columns += [np.broadcast_to(x.tags, (batch,)), np.broadcast_to(x.ints, (batch,))]
        else:
            columns += list(_codes(x, batch).T)
    out = np.empty((len(columns), batch), dtype=np.int64)
    for k, c in enumerate(columns):
        out[k] = c
    return out


#: Odd 64-bit multipliers for hashing code rows, one per code (collisions are detected, then rows are compared
#: whole). Drawn from splitmix64, so that no small combination of them cancels, as one of an arithmetic
#: progression would (``c_0 + c_12 = c_4 + c_8``: rows of 0/1 codes colliding often).
_MULTIPLIERS: dict[int, np.ndarray] = {}


def _multipliers(k: int) -> np.ndarray:
    """The first ``k`` hash multipliers (splitmix64's outputs from the seed 0, made odd), computed once."""
    got = _MULTIPLIERS.get(k)
    if got is not None:
        return got
    out = np.empty(k, dtype=np.uint64)
    x = 0
    mask = (1 << 64) - 1
    for i in range(k):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out[i] = (z ^ (z >> 31)) | 1
    _MULTIPLIERS[k] = out
    return out


def _distinct_rows(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first row of each distinct code row, class of every row)`` of codes ``(B, K)`` (:func:`_distinct_columns`)."""
    return _distinct_columns(np.ascontiguousarray(codes.T))


def _distinct_columns(cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first row of each distinct code row, class of every row)`` of codes ``(K, B)``: by a 64-bit hash, exactly.

    Rows with equal hashes are compared code by code; if two differ (a collision), the rows are compared whole.
    """
    k = cols.shape[0]
    mult = _multipliers(k)
    with np.errstate(over="ignore"):
        h = (np.ascontiguousarray(cols, dtype=np.int64).view(np.uint64) * mult[:, None]).sum(axis=0, dtype=np.uint64)
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    if (cols[:, first[inverse]] == cols).all():
        return first, inverse
    rows = np.ascontiguousarray(cols.T)  # a collision: compare whole rows
    packed = rows.view(np.dtype((np.void, rows.dtype.itemsize * k))).ravel()
    _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
    return first, inverse.ravel()


#: Codes of the object leaves' values: one per distinct value in this process (equal values, one code).
_INTERNED: dict[Any, int] = {}
#: The values by their codes.
_OBJECTS: list[Any] = []


def _intern(x: Any) -> int:
    code = _INTERNED.get(x)
    if code is None:
        code = _INTERNED[x] = len(_OBJECTS)
        _OBJECTS.append(x)
    return code


def _value(leaf: Any, r: int) -> Any:
    if not isinstance(leaf, np.ndarray):
        return leaf.value(r)
    x = leaf[r]
    return x.item() if isinstance(x, np.generic) else x


def batch_prompt(keys: list[tuple[Any, Any]], token: Callable[[Any], list[Any]], batch: int,
                 cache: dict[Any, dict[bytes, list[Any]]] | None = None) -> BatchPrompt:
    """Distinct tokens and the index of a batch's prompts from keys with leaves (module docstring).

    Args:
        keys: ``token_keys`` of the stand-in: ``(label, key)`` per position, leaves where rows differ.
        token: the token of one key (a row's key, rebuilt with that row's leaf values).
        batch: the number of rows.
        cache: tokens by the key's constant part, then its leaves' codes (kept by the caller across batches of
            the same layout and λ: a key seen before is not rebuilt).

    """
    cache = {} if cache is None else cache
    found: list[tuple[str, Any, list[Any]]] = []
    for label, key in keys:
        leaves: list[Any] = []
        tpl = _template(key, leaves)
        found.append((str(label), tpl, leaves))
    tokens: list[list[Any]] = []
    index = np.zeros((batch, len(found)), dtype=np.int64)
    for p, (_, tpl, leaves) in enumerate(found):
        if not leaves:
            index[:, p] = len(tokens)
            tokens.append(token(tpl))
            continue
        codes = _all_codes(leaves, batch)
        first, inverse = _distinct_columns(codes)
        index[:, p] = len(tokens) + inverse
        known = cache.setdefault(tpl, {})  # this position's tokens by their leaves' codes
        for r in first.tolist():
            ck = codes[:, r].tobytes()
            tok = known.get(ck)
            if tok is None:
                tok = known[ck] = token(_fill(tpl, [_value(leaf, r) for leaf in leaves]))
            tokens.append(tok)
    return BatchPrompt(tokens, index, [label for label, _, _ in found])
