"""The fast path's threshold: how large the inputs of a push may be while no int64 operation of it can overflow."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from symcot.replay.native.emit import INT64_MAX
from symcot.replay.native.liveness import HeadLive, LayerLive, Terms, decoder_terms, liveness
from symcot.replay.scaling import IntMap, ScaledDecoder


def map_bound(m: IntMap, t: Terms, outputs: Iterable[int]) -> Callable[[dict[int, int]], dict[int, int]]:
    """Per-output bounds ``|c_0| + Σ|c_i|·b_i + Σ|c_ij|·b_i·b_j`` from per-input bounds ``b`` (exact integers).

    With every input ``|x_i| ≤ b_i`` this bounds every partial sum and product the generated code forms for
    those outputs (a quadratic term's ``|x_i·x_j| ≤ b_i·b_j ≤ |c|·b_i·b_j``).
    """
    outs = list(outputs)
    if m.identity:
        return lambda b: {o: b[o] for o in outs}
    polys = [(o, abs(t.const.get(o, 0)), [(i, abs(c)) for i, c in t.lin.get(o, ())],
              [(i, j, abs(c)) for i, j, c in t.quad.get(o, ())]) for o in outs]
    return lambda b: {o: c0 + sum(c * b[i] for i, c in lin) + sum(c * b[i] * b[j] for i, j, c in quad)
                      for o, c0, lin, quad in polys}


Bound = Callable[[dict[int, int]], dict[int, int]]


@dataclass
class _Stage:
    """One layer's bounds: per head ``(Q, K, V, v_up, liveness)``, then ``W_O``, the residual, ``W_1``, ``W_2``."""

    heads: list[tuple[Bound, Bound, Bound, int, HeadLive]]
    w_o: Bound | None
    alpha_up: int
    z_up: int
    ffn_need: list[int]
    w1: Bound
    w2: Bound

    def push(self, b: dict[int, int], u: int) -> tuple[dict[int, int], int]:
        """The layer's output bounds from its input bounds ``b`` (cached values ``≤ u``); the largest value formed."""
        big = u
        if self.w_o is not None:
            vcat: dict[int, int] = {}
            for bq, bk, bv, v_up, hl in self.heads:
                qb, kb, vb = bq(b), bk(b), bv(b)
                big = max([big, *qb.values(), *kb.values(), *vb.values()])
                for c in hl.vneed:
                    vcat[hl.offset + c] = max(u, vb[c]) * v_up
            big = max([big, *vcat.values()])  # no value read: vcat is empty
            alpha = self.w_o(vcat)
            ffn = {c: alpha[c] * self.alpha_up + b[c] * self.z_up for c in self.ffn_need}
            big = max([big, *(alpha[c] * self.alpha_up for c in self.ffn_need),
                       *(b[c] * self.z_up for c in self.ffn_need), *ffn.values()])
        else:
            ffn = b
        hidden = self.w1(ffn)
        out = self.w2(hidden)
        return out, max(big, *hidden.values(), *out.values())


def _stages(sd: ScaledDecoder, live: list[LayerLive], terms: list[dict[str, Any]]) -> list[_Stage]:
    stages: list[_Stage] = []
    for lay, lv, tk in zip(sd.layers, live, terms):
        heads = []
        if lay.heads is not None:
            for hl in lv.heads:
                head, th = lay.heads[hl.index], tk[f"h{hl.index}"]
                heads.append((map_bound(head.q, th["q"], hl.dims), map_bound(head.k, th["k"], hl.dims),
                              map_bound(head.v, th["v"], hl.vneed), head.v_up, hl))
        w_o = map_bound(lay.w_o, tk["w_o"], lv.ffn_need) if lay.w_o is not None else None
        stages.append(_Stage(heads, w_o, lay.alpha_up, lay.z_up, lv.ffn_need, map_bound(lay.w1, tk["w1"], lv.hid_need),
                             map_bound(lay.w2, tk["w2"], lv.out_need)))
    return stages


def _largest_fitting(top: Callable[[int], int]) -> int | None:
    """The largest ``u ≤ INT64_MAX`` with ``top(u) ≤ INT64_MAX`` (``top`` non-decreasing); ``None`` if not even 0."""
    if top(0) > INT64_MAX:
        return None
    lo, hi = 0, 1  # top(lo) fits: grow hi until it does not, then bisect
    while top(hi) <= INT64_MAX:
        lo, hi = hi, 2 * hi
        if hi > INT64_MAX:
            return INT64_MAX if top(INT64_MAX) <= INT64_MAX else lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if top(mid) <= INT64_MAX:
            lo = mid
        else:
            hi = mid
    return lo


def fast_threshold(sd: ScaledDecoder, live: list[LayerLive] | None = None,
                   terms: list[dict[str, Any]] | None = None) -> int | None:
    """The largest ``U`` such that a push is overflow-free whenever its token and every cached value are ``≤ U``.

    The bound follows one push layer by layer in exact integers, one bound per coordinate (the interval
    rules of :func:`symcot.replay.scaling.push_bound`): the token's live coordinates and the values cached at
    earlier positions are at most ``U``; the queries, keys and values are bounded by their maps' bounds, a
    selected value by the larger of ``U`` and its value bound, then ``W_O``, the up-scalings, the residual
    sum, ``W_1`` (ReLU keeps the bound) and ``W_2`` (the next layer's input). Scores are not included:
    ``select_head`` checks its own bound. ``None`` when even ``U = 0`` fails (a constant beyond int64).
    """
    terms = terms if terms is not None else decoder_terms(sd)
    live = live if live is not None else liveness(sd, terms)
    stages = _stages(sd, live, terms)
    z_need = live[0].z_need

    def top(u: int) -> int:
        b = {i: u for i in z_need}
        big = u
        for stage in stages:
            b, layer_big = stage.push(b, u)
            big = max(big, layer_big)
        return big

    return _largest_fitting(top)
