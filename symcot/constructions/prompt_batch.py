"""A construction's prompts for a whole batch, from its one statement of the prompt (``token_keys``, ``token``).

:meth:`~symcot.constructions.base.Construction.token_keys` is written for one input. Given a batch's stand-in
(:mod:`symcot.inputs.batch`), it returns keys in which every value that differs between rows is a *leaf*: a
``(B,)`` numpy array (row ``r``'s value is ``leaf[r]``), or an object with ``codes`` (``(B, k)`` integers that
identify row ``r``'s value) and ``value(r)`` (:class:`~symcot.inputs.batch.RaggedArcs`). :func:`batch_prompt`
groups the rows of each position by their leaves, rebuilds the key of one row of every group exactly as
``token_keys`` would have built it for that row's input, and asks for its token once. The tests compare the
result with the per-input prompts on every input up to 9 vertices; the batched checker compares a few rows of
every batch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


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
    """``(B, k)`` int64 codes of a leaf: equal rows exactly when the row values are equal."""
    if isinstance(leaf, np.ndarray):
        if leaf.shape != (batch,):
            raise ValueError(f"a key leaf of shape {leaf.shape} in a batch of {batch}")
        if leaf.dtype.kind in "iub":
            return leaf.astype(np.int64)[:, None]
        return np.unique(leaf, return_inverse=True)[1].reshape(batch, 1).astype(np.int64)
    codes = np.asarray(leaf.codes, dtype=np.int64).reshape(batch, -1)
    return codes


def _value(leaf: Any, r: int) -> Any:
    return leaf[r].item() if isinstance(leaf, np.ndarray) else leaf.value(r)


def batch_prompt(keys: list[tuple[Any, Any]], token: Callable[[Any], list[Any]], batch: int) -> BatchPrompt:
    """Distinct tokens and the index of a batch's prompts from keys with leaves (module docstring).

    Args:
        keys: ``token_keys`` of the stand-in: ``(label, key)`` per position, leaves where rows differ.
        token: the token of one key (a row's key, rebuilt with that row's leaf values).
        batch: the number of rows.

    """
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
        codes = np.ascontiguousarray(np.concatenate([_codes(leaf, batch) for leaf in leaves], axis=1))
        packed = codes.view(np.dtype((np.void, codes.dtype.itemsize * codes.shape[1]))).ravel()
        _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
        index[:, p] = len(tokens) + inverse.ravel()
        for r in first.tolist():
            tokens.append(token(_fill(tpl, [_value(leaf, r) for leaf in leaves])))
    return BatchPrompt(tokens, index, [label for label, _, _ in found])
