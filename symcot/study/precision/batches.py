"""Inputs of a claim grouped into batches that one array replay can run together.

A batch shares the concrete decoder (the same sizes and constants), the prompt length and the number of
CoT steps ``T`` of the reference, so every row runs exactly its own ``T`` steps, as the exact check does.
Within a batch, rows keep the family's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from symcot.check.stepwise import StepwiseSpec
from symcot.constructions.base import Construction
from symcot.model.decoder import ConcreteDecoder

#: Rows per batch (memory: positions × rows × d per cached head).
BATCH_ROWS = 4096


@dataclass
class Batch:
    """Inputs run together: their reference states, prompts and the shared decoder (of ``construction``)."""

    construction: Construction
    decoder: ConcreteDecoder
    inputs: list[Any]
    states: list[Any]
    prompts: list[list[list[Any]]]
    labels: list[str]
    steps: int
    order: list[int]
    _float: np.ndarray | None = field(default=None, repr=False)

    @property
    def rows(self) -> int:
        """Number of inputs."""
        return len(self.inputs)

    def prompt_array(self) -> np.ndarray:
        """The prompts as one ``(P, B, d)`` object array of exact numbers."""
        return np.array(self.prompts, dtype=object).transpose(1, 0, 2)

    def prompt_float(self) -> np.ndarray:
        """The prompts as a ``(P, B, d)`` float64 array (each exact value rounded once; integers exactly)."""
        if self._float is None:
            self._float = np.array([[[float(v) for v in tok] for tok in p] for p in self.prompts],
                                   dtype=np.float64).transpose(1, 0, 2)
        return self._float

    def integral(self) -> bool:
        """Every weight and every prompt value is an integer (then every value of the run is)."""
        for layer in self.decoder.layers:
            maps = [layer.ffn.w1, layer.ffn.w2]
            if layer.attention is not None:
                maps.append(layer.attention.out)
                for h in layer.attention.heads:
                    maps += [h.query, h.key, h.value]
            for m in maps:
                for t in (*m.const, *m.lin, *m.quad):
                    if not _is_int(t[-1]):
                        return False
        distinct = {id(tok): tok for p in self.prompts for tok in p}  # prompts share their token lists
        return all(_is_int(v) for tok in distinct.values() for v in tok)


def _is_int(v: Any) -> bool:
    if isinstance(v, bool):
        return True
    if isinstance(v, int):
        return True
    if isinstance(v, Fraction):
        return v.denominator == 1
    try:
        return bool(getattr(v, "is_Integer", False))
    except Exception:  # noqa: BLE001 - anything else is not an integer
        return False


def batches(cons: Construction, spec: StepwiseSpec, inputs: Iterable[Any], rows: int = BATCH_ROWS) -> Iterator[Batch]:
    """Group ``inputs`` (in order) into batches of at most ``rows`` that share decoder, prompt length and ``T``.

    Inputs whose reference takes no step (``T = 0``) are skipped: nothing is generated for them.
    ``Batch.order`` holds each row's index in ``inputs``, so the first failure in the family's order can
    be found across batches.
    A batch is yielded when it is full; the rest at the end, in the order their first input came.
    """
    open_: dict[tuple[int, int, int], Batch] = {}
    for index, inp in enumerate(inputs):
        states = spec.reference(inp)
        steps = len(states) - 1
        if steps < 1:
            continue
        dec = cons.concrete(inp)
        prompt = cons.prompt(inp)
        key = (id(dec), len(prompt.tokens), steps)
        b = open_.get(key)
        if b is None:
            b = open_[key] = Batch(cons, dec, [], [], [], list(prompt.labels), steps, [])
        b.order.append(index)
        b.inputs.append(inp)
        b.states.append(states)
        b.prompts.append(prompt.tokens)
        if b.rows >= rows:
            yield open_.pop(key)
    yield from open_.values()
