"""Whole batches checked in the native kernel: every row's run compared with expected values as it is generated.

:meth:`NativeDecoder.run_indexed <symcot.replay.native.decoder.NativeDecoder.run_indexed>` returns every
``y_t`` of every row (``(B, T, d)`` integers) for the caller to compare. :func:`check_indexed` instead hands
the kernel what every ``y_t`` must carry (:class:`Term`: blocks of expected integers, by row and step) and
the stop rule (:class:`StopSpec`), and gets back per row only the first step that differs (or none), its
status, its last token and the columns a caller asked to keep at every step. The comparison is exact: the
kernel's values are the exact integers ``scale·y_t`` (checked int64, as in ``run_indexed``), and an expected
value ``v`` is compared as ``scale·v``, itself checked (status 3 when it does not fit int64).

The kernel knows nothing of constructions: a term is a column range, a form and an array. The checker
(:mod:`symcot.check.kernel_check`) builds the terms from a construction's state encoding.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from symcot.errors import DimensionError
from symcot.replay.native.build import NativeError

#: Term forms, as ``kernel.c`` numbers them.
FORMS = {"index": 0, "int64": 1, "int8": 2, "const": 3}

#: Row statuses: 0 exact; 1 an int64 operation would overflow; 2 an inexact feedback; 3 an expected value
#: does not fit int64 at the token's scale. A row with a non-zero status is not decided by the kernel.
STATUS = {0: "exact", 1: "an int64 operation would overflow", 2: "y_t is not representable at the token scale",
          3: "an expected value times the scale does not fit int64"}


@dataclass
class Term:
    """One block of expected values: coordinates ``col … col + size - 1`` of every ``y_t``.

    ``form`` ``"index"``: ``data`` ``(B, S)`` int64, the block is ``e_{data}`` (``0^size`` for an index outside
    ``0..size-1``); ``"int64"``/``"int8"``: ``data`` ``(B, S, size)``; ``"const"``: ``value`` in every coordinate.
    ``present`` (``(B, S)`` bool, or any shape that broadcasts to it; ``None``: every step) says where the block
    is compared.
    """

    col: int
    size: int
    form: str
    data: np.ndarray | None = None
    present: np.ndarray | None = None
    value: int = 0


@dataclass(frozen=True)
class StopSpec:
    """The stop rule: it fires on ``y_t`` when every coordinate ``col … col + size - 1`` is ``value``."""

    col: int
    size: int
    value: int


class _CTerm(ctypes.Structure):
    _fields_ = [("col", ctypes.c_int64), ("size", ctypes.c_int64), ("form", ctypes.c_int64),
                ("data", ctypes.c_void_p), ("present", ctypes.c_void_p), ("value", ctypes.c_int64)]


@dataclass
class CheckResult:
    """What :func:`check_indexed` returns, per row.

    ``bad``: the first step that differs, ``-1`` when none; ``status`` (:data:`STATUS`); ``final`` (``(B, d)``:
    ``y`` at the row's last step at the output scale, where every step held and the row has one); ``trace``
    (``(B, T, len(trace_cols))``: the kept columns of ``y_1 … y_T``).
    """

    bad: np.ndarray
    status: np.ndarray
    final: np.ndarray
    trace: np.ndarray


def _bind(kernel: Any) -> Any:
    fn = getattr(kernel, "_check_fn", None)
    if fn is None:
        fn = kernel._lib.symcot_check_indexed
        p, i64 = ctypes.c_void_p, ctypes.c_int64
        fn.argtypes = [p, p, i64, i64, p, i64, p, i64, i64, i64, i64, i64, i64, i64, p, i64, p, p, p, p, p]
        fn.restype = ctypes.c_int
        kernel._check_fn = fn
    return fn


def _c_terms(terms: Sequence[Term], batch: int, steps: int, keep: list[np.ndarray]) -> Any:
    arr = (_CTerm * max(len(terms), 1))()
    for k, tm in enumerate(terms):
        if tm.form not in FORMS:
            raise ValueError(f"unknown term form {tm.form!r}")
        data = 0
        if tm.form != "const":
            dtype = np.int8 if tm.form == "int8" else np.int64
            shape = (batch, steps) if tm.form == "index" else (batch, steps, tm.size)
            a = np.ascontiguousarray(np.asarray(tm.data, dtype=dtype))
            if a.shape != shape:
                raise DimensionError(f"term at column {tm.col}: data of shape {a.shape}, expected {shape}")
            keep.append(a)
            data = a.ctypes.data
        present = 0
        if tm.present is not None:
            try:
                m = np.ascontiguousarray(np.broadcast_to(np.asarray(tm.present, dtype=np.int8), (batch, steps)))
            except ValueError:
                raise DimensionError(f"term at column {tm.col}: present of shape {np.shape(tm.present)}, expected "
                                     f"{(batch, steps)}") from None
            keep.append(m)
            present = m.ctypes.data
        arr[k] = _CTerm(tm.col, tm.size, FORMS[tm.form], data, present, int(tm.value))
    return arr


def check_indexed(kernel: Any, table: np.ndarray, index: np.ndarray, steps: np.ndarray, terms: Sequence[Term],
                  expected_steps: int, stop: StopSpec | None = None,
                  trace_cols: Sequence[int] = (), order: np.ndarray | None = None) -> CheckResult:
    """Run and check every row in the kernel of ``kernel`` (a :class:`~symcot.replay.native.NativeDecoder`).

    Args:
        kernel: the compiled kernel of a scaled decoder (its token scale ``s_token``, output scale ``s_out``).
        table: ``(U, d)`` int64 distinct prompt tokens at ``s_token``.
        index: ``(B, P)``: row ``b``'s token at position ``p`` is ``table[index[b, p]]``.
        steps: ``(B,)`` each row's number of steps ``T_b``; its ``y_1 … y_{T_b}`` are checked.
        terms: what every ``y_t`` must carry, ``t = 0 … T_b`` (``y_0`` is the prompt's last token, compared at
            ``s_token``; ``y_1 …`` at ``s_out``).
        expected_steps: ``S``, the second axis of the terms' arrays (at least ``max(steps) + 1``).
        stop: the stop rule, checked at every step ``t ≥ 1``: not before ``T_b``, and at ``T_b``.
        trace_cols: coordinates of ``y`` to keep at every step.
        order: the order to run the rows in (a permutation of ``0..B-1``; ``None``: as given). The results are
            the same in any order; rows run right after a row with the same first prompt tokens reuse them.

    Raises:
        DimensionError: shapes that do not fit.
        NativeError: the kernel could not allocate its caches.

    """
    sd = kernel.sd
    table = np.ascontiguousarray(np.asarray(table), dtype=np.int64)
    idx = np.ascontiguousarray(np.asarray(index, dtype=np.int64))
    st = np.ascontiguousarray(np.asarray(steps, dtype=np.int64))
    if table.ndim != 2 or table.shape[1] != sd.d:
        raise DimensionError(f"the token table must be (U, d={sd.d}); got shape {table.shape}")
    if idx.ndim != 2 or idx.shape[1] < 1 or st.shape != (idx.shape[0],):
        raise DimensionError(f"index {idx.shape} and steps {st.shape} do not fit")
    if idx.size and (idx.min() < 0 or idx.max() >= table.shape[0]):
        raise IndexError("a token index outside the table")
    if (st < 0).any():
        raise ValueError("step counts must be non-negative")
    batch, n_pos = idx.shape
    t_max = int(st.max(initial=0))
    if expected_steps < t_max + 1:
        raise DimensionError(f"{expected_steps} expected steps for runs of up to {t_max} steps")
    keep: list[np.ndarray] = []
    cterms = _c_terms(terms, batch, expected_steps, keep)
    tc = np.ascontiguousarray(np.asarray(list(trace_cols), dtype=np.int64))
    trace = np.zeros((batch, t_max, len(tc)), dtype=np.int64)
    final = np.zeros((batch, sd.d), dtype=np.int64)
    bad = np.full(batch, -1, dtype=np.int64)
    status = np.zeros(batch, dtype=np.int8)
    s_col, s_size, s_val = (stop.col, stop.size, stop.value) if stop is not None else (0, 0, 0)
    perm = None
    if order is not None:
        perm = np.ascontiguousarray(np.asarray(order, dtype=np.int64))
        if perm.shape != (batch,) or not np.array_equal(np.sort(perm), np.arange(batch)):
            raise ValueError("order must be a permutation of the rows")
    if batch:
        rc = _bind(kernel)(table.ctypes.data, idx.ctypes.data, n_pos, batch, st.ctypes.data, t_max, cterms,
                           len(terms), expected_steps, sd.s_token, sd.s_out, s_col, s_size, s_val, tc.ctypes.data,
                           len(tc), trace.ctypes.data, final.ctypes.data, bad.ctypes.data, status.ctypes.data,
                           None if perm is None else perm.ctypes.data)
        if rc != 0:
            raise NativeError("the native kernel could not allocate its caches")
    return CheckResult(bad, status, final, trace)
