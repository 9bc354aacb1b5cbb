"""What a lemma states to be proved by induction on a sum: its target row as a fold, and the invariant.

:class:`Fold` and :class:`Induction` are read by :class:`~symcot.lemmas.lemma.Lemma` (its ``induction`` field) and
by the prover of :mod:`symcot.lemmas.induction`, which says what the obligations are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

State = tuple[Any, ...]


@dataclass(frozen=True)
class Fold:
    """A target row computed by ``steps(x)`` steps from ``init``; ``inv`` is the induction's invariant.

    Attributes:
        steps: ``steps(x)``, the number of steps: an integer at concrete sizes, a Z3 term at symbolic ones
            (``lambda x: x.size("ms") - 1``); it must equal the size of the sum the row reads.
        init: ``init(x, i, K)``, the state before the first step (a tuple).
        step: ``step(state, k, x, i, K)``, the state after step ``k`` (``k = 0 … steps - 1``).
        out: ``out(state, x, i, K)``, the target value from the last state.
        inv: ``inv(S, F, state, k, x, i, K)``: what holds before step ``k`` with ``S`` the sum of the first ``k``
            summands and ``F(S)`` the row's value with the sum replaced by ``S`` (``k = steps``: the end).
        what: the target in words.

    """

    steps: Callable[[Any], Any]
    init: Callable[[Any, Any, Any], State]
    step: Callable[[State, Any, Any, Any, Any], State]
    out: Callable[[State, Any, Any, Any], Any]
    inv: Callable[..., Any]
    what: str

    def row(self, x: Any, i: Any, K: Any) -> Any:
        """The target row at concrete sizes: the state after every step, read by ``out``."""
        st = self.init(x, i, K)
        for k in range(int(self.steps(x))):
            st = self.step(st, k, x, i, K)
        return self.out(st, x, i, K)


@dataclass(frozen=True)
class Induction:
    """The output block whose row is proved by induction, and the :class:`Fold` its target is."""

    block: str
    fold: Fold
