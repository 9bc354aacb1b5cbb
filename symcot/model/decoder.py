"""A decoder stated symbolically: layers of unique-hard-attention heads, ``W_O`` and a ReLU FFN.

This module holds the *structure* (which maps sit where, with size checks and size accounting); the
rules that run it are in :mod:`symcot.model.semantics`, and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from symcot.errors import DimensionError
from symcot.ir.layout import ConcreteLayout, Layout
from symcot.ir.maps import ConcreteMap, Map
from symcot.ir.symbols import Env, normalize_env
from symcot.model.description import SECTION3, ModelDescription


def _same_layout(a: Layout, b: Layout) -> bool:
    return a is b or (a.name == b.name and a.names == b.names and all(
        sp.expand(x.size - y.size) == 0 for x, y in zip(a.blocks, b.blocks)))


@dataclass
class Head:
    """One unique-hard-attention head: score ``⟨K z_i, Q z_last⟩``, output ``V z_{j0}``."""

    name: str
    query: Map
    key: Map
    value: Map

    def __post_init__(self) -> None:
        if not _same_layout(self.query.dst, self.key.dst):
            raise DimensionError(
                f"head {self.name}: query space {self.query.dst.name!r} (d'={self.query.dst.dim}) and key "
                f"space {self.key.dst.name!r} (d'={self.key.dst.dim}) differ"
            )
        if not _same_layout(self.query.src, self.key.src) or not _same_layout(self.key.src, self.value.src):
            raise DimensionError(f"head {self.name}: Q, K, V must read the same layout")


def value_space(heads: Sequence[Head], name: str = "heads") -> Layout:
    """The input layout of ``W_O``: the heads' value spaces concatenated, blocks named ``head.block``."""
    if not heads:
        raise DimensionError("an attention sub-layer needs at least one head")
    return heads[0].value.dst.concat(name, [(h.name, h.value.dst) for h in heads])


@dataclass
class Attention:
    """Multi-head attention: ``α'' = W_O [V_1 z_{j(1)} ‖ … ‖ V_H z_{j(H)}]``."""

    heads: list[Head]
    out: Map  # W_O

    def __post_init__(self) -> None:
        names = [h.name for h in self.heads]
        if len(set(names)) != len(names):
            raise DimensionError(f"head names repeat: {names}")
        vs = value_space(self.heads)
        if self.out.src.names != vs.names:
            raise DimensionError(
                f"W_O reads blocks {self.out.src.names}, but the heads' values are {vs.names}"
            )


@dataclass
class FFN:
    """The position-wise network ``W_2 ReLU(W_1 (α'' + x))`` (biases and degree-2 terms allowed).

    ``gadgets`` lists the statements of :mod:`symcot.gadgets` these maps are built from (a lemma's network
    applied to this layer's blocks). The semantics never read it; audits compare the maps with it.
    """

    w1: Map
    w2: Map
    gadgets: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        if not _same_layout(self.w1.dst, self.w2.src):
            raise DimensionError(
                f"W_1 writes layout {self.w1.dst.name!r} but W_2 reads {self.w2.src.name!r}"
            )


@dataclass
class Layer:
    """One decoder layer; ``attention=None`` is the paper's trivial attention (``W_O = 0``).

    ``norm_map``: ``W_N`` of selective pre-norm (the heads read ``LN(W_N x)``); ``None`` is the identity.
    """

    attention: Attention | None
    ffn: FFN
    norm_map: Map | None = None


@dataclass
class SizeReport:
    """Size accounting of a decoder, symbolic in the size symbols."""

    d: sp.Expr
    layers: int
    heads: list[int]
    ffn_hidden: list[sp.Expr]
    key_dims: list[list[sp.Expr]]
    degrees: dict[str, int] = field(default_factory=dict)

    @property
    def max_heads(self) -> int:
        """Most heads in one layer (what "two-head" in a theorem counts)."""
        return max(self.heads, default=0)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form (expressions as strings)."""
        return {
            "d": str(self.d),
            "layers": self.layers,
            "heads_per_layer": self.heads,
            "ffn_hidden": [str(h) for h in self.ffn_hidden],
            "key_dims": [[str(k) for k in ks] for ks in self.key_dims],
            "map_degrees": self.degrees,
        }


@dataclass
class Decoder:
    """A decoder over one layout: every layer reads and writes ``layout``."""

    name: str
    layout: Layout
    layers: list[Layer]
    #: The rules the weights run under (docs/model.md); the first paper's Section 3 by default.
    description: ModelDescription = SECTION3

    def __post_init__(self) -> None:
        if not isinstance(self.description, ModelDescription):
            from symcot.errors import DescriptionError

            raise DescriptionError(f"{self.name}: description must be a ModelDescription, got {self.description!r}")
        for k, layer in enumerate(self.layers, 1):
            w_n = layer.norm_map
            if w_n is not None and not (_same_layout(w_n.src, self.layout) and _same_layout(w_n.dst, self.layout)):
                raise DimensionError(f"layer {k}: W_N must map the model layout to itself")
        for k in range(1, len(self.layers) + 1):
            maps = list(self.maps_of(k))
            for label, mp in maps:
                reads_model = label.startswith(("Q", "K", "V", "W_1"))
                writes_model = label.startswith(("W_O", "W_2"))
                if reads_model and not _same_layout(mp.src, self.layout):
                    raise DimensionError(f"layer {k}: {label} reads {mp.src.name!r}, not the model layout")
                if writes_model and not _same_layout(mp.dst, self.layout):
                    raise DimensionError(f"layer {k}: {label} writes {mp.dst.name!r}, not the model layout")

    def maps_of(self, k: int) -> list[tuple[str, Map]]:
        """``(label, map)`` of layer ``k`` (1-based), labels like ``Q_T``, ``W_O``, ``W_1``."""
        layer = self.layers[k - 1]
        out: list[tuple[str, Map]] = []
        if layer.attention is not None:
            for h in layer.attention.heads:
                out += [(f"Q_{h.name}", h.query), (f"K_{h.name}", h.key), (f"V_{h.name}", h.value)]
            out.append(("W_O", layer.attention.out))
        out += [("W_1", layer.ffn.w1), ("W_2", layer.ffn.w2)]
        return out

    def sizes(self) -> SizeReport:
        """Symbolic size accounting: ``d``, layers, heads per layer, FFN widths, key dimensions."""
        heads = [len(lay.attention.heads) if lay.attention else 0 for lay in self.layers]
        return SizeReport(
            d=self.layout.dim,
            layers=len(self.layers),
            heads=heads,
            ffn_hidden=[lay.ffn.w1.dst.dim for lay in self.layers],
            key_dims=[[h.key.dst.dim for h in lay.attention.heads] if lay.attention else [] for lay in self.layers],
            degrees={f"layer{k}.{lbl}": mp.degree for k in range(1, len(self.layers) + 1)
                     for lbl, mp in self.maps_of(k)},
        )

    def instantiate(self, env: Env, subs: dict[sp.Symbol, Any] | None = None) -> ConcreteDecoder:
        """Exact weights at concrete sizes (``env``) and constants (``subs``, e.g. ``{lam: 7}``).

        Keys may also be strings or plain SymPy symbols (``{"n": 3}``, ``{"lambda": 7}``).
        """
        env, subs = normalize_env(env), normalize_env(subs)
        layers: list[ConcreteLayer] = []
        for layer in self.layers:
            att = None
            if layer.attention is not None:
                heads = [ConcreteHead(h.name, h.query.instantiate(env, subs), h.key.instantiate(env, subs),
                                      h.value.instantiate(env, subs)) for h in layer.attention.heads]
                att = ConcreteAttention(heads, layer.attention.out.instantiate(env, subs))
            ffn = ConcreteFFN(layer.ffn.w1.instantiate(env, subs), layer.ffn.w2.instantiate(env, subs))
            w_n = None if layer.norm_map is None else layer.norm_map.instantiate(env, subs)
            layers.append(ConcreteLayer(att, ffn, w_n))
        return ConcreteDecoder(self.name, ConcreteLayout(self.layout, env), layers, dict(env), dict(subs or {}),
                               self.description)


@dataclass
class ConcreteHead:
    """A head with exact weights."""

    name: str
    query: ConcreteMap
    key: ConcreteMap
    value: ConcreteMap


@dataclass
class ConcreteAttention:
    """Heads and ``W_O`` with exact weights."""

    heads: list[ConcreteHead]
    out: ConcreteMap


@dataclass
class ConcreteFFN:
    """``W_1``, ``W_2`` with exact weights."""

    w1: ConcreteMap
    w2: ConcreteMap


@dataclass
class ConcreteLayer:
    """A layer with exact weights."""

    attention: ConcreteAttention | None
    ffn: ConcreteFFN
    norm_map: ConcreteMap | None = None


@dataclass
class ConcreteDecoder:
    """A decoder at concrete sizes with exact weights; run it with :mod:`symcot.model.semantics`."""

    name: str
    layout: ConcreteLayout
    layers: list[ConcreteLayer]
    env: Env
    subs: dict[sp.Symbol, Any]
    description: ModelDescription = SECTION3

    def get_map(self, layer: int, label: str) -> ConcreteMap:
        """The map ``label`` (``Q_T``, ``K_B``, ``V_T``, ``W_O``, ``W_1``, ``W_2``) of layer ``layer`` (1-based)."""
        lay = self.layers[layer - 1]
        if label == "W_1":
            return lay.ffn.w1
        if label == "W_2":
            return lay.ffn.w2
        if lay.attention is None:
            raise KeyError(f"layer {layer} has trivial attention: no {label}")
        if label == "W_O":
            return lay.attention.out
        kind, _, head = label.partition("_")
        for h in lay.attention.heads:
            if h.name == head:
                return {"Q": h.query, "K": h.key, "V": h.value}[kind]
        raise KeyError(f"layer {layer} has no map {label}")

    def with_map(self, layer: int, label: str, new: ConcreteMap) -> ConcreteDecoder:
        """A copy with one map replaced (used to build deliberately broken decoders)."""
        import copy

        dec = copy.deepcopy(self)
        lay = dec.layers[layer - 1]
        if label == "W_1":
            lay.ffn.w1 = new
        elif label == "W_2":
            lay.ffn.w2 = new
        elif label == "W_O":
            assert lay.attention is not None
            lay.attention.out = new
        else:
            kind, _, head = label.partition("_")
            assert lay.attention is not None
            h = next(h for h in lay.attention.heads if h.name == head)
            setattr(h, {"Q": "query", "K": "key", "V": "value"}[kind], new)
        return dec
