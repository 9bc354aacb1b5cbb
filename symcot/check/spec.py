"""A claim's comparison, stated once and read by the exact, batched and symbolic checkers.

What ``y_t`` must carry, the stop rule and λ belong to the construction (:mod:`symcot.constructions.base`).
What a *claim* adds is stated here: the reference algorithm it is compared with, how a reference state
reads in a counterexample, which of the encoding's blocks it compares (a claim about part of a
construction, e.g. only its width blocks, leaves the others out), and the theorem's
conclusions beyond the step-by-step encoding -- its step count ("in exactly 2n − 1 CoT steps") and the
answer read off a token ("π_M(y_{2n−1}) = str(G_T)").

The exact (:mod:`symcot.check.stepwise`), batched (:mod:`symcot.check.batched_check`) and symbolic
(:mod:`symcot.prove.symbolic_target`) checkers and ``symcot replay`` take ``enc(s_t)`` from
:meth:`StepwiseSpec.expected` / :meth:`StepwiseSpec.expected_table`, so a selection holds in all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from symcot.constructions.base import Construction
from symcot.ir.layout import ConcreteLayout


class RunView:
    """A finished run as a conclusion reads it: ``block(name, k)`` is ``π_name(y_k)`` (``y_0`` included)."""

    def __init__(self, outputs: Sequence[Sequence[Any]], y0: Sequence[Any], layout: ConcreteLayout):
        self.outputs, self.y0, self.layout = outputs, y0, layout

    @property
    def steps(self) -> int:
        """``T``: the number of generated tokens."""
        return len(self.outputs)

    def block(self, name: str, k: int | None = None) -> list[Any]:
        """``π_name(y_k)`` as exact values; ``k`` defaults to the last token ``y_T``."""
        k = self.steps if k is None else k
        if not 0 <= k <= self.steps:
            raise IndexError(f"the run has no token y_{k} (it has y_0 … y_{self.steps})")
        return list(self.layout.pi(name, self.y0 if k == 0 else self.outputs[k - 1]))


class BatchRunView:
    """Finished runs of a batch as a conclusion's ``batch_read`` reads them: ``block(name, k)`` for every row.

    ``final`` is ``(B, d)``: every row's last token ``y_{T_b}`` (exact integers), ``y0`` its ``y_0``; ``trace``
    holds the blocks ``traced`` at every step ``1 … T`` (``(B, T, ·)``, exact integers), ``steps`` the rows'
    ``T_b``.
    """

    def __init__(self, final: np.ndarray, y0: np.ndarray, trace: np.ndarray, traced: Sequence[str],
                 steps: np.ndarray, layout: ConcreteLayout):
        self.final, self.y0, self.trace, self.steps, self.layout = final, y0, trace, steps, layout
        self._cols: dict[str, slice] = {}
        at = 0
        for name in traced:
            size = layout.sizes[name]
            self._cols[name] = slice(at, at + size)
            at += size

    def block(self, name: str, k: int | None = None) -> np.ndarray:
        """``π_name(y_k)`` of every row, ``(B, size)``; ``k`` defaults to each row's last token."""
        if k is None or (self.steps == k).all():
            return self.final[:, self.layout.slice(name)]
        if k == 0:
            return self.y0[:, self.layout.slice(name)]
        return self.series(name, k, k)[:, 0]

    def series(self, name: str, first: int, last: int) -> np.ndarray:
        """``π_name(y_first) … π_name(y_last)`` of every row, ``(B, last - first + 1, size)`` (a traced block)."""
        if name not in self._cols:
            raise KeyError(f"block {name} is not traced (Conclusion.trace)")
        if last < first:
            return np.zeros((len(self.steps), 0, self.layout.sizes[name]), dtype=np.int64)
        if not 1 <= first <= last <= self.trace.shape[1]:
            raise IndexError(f"the runs have no tokens y_{first} … y_{last} (they have y_1 … y_{self.trace.shape[1]})")
        return self.trace[:, first - 1: last, self._cols[name]]


def rows_equal(got: Any, want: Any) -> np.ndarray:
    """Row by row, whether ``got`` equals ``want`` (arrays ``(B, …)``, or tuples of them compared componentwise)."""
    if isinstance(got, tuple) or isinstance(want, tuple):
        if not (isinstance(got, tuple) and isinstance(want, tuple) and len(got) == len(want)):
            raise TypeError("a batched read and its answer must both be tuples of the same length, or arrays")
        out = np.ones(len(np.asarray(got[0])), dtype=bool)
        for g, w in zip(got, want):
            out &= rows_equal(g, w)
        return out
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape:
        raise ValueError(f"a batched read of shape {g.shape} against an answer of shape {w.shape}")
    return (g == w).reshape(len(g), -1).all(axis=1)


@dataclass(frozen=True)
class Conclusion:
    """One conclusion of a theorem, checked after the run.

    Attributes:
        text: the conclusion as the paper states it (``"π_mwd(y_{n−1}) = wd(G_T)"``).
        steps: ``steps(inp)``: the number of CoT steps the theorem states; the run must take exactly that
            many (``None``: no step count).
        read: ``read(run, inp)``: the value the decoder gives, read off the run's tokens (:class:`RunView`)
            (``None``: only the step count).
        answer: ``answer(inp)``: what ``read`` must give, computed from the definition (not from the
            reference the step-by-step comparison uses).
        batch_read: the same read on a batch (:class:`BatchRunView`, the :class:`~symcot.inputs.batch.InputBatch`):
            one value per row, arrays ``(B, …)`` (or a tuple of them).
        batch_answer: the same answer on a batch, from the definition restated over arrays
            (:mod:`symcot.algorithms.batched`); the tests compare both forms on every input up to 9 vertices.
        trace: the blocks ``batch_read`` reads before the last token (kept at every step by the kernel).

    ``steps`` is read on a batch's stand-in (:attr:`~symcot.inputs.batch.InputBatch.stand_in`), giving every
    row's count (or one for all), where it can be (else on every row's input). Without
    ``batch_read``/``batch_answer`` (where there is a ``read``) the batched checker decides the batch per input.

    """

    text: str
    steps: Callable[[Any], int] | None = None
    read: Callable[[RunView, Any], Any] | None = None
    answer: Callable[[Any], Any] | None = None
    batch_read: Callable[[BatchRunView, Any], Any] | None = None
    batch_answer: Callable[[Any], Any] | None = None
    trace: tuple[str, ...] = ()

    @property
    def batched(self) -> bool:
        """Whether the conclusion has a batch form (or needs none: a step count only)."""
        return self.read is None or (self.batch_read is not None and self.batch_answer is not None)

    def batch_failures(self, run: BatchRunView, batch: Any) -> np.ndarray:
        """Row by row, whether the batch's runs miss the conclusion (the batch form of :meth:`failure`).

        Raises:
            IndexError: the read asks for a token the runs do not have (the caller decides those rows per input).

        """
        bad = np.zeros(len(run.steps), dtype=bool)
        if self.steps is not None:
            try:
                want = np.asarray(self.steps(batch.stand_in))
            except (TypeError, AttributeError):  # a count written for one input only: read on every row's input
                want = np.array([self.steps(batch.item(r)) for r in range(len(run.steps))])
            bad |= run.steps != np.broadcast_to(want, run.steps.shape)
        if self.read is not None:
            assert self.batch_read is not None and self.batch_answer is not None
            bad |= ~rows_equal(self.batch_read(run, batch), self.batch_answer(batch))
        return bad

    def failure(self, inp: Any, outputs: Sequence[Sequence[Any]], y0: Sequence[Any],
                layout: ConcreteLayout) -> str | None:
        """Why the run (``outputs`` = ``y_1 … y_T``) does not meet the conclusion; ``None`` if it does."""
        if self.steps is not None:
            want = self.steps(inp)
            if len(outputs) != want:
                return f"{self.text}: the run takes {len(outputs)} steps, not {want}"
        if self.read is None or self.answer is None:
            return None
        try:
            got = self.read(RunView(outputs, y0, layout), inp)
        except IndexError as e:
            return f"{self.text}: {e}"
        want = self.answer(inp)
        if got != want:
            return f"{self.text}: the decoder gives {_text(got)}, but {_text(want)} by the definition"
        return None


def _text(v: Any) -> str:
    return str(list(v)) if isinstance(v, tuple) else str(v)


@dataclass
class StepwiseSpec:
    """What a claim compares a construction with (its encoding, stop and λ rules are the construction's).

    Attributes:
        reference: the reference algorithm; returns the states ``s_0 … s_T``.
        state_text: short human description of a reference state (for counterexamples and traces).
        conclusions: the theorem's step count and answers, checked after every step agreed.
        compare: the blocks of the construction's encoding this claim compares (``None``: all of them); the
            stop rule and the conclusions are checked either way.
        reference_batch: the reference restated over a batch (:class:`~symcot.inputs.batch.InputBatch` →
            :class:`~symcot.algorithms.batched.fields.Fields`), for the batched checker; ``None``: per input.
            The tests compare it with ``reference`` on every input up to 9 vertices.

    """

    reference: Callable[[Any], Sequence[Any]]
    state_text: Callable[[Any], str] = str
    conclusions: Sequence[Conclusion] = field(default_factory=tuple)
    compare: frozenset[str] | None = None

    def __post_init__(self) -> None:
        if self.compare is not None:
            self.compare = frozenset(self.compare)

    def expected(self, cons: Construction, inp: Any, state: Any, t: int) -> dict[str, list[Any]]:
        """``enc(s_t)`` restricted to the compared blocks (:meth:`Construction.expected`)."""
        want = cons.expected(inp, state, t)
        return want if self.compare is None else {b: v for b, v in want.items() if b in self.compare}

    def expected_table(self, cons: Construction, inp: Any, states: Sequence[Any]) -> dict[str, Any] | None:
        """Every step at once (:meth:`Construction.expected_table`), restricted to the compared blocks."""
        table = cons.expected_table(inp, states)
        if table is None or self.compare is None:
            return table
        return {b: v for b, v in table.items() if b in self.compare}

    def ignores(self, cons: Construction, block: str) -> bool:
        """Whether ``block`` is one of the encoding's blocks this claim leaves out of the comparison."""
        return self.compare is not None and block in cons.encoding.blocks and block not in self.compare

    def check_selection(self, cons: Construction) -> None:
        """Raise ``ValueError`` when ``compare`` names a block the construction's encoding does not have."""
        if self.compare is not None and not self.compare <= set(cons.encoding.blocks):
            extra = sorted(self.compare - set(cons.encoding.blocks))
            raise ValueError(f"the claim compares {', '.join(extra)}, which {cons.label}'s encoding does not have")
    reference_batch: Callable[[Any], Any] | None = None

    @property
    def batched(self) -> bool:
        """Whether a batch can be checked without per-input Python: a batch reference and batch conclusions."""
        return self.reference_batch is not None and all(c.batched for c in self.conclusions)

    def final_failure(self, inp: Any, outputs: Sequence[Sequence[Any]], y0: Sequence[Any],
                      layout: ConcreteLayout) -> str | None:
        """The first conclusion the run does not meet, as a message (``None``: all hold)."""
        for c in self.conclusions:
            msg = c.failure(inp, outputs, y0, layout)
            if msg:
                return msg
        return None
