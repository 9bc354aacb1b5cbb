"""The batched engine under any model description whose values stay rational.

A batch of inputs runs as ``(B, ·)`` numpy arrays of exact numbers (``int``/``Fraction``), through the exact
engine's general loop (:mod:`symcot.model.layer_loop`) and the exact engine's rules -- masks, the maximal set,
both tie rules, average hard attention's ``1/|M|``, positional encodings, the residual placements -- in
:data:`RATIONAL` numbers: the rules' own code (:func:`symcot.model.attention.select`,
:func:`symcot.model.described.positions_in`), with every map evaluated once per batch. Every decision is
exact, so the results equal the exact engine's bit for bit.

Softmax weights and layer norm are not rational: such a description is refused at once with one line naming
the rule (:func:`require_rational`); a positional encoding whose values are not rational (a sinusoid) is
refused when it is first evaluated. Section 3's rules keep their integer-scaled, native engine
(:class:`~symcot.replay.batched.decoder.BatchedDecoder`), unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from symcot.errors import UnsupportedDescription
from symcot.model.decoder import ConcreteDecoder
from symcot.model.description import ModelDescription
from symcot.model.interval import Ball
from symcot.model.numbers import ExactNumbers
from symcot.replay.floating.described import (
    ArrayDescribedDecoder,
    BatchEncoding,
    BatchGeneration,
    encode,
    generate,
)


def require_rational(desc: ModelDescription, name: str, engine: str = "the batched engine") -> None:
    """Raise :class:`~symcot.errors.UnsupportedDescription` naming the first rule whose values are not rational."""
    rule = None
    for r in desc.rules():
        if r.attention.kind == "softmax":
            rule = f"softmax attention ({r.attention.label()}: weights that are not rational)"
            break
    if rule is None and desc.norm.placement != "none":
        rule = f"{desc.norm.placement}-norm ({desc.norm.kind} layer norm: roots that are not rational)"
    if rule is not None:
        raise UnsupportedDescription(f"{engine} runs rational rules only, not {rule}; {name} is stated for "
                                     f"{desc.summary()} (the exact engine runs it)")


class RationalNumbers(ExactNumbers):
    """Exact numbers that must stay rational: a ball (a sinusoid's value) is refused with one line."""

    def __init__(self, name: str):
        self.name = name

    def const(self, q: Any) -> Any:
        if isinstance(q, Ball):
            raise UnsupportedDescription(f"the batched engine runs rational values only; {self.name} has a "
                                         f"positional value that is not rational ({q})")
        return q


class DescribedBatchedDecoder(ArrayDescribedDecoder):
    """A :class:`ConcreteDecoder` under a rational description, run on batches of exact arrays."""

    def __init__(self, dec: ConcreteDecoder):
        require_rational(dec.description, dec.name)
        super().__init__(dec, "exact", RationalNumbers(dec.name))

    def encode(self, inputs: Sequence[Sequence[Sequence[Any]]]) -> BatchEncoding:
        """An encoder or recogniser on ``B`` inputs of ``N`` tokens each: outputs ``(N, B, d)`` (exact)."""
        return encode(self, _positions_first(self, inputs))

    def generate(self, prompts: Sequence[Sequence[Sequence[Any]]], steps: int) -> BatchGeneration:
        """A decoder's chain of thought on ``B`` prompts of ``P`` tokens each: outputs ``(steps, B, d)`` (exact)."""
        return generate(self, _positions_first(self, prompts), steps)


def _positions_first(bd: DescribedBatchedDecoder, rows: Sequence[Sequence[Sequence[Any]]]) -> np.ndarray:
    arr = bd.fmt.array([[list(t) for t in row] for row in rows])
    return np.transpose(arr, (1, 0, 2)) if arr.ndim == 3 else arr
