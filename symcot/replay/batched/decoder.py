"""The batched engine's entry point: :class:`BatchedDecoder` runs a batch of prompts, natively where it can.

A run goes to the compiled C kernel of :mod:`symcot.replay.native` (checked int64) when a C compiler works
and nothing asks for the numpy engine; rows the kernel abandons are rerun on the numpy engine
(:mod:`symcot.replay.batched.run`), whose certificate widens as needed. Both replay the rules of
:mod:`symcot.model.semantics` exactly.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from symcot.errors import DimensionError
from symcot.model.decoder import ConcreteDecoder
from symcot.model.description import require_section3
from symcot.replay.batched.plan import Plan, make_plan
from symcot.replay.batched.run import BatchedStopRule, NumpyRun, OnStep, StopRule, step_ends
from symcot.replay.batched.views import BatchRun, RowOutputs, StepView
from symcot.replay.scaling import LIMITS, PATHS, Certificate, ScaledDecoder, scale_decoder, wider
from symcot.replay.tokens import TokenTable, token_table


class BatchedDecoder:
    """A concrete decoder prepared for batched runs (plans are compiled once per number type and scale)."""

    def __init__(self, dec: ConcreteDecoder):
        require_section3(dec.description, dec.name, "the batched engine")
        self.dec = dec
        self.d = dec.layout.dim
        self._scaled: dict[int, ScaledDecoder] = {}
        self._plans: dict[tuple[str, int], Plan] = {}
        self._native: dict[tuple[int, str | None], Any] = {}
        self.head_names = [(k + 1, h.name) for k, lay in enumerate(dec.layers)
                           for h in (lay.attention.heads if lay.attention else [])]

    def scaled(self, token_scale: int) -> ScaledDecoder:
        """The integer-scaled decoder for tokens at ``token_scale`` (cached)."""
        if token_scale not in self._scaled:
            self._scaled[token_scale] = scale_decoder(self.dec, token_scale)
        return self._scaled[token_scale]

    def plan(self, path: str, token_scale: int) -> Plan:
        """The compiled plan of one path (cached)."""
        key = (path, 1 if path == "object" else token_scale)
        if key not in self._plans:
            self._plans[key] = make_plan(self.dec, self.scaled(token_scale), path)
        return self._plans[key]

    # -- input conversion --------------------------------------------------------------------------
    def tokens(self, prompts: Any) -> tuple[np.ndarray, int]:
        """Prompts ``(B, P, d)`` of exact numbers → ``((P, d, B) integer array, token scale)``."""
        tk = self.token_table(prompts)
        return np.ascontiguousarray(tk.table[tk.index].transpose(1, 2, 0)), tk.scale

    def token_table(self, prompts: Any) -> TokenTable:
        """Prompts ``(B, P, d)`` of exact numbers as their distinct tokens and an index (:func:`token_table`)."""
        return token_table(prompts, self.d)

    # -- running -------------------------------------------------------------------------------------
    def run(
        self,
        prompts: Any,
        steps: int | Sequence[int] | np.ndarray,
        *,
        stop: StopRule | None = None,
        stop_batched: BatchedStopRule | None = None,
        on_step: OnStep | None = None,
        record_heads: bool = False,
        keep_outputs: bool = False,
        path: str = "auto",
        native: bool | None = None,
    ) -> BatchRun:
        """Run the chain of thought on a batch of prompts (rule 5), as :func:`symcot.model.semantics.generate`.

        Args:
            prompts: ``B`` prompts of ``P`` tokens each (ending with ``y_0``), exact numbers.
            steps: the most tokens to generate, for all rows or per row.
            stop: the stop rule on one exact ``y_t`` (a row ends after the first token for which it holds).
            stop_batched: the same rule on a :class:`StepView`, returning one bool per row (faster).
            on_step: called after each step with the rows that produced ``y_t``; returns a bool per row of
                those to end (``None``: none), like ``generate``'s ``on_step`` returning ``False``.
            record_heads: keep every head's choice at every position.
            keep_outputs: keep every ``y_t`` of every row (read as exact lists through ``outputs``).
            path: ``"auto"`` (certified choice), or the number type to start with (``float32``,
                ``float64``, ``int64``, ``object``); a numeric path is still guarded and widened when a
                bound needs it.
            native: use the compiled kernel of :mod:`symcot.replay.native` (checked int64; rows it
                abandons rerun here). ``None`` (default): when a C compiler works, ``path`` is ``"auto"``,
                heads are not recorded and the tokens fit int64. ``False``: never. ``True``: required.

        """
        if path != "auto" and path not in PATHS:
            raise ValueError(f"path must be 'auto' or one of {PATHS}, got {path!r}")
        if len(prompts) == 0:
            empty = np.zeros(0, dtype=np.int64)
            return BatchRun(empty, empty.astype(bool), [] if keep_outputs else None, None, None, self.head_names,
                            Certificate("float32", "static", 0.0, LIMITS["float32"], paths={}, runs=0))
        tk = self.token_table(prompts)
        tscale, n_pos, batch = tk.scale, tk.positions, tk.batch
        if isinstance(steps, int):
            row_steps = np.full(batch, steps, dtype=np.int64)
        else:
            row_steps = np.asarray(list(steps), dtype=np.int64)
            if row_steps.shape != (batch,):
                raise DimensionError(f"{len(row_steps)} step counts for {batch} prompts")
        if n_pos < 1:
            raise DimensionError("the prompt must contain at least y_0")
        if (row_steps < 0).any():
            raise ValueError("step counts must be non-negative")
        kernel = self.native_kernel(tscale) if (native is not False and path == "auto" and not record_heads
                                                and not tk.exact_only) else None
        if native is True and kernel is None:
            raise ValueError("native replay is not available here (no C compiler, record_heads, a forced path, "
                             "or tokens beyond int64)")
        if kernel is not None:
            return self._run_native(kernel, tk, row_steps, stop, stop_batched, on_step, keep_outputs)
        return self._run_numpy(tk, row_steps, stop, stop_batched, on_step, record_heads, keep_outputs, path)

    def native_kernel(self, token_scale: int, opt: str | None = None) -> Any:
        """The compiled kernel for tokens at ``token_scale`` (:mod:`symcot.replay.native`), or ``None``.

        ``None`` when no C compiler works here, when ``SYMCOT_NATIVE=0`` is set, or when the kernel cannot be
        built for this decoder (a scale beyond int64); the numpy engine then runs instead. ``opt``: the C
        optimisation level (default :data:`~symcot.replay.native.DEFAULT_OPT`; ``-O0`` compiles several times
        faster, for a kernel that runs little).
        """
        if (token_scale, opt) in self._native:
            return self._native[token_scale, opt]
        from symcot.replay.native import NativeDecoder, NativeError, native_available

        kernel = None
        if os.environ.get("SYMCOT_NATIVE", "1") != "0" and native_available():
            try:
                kernel = NativeDecoder(self.scaled(token_scale)) if opt is None else \
                    NativeDecoder(self.scaled(token_scale), opt=opt)
            except (NativeError, OSError):  # a failed compile or load: the numpy engine runs instead
                kernel = None
        self._native[token_scale, opt] = kernel
        return kernel

    def _run_native(self, kernel: Any, tk: TokenTable, row_steps: np.ndarray,
                    stop: StopRule | None, stop_batched: BatchedStopRule | None, on_step: OnStep | None,
                    keep_outputs: bool) -> BatchRun:
        """The whole batch in the native kernel, then the step rules replayed on its outputs.

        Every row runs its full ``steps`` in C (a row's outputs do not depend on when the caller will end
        it); ``on_step`` and the stop rule then see step ``t`` of the rows still running, exactly as in the
        numpy loop, and end rows the same way. Rows the kernel abandons (an int64 operation would
        overflow, or an inexact feedback) are rerun on the numpy engine, whose certificate widens as needed.
        """
        batch = tk.batch
        sd = kernel.sd
        outs, status = kernel.run_indexed(tk.table, tk.index, row_steps)
        done_steps = np.zeros(batch, dtype=np.int64)
        stopped = np.zeros(batch, dtype=bool)
        kept: list[tuple[np.ndarray, np.ndarray, int]] = []
        rows = np.flatnonzero((status == 0) & (row_steps >= 1))
        if on_step is None and stop is None and stop_batched is None and not keep_outputs:
            done_steps[rows] = row_steps[rows]  # nothing ends a row early: every row runs its steps
            rows = rows[:0]
        t = 0
        while len(rows):
            t += 1
            y = np.ascontiguousarray(outs[rows, t - 1].T)
            view = StepView(t, rows, y, sd.s_out, "int64", self.dec.layout)
            done_steps[rows] = t
            if keep_outputs:
                kept.append((rows, y, view.scale))
            end = step_ends(view, row_steps, stopped, on_step, stop, stop_batched)
            rows = rows[~end]
        cert = Certificate("int64", "native-checked", None, LIMITS["int64"], None, False, sd.scales(),
                           paths={"int64": 1})
        cache: dict[Any, list[list[Any]]] = {}
        outputs: list[Any] | None = (
            [RowOutputs(kept, r, int(done_steps[r]), cache) for r in range(batch)] if keep_outputs else None)
        redo = np.flatnonzero(status != 0)
        if len(redo):
            def sub_step(view: StepView) -> np.ndarray | None:
                return None if on_step is None else on_step(replace(view, rows=redo[view.rows]))

            def sub_stop(view: StepView) -> np.ndarray:
                assert stop_batched is not None
                return stop_batched(replace(view, rows=redo[view.rows]))

            sub = self._run_numpy(TokenTable(tk.table, tk.index[redo], tk.scale), row_steps[redo], stop,
                                  None if stop_batched is None else sub_stop, sub_step, False, keep_outputs, "auto")
            done_steps[redo] = sub.steps
            stopped[redo] = sub.stopped
            if outputs is not None and sub.outputs is not None:
                for j, r in enumerate(redo.tolist()):
                    outputs[r] = sub.outputs[j]
            codes = {1: "an int64 operation would overflow", 2: "y_t is not representable at the token scale"}
            for code, why in codes.items():
                k = int((status[redo] == code).sum())
                if k:
                    cert.promotions.append({"rows": k, "from": "native", "to": sub.certificate.path,
                                            "reason": f"{why}: rerun on the numpy engine"})
            cert.path = wider(cert.path, sub.certificate.path)
            cert.limit = LIMITS[cert.path]
            cert.bound = sub.certificate.bound
        return BatchRun(done_steps, stopped, outputs, None, None, self.head_names, cert, None)

    def _run_numpy(self, tk: TokenTable, row_steps: np.ndarray, stop: StopRule | None,
                   stop_batched: BatchedStopRule | None, on_step: OnStep | None, record_heads: bool,
                   keep_outputs: bool, path: str) -> BatchRun:
        """The numpy engine (:class:`~symcot.replay.batched.run.NumpyRun`): guarded, widened exactly when needed."""
        run = NumpyRun(lambda p: self.plan(p, tk.scale), self.scaled(tk.scale), self.dec.layout, self.head_names, tk,
                       row_steps, record_heads, keep_outputs, path)
        return run.run(stop, stop_batched, on_step)


def generate_batch(
    dec: ConcreteDecoder,
    prompts: Any,
    max_steps: int,
    stop: StopRule | None = None,
    record_heads: bool = True,
    path: str = "auto",
) -> BatchRun:
    """Batched :func:`symcot.model.semantics.generate`: outputs (and head choices) of every prompt."""
    return BatchedDecoder(dec).run(prompts, max_steps, stop=stop, record_heads=record_heads, keep_outputs=True,
                                   path=path)
