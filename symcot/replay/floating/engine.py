"""Float (and exact) replay of a decoder on a batch of inputs, hard or softmax attention.

The rules are those of :mod:`symcot.model.semantics` (``sec:trans``), applied to ``(B, ·)`` arrays in a
:class:`~symcot.replay.floating.formats.Format`:

1. *Attention.* Head ``h`` scores every position ``i ≤ m`` of the prefix by ``a_i = ⟨K_h z_i, Q_h z_m⟩``
   (formed in the accumulator type, rounded to storage). **Hard**: the smallest index among the maximal
   (rounded) scores, output ``V_h z_{j0}``. **Softmax** at inverse temperature ``β``: ``b_i = β·a_i`` and
   ``w_i = exp(b_i - max_k b_k) / Σ_k exp(b_k - max_k b_k)`` (each of ``b``, ``b - max``, ``exp`` and ``w``
   rounded to storage, the sum formed in the accumulator type), output ``Σ_i w_i V_h z_i``.
2. *Multi-head*: ``α'' = W_O [V_1 z_{j(1)} ‖ … ‖ V_H z_{j(H)}]``; trivial attention gives ``α'' = 0``.
3. *Residual around attention only*: ``W_2 ReLU(W_1(α'' + z))`` (``α'' + z`` rounded to storage).
4. *Causal layers over every token*: a token's keys and values are computed once, when it is appended.
5. *Chain of thought*: the last layer's output is appended as the next token, as it is (no rounding to
   a grid, no re-embedding): the paper's ``y_t ∈ R^d`` is fed back.

A :class:`Recorder` sees every intermediate array (the margin analysis of :mod:`symcot.study.precision`
uses it); the engine itself decides nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from symcot.errors import DimensionError, SymcotError
from symcot.model.decoder import ConcreteDecoder
from symcot.replay.floating.formats import Format, get_format
from symcot.replay.floating.maps import ArrayMap


@dataclass(frozen=True)
class Hard:
    """Unique hard attention (the paper's): the smallest index among the maximal scores."""

    def __str__(self) -> str:
        return "hard"


@dataclass(frozen=True)
class Softmax:
    """Softmax attention at inverse temperature ``beta`` (max-subtracted)."""

    beta: float

    def __post_init__(self) -> None:
        if not self.beta > 0 or not np.isfinite(self.beta):
            raise SymcotError(f"the softmax inverse temperature must be a positive number, got {self.beta}")

    def __str__(self) -> str:
        return f"softmax β={self.beta:g}"


HARD = Hard()
AttentionRule = Hard | Softmax


class Recorder(Protocol):
    """Receives the arrays of every pass (``pos`` is the position, ``layer`` is 1-based)."""

    #: Whether :meth:`map` should receive the ``abs_sums`` bounds (costs one more evaluation per map).
    sums: bool

    def token(self, pos: int, z: np.ndarray) -> None:
        """The token entering the decoder at ``pos`` (``(B, d)``)."""

    def map(self, pos: int, layer: int, label: str, out: np.ndarray, sums: np.ndarray | None) -> None:
        """The output of map ``label`` (``Q_T``, ``K_T``, ``V_T``, ``W_O``, ``W_1``, ``W_2``)."""

    def head(self, pos: int, layer: int, name: str, scores: np.ndarray, score_sums: np.ndarray | None,
             chosen: np.ndarray, values: np.ndarray) -> None:
        """Scores ``(B, pos+1)``, their ``Σ|k_i q_i|`` bounds, the hard choice ``(B,)``, values ``(pos+1, B, dv)``."""

    def layer(self, pos: int, layer: int, ffn_in: np.ndarray, hidden: np.ndarray, out: np.ndarray) -> None:
        """``α'' + z``, ``ReLU(W_1(·))`` and the layer output."""


class _Buffer:
    """A growable ``(positions, B, dim)`` cache."""

    def __init__(self, fmt: Format, batch: int, dim: int, capacity: int = 16):
        self.fmt, self.batch, self.dim, self.size = fmt, batch, dim, 0
        self.data = fmt.zeros((capacity, batch, dim))

    def append(self, row: np.ndarray) -> None:
        if self.size == self.data.shape[0]:
            grown = self.fmt.zeros((2 * self.size, self.batch, self.dim))
            grown[: self.size] = self.data
            self.data = grown
        self.data[self.size] = row
        self.size += 1

    def view(self) -> np.ndarray:
        return self.data[: self.size]


@dataclass
class _Head:
    name: str
    q: ArrayMap
    k: ArrayMap
    v: ArrayMap


@dataclass
class _Layer:
    heads: list[_Head] | None
    w_o: ArrayMap | None
    w1: ArrayMap
    w2: ArrayMap


class FloatDecoder:
    """A :class:`ConcreteDecoder` compiled for one format (weights rounded to its storage type)."""

    def __init__(self, dec: ConcreteDecoder, fmt: str | Format = "float64"):
        self.fmt = get_format(fmt)
        self.name = dec.name
        self.d = dec.layout.dim
        self.layers: list[_Layer] = []
        for layer in dec.layers:
            heads = w_o = None
            if layer.attention is not None:
                heads = [_Head(h.name, ArrayMap(h.query, self.fmt), ArrayMap(h.key, self.fmt),
                               ArrayMap(h.value, self.fmt)) for h in layer.attention.heads]
                w_o = ArrayMap(layer.attention.out, self.fmt)
            self.layers.append(_Layer(heads, w_o, ArrayMap(layer.ffn.w1, self.fmt), ArrayMap(layer.ffn.w2, self.fmt)))

    def maps(self) -> list[tuple[int, str, ArrayMap]]:
        """``(layer, label, map)`` for every map, labels as in :meth:`ConcreteDecoder.get_map`."""
        out = []
        for k, lay in enumerate(self.layers, 1):
            for h in lay.heads or []:
                out += [(k, f"Q_{h.name}", h.q), (k, f"K_{h.name}", h.k), (k, f"V_{h.name}", h.v)]
            if lay.w_o is not None:
                out.append((k, "W_O", lay.w_o))
            out += [(k, "W_1", lay.w1), (k, "W_2", lay.w2)]
        return out


class FloatContext:
    """The causal state of a :class:`FloatDecoder` over a batch of token sequences of equal length."""

    def __init__(self, fd: FloatDecoder, batch: int, attention: AttentionRule = HARD,
                 recorder: Recorder | None = None):
        self.fd, self.fmt, self.batch, self.attention, self.rec = fd, fd.fmt, batch, attention, recorder
        if isinstance(attention, Softmax) and self.fmt.exact:
            raise SymcotError("softmax attention needs a floating format, not exact arithmetic")
        self.pos = 0
        self.keys: list[list[_Buffer]] = []
        self.values: list[list[_Buffer]] = []
        self.abs_keys: list[list[_Buffer]] = []
        for lay in fd.layers:
            hs = lay.heads or []
            self.keys.append([_Buffer(self.fmt, batch, h.k.d_out) for h in hs])
            self.values.append([_Buffer(self.fmt, batch, h.v.d_out) for h in hs])
            self.abs_keys.append([_Buffer(self.fmt, batch, h.k.d_out) for h in hs])
        self._rows = np.arange(batch)
        if not self.fmt.exact:
            self._beta = self.fmt.scalar(attention.beta) if isinstance(attention, Softmax) else None

    def _apply(self, k: int, label: str, m: ArrayMap, x: np.ndarray) -> np.ndarray:
        out = m(x)
        if self.rec is not None:
            self.rec.map(self.pos, k, label, out, m.abs_sums(np.abs(x)) if self.rec.sums else None)
        return out

    def _attend(self, k: int, h: int, head: _Head, z: np.ndarray, key: np.ndarray) -> np.ndarray:
        fmt = self.fmt
        q = self._apply(k, f"Q_{head.name}", head.q, z)
        keys = self.keys[k - 1][h].view()  # (P, B, dk)
        vals = self.values[k - 1][h].view()
        with np.errstate(over="ignore", invalid="ignore"):
            if fmt.exact:
                scores = (keys * q[None, :, :]).sum(axis=2).T
            else:
                scores = fmt.round(np.einsum("pbd,bd->bp", keys, q))
            chosen = np.argmax(scores, axis=1)  # the first maximum: the smallest index (rule 1)
            if isinstance(self.attention, Softmax):
                b = fmt.round(scores * self._beta)
                shifted = fmt.round(b - b.max(axis=1, keepdims=True))
                e = fmt.round(np.exp(shifted))
                w = fmt.round(e / e.sum(axis=1, keepdims=True))
                out = fmt.round(np.einsum("bp,pbd->bd", w, vals))
            else:
                out = vals[chosen, self._rows]
        if self.rec is not None:
            sums = None
            if self.rec.sums:
                sums = (self.abs_keys[k - 1][h].view() * np.abs(q)[None, :, :]).sum(axis=2).T
            self.rec.head(self.pos, k, head.name, scores, sums, chosen, vals)
        return out

    def push(self, x: Any) -> np.ndarray:
        """Append one token per row (``(B, d)``) and return the final-layer output ``(B, d)``."""
        z = np.asarray(x)
        if z.shape != (self.batch, self.fd.d):
            raise DimensionError(f"token batch of shape {z.shape}, expected {(self.batch, self.fd.d)}")
        if not self.fmt.exact:
            z = self.fmt.round(z.astype(self.fmt.accum, copy=False))
        if self.rec is not None:
            self.rec.token(self.pos, z)
        for k, lay in enumerate(self.fd.layers, 1):
            if lay.heads is None:
                ffn_in = z
            else:
                assert lay.w_o is not None
                outs = []
                for h, head in enumerate(lay.heads):
                    key = self._apply(k, f"K_{head.name}", head.k, z)
                    self.keys[k - 1][h].append(key)
                    if self.rec is not None and self.rec.sums:
                        self.abs_keys[k - 1][h].append(np.abs(key))
                    self.values[k - 1][h].append(self._apply(k, f"V_{head.name}", head.v, z))
                    outs.append(self._attend(k, h, head, z, key))
                alpha = self._apply(k, "W_O", lay.w_o, np.concatenate(outs, axis=1))
                ffn_in = self.fmt.round(alpha + z)
            pre = self._apply(k, "W_1", lay.w1, ffn_in)
            hidden = np.where(pre > 0, pre, 0 * pre) if self.fmt.exact else np.maximum(pre, 0)
            out = self._apply(k, "W_2", lay.w2, hidden)
            if self.rec is not None:
                self.rec.layer(self.pos, k, ffn_in, hidden, out)
            z = out
        self.pos += 1
        return z


def generate(fd: FloatDecoder, prompt: np.ndarray, steps: int, attention: AttentionRule = HARD,
             recorder: Recorder | None = None) -> np.ndarray:
    """Run ``steps`` CoT steps on a batch: ``prompt`` ``(P, B, d)`` → ``y_1 … y_steps`` as ``(steps, B, d)``."""
    prompt = np.asarray(prompt)
    if prompt.ndim != 3 or prompt.shape[0] < 1:
        raise DimensionError(f"prompt of shape {prompt.shape}: expected (positions ≥ 1, batch, d)")
    ctx = FloatContext(fd, prompt.shape[1], attention, recorder)
    y = None
    for p in range(prompt.shape[0]):
        y = ctx.push(prompt[p])
    assert y is not None
    outs = [y]
    for _ in range(1, steps):
        y = ctx.push(y)
        outs.append(y)
    return np.stack(outs[:steps]) if steps > 0 else np.zeros((0, *y.shape), dtype=y.dtype)
