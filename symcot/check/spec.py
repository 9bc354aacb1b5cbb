"""A claim's comparison, stated once and read by the exact, batched and symbolic checkers.

What ``y_t`` must carry, the stop rule and λ belong to the construction (:mod:`symcot.constructions.base`).
What a *claim* adds is stated here: the reference algorithm it is compared with, how a reference state
reads in a counterexample, which of the encoding's blocks it compares (a claim about part of a
construction, e.g. only its width blocks, leaves the others out), and the theorem's
conclusions beyond the step-by-step encoding -- its step count ("in exactly 2n − 1 CoT steps") and the
answer read off a token ("π_M(y_{2n−1}) = str(G_T)"). A conclusion is written once, for one input; the batched
checker reads the same functions on a batch's runs (:class:`BatchRunView`) and its stand-in for one input.

The exact (:mod:`symcot.check.stepwise`), batched (:mod:`symcot.check.batched_check`) and symbolic
(:mod:`symcot.prove.symbolic_target`) checkers and ``symcot replay`` take ``enc(s_t)`` from
:meth:`StepwiseSpec.expected` / :meth:`StepwiseSpec.expected_table`, so a selection holds in all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from symcot.algorithms.reference import Reference
from symcot.constructions.base import Construction
from symcot.errors import SymcotError
from symcot.ir.layout import ConcreteLayout


class Run(Protocol):
    """What a conclusion's ``read`` takes: one run (:class:`RunView`) or a batch's runs (:class:`BatchRunView`)."""

    def block(self, name: str, k: int | None = None) -> list[Any]:
        """``π_name(y_k)`` as a list of components; ``k`` defaults to the last token."""
        ...


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
    """Finished runs of a batch, read by a conclusion's ``read`` as it reads one run (:class:`RunView`).

    The conclusion's ``read(run, inp)`` is called once with this view and the batch's stand-in
    (:attr:`~symcot.inputs.batch.InputBatch.stand_in`): ``block(name, k)`` gives the block as a list of
    components, as :meth:`RunView.block` does, each component a ``(B,)`` column (its value in every row), so
    the read gives a *leaf* (a row-indexed array) wherever one run's read gives a value.

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

    def block(self, name: str, k: int | None = None) -> list[np.ndarray]:
        """``π_name(y_k)`` of every row: one ``(B,)`` column per component; ``k`` defaults to each row's last token.

        Raises:
            KeyError: ``y_k`` is neither ``y_0`` nor the last token and ``name`` is not traced.
            IndexError: the runs have no token ``y_k``.

        """
        return list(self.rows(name, k).T)

    def rows(self, name: str, k: int | None = None) -> np.ndarray:
        """``π_name(y_k)`` of every row as one ``(B, size)`` array (:meth:`block`'s columns side by side)."""
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


def as_rows(value: Any, count: int) -> Any:
    """A value read on a batch's stand-in as arrays ``(count, …)`` (a tuple of them for a tuple): :func:`rows_equal`'s.

    Leaves are ``(count,)`` arrays (one value per row) or values shared by every row; a list of them becomes
    their columns side by side (nested lists: further axes), a tuple stays a tuple, componentwise.

    Raises:
        ValueError: a leaf has another number of rows, or the items of a list have different shapes.

    """
    if isinstance(value, tuple):
        return tuple(as_rows(v, count) for v in value)
    if isinstance(value, list):
        if not value:
            return np.zeros((count, 0), dtype=np.int64)
        return np.stack([as_rows(v, count) for v in value], axis=1)
    a = np.asarray(value)
    if a.ndim == 0:
        return np.broadcast_to(a, (count,))
    if a.shape[0] != count:
        raise ValueError(f"a value of {a.shape[0]} rows read on a batch of {count}")
    return a


def stack_rows(values: Sequence[Any]) -> Any:
    """One value per row (as one input's code gives it) as arrays ``(B, …)`` (a tuple of them for tuples).

    Raises:
        ValueError: the rows' values differ in shape (or in the length of their tuples).

    """
    if values and isinstance(values[0], tuple):
        width = len(values[0])
        if any(not isinstance(v, tuple) or len(v) != width for v in values):
            raise ValueError("the rows' values are tuples of different lengths")
        return tuple(stack_rows([v[i] for v in values]) for i in range(width))
    try:
        out = np.asarray(values)
    except ValueError as e:  # ragged
        raise ValueError("the rows' values differ in shape") from e
    if out.dtype == object:
        raise ValueError("the rows' values are not plain numbers or strings of one shape")
    return out


def take_rows(value: Any, rows: np.ndarray) -> Any:
    """The rows ``rows`` of arrays ``(B, …)`` (componentwise for a tuple)."""
    if isinstance(value, tuple):
        return tuple(take_rows(v, rows) for v in value)
    return value[rows]


class NotInBatch(SymcotError):
    """A conclusion that cannot be decided on a batch's arrays: the caller decides its rows per input."""


class StandInDisagreement(SymcotError):
    """An answer read on a batch's stand-in differs, on some row, from the answer on that row's input."""


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
        trace: the blocks ``read`` reads before the last token (kept at every step by the batched checker's
            kernel).

    Each is stated once, for one input, and read by both checkers. The batched checker
    (:meth:`batch_failures`) calls ``read`` once per batch, on a :class:`BatchRunView` and the batch's stand-in
    (:attr:`~symcot.inputs.batch.InputBatch.stand_in`); ``steps`` and ``answer`` are read on the stand-in where
    they give one value per row (or one for all), else on every row's input. A read that cannot be made on the
    stand-in leaves the batch's rows to be decided per input. An answer read on the stand-in must be every row's
    answer (a few rows of every batch are compared with their own): code that compares or branches on the input
    as a whole belongs to a function the stand-in cannot enter (one that validates its input), so that such an
    answer is read row by row.

    """

    text: str
    steps: Callable[[Any], int] | None = None
    read: Callable[[Run, Any], Any] | None = None
    answer: Callable[[Any], Any] | None = None
    trace: tuple[str, ...] = ()

    def batch_failures(self, run: BatchRunView, batch: Any, need: np.ndarray | None = None,
                       spot: Sequence[int] = ()) -> np.ndarray:
        """Row by row, whether the batch's runs miss the conclusion (:meth:`failure` on every row at once).

        Only the rows of ``need`` (a boolean mask; default: every row) are decided; the others are ``False``.
        ``steps`` and ``answer`` are read on the batch's stand-in where they can be, else on the input of every
        row of ``need``; an answer read on the stand-in is compared with the answer on the input of every row of
        ``spot``.

        Raises:
            NotInBatch: the read cannot be made on the stand-in (a token the runs do not have, a block not traced,
                an input the stand-in cannot stand in for), or read and answer differ in shape: the caller
                decides the rows per input.
            StandInDisagreement: on a row of ``spot``, the answer on the stand-in is not the row's own.

        """
        count = len(run.steps)
        need = np.ones(count, dtype=bool) if need is None else need
        rows = np.flatnonzero(need)
        bad = np.zeros(count, dtype=bool)
        if self.steps is not None:
            try:
                want = np.broadcast_to(np.asarray(self.steps(batch.stand_in)), run.steps.shape)
            except Exception:  # noqa: BLE001 - a count written for one input only: read on every row's input
                want = run.steps.copy()
                want[rows] = [self.steps(batch.item(r)) for r in rows.tolist()]
            bad |= run.steps != want
        if self.read is None or self.answer is None or not len(rows):
            return bad & need
        try:
            got = as_rows(self.read(run, batch.stand_in), count)
        except Exception as e:  # noqa: BLE001 - per input, the read does (or raises) what it does on one run
            raise NotInBatch(f"{self.text}: not read on the batch ({e!r})") from e
        answers = self._stand_in_answers(batch, count, spot)
        try:
            if answers is not None:
                bad |= ~rows_equal(got, answers)
            else:
                wanted = stack_rows([self.answer(batch.item(r)) for r in rows.tolist()])
                bad[rows] |= ~rows_equal(take_rows(got, rows), wanted)
        except (TypeError, ValueError) as e:
            raise NotInBatch(f"{self.text}: the read and the answers differ in shape ({e})") from e
        return bad & need

    def _stand_in_answers(self, batch: Any, count: int, spot: Sequence[int]) -> Any | None:
        """``answer`` on the stand-in as arrays ``(B, …)``, spot-checked on ``spot`` (``None``: not readable there)."""
        assert self.answer is not None
        try:
            answers = as_rows(self.answer(batch.stand_in), count)
        except Exception:  # noqa: BLE001 - an answer written for one input only: row by row
            return None
        for r in spot:
            try:
                same = rows_equal(take_rows(answers, np.array([r])), stack_rows([self.answer(batch.item(r))]))[0]
            except (TypeError, ValueError):
                same = False
            if not same:
                raise StandInDisagreement(f"{self.text}: the answer on the batch's stand-in differs from the answer "
                                          f"on {batch.item(r)!r}")
        return answers

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
        reference: the reference algorithm; returns the states ``s_0 … s_T``. A
            :class:`~symcot.algorithms.reference.Reference` (one transition, read per input and per batch) also gives
            the batched reference.
        state_text: short human description of a reference state (for counterexamples and traces).
        conclusions: the theorem's step count and answers, checked after every step agreed.
        compare: the blocks of the construction's encoding this claim compares (``None``: all of them); the
            stop rule and the conclusions are checked either way.
        reference_batch: the reference over a batch (:class:`~symcot.inputs.batch.InputBatch` →
            :class:`~symcot.algorithms.batched.fields.Fields`), for the batched checker: the ``reference``'s batched
            reading when it is a :class:`~symcot.algorithms.reference.Reference` that has one (it may not be given
            besides: that would be a second statement of the algorithm); ``None``: per input.

    """

    reference: Callable[[Any], Sequence[Any]]
    state_text: Callable[[Any], str] = str
    conclusions: Sequence[Conclusion] = field(default_factory=tuple)
    compare: frozenset[str] | None = None
    reference_batch: Callable[[Any], Any] | None = None

    def __post_init__(self) -> None:
        if self.compare is not None:
            self.compare = frozenset(self.compare)
        if isinstance(self.reference, Reference) and self.reference.batched:
            if self.reference_batch is not None and self.reference_batch != self.reference.batch:
                raise ValueError(f"the reference {self.reference.transition.name} has a batched reading: a "
                                 "reference_batch beside it would state the algorithm twice")
            self.reference_batch = self.reference.batch

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

    @property
    def batched(self) -> bool:
        """Whether a batch can be checked without per-input Python: a batch reference."""
        return self.reference_batch is not None

    def final_failure(self, inp: Any, outputs: Sequence[Sequence[Any]], y0: Sequence[Any],
                      layout: ConcreteLayout) -> str | None:
        """The first conclusion the run does not meet, as a message (``None``: all hold)."""
        for c in self.conclusions:
            msg = c.failure(inp, outputs, y0, layout)
            if msg:
                return msg
        return None
