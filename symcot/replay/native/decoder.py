"""A compiled kernel bound with ctypes: :class:`NativeDecoder` runs a batch of prompts in one call."""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

import numpy as np

from symcot.errors import DimensionError
from symcot.replay.native.build import BASE_FLAGS, DEFAULT_OPT, NativeError, build
from symcot.replay.native.source import BLOCK_BYTES, generate_source
from symcot.replay.scaling import ScaledDecoder
from symcot.replay.tokens import exact_table, intern_tokens


class NativeDecoder:
    """One scaled decoder as a compiled native kernel (generated C, checked int64 arithmetic; module docstring).

    Attributes:
        sd: the scaled decoder.
        source: the generated C source.
        library: the path of the shared library.
        compile_seconds: seconds spent compiling (``0.0`` when the library was found in the cache).

    """

    def __init__(self, sd: ScaledDecoder, *, opt: str = DEFAULT_OPT, _argmax_last: bool = False,
                 _fast: bool = True, _block_bytes: int = BLOCK_BYTES):
        """Generate the C source for ``sd``, compile it (or load it from the cache) and bind it with ctypes.

        Args:
            sd: the integer-scaled decoder (``BatchedDecoder(dec).scaled(token_scale)``).
            opt: the optimisation flag (``-O2`` by default; ``-O1`` compiles faster).
            _argmax_last: private: build a deliberately wrong kernel (last maximal index), for negative tests.
            _fast: private: ``False`` leaves out the plain (unchecked, bound-proved) push, for tests.
            _block_bytes: private: the prompt block size of ``symcot_run`` (small in tests, to cross blocks).

        Raises:
            NativeError: no compiler, the compiler failed, or a scale does not fit int64.

        """
        self.sd = sd
        self.source = generate_source(sd, argmax_last=_argmax_last, fast=_fast, block_bytes=_block_bytes)
        self.library, self.compile_seconds = build(self.source, (opt, *BASE_FLAGS))
        lib = ctypes.CDLL(str(self.library))
        fn = lib.symcot_run
        p = ctypes.c_void_p
        i64 = ctypes.c_int64
        fn.argtypes = [p, i64, i64, p, i64, p, p]
        fn.restype = ctypes.c_int
        fx = lib.symcot_run_indexed
        fx.argtypes = [p, p, i64, i64, p, i64, p, p]
        fx.restype = ctypes.c_int
        self._lib, self._fn, self._fn_indexed = lib, fn, fx

    def run(self, toks: np.ndarray, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Run every row's chain of thought exactly.

        Args:
            toks: ``(P, d, B)`` int64 prompt tokens at scale ``sd.s_token`` (each prompt ending with ``y_0``),
                as :meth:`BatchedDecoder.tokens <symcot.replay.batched.BatchedDecoder.tokens>` returns them.
            steps: ``(B,)`` non-negative step counts.

        Returns:
            ``(outs, status)``: ``outs`` is ``(B, T, d)`` int64 at scale ``sd.s_out`` with ``T = max(steps)``
            (``outs[b, t-1] = s_out·y_t``), ``status`` is ``(B,)`` int8: 0 exact, 1 an int64 operation would
            overflow (row abandoned), 2 ``y_t·fb_num`` not divisible by ``fb_den`` at feedback (row abandoned).
            Outputs beyond a row's steps or after its abandonment are 0.

        Raises:
            DimensionError: shapes that do not fit the decoder.
            TypeError: tokens that are not integers within int64 (e.g. the object arrays of huge tokens).
            NativeError: the kernel could not allocate its caches.

        """
        toks = np.asarray(toks)
        if toks.dtype.kind not in "iub":
            raise TypeError(f"native replay needs int64 tokens, got dtype {toks.dtype}")
        toks = np.ascontiguousarray(toks, dtype=np.int64)
        if toks.ndim != 3 or toks.shape[1] != self.sd.d:
            raise DimensionError(f"tokens must be (P, d={self.sd.d}, B); got shape {toks.shape}")
        n_pos, d, batch = toks.shape
        if n_pos < 1:
            raise DimensionError("the prompt must contain at least y_0")
        st, outs, status = _prepare(steps, batch, d)
        if batch:
            rc = self._fn(toks.ctypes.data, n_pos, batch, st.ctypes.data, outs.shape[1], outs.ctypes.data,
                          status.ctypes.data)
            if rc != 0:
                raise NativeError("the native kernel could not allocate its caches")
        return outs, status

    def run_indexed(self, table: np.ndarray, index: np.ndarray, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`run` on prompts given as distinct tokens: token ``p`` of row ``b`` is ``table[index[b, p]]``.

        No ``(P, d, B)`` array is built: rows read their tokens from ``table``, and a row whose first indices
        equal the previous row's reuses those cached positions. :func:`index_prompts` builds both from prompts.

        Args:
            table: ``(U, d)`` int64 distinct tokens at scale ``sd.s_token``.
            index: ``(B, P)`` indices into ``table``.
            steps: ``(B,)`` non-negative step counts.

        Returns:
            ``(outs, status)`` as :meth:`run`.

        Raises:
            DimensionError: shapes that do not fit the decoder.
            IndexError: an index outside ``table``.
            TypeError: tokens that are not integers within int64.
            NativeError: the kernel could not allocate its caches.

        """
        table = np.asarray(table)
        if table.dtype.kind not in "iub":
            raise TypeError(f"native replay needs int64 tokens, got dtype {table.dtype}")
        table = np.ascontiguousarray(table, dtype=np.int64)
        idx = np.ascontiguousarray(np.asarray(index, dtype=np.int64))
        if table.ndim != 2 or table.shape[1] != self.sd.d:
            raise DimensionError(f"the token table must be (U, d={self.sd.d}); got shape {table.shape}")
        if idx.ndim != 2 or idx.shape[1] < 1:
            raise DimensionError(f"the index must be (B, P) with P ≥ 1; got shape {idx.shape}")
        if idx.size and (idx.min() < 0 or idx.max() >= table.shape[0]):
            raise IndexError("a token index outside the table")
        batch, n_pos = idx.shape
        st, outs, status = _prepare(steps, batch, self.sd.d)
        if batch:
            rc = self._fn_indexed(table.ctypes.data, idx.ctypes.data, n_pos, batch, st.ctypes.data, outs.shape[1],
                                  outs.ctypes.data, status.ctypes.data)
            if rc != 0:
                raise NativeError("the native kernel could not allocate its caches")
        return outs, status


def _prepare(steps: Any, batch: int, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Checked step counts ``(B,)`` int64 and zeroed ``outs`` ``(B, max(steps), d)`` and ``status`` ``(B,)``."""
    st = np.ascontiguousarray(np.asarray(steps, dtype=np.int64))
    if st.shape != (batch,):
        raise DimensionError(f"{st.shape} step counts for {batch} prompts")
    if (st < 0).any():
        raise ValueError("step counts must be non-negative")
    t_max = int(st.max(initial=0))
    return st, np.zeros((batch, t_max, d), dtype=np.int64), np.zeros(batch, dtype=np.int8)


def index_prompts(prompts: Sequence[Sequence[Sequence[Any]]]) -> tuple[np.ndarray, np.ndarray, int]:
    """Prompts (``B`` lists of ``P`` exact tokens) as ``(table, index, token scale)`` for ``run_indexed``.

    The distinct tokens are found as :meth:`BatchedDecoder.tokens <symcot.replay.batched.BatchedDecoder.tokens>`
    finds them (by identity, then by value) and scaled to integers the same way; ``table`` is ``(U, d)`` int64
    and ``index`` ``(B, P)``.

    Raises:
        DimensionError: prompts or tokens of different lengths.
        TypeError: tokens whose scaled values do not fit int64.

    """
    if len({len(p) for p in prompts}) > 1:
        raise DimensionError("prompts of different lengths in one batch")
    table, index = intern_tokens(prompts)
    table, scale = exact_table(table)
    if table.dtype == object:
        raise TypeError("token values beyond int64 at the token scale: native replay cannot hold them")
    return table, index, scale
