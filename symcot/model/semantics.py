"""The decoder semantics of the paper's Section 3 -- the one place these rules live.

1. **Unique hard attention.** Head ``h`` at the last position scores every position ``i`` of the causal
   prefix (itself included) by ``a_i = ⟨K_h z_i, Q_h z_last⟩`` and selects the *smallest* index among
   those attaining the maximum; it outputs ``V_h z_{j0}``.
2. **Multi-head.** ``α'' = W_O [V_1 z_{j(1)} ‖ … ‖ V_H z_{j(H)}]``; a layer with trivial attention has
   ``α'' = 0``.
3. **Residual around attention only.** The layer output is ``W_2 ReLU(W_1 (α'' + z_last))``; there is
   no residual around the FFN. (``W_1``/``W_2`` may carry biases and degree-2 terms: the paper's
   "bilinear maps".)
4. **Causal layers over every token.** Every token -- sentinel, input tokens, ``y_0`` and each generated
   token -- passes through every layer; layer ``k`` at position ``i`` sees the layer-``k-1``
   representations of positions ``0..i``.
5. **Chain of thought.** After the prompt (input tokens and ``y_0``), the last position's final-layer
   output is the next token ``y_{t+1}``, which is appended; repeat.

The layer loop (rules 1-4) is :func:`symcot.model.layer_loop.push_layers`, written once over an algebra;
:class:`Context` runs it with the :class:`ExactAlgebra`, the float and batched engines with their own.
Arithmetic is whatever the vectors carry (``int``/``Fraction`` exactly). The two decisions that need an
order -- ReLU and the argmax -- go through a :class:`Semantics` object so that a symbolic engine can
replace them without touching the rules.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from symcot.errors import DescriptionError, DimensionError, InvalidInputError, UnsupportedDescription
from symcot.ir.maps import ConcreteMap
from symcot.model.decoder import ConcreteDecoder, ConcreteHead
from symcot.model.description import ModelDescription
from symcot.model.layer_loop import LayerMaps, described_loop, layer_loop
from symcot.model.records import HeadChoice, LayerRecord

Vec = list[Any]


class Semantics:
    """Exact semantics: ``ReLU(x) = max(0, x)`` and argmax by exact comparison."""

    def relu(self, v: Any) -> Any:
        """``max(0, v)``."""
        return v if v > 0 else 0

    def select(self, head: str, scores: Sequence[Any]) -> HeadChoice:
        """Unique hard attention: the smallest index among the maximal scores (rule 1)."""
        best = scores[0]
        for s in scores[1:]:
            if s > best:
                best = s
        tied = [i for i, s in enumerate(scores) if s == best]
        j0 = tied[0]
        others = [s for i, s in enumerate(scores) if i != j0]
        runner = None
        if others:
            runner = others[0]
            for s in others[1:]:
                if s > runner:
                    runner = s
        margin = None if runner is None else best - runner
        return HeadChoice(head, j0, best, runner, margin, len(tied) > 1, tied)


EXACT = Semantics()

#: Number types a prompt token may hold without a closer look (``generate`` refuses floats).
_EXACT_TYPES = {int, bool}


def _sparse(v: Sequence[Any]) -> list[tuple[int, Any]]:
    """The entries of ``v`` that are not the exact integer 0 (symbolic terms are always kept)."""
    return [(i, x) for i, x in enumerate(v) if not (x.__class__ is int and x == 0)]


def _call(m: ConcreteMap, x: Vec) -> Vec:
    return m(x)


_CALL: Callable[[ConcreteMap, Vec], Vec] = getattr(operator, "call", _call)  # no Python frame on 3.11+


class ExactAlgebra:
    """The operations of :func:`~symcot.model.layer_loop.push_layers` on lists of exact numbers.

    Maps are the decoder's own (``ConcreteMap``, called on lists); ReLU and the argmax are the
    :class:`Semantics` object's. The caches are ``reps[k][i]`` (the layer-``k`` input of position ``i``;
    ``k = 0`` is the token) and ``keys[k][h][i]`` (head ``h``'s key of position ``i``, stored sparsely); a
    value is computed when its position is chosen, from ``reps``.
    """

    def __init__(self, dec: ConcreteDecoder, semantics: Semantics, record: bool):
        self.sem = semantics
        self.record = record
        self.reps: list[list[Vec]] = [[] for _ in range(len(dec.layers) + 1)]
        self.keys: list[list[list[list[tuple[int, Any]]]]] = [
            [[] for _ in (layer.attention.heads if layer.attention else [])] for layer in dec.layers
        ]
        self.records: list[LayerRecord] = []
        if type(semantics) is Semantics:
            self.relu = self._exact_relu  # type: ignore[method-assign]

    #: ``apply(m, x)``: the map's own ``m(x)``.
    apply: Callable[[ConcreteMap, Vec], Vec] = staticmethod(_CALL)

    def append(self, k: int, h: int, head: ConcreteHead, key: Vec, z: Vec) -> None:
        self.keys[k][h].append(_sparse(key))  # z is already in reps[k]

    def scores(self, k: int, h: int, q: Vec) -> list[Any]:
        """``⟨key_i, q⟩`` for every cached key (stored sparsely), skipping the exact zeros of ``q``."""
        out: list[Any] = []
        for key in self.keys[k][h]:
            total: Any = 0
            for i, x in key:
                y = q[i]
                if not (y.__class__ is int and y == 0):
                    total = total + x * y
            out.append(total)
        return out

    def first_argmax(self, k: int, h: int, head: ConcreteHead, scores: list[Any]) -> HeadChoice:
        return self.sem.select(head.name, scores)

    def value(self, k: int, h: int, head: ConcreteHead, choice: HeadChoice) -> Vec:
        return head.value(self.reps[k][choice.index])

    def concat(self, k: int, values: list[Vec]) -> Vec:
        return values[0] if len(values) == 1 else list(chain.from_iterable(values))

    def add(self, k: int, attn: Vec, z: Vec) -> Vec:
        return [a + b for a, b in zip(attn, z)]

    def relu(self, k: int, v: Vec) -> Vec:
        relu = self.sem.relu
        return [relu(x) for x in v]

    @staticmethod
    def _exact_relu(k: int, v: Vec) -> Vec:
        return [x if x > 0 else 0 for x in v]

    def layer_done(self, k: int, choices: list[HeadChoice], attn: Vec | None, ffn_in: Vec, hidden: Vec,
                   out: Vec) -> None:
        self.reps[k + 1].append(out)
        if self.record:
            self.records.append(LayerRecord(k + 1, choices, attn, ffn_in, hidden, out))
        else:
            self.records.append(LayerRecord(k + 1, choices))


class Context:
    """The causal state of a concrete decoder over a growing token sequence.

    Each :meth:`push` runs one new token through every layer (rule 4) by
    :func:`~symcot.model.layer_loop.layer_loop` with the :class:`ExactAlgebra`, caching its per-layer
    representations (``reps``) and keys (``keys``): a token's representations never change once computed.
    """

    #: The algebra class the loop runs with (a test may substitute a deliberately wrong one).
    algebra: type[ExactAlgebra] = ExactAlgebra

    def __init__(self, dec: ConcreteDecoder, semantics: Semantics = EXACT, record: bool = False,
                 n: int | None = None, general: bool = False):
        self.dec = dec
        self.sem = semantics
        self.record = record
        self.d = dec.layout.dim
        self.n = n
        desc = dec.description
        self._positional = desc.positional is not None
        self.layers: list[LayerMaps[ConcreteMap, ConcreteHead]]
        if desc.section3 and not general:
            self.alg = self.algebra(dec, semantics, record)
            self._loop = layer_loop(self.alg)
            self.reps = self.alg.reps
            self.keys = self.alg.keys
            self.layers = [
                LayerMaps(None, None, layer.ffn.w1, layer.ffn.w2) if layer.attention is None else
                LayerMaps(layer.attention.heads, layer.attention.out, layer.ffn.w1, layer.ffn.w2)
                for layer in dec.layers]
            return
        self._described(dec, desc, semantics, record, n)

    def _described(self, dec: ConcreteDecoder, desc: ModelDescription, semantics: Semantics, record: bool,
                   n: int | None) -> None:
        """The general loop of :mod:`symcot.model.layer_loop` with :class:`~symcot.model.described.DescribedAlgebra`."""
        from symcot.model.described import DescribedAlgebra, maps_of

        if desc.direction != "decoder":
            raise DescriptionError(f"{dec.name} is an {desc.direction}: run it with symcot.model.described.encode")
        if type(semantics) is not Semantics:
            raise UnsupportedDescription(f"{type(semantics).__name__} runs Section 3's rules only, not "
                                         f"{desc.summary()}")
        if n is None and (desc.positional is not None or not desc.rational):
            raise DescriptionError(f"{dec.name}: a described decoder needs its input size n (the prompt's length)")
        alg = DescribedAlgebra(dec, n or 0, record)
        self.alg = alg  # type: ignore[assignment]
        loop = described_loop(alg, desc.norm.placement, desc.residual == "both")
        self._loop = lambda layers, z: loop(layers, z, len(self) - 1)
        self.reps = alg.reps
        self.keys = alg.keys
        self.layers = maps_of(dec)

    def __len__(self) -> int:
        return len(self.reps[0])

    def push(self, x: Sequence[Any]) -> tuple[Vec, list[LayerRecord]]:
        """Append token ``x``; return its final-layer output and, if recording, one record per layer."""
        if self._positional:
            from symcot.model.described import positions_in

            assert self.n is not None
            z = positions_in(self.dec.description, [x], len(self), self.n, self.d)[0]
        else:
            if len(x) != self.d:
                raise DimensionError(f"token of length {len(x)} given to a decoder with d = {self.d}")
            z = list(x)
        self.reps[0].append(z)
        self.alg.records = []
        out = self._loop(self.layers, z)
        return out, self.alg.records


@dataclass
class Generation:
    """Result of a CoT run: the generated tokens ``y_1..y_T`` and, per step, the layer records."""

    outputs: list[Vec] = field(default_factory=list)
    records: list[list[LayerRecord]] = field(default_factory=list)
    prompt_records: list[list[LayerRecord]] = field(default_factory=list)
    stopped: bool = False


def generate(
    dec: ConcreteDecoder,
    prompt: Sequence[Sequence[Any]],
    max_steps: int,
    stop: Callable[[Vec], bool] | None = None,
    semantics: Semantics = EXACT,
    record: bool = False,
    on_step: Callable[[int, Vec, list[LayerRecord]], bool] | None = None,
) -> Generation:
    """Run the chain of thought (rule 5).

    Args:
        dec: concrete decoder.
        prompt: the context before generation, ending with ``y_0`` (e.g. ``[x_⊥, x_0, …, x_{n-1}, y_0]``).
        max_steps: generate at most this many tokens ``y_1 … y_T``.
        stop: called on each generated token; generation ends after the first token for which it is true.
        semantics: ReLU/argmax rules (exact by default).
        record: keep intermediate vectors for traces.
        on_step: called as ``on_step(t, y_t, records)``; returning ``False`` ends generation early.

    """
    ctx = Context(dec, semantics, record, len(prompt))
    gen = Generation()
    if not prompt:
        raise DimensionError("the prompt must contain at least y_0")
    if semantics is EXACT:
        for i, tok in enumerate(prompt):
            if set(map(type, tok)) - _EXACT_TYPES and any(isinstance(v, float) for v in tok):
                raise InvalidInputError(f"prompt token {i} holds a float; exact replay takes int, Fraction or "
                                        "SymPy numbers (floats would round silently)")
    y: Vec = []
    recs: list[LayerRecord] = []
    for i, tok in enumerate(prompt):
        y, recs = ctx.push(tok)
        if i < len(prompt) - 1:
            gen.prompt_records.append(recs)
    for t in range(1, max_steps + 1):
        gen.outputs.append(y)
        gen.records.append(recs)
        if on_step is not None and on_step(t, y, recs) is False:
            break
        if stop is not None and stop(y):
            gen.stopped = True
            break
        if t == max_steps:
            break
        y, recs = ctx.push(y)
    return gen
