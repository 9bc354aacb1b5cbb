"""The caches of one batched run and the push of one token through every layer (rules 1-4 of ``sec:trans``).

The layer loop is :func:`symcot.model.layer_loop.push_layers`; :class:`RunState` is its algebra on ``(d, B)``
arrays of one path's number type (scaled integers in ``float32``/``float64``/``int64``, or exact numbers),
with the up-scalings that join the scales of the plan. The run's guards and promotions are outside the
loop (:mod:`symcot.replay.batched.run`): a pass is bounded before it starts.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from symcot.model.layer_loop import push_layers
from symcot.replay.batched.compiled_map import CompiledMap
from symcot.replay.batched.plan import HeadPlan, Plan
from symcot.replay.scaling import DTYPES, ScaledDecoder, unscale

#: Per head (in layer order): the selected positions, their scores and the scores' scale.
Selection = list[tuple[np.ndarray, np.ndarray, int]]


def _call(m: CompiledMap, x: np.ndarray) -> np.ndarray:
    return m(x)


_CALL: Callable[[CompiledMap, np.ndarray], np.ndarray] = getattr(operator, "call", _call)


class RunState:
    """The caches of one batched run: per attention head, the keys and the (read) values of every position.

    Keys are ``(positions, d_K, B)`` (a new position is one contiguous write; the scores one ``einsum``);
    values are ``(positions, B, d_V)`` (the selected value of every row is one row ``take``). Heads whose
    restricted value maps are equal share one value cache.
    """

    def __init__(self, plan: Plan, total_pos: int, batch: int):
        self.plan = plan
        self.pos = 0
        dt = plan.dtype
        self.keys: list[list[np.ndarray]] = []
        self.vals: list[list[np.ndarray]] = []
        self.vslot: list[list[int]] = []  # head -> index of its value cache in self.vals[k]
        self.vfirst: list[list[bool]] = []  # head -> whether it is the first head of its value cache
        self._sel: Selection = []
        self._b = batch
        self._cols = np.arange(batch)
        for lay in plan.layers:
            hs = lay.heads or []
            self.keys.append([np.empty((total_pos, h.key.d_out, batch), dtype=dt) for h in hs])
            sigs: list[Any] = []
            slots = []
            for h in hs:
                if h.v_sig not in sigs:
                    sigs.append(h.v_sig)
                slots.append(sigs.index(h.v_sig))
            first = {sl: hs[i] for i, sl in reversed(list(enumerate(slots)))}
            self.vals.append([np.empty((total_pos, batch, first[i].value.d_out), dtype=dt) for i in range(len(sigs))])
            self.vslot.append(slots)
            self.vfirst.append([slots.index(sl) == h for h, sl in enumerate(slots)])

    def push(self, z: np.ndarray) -> tuple[np.ndarray, Selection]:
        """Run one new token (``(d, B)``) through every layer (rules 1-4); cache its keys and values.

        Returns the last layer's output and, per head in layer order, the selected positions, their scores
        and the scores' scale.
        """
        self._sel = []
        self._b = z.shape[1]
        self._cols = np.arange(self._b)
        out = push_layers(self, self.plan.layers, z)
        self.pos += 1
        return out, self._sel

    # -- the algebra of push_layers on (d, B) arrays of the plan's number type --------------------------
    #: ``apply(m, x)``: the compiled map's own ``m(x)``.
    apply: Callable[[CompiledMap, np.ndarray], np.ndarray] = staticmethod(_CALL)

    def append(self, k: int, h: int, head: HeadPlan, key: np.ndarray, z: np.ndarray) -> None:
        """The new position's key, and its value when ``h`` is the first head of its value cache."""
        self.keys[k][h][self.pos] = key
        if self.vfirst[k][h]:
            self.vals[k][self.vslot[k][h]][self.pos] = head.value(z).T

    def scores(self, k: int, h: int, q: np.ndarray) -> np.ndarray:
        return np.einsum("pkb,kb->pb", self.keys[k][h][: self.pos + 1], q)  # ⟨K z_i, Q z_m⟩ for i ≤ m

    def first_argmax(self, k: int, h: int, head: HeadPlan, scores: np.ndarray) -> np.ndarray:
        j0 = scores.argmax(axis=0)  # the first maximum: the smallest index (rule 1)
        self._sel.append((j0, scores[j0, self._cols], head.s_k * head.s_q))
        return j0

    def value(self, k: int, h: int, head: HeadPlan, j0: np.ndarray) -> np.ndarray:
        vals = self.vals[k][self.vslot[k][h]]
        b = self._b
        if vals.shape[2]:
            v = np.take(vals.reshape(-1, vals.shape[2]), j0 * b + self._cols, axis=0).T
        else:  # W_O reads nothing of this head's value
            v = np.zeros((0, b), dtype=vals.dtype)
        return v * head.v_up if head.v_up != 1 else v

    def concat(self, k: int, values: list[np.ndarray]) -> np.ndarray:
        return np.concatenate(values) if len(values) > 1 else np.ascontiguousarray(values[0])

    def add(self, k: int, attn: np.ndarray, z: np.ndarray) -> np.ndarray:
        lay = self.plan.layers[k]
        if lay.alpha_up != 1:
            attn = attn * lay.alpha_up
        return attn + (z * lay.z_up if lay.z_up != 1 else z)

    def relu(self, k: int, v: np.ndarray) -> np.ndarray:
        if self.plan.dtype is object:
            return np.where(v > 0, v, 0)
        if self.plan.layers[k].w1.identity:
            return np.maximum(v, 0)
        return np.maximum(v, 0, out=v)  # v is W_1's fresh output

    def layer_done(self, k: int, choices: list[np.ndarray], attn: np.ndarray | None, ffn_in: np.ndarray,
                   hidden: np.ndarray, out: np.ndarray) -> None:
        pass

    def expanded(self, inverse: np.ndarray, into: RunState) -> RunState:
        """``into`` (allocated for every row) with this state's positions copied to rows ``inverse``."""
        p = self.pos
        into.plan = self.plan
        for k in range(len(self.keys)):
            into.keys[k] = [_widen(dst, src.dtype) for dst, src in zip(into.keys[k], self.keys[k])]
            into.vals[k] = [_widen(dst, src.dtype) for dst, src in zip(into.vals[k], self.vals[k])]
            for dst, src in zip(into.keys[k], self.keys[k]):
                dst[:p] = src[:p][..., inverse]
            for dst, src in zip(into.vals[k], self.vals[k]):
                dst[:p] = src[:p][:, inverse]
        into.pos = p
        return into

    def compact(self, keep: np.ndarray) -> None:
        """Drop the batch rows not in ``keep``."""
        self.keys = [[np.ascontiguousarray(a[..., keep]) for a in ks] for ks in self.keys]
        self.vals = [[np.ascontiguousarray(a[:, keep]) for a in vs] for vs in self.vals]

    def convert(self, old: str, new: str, sd: ScaledDecoder) -> None:
        """Widen every cache exactly to path ``new`` (to exact values when ``new`` is ``object``)."""
        p = self.pos

        def conv(a: np.ndarray, scale: int) -> np.ndarray:
            if new == "object":
                out = np.empty(a.shape, dtype=object)
                if p:
                    out[:p] = unscale(a[:p], scale if old != "object" else 1)
                return out
            return a.astype(DTYPES[new])

        for k, sl in enumerate(sd.layers):
            if sl.heads is None:
                continue
            self.keys[k] = [conv(a, h.k.s_out) for a, h in zip(self.keys[k], sl.heads)]
            scale_of = {self.vslot[k][i]: h.v.s_out for i, h in enumerate(sl.heads)}
            self.vals[k] = [conv(a, scale_of[i]) for i, a in enumerate(self.vals[k])]


def _widen(a: np.ndarray, dtype: Any) -> np.ndarray:
    return a if a.dtype == dtype else np.empty(a.shape, dtype=dtype)
