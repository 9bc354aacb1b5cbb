"""The float replay under any model description: the exact engine's loop and rules, in a float format.

The layer structure is :mod:`symcot.model.layer_loop`'s general loop (:func:`~symcot.model.layer_loop.encode_layers`
for an encoder or recogniser, :func:`~symcot.model.layer_loop.described_loop` for a decoder's chain of thought);
the rules -- masks, the maximal set, both tie rules, average hard and softmax weights with their temperature,
layer norm (every placement, ``ε``, RMS) and positional encodings -- are the exact engine's own functions
(:func:`symcot.model.attention.select`, :func:`symcot.model.described.layer_norm`,
:func:`symcot.model.described.positions_in`) run in :class:`~symcot.replay.floating.numbers.FloatNumbers`. Only
the arithmetic differs: values are ``(B, ·)`` arrays of the format (one row per input), each map output, score,
sum and normalised vector rounded to storage once, and every decision (the maximal set, a tie) taken as the
rounded floats compare, row by row.

The same code runs on the ``exact`` format (object arrays of ``int``/``Fraction``) with exact numbers: that is
the batched engine of rational descriptions (:mod:`symcot.replay.batched.described`). Section 3's rules keep
their own fast engines (:mod:`symcot.replay.floating.engine`, :mod:`symcot.replay.batched`), unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from symcot.errors import DescriptionError, DimensionError, SymcotError
from symcot.ir.maps import ConcreteMap
from symcot.model.attention import Selection, select
from symcot.model.decoder import ConcreteDecoder
from symcot.model.described import layer_norm, positions_in
from symcot.model.layer_loop import LayerMaps, described_loop, encode_layers
from symcot.model.numbers import Numbers
from symcot.replay.floating.formats import Format, get_format
from symcot.replay.floating.maps import ArrayMap
from symcot.replay.floating.numbers import FloatNumbers


@dataclass
class FloatHead:
    """One head's maps in a format."""

    name: str
    query: ArrayMap
    key: ArrayMap
    value: ArrayMap


@dataclass
class BatchRecord:
    """One layer at one position: per head, one :class:`~symcot.model.attention.Selection` per row."""

    layer: int
    heads: list[list[Selection]]
    out: np.ndarray


def _am(m: ConcreteMap | None, fmt: Format, label: str, k: int) -> ArrayMap | None:
    return None if m is None else ArrayMap(m, fmt, label, k)


class ArrayDescribedDecoder:
    """A :class:`ConcreteDecoder` under its description, its maps compiled for one format of ``(B, ·)`` arrays.

    ``num`` is the rules' number type: :class:`FloatNumbers` of a float format, or exact numbers for the
    ``exact`` format (:class:`symcot.replay.batched.described.DescribedBatchedDecoder`).
    """

    num: Numbers

    def __init__(self, dec: ConcreteDecoder, fmt: str | Format, num: Numbers):
        self.fmt, self.num = get_format(fmt), num
        self.dec, self.name, self.description, self.d = dec, dec.name, dec.description, dec.layout.dim
        f = self.fmt
        self.layers: list[LayerMaps[ArrayMap, FloatHead]] = []
        for k, lay in enumerate(dec.layers, 1):
            heads = None if lay.attention is None else [
                FloatHead(h.name, ArrayMap(h.query, f, f"Q_{h.name}", k), ArrayMap(h.key, f, f"K_{h.name}", k),
                          ArrayMap(h.value, f, f"V_{h.name}", k)) for h in lay.attention.heads]
            out = None if lay.attention is None else ArrayMap(lay.attention.out, f, "W_O", k)
            self.layers.append(LayerMaps(heads, out, ArrayMap(lay.ffn.w1, f, "W_1", k),
                                         ArrayMap(lay.ffn.w2, f, "W_2", k), _am(lay.norm_map, f, "W_N", k)))


class DescribedFloatDecoder(ArrayDescribedDecoder):
    """A :class:`ConcreteDecoder` under its description, compiled for one float format."""

    def __init__(self, dec: ConcreteDecoder, fmt: str | Format = "float64"):
        f = get_format(fmt)
        if f.exact:
            raise SymcotError("the float replay of a description takes a floating format; the exact engine "
                              "(symcot.model.described) runs it exactly")
        super().__init__(dec, f, FloatNumbers(f))


class ArrayDescribedAlgebra:
    """The general loop's operations on ``(B, ·)`` arrays of one format (module docstring)."""

    def __init__(self, fd: ArrayDescribedDecoder, n: int, batch: int):
        desc = fd.description
        self.fd, self.fmt, self.batch, self.num = fd, fd.fmt, batch, fd.num
        self.norm_rule = desc.norm
        heads = [lay.heads or [] for lay in fd.layers]
        self.rules = [[desc.rule(k + 1, h.name) for h in hs] for k, hs in enumerate(heads)]
        self.taus = [[r.attention.tau(n) if r.attention.kind == "softmax" else None for r in rs]
                     for rs in self.rules]
        self.ains: list[list[np.ndarray]] = [[] for _ in fd.layers]
        self.keys: list[list[list[np.ndarray]]] = [[[] for _ in hs] for hs in heads]
        self.vals: list[list[dict[int, np.ndarray]]] = [[{} for _ in hs] for hs in heads]
        self.records: list[BatchRecord] = []

    @staticmethod
    def apply(m: ArrayMap, x: np.ndarray) -> np.ndarray:
        return m(x)

    def norm(self, k: int, v: np.ndarray) -> np.ndarray:
        return self.fmt.round(np.stack(layer_norm(self.norm_rule, list(v.T), self.num), axis=1))

    def cache(self, k: int, h: int, head: FloatHead, a: np.ndarray) -> None:
        if h == 0:
            self.ains[k].append(a)
        self.keys[k][h].append(head.key(a))

    def _value(self, k: int, h: int, head: FloatHead, j: int) -> np.ndarray:
        vals = self.vals[k][h]
        if j not in vals:
            vals[j] = head.value(self.ains[k][j])
        return vals[j]

    def attend(self, k: int, h: int, head: FloatHead, a: np.ndarray, i: int) -> tuple[np.ndarray, list[Selection]]:
        q = head.query(a)
        keys = np.stack(self.keys[k][h])  # (P, B, dk)
        with np.errstate(over="ignore", invalid="ignore"):
            scores = self.fmt.round(np.einsum("pbd,bd->bp", keys, q))
        rule, tau = self.rules[k][h], self.taus[k][h]
        sels = [select(rule, head.name, list(row), i, tau, self.num) for row in scores]
        weights = self.fmt.zeros(scores.shape)
        for b, sel in enumerate(sels):
            for j, w in sel.weights:
                weights[b, j] = w
        used = sorted({j for sel in sels for j, _ in sel.weights})
        if not used:  # the mask leaves nothing: the zero vector
            return self.fmt.zeros((self.batch, head.value.d_out)), sels
        vals = np.stack([self._value(k, h, head, j) for j in used])  # (U, B, dv)
        with np.errstate(over="ignore", invalid="ignore"):
            out = self.fmt.round(np.einsum("bu,ubd->bd", weights[:, used], vals))
        return out, sels

    @staticmethod
    def concat(k: int, values: list[np.ndarray]) -> np.ndarray:
        return values[0] if len(values) == 1 else np.concatenate(values, axis=1)

    def add(self, k: int, attn: np.ndarray, z: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            return self.fmt.round(attn + z)

    def relu(self, k: int, v: np.ndarray) -> np.ndarray:
        return np.where(v > 0, v, 0) if self.fmt.exact else np.maximum(v, 0)

    def layer_done(self, k: int, choices: list[list[Selection]], attn: np.ndarray | None, ffn_in: np.ndarray,
                   hidden: np.ndarray, out: np.ndarray) -> None:
        self.records.append(BatchRecord(k + 1, list(choices), out))


def _token(fd: ArrayDescribedDecoder, alg: ArrayDescribedAlgebra, tok: np.ndarray, i: int, n: int) -> np.ndarray:
    """The stored token batch ``tok`` ``(B, d_tok)`` at position ``i``, the positional encoding applied."""
    coords = positions_in(fd.description, [list(tok.T)], i, n, fd.d, alg.num)[0]
    cols = np.broadcast_arrays(*[np.asarray(c, dtype=fd.fmt.accum) for c in coords], np.zeros(alg.batch))
    with np.errstate(over="ignore", invalid="ignore"):
        return fd.fmt.round(np.stack(cols[:-1], axis=1).astype(fd.fmt.accum))


def _stored(fd: ArrayDescribedDecoder, tokens: Any) -> np.ndarray:
    arr = tokens if isinstance(tokens, np.ndarray) and tokens.dtype != object else fd.fmt.array(tokens)
    if arr.ndim != 3 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise DimensionError(f"tokens of shape {arr.shape}: expected (positions ≥ 1, batch ≥ 1, d)")
    return arr


@dataclass
class BatchEncoding:
    """An encoder's float run: outputs ``(N, B, d)``; per position, one :class:`BatchRecord` per layer."""

    outputs: np.ndarray
    records: list[list[BatchRecord]] = field(default_factory=list)


def encode(fd: ArrayDescribedDecoder, tokens: Any) -> BatchEncoding:
    """Run an encoder or recogniser on a batch: ``tokens`` ``(N, B, d_tok)`` (exact values or stored floats)."""
    if fd.description.direction == "decoder":
        raise DescriptionError(f"{fd.name} is a decoder: run it with symcot.replay.floating.described.generate")
    toks = _stored(fd, tokens)
    n, batch = toks.shape[0], toks.shape[1]
    alg = ArrayDescribedAlgebra(fd, n, batch)
    zs = [_token(fd, alg, toks[i], i, n) for i in range(n)]
    desc = fd.description
    outs = encode_layers(alg, desc.norm.placement, desc.residual == "both", fd.layers, zs)
    per: list[list[BatchRecord]] = [[] for _ in range(n)]
    for r, rec in enumerate(alg.records):  # layer by layer, position by position
        per[r % n].append(rec)
    return BatchEncoding(np.stack(outs), per)


@dataclass
class BatchGeneration:
    """A decoder's float chain of thought: ``outputs`` ``(steps, B, d)``; per pushed position, its records."""

    outputs: np.ndarray
    records: list[list[BatchRecord]] = field(default_factory=list)


def generate(fd: ArrayDescribedDecoder, prompt: Any, steps: int) -> BatchGeneration:
    """Run ``steps`` CoT steps on a batch: ``prompt`` ``(P, B, d_tok)``; ``n`` (sizes, temperature) is ``P``."""
    desc = fd.description
    if desc.direction != "decoder":
        raise DescriptionError(f"{fd.name} is an {desc.direction}: run it with symcot.replay.floating.described.encode")
    toks = _stored(fd, prompt)
    n, batch = toks.shape[0], toks.shape[1]
    alg = ArrayDescribedAlgebra(fd, n, batch)
    loop = described_loop(alg, desc.norm.placement, desc.residual == "both")
    records: list[list[BatchRecord]] = []

    def push(tok: np.ndarray, i: int) -> np.ndarray:
        alg.records = []
        y = loop(fd.layers, _token(fd, alg, tok, i, n), i)
        records.append(alg.records)
        return y

    y = fd.fmt.zeros((batch, fd.d))
    for i in range(n):
        y = push(toks[i], i)
    outs = [y]
    for t in range(1, steps):
        y = push(y, n + t - 1)
        outs.append(y)
    return BatchGeneration(np.stack(outs[:steps]) if steps > 0 else fd.fmt.zeros((0, batch, fd.d)), records)


def run_rows(fd: ArrayDescribedDecoder, tokens: Sequence[Sequence[Sequence[Any]]]) -> np.ndarray:
    """An encoder on inputs of one length given row by row (``B`` lists of ``N`` tokens): outputs ``(B, N, d)``."""
    arr = fd.fmt.array([[list(t) for t in row] for row in tokens])  # (B, N, d_tok)
    return np.transpose(encode(fd, np.transpose(arr, (1, 0, 2))).outputs, (1, 0, 2))
