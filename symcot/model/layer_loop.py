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
