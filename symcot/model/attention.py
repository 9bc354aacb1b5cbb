"""Attention selection, written once: masks, the maximal set, tie rules, average hard and softmax weights.

:func:`select` turns one query's scores over the cached positions into a :class:`Selection`: the
positions it attends to with their weights. The rules (docs/model.md):

* **mask** (:func:`allowed`): the positions ``j`` a query at ``i`` may see (:data:`~symcot.model.description.MASKS`);
  when none is left (a strict mask at the edge) the head attends to nothing and outputs the zero vector;
* **maximal set** ``M = {j allowed : s_j ≥ s_l for every allowed l}``;
* **unique hard**: weight 1 on ``min M`` (leftmost) or ``max M`` (rightmost);
* **average hard**: weight ``1/|M|`` on every ``j ∈ M`` (exact rationals);
* **softmax**: weight ``exp((s_j - s*)/τ) / Σ_l exp((s_l - s*)/τ)`` over the allowed ``l`` (``s*`` the largest
  score when the scores are exact, else 0); the weights are exactly ``1/|allowed|`` when every score is the
  same exact number, certified balls otherwise.

The rules are written once over a number type (:mod:`symcot.model.numbers`): in the exact engine's
(the default), ``M`` is decided with :func:`symcot.model.interval.compare`: exactly for exact scores, and for
balls only when every position is certainly below one maximal position (else
:class:`~symcot.errors.Undecided`); a float format decides it as its rounded scores compare and rounds every
weight.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcot.model.description import HeadRule
from symcot.model.interval import Ball
from symcot.model.numbers import EXACT, Numbers
from symcot.model.records import HeadChoice


def allowed(mask: str, i: int, length: int) -> range:
    """The positions ``0 ≤ j < length`` that a query at position ``i`` may attend to under ``mask``."""
    if mask == "none":
        return range(length)
    if mask == "future":
        return range(min(i + 1, length))
    if mask == "strict-future":
        return range(min(i, length))
    if mask == "past":
        return range(i, length)
    if mask == "strict-past":
        return range(i + 1, length)
    raise ValueError(f"unknown mask {mask!r}")


@dataclass
class Selection(HeadChoice):
    """A :class:`~symcot.model.semantics.HeadChoice` with the attention kind and every weight.

    ``weights``: ``(position, weight)`` of every position with a weight (one for unique hard attention,
    ``M`` for average hard, every allowed position for softmax; none when the mask leaves nothing).
    ``index`` is the chosen position (unique hard), ``min M`` (average hard) or ``-1`` (softmax, or nothing
    allowed); ``tied`` is ``M`` (hard kinds).
    """

    kind: str = "unique"
    weights: list[tuple[int, Any]] = field(default_factory=list)


#: ``M`` in exact numbers (see :meth:`symcot.model.numbers.ExactNumbers.maximal`).
maximal = EXACT.maximal


def tie_pick(tie: str | None, top: Sequence[int]) -> int:
    """The position unique hard attention chooses in ``M`` (ascending): ``min M`` (leftmost) or ``max M``."""
    return top[0] if tie == "leftmost" else top[-1]


def _runner_up(scores: Sequence[Any], positions: Sequence[int], j0: int) -> Any:
    others = [scores[j] for j in positions if j != j0]
    if not others or any(isinstance(s, Ball) for s in others) or isinstance(scores[j0], Ball):
        return None
    return max(others)


def select(rule: HeadRule, head: str, scores: Sequence[Any], i: int, tau: Fraction | None = None,
           num: Numbers = EXACT) -> Selection:
    """The positions and weights head ``head`` (rule ``rule``) attends to from position ``i``.

    ``scores[j]`` is the score of cached position ``j``; ``tau`` the softmax temperature at this size; ``num``
    the number type the weights are computed in and ``M`` is decided in (:mod:`symcot.model.numbers`).
    """
    positions = allowed(rule.mask, i, len(scores))
    kind = rule.attention.kind
    if not positions:
        return Selection(head, -1, None, None, None, False, [], kind, [])
    if kind == "softmax":
        return _softmax(head, scores, positions, tau if tau is not None else Fraction(1), num)
    top = num.maximal(scores, positions)
    if kind == "unique":
        j0 = tie_pick(rule.attention.tie, top)
        weights: list[tuple[int, Any]] = [(j0, 1)]
    else:
        j0 = top[0]
        w = 1 if len(top) == 1 else num.const(Fraction(1, len(top)))
        weights = [(j, w) for j in top]
    runner = _runner_up(scores, positions, j0)
    margin = None if runner is None else scores[j0] - runner
    return Selection(head, j0, scores[j0], runner, margin, len(top) > 1, top, kind, weights)


def _softmax(head: str, scores: Sequence[Any], positions: range, tau: Fraction, num: Numbers) -> Selection:
    exact = not any(isinstance(scores[j], Ball) for j in positions)
    ref = max(scores[j] for j in positions) if exact else 0
    if exact and all(scores[j] == ref for j in positions):
        w = 1 if len(positions) == 1 else num.const(Fraction(1, len(positions)))
        return Selection(head, -1, None, None, None, False, [], "softmax", [(j, w) for j in positions])
    e = {j: num.exp(num.div(scores[j] - ref, num.const(tau))) for j in positions}
    total: Any = 0
    for j in positions:
        total = total + e[j]
    return Selection(head, -1, None, None, None, False, [], "softmax",
                     [(j, num.div(e[j], total)) for j in positions])
