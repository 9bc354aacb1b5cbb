r"""The least value at which a monotone check holds, and the one shape of every λ analysis's answer.

Every λ analysis asks "from which value on does this check hold" (a lemma proved at ``λ``, every input
replayed correctly at ``λ``, every obligation proved under ``λ ≥ a·n + b``), and every one answers with a value,
its scope, a certificate and the method. This module states both once:

* :func:`least` searches one domain for the least value where ``check`` holds, evaluating each value at most
  once (:class:`Probe`) and keeping every try in order. The domain says how:

  - :class:`Scan`: the candidates in order, the first one that holds and whose next ``confirm`` integers hold
    too; a candidate that holds while one of those fails is reported in ``not_monotone`` (the one search
    here that *detects* a non-monotone check);
  - :class:`Window`: binary search over the integers ``lo..hi``, after checking that ``hi`` holds; where the
    middle holds, the value just below it next (the least value is often the first that holds: one try then
    ends the search, and the values far below, often the slowest to decide, are not asked);
  - :class:`Bisection`: bisection over exact rationals in ``(lo, hi]`` until the bracket is at most
    ``tolerance`` wide (the answer is the bracket).

  :class:`Window` and :class:`Bisection` assume the check is monotone (false, then true): on a check that is
  not, they still return a value where it holds with a value just below where it fails (a *boundary*, both
  evaluated), but not necessarily the least such value. :class:`Scan` tries every candidate below its answer.

* :func:`least_rule` searches rules ``λ ≥ a·n + b``: for slopes ``a`` in order, the least ``b`` in a window
  (:class:`Window`), the first slope with one giving the rule.

* :class:`LambdaAnswer` is what each analysis returns or converts to: the value (or rule), its scope (one
  size, all n, all inputs of a lemma's domain), the certificate (what proves it at the value, what refutes
  it below) and the method.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Literal, TypeVar

V = TypeVar("V", bound=Hashable)

#: Where an answer holds: at one size, for every size, or on every input of a lemma's domain.
Scope = Literal["size", "all n", "all inputs"]


@dataclass(frozen=True)
class Scan:
    """The candidates in increasing order; the answer must also hold at the next ``confirm`` integers."""

    candidates: Iterable[Any]
    confirm: int = 0


@dataclass(frozen=True)
class Window:
    """The integers ``lo..hi``, searched by bisection (``hi`` is checked first)."""

    lo: int
    hi: int


@dataclass(frozen=True)
class Bisection:
    """Exact rationals in ``(lo, hi]``: ``hi`` is checked first, then halved until ``hi - lo ≤ tolerance``."""

    lo: Fraction
    hi: Fraction
    tolerance: Fraction


class Probe(Generic[V]):
    """``check`` evaluated at most once per value, every evaluation kept in order (``tried``)."""

    def __init__(self, check: Callable[[V], bool]) -> None:
        self._check = check
        self.seen: dict[V, bool] = {}
        self.tried: list[tuple[V, bool]] = []

    def __call__(self, value: V) -> bool:
        if value not in self.seen:
            ok = bool(self._check(value))
            self.seen[value] = ok
            self.tried.append((value, ok))
        return self.seen[value]


@dataclass
class Least(Generic[V]):
    """The outcome of :func:`least`.

    Attributes:
        value: the least value found where the check holds (``None``: none in the domain).
        below: the largest value below ``value`` where the check was evaluated and failed (``None``: none was).
        interval: for a bisection, ``(lo, hi]`` with the check holding at ``hi`` (``hi`` is ``value``).
        tried: every evaluation in order, ``(value, holds)``.
        not_monotone: candidates of a :class:`Scan` that held while a value within ``confirm`` above failed.

    """

    value: V | None
    below: V | None = None
    interval: tuple[V, V] | None = None
    tried: list[tuple[V, bool]] = field(default_factory=list)
    not_monotone: list[V] = field(default_factory=list)

    @property
    def found(self) -> bool:
        """Whether the check holds somewhere in the domain."""
        return self.value is not None


def _scan(probe: Probe[Any], dom: Scan) -> tuple[Any, list[Any]]:
    skipped: list[Any] = []
    for value in dom.candidates:
        if not probe(value):
            continue
        if all(probe(value + k) for k in range(1, dom.confirm + 1)):
            return value, skipped
        skipped.append(value)
    return None, skipped


def _window(probe: Probe[int], dom: Window) -> int | None:
    lo, hi = dom.lo, dom.hi
    if lo > hi or not probe(hi):
        return None
    while lo < hi:  # probe(hi) holds; the least value that holds is in [lo, hi]
        mid = (lo + hi) // 2
        if not probe(mid):
            lo = mid + 1
        elif mid > lo and probe(mid - 1):
            hi = mid - 1
        else:  # mid holds and mid - 1 does not (or is below the window): the boundary
            lo = hi = mid
    if hi > dom.lo:
        probe(hi - 1)  # the boundary's other side (already evaluated by the bisection; kept explicit)
    return hi


def _bisection(probe: Probe[Fraction], dom: Bisection) -> tuple[Fraction, Fraction] | None:
    lo, hi = dom.lo, dom.hi
    if not probe(hi):
        return None
    while hi - lo > dom.tolerance:
        mid = (lo + hi) / 2
        if probe(mid):
            hi = mid
        else:
            lo = mid
    return lo, hi


def least(check: Callable[[Any], bool], over: Scan | Window | Bisection) -> Least[Any]:
    """The least value of ``over`` where ``check`` holds (module docstring: how each domain is searched)."""
    probe: Probe[Any] = Probe(check)
    skipped: list[Any] = []
    interval = None
    if isinstance(over, Scan):
        value, skipped = _scan(probe, over)
    elif isinstance(over, Window):
        value = _window(probe, over)
    else:
        interval = _bisection(probe, over)
        value = None if interval is None else interval[1]
    fails = [v for v, ok in probe.tried if not ok and value is not None and v < value]
    return Least(value, max(fails) if fails else None, interval, probe.tried, skipped)


@dataclass
class RuleSearch:
    """The outcome of :func:`least_rule`: the rule ``λ ≥ slope·n + intercept`` and the intercept's search."""

    slope: int
    search: Least[int]

    @property
    def intercept(self) -> int:
        """``b`` of the rule (the least in the window for this slope)."""
        assert self.search.value is not None
        return int(self.search.value)


def least_rule(check: Callable[[int, int], bool], slopes: Sequence[int], window: tuple[int, int]) -> RuleSearch | None:
    """The least rule ``λ ≥ a·n + b``: the first slope with an intercept in ``window`` where ``check(a, b)`` holds.

    Per slope ``a`` (in order) the least such ``b`` (a larger ``b`` is a stronger hypothesis on λ, so the check
    is monotone in ``b``) by a :class:`Window`; ``None`` if no slope has one.
    """
    for a in slopes:
        def at(b: int, a: int = a) -> bool:
            return check(a, b)

        found = least(at, Window(*window))
        if found.found:
            return RuleSearch(a, found)
    return None


@dataclass(frozen=True)
class Certificate:
    """What establishes an answer: ``at`` proves it at its value, ``below`` refutes a smaller one (``None``: none)."""

    at: Any = None
    below: Any = None


@dataclass(frozen=True)
class LambdaAnswer:
    """One analysis's answer to "how large must the constant be".

    Attributes:
        value: the least value (a number), a rule (``"λ ≥ 2*n - 3"``), ``"every λ"``, or ``None`` (none found).
        scope: where it holds (:data:`Scope`); ``at`` says which size or bound, when one.
        method: what produced it.
        certificate: the proof at the value and the refutation below it.
        holds_at_value: whether the value itself works (``False``: every value above it does, it does not).
        interval: a bracket ``(lo, hi]`` when the value is only bracketed (bisection).
        certified: both sides of the certificate were established.
        at: the size or bound the scope is taken at (``"n = 4"``, ``"B = 3"``), or ``""``.

    """

    value: Any
    scope: Scope
    method: str
    certificate: Certificate = Certificate()
    holds_at_value: bool | None = True
    interval: tuple[Any, Any] | None = None
    certified: bool = False
    at: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The answer as plain data, in one shape for every method."""
        return {"value": self.value, "scope": self.scope, "at": self.at, "method": self.method,
                "holds_at_value": self.holds_at_value, "interval": None if self.interval is None else
                list(self.interval), "certified": self.certified,
                "certificate": {"at": self.certificate.at, "below": self.certificate.below}}


__all__ = ["Bisection", "Certificate", "LambdaAnswer", "Least", "Probe", "RuleSearch", "Scan", "Scope", "Window",
           "least", "least_rule"]
