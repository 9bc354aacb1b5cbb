"""The exact engine under any model description: exact rationals, certified balls where values are not.

:class:`DescribedAlgebra` is the algebra of the general loop (:func:`symcot.model.layer_loop.described_loop`
and :func:`~symcot.model.layer_loop.encode_layers`) on lists of ``int``/``Fraction`` and
:class:`~symcot.model.interval.Ball` values: selection by :func:`symcot.model.attention.select`, layer norm
by :func:`layer_norm`, ReLU by :func:`symcot.model.interval.relu`. A decision the intervals cannot settle
raises :class:`~symcot.errors.Undecided` naming the position, the layer and the head.

:func:`encode` runs an encoder (every position through every layer at once); a decoder's chain of thought
runs through :class:`symcot.model.semantics.Context`, which uses this algebra for every description other
than Section 3's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import chain
from typing import Any

from symcot.errors import DimensionError, Undecided
from symcot.ir.maps import ConcreteMap
from symcot.model.attention import Selection, select
from symcot.model.decoder import ConcreteDecoder, ConcreteHead
from symcot.model.description import ModelDescription, Norm
from symcot.model.interval import relu
from symcot.model.layer_loop import LayerMaps, encode_layers
from symcot.model.numbers import EXACT, Numbers
from symcot.model.records import LayerRecord

Vec = list[Any]


def layer_norm(norm: Norm, x: Sequence[Any], num: Numbers = EXACT) -> Vec:
    """``LN(x)`` of the draft's chapter 6, in the number type ``num`` (:mod:`symcot.model.numbers`).

    standard: ``(x - μ) / √(σ² + ε)`` with ``μ = Σ x_i / d``, ``σ² = Σ (x_i - μ)² / d``;
    rms: ``x / (√(Σ x_i² / d) + ε)``. Exact numbers: exact where the root is rational, a ball otherwise.
    A coordinate may be one number or a column of numbers (a batch).
    """
    d = len(x)
    inv_d, eps = num.const(Fraction(1, d)), num.const(norm.eps)
    if norm.kind == "standard":
        mu = _sum(x) * inv_d
        cen = [v - mu for v in x]
        denom = num.sqrt(_sum(c * c for c in cen) * inv_d + eps)
        return [num.div(c, denom) for c in cen]
    denom = num.sqrt(_sum(v * v for v in x) * inv_d) + eps
    return [num.div(v, denom) for v in x]


def _sum(xs: Any) -> Any:
    total: Any = 0
    for v in xs:
        total = total + v
    return total



def _dot(key: Vec, q: Vec) -> Any:
    total: Any = 0
    for x, y in zip(key, q):
        if not (x.__class__ is int and x == 0) and not (y.__class__ is int and y == 0):
            total = total + x * y
    return total


def positions_in(desc: ModelDescription, tokens: Sequence[Sequence[Any]], start: int, n: int, d: int,
                 num: Numbers = EXACT) -> list[Vec]:
    """The tokens at positions ``start, start+1, …`` with the positional encoding at size ``n`` applied.

    The encoding's values enter as ``num.const`` of them (exact numbers and balls as they are, for the exact
    engine); a token's coordinate may be one number or a column of numbers (a batch).
    """
    pe = desc.positional
    out: list[Vec] = []
    for off, tok in enumerate(tokens):
        i = start + off
        if pe is None:
            z = list(tok)
        elif pe.combine == "add":
            p = [num.const(v) for v in pe.at(i, n)]
            if len(p) != len(tok):
                raise DimensionError(f"positional encoding {pe.name} has {len(p)} values, the token {len(tok)}")
            z = [a + b for a, b in zip(tok, p)]
        else:
            z = list(tok) + [num.const(v) for v in pe.at(i, n)]
        if len(z) != d:
            raise DimensionError(f"token {i} gives {len(z)} coordinates to a model with d = {d}")
        out.append(z)
    return out


class DescribedAlgebra:
    """The general loop's operations on exact lists (module docstring); ``n`` sizes the temperature."""

    def __init__(self, dec: ConcreteDecoder, n: int, record: bool):
        desc = dec.description
        self.norm_rule, self.n, self.record = desc.norm, n, record
        heads = [lay.attention.heads if lay.attention else [] for lay in dec.layers]
        self.rules = [[desc.rule(k + 1, h.name) for h in hs] for k, hs in enumerate(heads)]
        self.taus = [[r.attention.tau(n) if r.attention.kind == "softmax" else None for r in rs]
                     for rs in self.rules]
        self.ains: list[list[Vec]] = [[] for _ in dec.layers]  # attention inputs, per layer and position
        self.keys: list[list[list[Vec]]] = [[[] for _ in hs] for hs in heads]
        self.vals: list[list[dict[int, Vec]]] = [[{} for _ in hs] for hs in heads]
        self.reps: list[list[Vec]] = [[] for _ in range(len(dec.layers) + 1)]
        self.records: list[LayerRecord] = []
        self.position = 0

    @staticmethod
    def apply(m: ConcreteMap, x: Vec) -> Vec:
        return m(x)

    def norm(self, k: int, v: Vec) -> Vec:
        return layer_norm(self.norm_rule, v)

    def cache(self, k: int, h: int, head: ConcreteHead, a: Vec) -> None:
        if h == 0:
            self.ains[k].append(a)
        self.keys[k][h].append(head.key(a))

    def attend(self, k: int, h: int, head: ConcreteHead, a: Vec, i: int) -> tuple[Vec, Selection]:
        q = head.query(a)
        scores = [_dot(key, q) for key in self.keys[k][h]]
        try:
            sel = select(self.rules[k][h], head.name, scores, i, self.taus[k][h])
        except Undecided as e:
            raise e.at(position=i, layer=k + 1, head=head.name) from None
        vals = self.vals[k][h]
        out: Vec | None = None
        for j, w in sel.weights:
            if j not in vals:
                vals[j] = head.value(self.ains[k][j])
            v = vals[j] if w.__class__ is int and w == 1 else [w * x for x in vals[j]]
            out = v if out is None else [x + y for x, y in zip(out, v)]
        if out is None:  # nothing allowed: the zero vector
            out = [0] * head.value.d_out
        return out, sel

    @staticmethod
    def concat(k: int, values: list[Vec]) -> Vec:
        return values[0] if len(values) == 1 else list(chain.from_iterable(values))

    @staticmethod
    def add(k: int, attn: Vec, z: Vec) -> Vec:
        return [a + b for a, b in zip(attn, z)]

    @staticmethod
    def relu(k: int, v: Vec) -> Vec:
        return [relu(x) for x in v]

    def layer_done(self, k: int, choices: list[Selection], attn: Vec | None, ffn_in: Vec, hidden: Vec,
                   out: Vec) -> None:
        self.reps[k + 1].append(out)
        if self.record:
            self.records.append(LayerRecord(k + 1, list(choices), attn, ffn_in, hidden, out))
        else:
            self.records.append(LayerRecord(k + 1, list(choices)))


def maps_of(dec: ConcreteDecoder) -> list[LayerMaps[ConcreteMap, ConcreteHead]]:
    """The layers as the loop reads them."""
    return [LayerMaps(None, None, lay.ffn.w1, lay.ffn.w2, lay.norm_map) if lay.attention is None else
            LayerMaps(lay.attention.heads, lay.attention.out, lay.ffn.w1, lay.ffn.w2, lay.norm_map)
            for lay in dec.layers]


@dataclass
class Encoding:
    """An encoder's run: the last layer's output at every position, and per position one record per layer."""

    outputs: list[Vec]
    records: list[list[LayerRecord]] = field(default_factory=list)
    inputs: list[Vec] = field(default_factory=list)


def encode(dec: ConcreteDecoder, tokens: Sequence[Sequence[Any]], record: bool = False,
           algebra: Callable[[ConcreteDecoder, int, bool], DescribedAlgebra] = DescribedAlgebra) -> Encoding:
    """Run an encoder (``description.direction`` ``encoder`` or ``recogniser``) on ``tokens``.

    ``n`` (the positional encoding's and the temperature's size) is ``len(tokens)``. Raises
    :class:`~symcot.errors.Undecided` when the intervals cannot settle a decision.
    """
    n = len(tokens)
    if n == 0:
        raise DimensionError("an encoder needs at least one position")
    alg = algebra(dec, n, record)
    zs = positions_in(dec.description, tokens, 0, n, dec.layout.dim)
    desc = dec.description
    outs = encode_layers(alg, desc.norm.placement, desc.residual == "both", maps_of(dec), zs)
    per: list[list[LayerRecord]] = [[] for _ in range(n)]
    for r, rec in enumerate(alg.records):  # layer by layer, position by position
        per[r % n].append(rec)
    return Encoding(outs, per, zs)
