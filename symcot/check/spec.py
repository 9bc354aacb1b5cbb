"""A claim's comparison, stated once and read by the exact, batched and symbolic checkers.

What ``y_t`` must carry, the stop rule and λ belong to the construction (:mod:`symcot.constructions.base`).
What a *claim* adds is stated here: the reference algorithm it is compared with, how a reference state
reads in a counterexample, and the theorem's conclusions beyond the step-by-step encoding -- its step
count ("in exactly 2n − 1 CoT steps") and the answer read off a token ("π_M(y_{2n−1}) = str(G_T)").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

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

    """

    text: str
    steps: Callable[[Any], int] | None = None
    read: Callable[[RunView, Any], Any] | None = None
    answer: Callable[[Any], Any] | None = None

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

    """

    reference: Callable[[Any], Sequence[Any]]
    state_text: Callable[[Any], str] = str
    conclusions: Sequence[Conclusion] = field(default_factory=tuple)

    def final_failure(self, inp: Any, outputs: Sequence[Sequence[Any]], y0: Sequence[Any],
                      layout: ConcreteLayout) -> str | None:
        """The first conclusion the run does not meet, as a message (``None``: all hold)."""
        for c in self.conclusions:
            msg = c.failure(inp, outputs, y0, layout)
            if msg:
                return msg
        return None
