"""A claim's reference algorithm: one :class:`~symcot.algorithms.transition.Transition` read per input and per batch.

A :class:`Reference` says how an input becomes the transition's symbols (``inputs``), how a run becomes the
states a claim compares with (``states``: the paper's instantaneous descriptions), and, for the batched
checker, how a batch becomes the symbols as arrays (``batch_inputs``) and a batch run the
:class:`~symcot.algorithms.batched.fields.Fields` an encoding reads (``fields``). Both readings run the same
transition, so the per-input and the batched reference are one algorithm; the all-n prover's definitions are
:func:`~symcot.algorithms.transition.definitions` of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from symcot.algorithms.batched.fields import Fields
from symcot.algorithms.batched.run import BatchRun, run_batch
from symcot.algorithms.transition import Run, Transition, run


@dataclass(frozen=True)
class Reference:
    """A transition and its readings for one input and for a batch (module docstring).

    Attributes:
        transition: the algorithm.
        inputs: ``inputs(inp)``: the input's symbols (attributes ``n``, ``adj(i, j)``, …); may validate ``inp``.
        states: ``states(run, inp)``: the run as the states the claim compares with.
        batch_inputs: ``batch_inputs(batch) -> (symbols, rows, bound)``: the batch's symbols as arrays, its
            number of rows and the most steps a row may take; ``None``: no batched reading.
        fields: ``fields(batch_run, symbols)``: the batch run as the states' fields.
        memo: the key of the batch's fields in a batch's memo (default: from the transition's name).
        keep: the state variables whose every step ``fields`` reads (default: all; the others' last value only).

    """

    transition: Transition
    inputs: Callable[[Any], Any]
    states: Callable[[Run, Any], Sequence[Any]]
    batch_inputs: Callable[[Any], tuple[Any, int, int]] | None = None
    fields: Callable[[BatchRun, Any], Fields] | None = None
    memo: str = ""
    keep: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        return f"Reference({self.transition.name!r}{', batched' if self.batched else ''})"

    def __post_init__(self) -> None:
        if (self.batch_inputs is None) != (self.fields is None):
            raise ValueError(f"reference {self.transition.name}: a batched reading needs batch_inputs and fields")

    def __call__(self, inp: Any) -> Sequence[Any]:
        """The reference states of one input."""
        return self.states(run(self.transition, self.inputs(inp)), inp)

    def run(self, inp: Any) -> Run:
        """The transition's run on one input."""
        return run(self.transition, self.inputs(inp))

    @property
    def batched(self) -> bool:
        """Whether there is a batched reading."""
        return self.batch_inputs is not None

    def batch(self, batch: Any) -> Fields:
        """The reference states of every row of ``batch`` as fields.

        A batch with a ``memo`` (:meth:`symcot.inputs.batch.InputBatch.memo`) keeps them under :attr:`memo_key`,
        so that an answer defined by the same run reads it rather than running it again.
        """
        if self.batch_inputs is None or self.fields is None:
            raise ValueError(f"reference {self.transition.name} has no batched reading")
        batch_inputs, fields = self.batch_inputs, self.fields

        def compute() -> Fields:
            g, rows, bound = batch_inputs(batch)
            return fields(run_batch(self.transition, g, rows, bound, self.keep), g)

        memo = getattr(batch, "memo", None)
        return memo(self.memo_key, compute) if callable(memo) else compute()

    @property
    def memo_key(self) -> str:
        """The key of the batch's fields in a batch's memo."""
        return self.memo or f"reference:{self.transition.name}"
