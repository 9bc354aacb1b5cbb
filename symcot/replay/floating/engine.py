"""Float (and exact) replay of a decoder on a batch of inputs, hard or softmax attention.

The rules are those of :mod:`symcot.model.semantics` (``sec:trans``), applied to ``(B, ·)`` arrays in a
:class:`~symcot.replay.floating.formats.Format`; the layer loop (rules 1-4) is
:func:`symcot.model.layer_loop.push_layers`, with :class:`FloatContext` as its algebra:

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

import operator
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from symcot.errors import DimensionError, SymcotError
from symcot.model.decoder import ConcreteDecoder
from symcot.model.description import require_section3
from symcot.model.layer_loop import LayerMaps, push_layers
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
    query: ArrayMap
    key: ArrayMap
    value: ArrayMap


FloatLayer = LayerMaps[ArrayMap, _Head]
#: A head's choice: the scores ``(B, P)`` and the first argmax of each row ``(B,)``.
Choice = tuple[np.ndarray, np.ndarray]


class FloatDecoder:
    """A :class:`ConcreteDecoder` compiled for one format (weights rounded to its storage type)."""

    def __init__(self, dec: ConcreteDecoder, fmt: str | Format = "float64"):
        require_section3(dec.description, dec.name, "the float engine")
        self.fmt = get_format(fmt)
        self.name = dec.name
        self.d = dec.layout.dim
        self.layers: list[FloatLayer] = []
        f = self.fmt
        for k, layer in enumerate(dec.layers, 1):
            heads = w_o = None
            if layer.attention is not None:
                heads = [_Head(h.name, ArrayMap(h.query, f, f"Q_{h.name}", k), ArrayMap(h.key, f, f"K_{h.name}", k),
                               ArrayMap(h.value, f, f"V_{h.name}", k)) for h in layer.attention.heads]
                w_o = ArrayMap(layer.attention.out, f, "W_O", k)
            self.layers.append(LayerMaps(heads, w_o, ArrayMap(layer.ffn.w1, f, "W_1", k),
                                         ArrayMap(layer.ffn.w2, f, "W_2", k)))

    def maps(self) -> list[tuple[int, str, ArrayMap]]:
        """``(layer, label, map)`` for every map, labels as in :meth:`ConcreteDecoder.get_map`."""
        out: list[ArrayMap] = []
        for lay in self.layers:
            for h in lay.heads or []:
                out += [h.query, h.key, h.value]
            if lay.out is not None:
                out.append(lay.out)
            out += [lay.w1, lay.w2]
        return [(m.layer, m.label, m) for m in out]


def _call(m: ArrayMap, x: np.ndarray) -> np.ndarray:
    return m(x)


class FloatContext:
    """The causal state of a :class:`FloatDecoder` over a batch of token sequences of equal length.

    It is the algebra of :func:`~symcot.model.layer_loop.push_layers` on ``(B, ·)`` arrays of its format:
    the module docstring's rounding, hard or softmax attention, and the :class:`Recorder`'s hooks.
    """

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
            self.keys.append([_Buffer(self.fmt, batch, h.key.d_out) for h in hs])
            self.values.append([_Buffer(self.fmt, batch, h.value.d_out) for h in hs])
            self.abs_keys.append([_Buffer(self.fmt, batch, h.key.d_out) for h in hs])
        self._rows = np.arange(batch)
        self._sums = recorder is not None and recorder.sums
        self._score_sums: np.ndarray | None = None
        if recorder is None:
            self.apply = getattr(operator, "call", _call)  # type: ignore[method-assign]
        if not self.fmt.exact:
            self._beta = self.fmt.scalar(attention.beta) if isinstance(attention, Softmax) else None

    # -- the algebra of push_layers ------------------------------------------------------------------
    def apply(self, m: ArrayMap, x: np.ndarray) -> np.ndarray:
        """``m(x)``, seen by the recorder (with the ``abs_sums`` bound when it asks)."""
        out = m(x)
        if self.rec is not None:
            self.rec.map(self.pos, m.layer, m.label, out, m.abs_sums(np.abs(x)) if self.rec.sums else None)
        return out

    def append(self, k: int, h: int, head: _Head, key: np.ndarray, z: np.ndarray) -> None:
        self.keys[k][h].append(key)
        if self._sums:
            self.abs_keys[k][h].append(np.abs(key))
        self.values[k][h].append(self.apply(head.value, z))

    def scores(self, k: int, h: int, q: np.ndarray) -> np.ndarray:
        """``⟨k_i, q⟩`` ``(B, P)``: formed in the accumulator type and rounded to storage (exact: as is)."""
        keys = self.keys[k][h].view()  # (P, B, dk)
        with np.errstate(over="ignore", invalid="ignore"):
            if self._sums:
                self._score_sums = (self.abs_keys[k][h].view() * np.abs(q)[None, :, :]).sum(axis=2).T
            if self.fmt.exact:
                return (keys * q[None, :, :]).sum(axis=2).T
            return self.fmt.round(np.einsum("pbd,bd->bp", keys, q))

    def first_argmax(self, k: int, h: int, head: _Head, scores: np.ndarray) -> Choice:
        return scores, np.argmax(scores, axis=1)  # the first maximum: the smallest index (rule 1)

    def value(self, k: int, h: int, head: _Head, choice: Choice) -> np.ndarray:
        """Hard: the chosen position's value; softmax: the weighted mean of the values (module docstring)."""
        scores, chosen = choice
        vals = self.values[k][h].view()
        fmt = self.fmt
        if isinstance(self.attention, Softmax):
            with np.errstate(over="ignore", invalid="ignore"):
                b = fmt.round(scores * self._beta)
                shifted = fmt.round(b - b.max(axis=1, keepdims=True))
                e = fmt.round(np.exp(shifted))
                w = fmt.round(e / e.sum(axis=1, keepdims=True))
                out = fmt.round(np.einsum("bp,pbd->bd", w, vals))
        else:
            out = vals[chosen, self._rows]
        if self.rec is not None:
            self.rec.head(self.pos, k + 1, head.name, scores, self._score_sums, chosen, vals)
        return out

    def concat(self, k: int, values: list[np.ndarray]) -> np.ndarray:
        return np.concatenate(values, axis=1)

    def add(self, k: int, attn: np.ndarray, z: np.ndarray) -> np.ndarray:
        return self.fmt.round(attn + z)

    def relu(self, k: int, v: np.ndarray) -> np.ndarray:
        return np.where(v > 0, v, 0 * v) if self.fmt.exact else np.maximum(v, 0)

    def layer_done(self, k: int, choices: list[Choice], attn: np.ndarray | None, ffn_in: np.ndarray,
                   hidden: np.ndarray, out: np.ndarray) -> None:
        if self.rec is not None:
            self.rec.layer(self.pos, k + 1, ffn_in, hidden, out)

    # -- pushes ------------------------------------------------------------------------------------------
    def push(self, x: Any) -> np.ndarray:
        """Append one token per row (``(B, d)``) and return the final-layer output ``(B, d)``."""
        z = np.asarray(x)
        if z.shape != (self.batch, self.fd.d):
            raise DimensionError(f"token batch of shape {z.shape}, expected {(self.batch, self.fd.d)}")
        if not self.fmt.exact:
            z = self.fmt.round(z.astype(self.fmt.accum, copy=False))
        if self.rec is not None:
            self.rec.token(self.pos, z)
        z = push_layers(self, self.fd.layers, z)
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
