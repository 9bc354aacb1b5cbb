r"""Softmax against hard attention: the inverse temperature at which softmax takes every hard decision.

A construction stated for unique- or average-hard attention is run under softmax at inverse temperature
``β`` (``τ = 1/β``, the score scale). It *agrees* with the hard rule on an input when every decision it takes
(a readout's bit, the nearest value to a readout, a comparison with the reference) is the hard rule's; each
decision is taken by certified arb balls (:mod:`symcot.model.interval`), and one the balls do not settle
raises :class:`~symcot.errors.Undecided` (the row is ``unknown``, never a guess).

**The rule.** Let every query's maximal score exceed every other allowed score by at least ``g > 0``, the
values a head reads differ by at most ``Δ(n)`` (``‖·‖_∞``) and each decision survive a move of its input
by less than ``m`` (its margin). Softmax puts weight ``S/(1 + S)`` off the maximal position, with
``S = Σ_{j ≠ j0} e^{-β(s_{j0} - s_j)} ≤ (n - 1) e^{-βg}``, so the output moves from the hard one by at most
``Δ·S/(1 + S)``, which is below ``m`` when ``S < m/(Δ - m)``. That holds for every input of size ``n`` when

    β > β(n) = (ln(n - 1) + ln((Δ(n) - m)/m)) / g                (:func:`derived_rule`)

(any ``β > 0`` when ``Δ ≤ m`` or ``n = 1``). A :class:`Rule` is such a formula, evaluated as a certified
ball; :meth:`Rule.at` gives the rational ``β`` a check runs with: strictly above the ball (the rule's
real value), on a grid of ``1/GRID``. A :class:`TemperatureCheck` runs a claim's per-input decisions at
``β = rule.at(n)`` on every input of each size: a rule that is too small is refuted at the first size
where some input disagrees (the counterexample names it); a fixed ``β`` is the rule :func:`constant`.

:func:`threshold` brackets the measured smallest ``β`` at one size by bisection (every input at each
probe): the lower end certainly fails on some input, the upper end certainly agrees on all. :func:`study`
gives, per size, the rule, the bracket and every rule's outcome (``symcot temperature CLAIM``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcot.check.context import RunContext, Schedule
from symcot.check.exhaustive import Family, run_property_check, size_schedule
from symcot.check.verdict import Verdict
from symcot.errors import Undecided
from symcot.model.interval import Ball, compare, is_ball, log, show

#: ``Rule.at`` rounds a rule up to a multiple of ``1/GRID``.
GRID = 1000

#: a rule's formula: ``n -> β(n)``, exact or a ball
Formula = Callable[[int], Any]
#: a claim's decisions at ``β`` on one input: ``None`` when all agree with the hard rule, else the failure
Decide = Callable[[Fraction, Any], "dict[str, Any] | None"]


@dataclass(frozen=True)
class Rule:
    """An inverse temperature as a function of the size ``n``; ``text`` is its formula in words."""

    text: str
    formula: Formula
    #: a bound ``β > β(n)`` (run strictly above it); ``False``: a value run as it is when exact (:func:`constant`)
    strict: bool = True

    def beta(self, n: int) -> Any:
        """``β(n)``: exact, or a certified ball."""
        return self.formula(n)

    def at(self, n: int) -> Fraction:
        """The rational ``β`` a check runs with at size ``n``: the least multiple of ``1/GRID`` above ``β(n)``.

        Strictly above the ball's upper end (so above the real ``β(n)``), and positive; a rule that is not
        ``strict`` runs at its exact positive value itself.
        """
        b = self.beta(n)
        if not self.strict and not is_ball(b) and b > 0:
            return Fraction(b)
        upper = b.upper if is_ball(b) else Fraction(b)
        return Fraction(max(math.floor(upper * GRID) + 1, 1), GRID)

    def scaled(self, factor: Fraction, text: str) -> Rule:
        """``factor · β(n)`` (a rule made smaller or larger on purpose)."""
        return Rule(text, lambda n: self.formula(n) * factor)


def constant(beta: Fraction) -> Rule:
    """A fixed inverse temperature (``β = 1`` is softmax as written, ``τ = 1``)."""
    b = Fraction(beta)
    if b <= 0:
        raise ValueError(f"an inverse temperature must be positive, got {b}")
    return Rule(f"β = {b}", lambda n: b, strict=False)


PerSize = Fraction | Callable[[int], Fraction]


def _at(x: PerSize, n: int) -> Fraction:
    return Fraction(x(n) if callable(x) else x)


def derived_rule(gap: PerSize, spread: PerSize, margin: PerSize, text: str = "") -> Rule:
    """``β(n) = (ln(n - 1) + ln((Δ(n) - m(n))/m(n))) / g(n)`` (module docstring); ``0`` where any ``β > 0`` does.

    ``gap``, ``spread`` and ``margin`` are rationals or functions of ``n``; a gap or margin that is not
    positive at some ``n`` raises ``ValueError`` there.
    """
    if not callable(gap) and not callable(margin) and (Fraction(gap) <= 0 or Fraction(margin) <= 0):
        raise ValueError(f"the score gap and the decision margin must be positive, got g = {gap}, m = {margin}")

    def formula(n: int) -> Any:
        d = _at(spread, n)
        if n <= 1:
            return 0
        g, m = _at(gap, n), _at(margin, n)
        if g <= 0 or m <= 0:
            raise ValueError(f"the score gap and the decision margin must be positive, got g = {g}, m = {m} at n = {n}")
        if d <= m:
            return 0
        return (log(n - 1) + log((d - m) / m)) / g

    return Rule(text or "(ln(n - 1) + ln((Δ(n) - m)/m)) / g", formula)


def within(got: Any, want: Any, margin: Fraction, what: str) -> bool:
    """Whether ``|got - want| < margin``, decided by the balls (raises :class:`~symcot.errors.Undecided`)."""
    d = got - want
    return compare(d, margin, what) < 0 and compare(d, -margin, what) > 0


@dataclass
class TemperatureCheck:
    """A claim's decisions under softmax at ``β = rule.at(n)``, on every input of its families.

    ``decide(β, input)`` runs the construction at that ``β`` and returns ``None`` when every decision is
    the hard rule's, else the failure (the counterexample); an undecided decision raises ``Undecided``.
    """

    variant: str
    rule: Rule
    decide: Decide
    families: list[Family]
    method: str = "softmax at β = rule(n) against the hard rule, every input (certified intervals)"
    #: ``"refuted"``: a rule expected to be too small.
    expect: str | None = None
    notes: list[str] = field(default_factory=list)

    def schedule(self, ctx: RunContext) -> Schedule:
        """Every family up to ``ctx.max_size``, by the exact engine."""
        return Schedule(size_schedule(self.families, ctx.max_size), "exact")

    def run(self, ctx: RunContext) -> Verdict:
        """Refuted at the first input whose decisions differ, else verified (unknown if one was undecided)."""
        start = time.perf_counter()
        undecided: list[tuple[Any, Undecided]] = []
        used: dict[int, Fraction] = {}

        def per_input(s: Any) -> dict[str, Any] | None:
            n = len(s)
            beta = used.setdefault(n, self.rule.at(n))
            try:
                failure = self.decide(beta, s)
            except Undecided as e:
                undecided.append((s, e))
                return None
            return None if failure is None else {"beta": str(beta), **failure}

        row = run_property_check(ctx.claim_id, self.variant, self.method, self.families, ctx.max_size, per_input,
                                 ctx.progress, 1)
        row_notes = list(row.notes)
        row.details = {**(row.details or {}), "rule": self.rule.text,
                       "beta": {str(n): {"rule": show(self.rule.beta(n)), "run": str(b)} for n, b in used.items()}}
        row.notes = [f"rule: β(n) = {self.rule.text}; run at " + ", ".join(f"n = {n}: β = {b}"
                                                                             for n, b in sorted(used.items()))]
        row.notes += list(self.notes) + row_notes
        if undecided and row.verdict == "verified":
            s, e = undecided[0]
            row.verdict = "unknown"
            row.details["undecided"] = {"input": str(s), **e.as_dict()}
            row.scope = f"undecided at {s}"
        row.seconds = time.perf_counter() - start
        return row


@dataclass(frozen=True)
class Bracket:
    """The measured smallest ``β`` at size ``n``: ``fails`` fails on some input, ``agrees`` agrees on all.

    ``fails`` is ``0`` when every ``β > 0`` probed agreed; ``undecided`` names a probe the balls did not settle
    (the bisection stops there).
    """

    n: int
    fails: Fraction
    agrees: Fraction
    undecided: str | None = None


def agrees_on_all(decide: Decide, inputs: Iterable[Any], beta: Fraction) -> bool:
    """Whether every input agrees at ``beta`` (raises ``Undecided`` at the first undecided one)."""
    return all(decide(beta, s) is None for s in inputs)


def threshold(decide: Decide, inputs: Callable[[], Iterable[Any]], n: int, high: Fraction,
              tol: Fraction = Fraction(1, 100)) -> Bracket:
    """Bisect ``(0, high]`` down to width ``tol`` for the smallest ``β`` at which every input agrees.

    ``high`` must agree (else ``ValueError``). Assumes agreement is monotone in ``β`` (more weight on the
    maximum never hurts), as it is when the rule's derivation applies.
    """
    lo, hi = Fraction(0), Fraction(high)
    try:
        if not agrees_on_all(decide, inputs(), hi):
            raise ValueError(f"β = {hi} does not agree at n = {n}: raise the upper end of the bisection")
        while hi - lo > tol:
            mid = (lo + hi) / 2
            if agrees_on_all(decide, inputs(), mid):
                hi = mid
            else:
                lo = mid
    except Undecided as e:
        return Bracket(n, lo, hi, str(e))
    return Bracket(n, lo, hi)


def ball_text(x: Any) -> str:
    """A rule's value for a table: a ball's bounds to 4 decimals, an exact number as itself."""
    if isinstance(x, Ball):
        return f"[{float(x.lower):.4f}, {float(x.upper):.4f}]"
    return str(x)


@dataclass(frozen=True)
class SizeRow:
    """One size of a temperature study: the rule's ``β(n)``, the measured bracket, each rule's outcome there."""

    n: int
    rule: str
    run: Fraction
    measured: Bracket | None
    outcomes: dict[str, str]

    @property
    def sufficient(self) -> bool | None:
        """Whether the rule's ``β`` lies above every ``β`` measured to fail (``None`` when not measured)."""
        return None if self.measured is None else self.run > self.measured.fails


def outcome(decide: Decide, inputs: Iterable[Any], beta: Fraction) -> str:
    """``agrees`` (every input), ``fails`` (some input) or ``unknown`` (an undecided input first)."""
    try:
        return "agrees" if agrees_on_all(decide, inputs, beta) else "fails"
    except Undecided:
        return "unknown"


def study(checks: list[TemperatureCheck], sizes: Iterable[int], tol: Fraction = Fraction(1, 100),
          measure: bool = True) -> list[SizeRow]:
    """Per size: the first check's rule, the measured bracket (by its decisions) and every check's outcome.

    The bisection's upper end is the first check's ``β`` at that size (or 1 if more); a size at which that
    ``β`` does not agree is not bracketed.
    """
    main = checks[0]

    def inputs(n: int) -> Callable[[], Iterable[Any]]:
        return lambda: (s for fam in main.families for s in fam.inputs(n))

    rows = []
    for n in sizes:
        run = main.rule.at(n)
        outcomes = {c.variant: outcome(c.decide, inputs(n)(), c.rule.at(n)) for c in checks}
        bracket = None
        if measure and outcomes[main.variant] == "agrees":
            bracket = threshold(main.decide, inputs(n), n, max(run, Fraction(1)), tol)
        rows.append(SizeRow(n, ball_text(main.rule.beta(n)), run, bracket, outcomes))
    return rows
