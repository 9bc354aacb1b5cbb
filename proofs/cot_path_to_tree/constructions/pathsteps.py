r"""Which step of the lattice path an input token ``x_τ`` carries: the two readings of ``q_τ``.

thm:cotwidofpath and thm:cotpathstrahler put ``q_τ`` into ``x_τ`` (``τ = 0 … n-1``) and define it as
``q_τ = s_τ - s_{τ-1}`` (the step *into* the point ``τ``; Section 2.2 counts ``s_i = Σ_{j ≤ i} q_j`` the same
way). thm:cotpathtotree instead writes ``q_τ = s_{τ+1} - s_τ``, the letter ``w_τ``. Taken literally, the two
path proofs leave ``x_0``'s ``q_0 = s_0 - s_{-1}`` undefined and put the last step ``q_n = w_{n-1}`` on no token.

:class:`StepReading` states one reading, once, for both constructions' prompts:

* ``letter`` -- ``x_τ`` carries the letter ``w_τ = s_{τ+1} - s_τ`` (thm:cotpathtotree's convention; the
  transcription's);
* ``literal`` -- ``x_τ`` carries ``q_τ = s_τ - s_{τ-1}`` as printed, so ``x_τ`` holds the letter ``w_{τ-1}``;
  ``x_0`` holds ``q_0 = s_0 - s_{-1}`` with ``s_{-1} := s_0 = 0`` (the path rests at the origin before it
  starts), i.e. ``0``: the one value that invents no step, outside the printed ``{-1, +1}`` range;
* ``literal`` with ``x0="last"`` -- a repair: ``x_0`` holds the last step ``q_n = s_n - s_{n-1} = -1`` instead,
  the token a final shifted query (``S e_{n-1} = 0``, every score tied) falls back to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from symcot.inputs.dyck import UP


def _step(letter: Any) -> Any:
    """``+1`` for ``U``, ``-1`` for ``D`` (elementwise on a batch stand-in's letters, an array)."""
    return 2 * (letter == UP) - 1


@dataclass(frozen=True)
class StepReading:
    """What ``x_τ``'s step block holds (see the module docstring)."""

    convention: Literal["letter", "literal"] = "letter"
    x0: Literal["0", "last"] = "0"

    def q(self, word: str, tau: int) -> int:
        """The value of ``x_τ``'s step block for ``word`` (for a batch's stand-in, every row's, as an array)."""
        if self.convention == "letter":
            return _step(word[tau])
        if tau == 0:
            return 0 if self.x0 == "0" else _step(word[-1])
        return _step(word[tau - 1])

    def carrier(self, t: int, length: int) -> str | None:
        """The input token that carries the step of CoT step ``t`` (``w_{t-1}``), or ``None`` when none does."""
        if self.convention == "letter":
            return f"x_{t - 1}"
        if t < length:
            return f"x_{t}"
        return "x_0" if self.x0 == "last" else None

    def describe(self) -> str:
        """One phrase for notes and readings."""
        if self.convention == "letter":
            return "x_τ carries the letter w_τ = s_{τ+1} - s_τ"
        tail = "the last step q_n = -1" if self.x0 == "last" else "q_0 = 0 (s_{-1} := s_0)"
        return f"x_τ carries q_τ = s_τ - s_{{τ-1}} as printed; x_0 carries {tail}"


#: The transcription's reading (thm:cotpathtotree's convention).
LETTER = StepReading("letter")
#: The printed definition, ``x_0`` holding 0.
LITERAL = StepReading("literal")
#: The printed definition with ``x_0`` holding the last step (a repair).
LITERAL_LAST = StepReading("literal", "last")

__all__ = ["LETTER", "LITERAL", "LITERAL_LAST", "StepReading"]


def letter_step(c: Any, k: Any) -> Any:
    """The letter ``w_k`` as a step, read through the interpretation ``c``: ``+1`` for ``U``, ``-1`` for ``D``."""
    return c.ite(c.up(k), 1, -1)


def x_q(steps: StepReading) -> Any:
    """``π_q(x_i)`` as a view ``(c, i)`` under the reading ``steps`` of ``q_τ`` (the prompt's ``q`` block)."""
    if steps.convention == "letter":
        return lambda c, i: letter_step(c, i)
    x0 = (lambda c: letter_step(c, c.T - 1)) if steps.x0 == "last" else (lambda c: 0)
    return lambda c, i: c.ite(i >= 1, letter_step(c, i - 1), x0(c))
