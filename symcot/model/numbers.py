"""The number type a rule is computed in: the one place where an engine's arithmetic meets a rule.

The rules of a model description -- the maximal set of a head, its weights (:func:`symcot.model.attention.select`)
and layer norm (:func:`symcot.model.described.layer_norm`) -- are written once, over a :class:`Numbers`:

* ``const(q)``: an exact rational constant of a rule (``1/|M|``, ``1/d``, ``ε``) as a number of this type;
* ``div(a, b)``, ``sqrt(x)``, ``exp(x)``: the operations that are not ring operations (``+``, ``-``, ``*``
  are the values' own);
* ``maximal(scores, positions)``: the decision ``M = {j : s_j ≥ s_l for every allowed l}``, ascending.

:data:`EXACT` is the exact engine's type: ``int``/``Fraction`` where a value is rational, certified balls
(:mod:`symcot.model.interval`) where it is not, and ``M`` decided only when the intervals settle it (else
:class:`~symcot.errors.Undecided`). A float format (:class:`symcot.replay.floating.numbers.FloatNumbers`)
rounds each of these operations to its storage type and decides ``M`` as its rounded scores compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from symcot.errors import Undecided
from symcot.model.interval import Ball, compare, exp, is_exact, show, sqrt


class Numbers(Protocol):
    """The arithmetic a rule runs in (module docstring)."""

    def const(self, q: Any) -> Any:
        """A rule's constant ``q`` (a rational, or a certified ball such as a sinusoid) in this type."""

    def div(self, a: Any, b: Any) -> Any:
        """``a / b``."""

    def sqrt(self, x: Any) -> Any:
        """``√x`` (``x ≥ 0``)."""

    def exp(self, x: Any) -> Any:
        """``e^x``."""

    def maximal(self, scores: Sequence[Any], positions: Sequence[int]) -> list[int]:
        """The positions among ``positions`` whose score is maximal, ascending."""


def _greater(a: Any, b: Any) -> bool:
    """Whether ``a > b`` certainly (never raises)."""
    try:
        return compare(a, b) > 0
    except Undecided:
        return False


class ExactNumbers:
    """``int``/``Fraction``, and certified balls where a value is not rational (module docstring)."""

    def const(self, q: Any) -> Any:
        return q

    @staticmethod
    def div(a: Any, b: Any) -> Any:
        return a / b

    sqrt = staticmethod(sqrt)
    exp = staticmethod(exp)

    @staticmethod
    def maximal(scores: Sequence[Any], positions: Sequence[int]) -> list[int]:
        """``M``, decided by :func:`~symcot.model.interval.compare` or raised as :class:`Undecided`."""
        if not any(isinstance(scores[j], Ball) for j in positions):
            best = max(scores[j] for j in positions)
            return [j for j in positions if scores[j] == best]
        below = {j for j in positions if any(m != j and _greater(scores[m], scores[j]) for m in positions)}
        cands = [j for j in positions if j not in below]
        if len(cands) == 1 or all(is_exact(scores[j]) for j in cands):  # exact and none below another: equal
            return cands
        raise Undecided("the maximal scores", "; ".join(f"s_{j} ∈ {show(scores[j])}" for j in cands))


#: The exact engine's numbers.
EXACT = ExactNumbers()
