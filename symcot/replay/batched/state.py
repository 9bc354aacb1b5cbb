"""The caches of one batched run and the push of one token through every layer (rules 1-4 of ``sec:trans``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from symcot.replay.batched.plan import Plan
from symcot.replay.scaling import DTYPES, ScaledDecoder, unscale


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
        for lay in plan.layers:
            hs = lay.heads or []
            self.keys.append([np.empty((total_pos, h.k.d_out, batch), dtype=dt) for h in hs])
            sigs: list[Any] = []
            slots = []
            for h in hs:
                if h.v_sig not in sigs:
                    sigs.append(h.v_sig)
                slots.append(sigs.index(h.v_sig))
            first = {sl: hs[i] for i, sl in reversed(list(enumerate(slots)))}
            self.vals.append([np.empty((total_pos, batch, first[i].v.d_out), dtype=dt) for i in range(len(sigs))])
            self.vslot.append(slots)

    def push(self, z: np.ndarray) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, int]]]:
        """Run one new token (``(d, B)``) through every layer (rules 1-4); cache its keys and values."""
        p = self.pos
        sel: list[tuple[np.ndarray, np.ndarray, int]] = []
        exact = self.plan.dtype is object
        b = z.shape[1]
        cols = np.arange(b)
        for k, lay in enumerate(self.plan.layers):
            if lay.heads is not None:
                assert lay.w_o is not None
                outs = []
                written: set[int] = set()
                for h, head in enumerate(lay.heads):
                    keys = self.keys[k][h]
                    slot = self.vslot[k][h]
                    vals = self.vals[k][slot]
                    keys[p] = head.k(z)
                    if slot not in written:
                        vals[p] = head.v(z).T
                        written.add(slot)
                    q = head.q(z)
                    scores = np.einsum("pkb,kb->pb", keys[: p + 1], q)  # ⟨K z_i, Q z_m⟩ for i ≤ m
                    j0 = scores.argmax(axis=0)  # the first maximum: the smallest index (rule 1)
                    sel.append((j0, scores[j0, cols], head.s_k * head.s_q))
                    if vals.shape[2]:
                        v = np.take(vals.reshape(-1, vals.shape[2]), j0 * b + cols, axis=0).T
                    else:  # W_O reads nothing of this head's value
                        v = np.zeros((0, b), dtype=vals.dtype)
                    outs.append(v * head.v_up if head.v_up != 1 else v)
                alpha = lay.w_o(np.concatenate(outs) if len(outs) > 1 else np.ascontiguousarray(outs[0]))
                if lay.alpha_up != 1:
                    alpha = alpha * lay.alpha_up
                ffn_in = alpha + (z * lay.z_up if lay.z_up != 1 else z)  # residual around attention (rule 3)
            else:
                ffn_in = z  # trivial attention: α'' = 0 (rule 2)
            pre = lay.w1(ffn_in)
            if exact:
                hidden = np.where(pre > 0, pre, 0)
            elif lay.w1.identity:
                hidden = np.maximum(pre, 0)
            else:
                hidden = np.maximum(pre, 0, out=pre)  # pre is W_1's fresh output
            z = lay.w2(hidden)  # no residual around the FFN (rule 3)
        self.pos += 1
        return z, sel

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
