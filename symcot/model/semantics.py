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

Arithmetic is whatever the vectors carry (``int``/``Fraction`` exactly). The two decisions that need an
order -- ReLU and the argmax -- go through a :class:`Semantics` object so that a symbolic engine can
replace them without touching the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.errors import DimensionError, InvalidInputError
from symcot.model.decoder import ConcreteDecoder

Vec = list[Any]


@dataclass
class HeadChoice:
    """What one head did at one position: the chosen index, its score and the margin to the runner-up.

    ``margin`` is ``score - runner_up`` (``None`` when the prefix has one position); ``tie`` is true when
    another position attains the maximum, so the choice was made by the smallest-index rule;
    ``tied`` lists every index attaining the maximum.
    """

    head: str
    index: int
    score: Any
    runner_up: Any
    margin: Any
    tie: bool
    tied: list[int]


@dataclass
class LayerRecord:
    """One layer at one position: head choices and the intermediate vectors (when recorded)."""

    layer: int
    heads: list[HeadChoice]
    attn: Vec | None = None  # α''
    ffn_in: Vec | None = None  # α'' + x
    hidden: Vec | None = None  # ReLU(W_1(α'' + x))
    out: Vec | None = None


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


def _score(key: list[tuple[int, Any]], q: Sequence[Any]) -> Any:
    """``⟨key, q⟩`` with ``key`` stored sparsely."""
    total: Any = 0
    for i, x in key:
        y = q[i]
        if not (y.__class__ is int and y == 0):
            total = total + x * y
    return total


class Context:
    """The causal state of a concrete decoder over a growing token sequence.

    Each :meth:`push` runs one new token through every layer (rule 4), caching its per-layer
    representations and keys: a token's representations never change once computed.
    """

    def __init__(self, dec: ConcreteDecoder, semantics: Semantics = EXACT, record: bool = False):
        self.dec = dec
        self.sem = semantics
        self.record = record
        self.d = dec.layout.dim
        # reps[k][i] = z^(k)_i, k = 0 is the token itself.
        self.reps: list[list[Vec]] = [[] for _ in range(len(dec.layers) + 1)]
        self.keys: list[list[list[list[tuple[int, Any]]]]] = [
            [[] for _ in (layer.attention.heads if layer.attention else [])] for layer in dec.layers
        ]

    def __len__(self) -> int:
        return len(self.reps[0])

    def push(self, x: Sequence[Any]) -> tuple[Vec, list[LayerRecord]]:
        """Append token ``x``; return its final-layer output and, if recording, one record per layer."""
        if len(x) != self.d:
            raise DimensionError(f"token of length {len(x)} given to a decoder with d = {self.d}")
        z: Vec = list(x)
        self.reps[0].append(z)
        records: list[LayerRecord] = []
        exact_relu = type(self.sem) is Semantics
        relu = self.sem.relu
        for k, layer in enumerate(self.dec.layers):
            prev = self.reps[k]  # layer-k inputs of positions 0..i (this token included)
            choices: list[HeadChoice] = []
            if layer.attention is None:
                ffn_in = z  # rule 2: trivial attention, α'' = 0
                attn = None
            else:
                outs: Vec = []
                for h, head in enumerate(layer.attention.heads):
                    self.keys[k][h].append(_sparse(head.key(z)))
                    q = head.query(z)
                    scores = [_score(kv, q) for kv in self.keys[k][h]]
                    choice = self.sem.select(head.name, scores)  # rule 1
                    choices.append(choice)
                    outs.extend(head.value(prev[choice.index]))
                attn = layer.attention.out(outs)  # rule 2: W_O on the concatenation
                ffn_in = [a + b for a, b in zip(attn, z)]  # rule 3: residual around attention
            pre = layer.ffn.w1(ffn_in)
            hidden = [v if v > 0 else 0 for v in pre] if exact_relu else [relu(v) for v in pre]
            out = layer.ffn.w2(hidden)  # rule 3: no residual around the FFN
            self.reps[k + 1].append(out)
            if self.record:
                records.append(LayerRecord(k + 1, choices, attn, ffn_in, hidden, out))
            else:
                records.append(LayerRecord(k + 1, choices))
            z = out
        return z, records


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
    ctx = Context(dec, semantics, record)
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
