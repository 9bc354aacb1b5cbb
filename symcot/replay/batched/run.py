"""The run loop of the numpy engine: prompt positions, then the chain of thought (rule 5), guarded and widened.

The certificate comes first: a whole-run bound (:func:`symcot.replay.scaling.static_certificate`) when it
proves the narrowest path for every step, else a guard before every token's pass
(:func:`symcot.replay.scaling.push_bound` from the token's measured magnitudes) that widens the run's
arrays exactly (float32 → float64 → int64 → object) when a bound needs it. Rows whose prompts agree before
``y_0`` share those positions (computed once, their caches copied: rule 4 says they never change). After
each step, the rows that are done (their steps, the stop rule, or the caller's ``on_step``) retire.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from symcot.ir.layout import ConcreteLayout
from symcot.replay.batched.plan import Plan
from symcot.replay.batched.state import RunState, Selection
from symcot.replay.batched.views import BatchRun, RowOutputs, StepView
from symcot.replay.scaling import (
    DTYPES,
    LIMITS,
    PATHS,
    Certificate,
    Hulls,
    ScaledDecoder,
    choose_path,
    push_bound,
    static_certificate,
    unscale,
    wider,
)
from symcot.replay.tokens import TokenTable

StopRule = Callable[[list[Any]], bool]
BatchedStopRule = Callable[[StepView], np.ndarray]
OnStep = Callable[[StepView], "np.ndarray | None"]


def step_ends(view: StepView, row_steps: np.ndarray, stopped: np.ndarray, on_step: OnStep | None,
              stop: StopRule | None, stop_batched: BatchedStopRule | None) -> np.ndarray:
    """Which rows of ``view`` end after step ``view.t`` (rule 5).

    A row ends when ``on_step`` asks, when the stop rule fires (recorded in ``stopped``), or when its steps
    are done.
    """
    rows, t = view.rows, view.t
    end = np.zeros(len(rows), dtype=bool)
    if on_step is not None:
        res = on_step(view)
        if res is not None:
            end |= np.asarray(res, dtype=bool)
    live = ~end
    if (stop is not None or stop_batched is not None) and live.any():
        if stop_batched is not None:
            s = np.asarray(stop_batched(view), dtype=bool)
        else:
            assert stop is not None
            ex = view.exact()
            s = np.array([bool(stop(ex[i])) if live[i] else False for i in range(len(rows))], dtype=bool)
        s &= live
        stopped[rows[s]] = True
        end |= s
    end |= row_steps[rows] <= t
    return end


def _float_abs_max(v: np.ndarray) -> float:
    m = max((abs(x) for x in v), default=0)
    try:
        return float(m)
    except OverflowError:
        return math.inf


def _feedback(y: np.ndarray, plan: Plan, cur: str) -> np.ndarray | None:
    """``y_t`` as the next token at the token scale (exact division), or ``None`` where it is not representable."""
    if cur == "object" or (plan.fb_num == 1 and plan.fb_den == 1):
        return y
    t = y * plan.fb_num if plan.fb_num != 1 else y
    if plan.fb_den == 1:
        return t
    if np.any(np.fmod(t, plan.fb_den) != 0):
        return None
    return t // plan.fb_den


class NumpyRun:
    """One run of the numpy engine over a batch of prompts (module docstring).

    Args:
        plans: the compiled plan of a path (``plans(path)``, cached by the caller).
        sd: the integer-scaled decoder at the tokens' scale.
        layout: the decoder's concrete layout (for :class:`StepView`).
        head_names: ``(layer, head)`` in layer order.
        tk: the prompts.
        row_steps: the most steps of each row.
        record_heads: keep every head's choice at every position.
        keep_outputs: keep every ``y_t`` of every row.
        path: ``"auto"`` or the path to start with.

    """

    def __init__(self, plans: Callable[[str], Plan], sd: ScaledDecoder, layout: ConcreteLayout,
                 head_names: list[tuple[int, str]], tk: TokenTable, row_steps: np.ndarray, record_heads: bool,
                 keep_outputs: bool, path: str):
        self.plans, self.sd, self.layout, self.head_names = plans, sd, layout, head_names
        self.tk, self.row_steps = tk, row_steps
        batch = tk.batch
        max_steps = int(row_steps.max(initial=0))
        total_pos = tk.positions + max(max_steps - 1, 0)
        nh = len(head_names)
        self.head_index = np.full((batch, total_pos, nh), -1, dtype=np.int64) if record_heads else None
        self.head_score = np.empty((batch, total_pos, nh), dtype=object) if record_heads else None
        self.kept: list[tuple[np.ndarray, np.ndarray, int]] | None = [] if keep_outputs else None
        self.done_steps = np.zeros(batch, dtype=np.int64)
        self.stopped = np.zeros(batch, dtype=bool)
        self.cert, self.cur, self.guarded = self._certificate(path, max_steps)
        self.hulls = Hulls.empty(sd)
        self.plan = plans(self.cur)
        self.rows = np.arange(batch)
        self.total_pos = total_pos
        self.st = RunState(self.plan, total_pos, batch)
        self.prefix_classes: int | None = None  # distinct prompts-before-y_0 when rows shared them

    def _certificate(self, path: str, max_steps: int) -> tuple[Certificate, str, bool]:
        """The starting certificate, path and whether passes are guarded: a whole-run bound first."""
        sd = self.sd
        if self.tk.exact_only:
            return Certificate("object", "static", None, None, None, False, sd.scales(), paths={"object": 1}), \
                "object", False
        static = static_certificate(sd, self.tk.bounds(), max_steps)
        if path == "auto" and static.path == "float32":
            return static, static.path, False  # proved for the whole run: no guards
        cur = "float32" if path == "auto" else path
        cert = Certificate(cur, "guarded" if path == "auto" else "forced", 0.0, LIMITS[cur], static.static_bound,
                           static.fixed_point, sd.scales())
        return cert, cur, cur != "object"

    # -- widening --------------------------------------------------------------------------------------
    def promote(self, new: str, position: int, reason: str) -> None:
        """Widen the run (its caches exactly) to path ``new`` before ``position``'s pass."""
        self.cert.promotions.append({"position": position, "from": self.cur, "to": new, "reason": reason})
        self.st.convert(self.cur, new, self.sd)
        self.cur = new
        self.plan = self.plans(new)
        self.st.plan = self.plan
        self.cert.path = wider(self.cert.path, new)
        self.cert.limit = LIMITS[self.cert.path]

    def guard(self, token: np.ndarray, position: int) -> None:
        """Bound the pass of ``token`` at ``position`` and widen first when the bound needs it."""
        if not self.guarded or self.cur == "object":
            return
        if token.dtype == object:
            tb = np.array([_float_abs_max(token[i]) for i in range(token.shape[0])])
        else:
            tb = np.abs(token).max(axis=1).astype(np.float64) if token.shape[1] else np.zeros(token.shape[0])
        _, top = push_bound(self.sd, tb, self.hulls)
        need = choose_path(top)
        if self.cert.bound is not None:
            self.cert.bound = max(self.cert.bound, top)
        if PATHS.index(need) > PATHS.index(self.cur):
            self.promote(need, position, f"bound {top:.3g} before this pass")

    # -- pushes ----------------------------------------------------------------------------------------
    def _prompt_token(self, p: int, rows: np.ndarray | None) -> np.ndarray:
        """Position ``p``'s tokens after the guard of its pass (re-gathered if the guard widened the path)."""
        was = self.cur
        tok = self.tk.at(p, was, rows)
        self.guard(tok, p)
        return tok if self.cur == was else self.tk.at(p, self.cur, rows)

    def _record(self, p: int, sel: Selection) -> None:
        if self.head_index is None or self.head_score is None:
            return
        for h, (idx, score, scale) in enumerate(sel):
            self.head_index[self.rows, p, h] = idx
            self.head_score[self.rows, p, h] = unscale(score[None, :], scale)[0]

    def prompt(self) -> np.ndarray:
        """Push every prompt position (shared prefixes once); returns ``y`` after the last one, ``(d, B)``."""
        tk = self.tk
        first = 0
        shared = tk.shared_prefix()
        if shared is not None:
            reps, inverse = shared
            self.prefix_classes = len(reps)
            full = self.st
            self.st = RunState(self.plan, self.total_pos, len(reps))
            for p in range(tk.positions - 1):
                _, sel = self.st.push(self._prompt_token(p, reps))
                self._record(p, [(i[inverse], sc[inverse], k) for i, sc, k in sel])
            self.st = self.st.expanded(inverse, full)
            first = tk.positions - 1
        y = None
        for p in range(first, tk.positions):
            y, sel = self.st.push(self._prompt_token(p, None))
            self._record(p, sel)
        assert y is not None
        return y

    def chain(self, y: np.ndarray, stop: StopRule | None, stop_batched: BatchedStopRule | None,
              on_step: OnStep | None) -> None:
        """Rule 5 from ``y = y_1``: after each step retire the rows that are done, feed ``y_t`` back to the rest."""
        first = self.row_steps[self.rows] >= 1  # rows with no step at all (steps = 0) end without output
        if not first.all():
            self.st.compact(first)
            self.rows = self.rows[first]
            y = y[:, first]
        t, pos = 0, self.tk.positions
        while len(self.rows):
            t += 1
            view = StepView(t, self.rows, y, 1 if self.cur == "object" else self.plan.s_out, self.cur, self.layout)
            self.done_steps[self.rows] = t
            if self.kept is not None:
                self.kept.append((self.rows, y, view.scale))
            end = step_ends(view, self.row_steps, self.stopped, on_step, stop, stop_batched)
            if end.all():
                break
            if end.any():
                keep = ~end
                self.st.compact(keep)
                self.rows = self.rows[keep]
                y = y[:, keep]
            y = self._feed(y, pos)
            pos += 1

    def _feed(self, y: np.ndarray, pos: int) -> np.ndarray:
        """Push ``y_t`` back as the token at ``pos`` (exact division to the token scale); the new output."""
        token = _feedback(y, self.plan, self.cur)
        if token is None:
            exact_y = unscale(y, self.plan.s_out)
            self.promote("object", pos, "y_t not representable at the token scale")
            token = exact_y
        was = self.cur
        self.guard(token, pos)
        if self.cur != was:  # widened before this pass: the token follows, exactly
            token = unscale(token, self.tk.scale) if self.cur == "object" else token.astype(DTYPES[self.cur])
        y, sel = self.st.push(token)
        self._record(pos, sel)
        return y

    def result(self) -> BatchRun:
        """The run's :class:`BatchRun` (its certificate closed: one path for the whole run)."""
        cert = self.cert
        cert.paths = {cert.path: 1}
        if cert.path == "object" and cert.mode != "static":
            cert.bound = None
        cache: dict[Any, list[list[Any]]] = {}
        outputs = None if self.kept is None else [RowOutputs(self.kept, r, int(self.done_steps[r]), cache)
                                                  for r in range(self.tk.batch)]
        return BatchRun(self.done_steps, self.stopped, outputs, self.head_index, self.head_score, self.head_names,
                        cert, self.prefix_classes)

    def run(self, stop: StopRule | None, stop_batched: BatchedStopRule | None, on_step: OnStep | None) -> BatchRun:
        """The whole run: the prompt positions, then the chain of thought."""
        self.chain(self.prompt(), stop, stop_batched, on_step)
        return self.result()
