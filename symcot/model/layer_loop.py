"""The layer loop of the Section-3 rules, written once over an *algebra* that supplies the arithmetic.

:func:`push_layers` (or the loop :func:`layer_loop` returns, the algebra's operations bound once) runs one
new token through every layer (rules 1-4 of :mod:`symcot.model.semantics`):

* for each head: the new token's key ``K z`` is appended to the head's cache, its query ``Q z`` scores
  every position of the causal prefix (itself included), the *first* argmax -- the smallest index among
  the maximal scores -- is chosen, and the chosen position's value ``V z_{j0}`` is read (rule 1);
* ``α'' = W_O`` on the concatenation of the heads' values; trivial attention gives ``α'' = 0`` (rule 2);
* the layer output is ``W_2 ReLU(W_1(α'' + z))``: a residual around attention, none around the FFN (rule 3);
* the output is the next layer's input; a token's keys and values are cached once, when it is appended
  (rule 4).

What a vector is, and how each operation is carried out, is the algebra's (:class:`LayerAlgebra`): exact
lists of ``int``/``Fraction``/SymPy numbers (:class:`symcot.model.semantics.Context`), ``(B, d)`` arrays in
a float format (:mod:`symcot.replay.floating.engine`), or ``(d, B)`` integer-scaled arrays
(:mod:`symcot.replay.batched.state`). The algebra also owns the causal caches (which positions it keeps,
in which shape) and whatever it records; the loop decides nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

V = TypeVar("V")  # a vector, or a batch of vectors
S = TypeVar("S")  # a head's scores over the causal prefix
C = TypeVar("C")  # what a head's argmax returns (an index, a record of the choice, a batch of indices)
M = TypeVar("M")  # a map in the algebra's representation
M_co = TypeVar("M_co", covariant=True)
M_contra = TypeVar("M_contra", contravariant=True)
H = TypeVar("H", bound="HeadMaps[Any]")  # a head in the algebra's representation
H_co = TypeVar("H_co", bound="HeadMaps[Any]", covariant=True)
H_contra = TypeVar("H_contra", bound="HeadMaps[Any]", contravariant=True)


class HeadMaps(Protocol[M_co]):
    """One attention head: its name and its query, key and value maps."""

    @property
    def name(self) -> str: ...

    @property
    def query(self) -> M_co: ...

    @property
    def key(self) -> M_co: ...

    @property
    def value(self) -> M_co: ...


class LayerMapsLike(Protocol[M_co, H_co]):
    """One layer: its heads (``None``: trivial attention), ``W_O`` (``out``), ``W_1`` and ``W_2``."""

    @property
    def heads(self) -> Sequence[H_co] | None: ...

    @property
    def out(self) -> M_co | None: ...

    @property
    def w1(self) -> M_co: ...

    @property
    def w2(self) -> M_co: ...


@dataclass
class LayerMaps(Generic[M, H]):
    """A plain :class:`LayerMapsLike`: the maps of one layer in one representation."""

    heads: Sequence[H] | None
    out: M | None
    w1: M
    w2: M
    norm_map: M | None = None  # W_N of selective pre-norm (the general loop only)


class LayerAlgebra(Protocol[V, S, C, M_contra, H_contra]):
    """The operations :func:`push_layers` needs; ``k`` is the layer (0-based), ``h`` the head within it."""

    def apply(self, m: M_contra, x: V) -> V:
        """The map ``m`` on ``x``."""

    def append(self, k: int, h: int, head: H_contra, key: V, z: V) -> None:
        """Append the new token (its key ``key``, its layer input ``z``) to the cache of head ``h``."""

    def scores(self, k: int, h: int, q: V) -> S:
        """``⟨K z_i, q⟩`` for every cached position ``i`` of head ``h`` (the causal prefix)."""

    def first_argmax(self, k: int, h: int, head: H_contra, scores: S) -> C:
        """The smallest index among the maximal ``scores``."""

    def value(self, k: int, h: int, head: H_contra, choice: C) -> V:
        """``V z_j`` of the chosen position ``j``."""

    def concat(self, k: int, values: list[V]) -> V:
        """The heads' values, concatenated in head order."""

    def add(self, k: int, attn: V, z: V) -> V:
        """``α'' + z``."""

    def relu(self, k: int, v: V) -> V:
        """``max(0, v)`` coordinatewise."""

    def layer_done(self, k: int, choices: list[C], attn: V | None, ffn_in: V, hidden: V, out: V) -> None:
        """Called once a layer is done (to cache its output or record it)."""


def layer_loop(alg: LayerAlgebra[V, S, C, M, H]) -> Callable[[Sequence[LayerMapsLike[M, H]], V], V]:
    """The loop of the module docstring, ``alg``'s operations bound once.

    ``loop(layers, z)`` runs the new token ``z`` through every layer (rules 1-4) and returns the last
    layer's output.
    """
    apply, append, scores, first_argmax, value = alg.apply, alg.append, alg.scores, alg.first_argmax, alg.value
    concat, add, relu, done = alg.concat, alg.add, alg.relu, alg.layer_done

    def loop(layers: Sequence[LayerMapsLike[M, H]], z: V) -> V:
        for k, layer in enumerate(layers):
            heads = layer.heads
            choices: list[C] = []
            attn: V | None
            if heads is None:
                attn = None
                ffn_in = z  # rule 2: trivial attention, α'' = 0
            else:
                outs: list[V] = []
                for h, head in enumerate(heads):
                    append(k, h, head, apply(head.key, z), z)  # rule 4: cached once, when appended
                    choice = first_argmax(k, h, head, scores(k, h, apply(head.query, z)))  # rule 1
                    choices.append(choice)
                    outs.append(value(k, h, head, choice))
                w_o = layer.out
                assert w_o is not None
                attn = apply(w_o, concat(k, outs))  # rule 2: W_O on the concatenation
                ffn_in = add(k, attn, z)  # rule 3: residual around attention
            hidden = relu(k, apply(layer.w1, ffn_in))
            out = apply(layer.w2, hidden)  # rule 3: no residual around the FFN
            done(k, choices, attn, ffn_in, hidden, out)
            z = out
        return z

    return loop


def push_layers(alg: LayerAlgebra[V, S, C, M, H], layers: Sequence[LayerMapsLike[M, H]], z: V) -> V:
    """Run the new token ``z`` through every layer (rules 1-4) with ``alg``; return the last layer's output."""
    return layer_loop(alg)(layers, z)


# -- the loop of a model description ---------------------------------------------------------------------
#
# The general loop reads a :class:`~symcot.model.description.ModelDescription`. Each sublayer ``S``
# (attention, then the FFN) computes, with ``LN`` the description's layer norm:
#
#   none:       y = S(x) + x                (the FFN's ``+ x`` only with ``residual == "both"``)
#   pre:        y = S(LN(x)) + x
#   post:       y = LN(S(x) + x)
#   selective:  y = S(LN(W_N x)) + x        for attention (``W_N``: the layer's ``norm_map``); the FFN as none
#
# and a head attends from position ``i`` with its own mask and kind (:func:`symcot.model.attention.select`).
# SECTION3 (no norm, residual around attention, future-masked leftmost hard attention) is exactly
# :func:`layer_loop`, which the engines keep as their fast path.


class DescribedAlgebra(Protocol[V, C, M_contra, H_contra]):
    """The operations of the general loop; ``k`` is the layer (0-based), ``h`` the head within it."""

    def apply(self, m: M_contra, x: V) -> V:
        """The map ``m`` on ``x``."""

    def norm(self, k: int, v: V) -> V:
        """The description's layer norm of ``v``."""

    def cache(self, k: int, h: int, head: H_contra, a: V) -> None:
        """Append a position's attention input ``a`` (its key and value are head ``h``'s maps of it)."""

    def attend(self, k: int, h: int, head: H_contra, a: V, i: int) -> tuple[V, C]:
        """Head ``h`` queried by ``a`` at position ``i`` over the cached positions: its output and its choice."""

    def concat(self, k: int, values: list[V]) -> V:
        """The heads' values, concatenated in head order."""

    def add(self, k: int, attn: V, z: V) -> V:
        """Coordinatewise sum."""

    def relu(self, k: int, v: V) -> V:
        """``max(0, v)`` coordinatewise."""

    def layer_done(self, k: int, choices: list[C], attn: V | None, ffn_in: V, hidden: V, out: V) -> None:
        """Called once a layer is done at one position (to cache its output or record it)."""


def attention_input(alg: DescribedAlgebra[V, C, M, H], placement: str, k: int, layer: Any, x: V) -> V:
    """What the heads read: ``x``, ``LN(x)`` (pre-norm) or ``LN(W_N x)`` (selective pre-norm)."""
    if placement == "pre":
        return alg.norm(k, x)
    if placement == "selective":
        w_n = getattr(layer, "norm_map", None)
        return alg.norm(k, x if w_n is None else alg.apply(w_n, x))
    return x


def finish_layer(alg: DescribedAlgebra[V, C, M, H], placement: str, both: bool, k: int, layer: Any, x: V,
                 outs: list[V] | None, choices: list[C]) -> V:
    """The rest of a layer at one position, from its heads' outputs ``outs`` (``None``: trivial attention)."""
    attn: V | None = None
    if outs is None:
        y = x  # trivial attention: α'' = 0
    else:
        attn = alg.apply(layer.out, alg.concat(k, outs))
        y = alg.add(k, attn, x)
    if placement == "post":
        y = alg.norm(k, y)
    hidden = alg.relu(k, alg.apply(layer.w1, alg.norm(k, y) if placement == "pre" else y))
    out = alg.apply(layer.w2, hidden)
    if both:
        out = alg.add(k, out, y)
    if placement == "post":
        out = alg.norm(k, out)
    alg.layer_done(k, choices, attn, y, hidden, out)
    return out


def described_loop(alg: DescribedAlgebra[V, C, M, H], placement: str,
                   both: bool) -> Callable[[Sequence[LayerMapsLike[M, H]], V, int], V]:
    """The decoder's loop under a description: ``loop(layers, z, i)`` runs the token at position ``i``."""

    def loop(layers: Sequence[LayerMapsLike[M, H]], z: V, i: int) -> V:
        for k, layer in enumerate(layers):
            heads = layer.heads
            if heads is None:
                z = finish_layer(alg, placement, both, k, layer, z, None, [])
                continue
            a = attention_input(alg, placement, k, layer, z)
            outs: list[V] = []
            choices: list[C] = []
            for h, head in enumerate(heads):
                alg.cache(k, h, head, a)
                v, c = alg.attend(k, h, head, a, i)
                outs.append(v)
                choices.append(c)
            z = finish_layer(alg, placement, both, k, layer, z, outs, choices)
        return z

    return loop


def encode_layers(alg: DescribedAlgebra[V, C, M, H], placement: str, both: bool,
                  layers: Sequence[LayerMapsLike[M, H]], zs: list[V]) -> list[V]:
    """Every position through every layer at once (an encoder): layer ``k`` reads all of layer ``k-1``."""
    for k, layer in enumerate(layers):
        heads = layer.heads
        if heads is None:
            zs = [finish_layer(alg, placement, both, k, layer, z, None, []) for z in zs]
            continue
        ains = [attention_input(alg, placement, k, layer, z) for z in zs]
        for a in ains:
            for h, head in enumerate(heads):
                alg.cache(k, h, head, a)
        new: list[V] = []
        for i, (z, a) in enumerate(zip(zs, ains)):
            outs: list[V] = []
            choices: list[C] = []
            for h, head in enumerate(heads):
                v, c = alg.attend(k, h, head, a, i)
                outs.append(v)
                choices.append(c)
            new.append(finish_layer(alg, placement, both, k, layer, z, outs, choices))
        zs = new
    return zs
