"""A claim's own check run on a mutant of its construction: killed (at which size, by which input) or not.

:class:`Target` is what a claim's construction check compares (its construction, spec, input families,
the paper's sizes and its default size), taken from the claim's own check objects, never restated.
:func:`kill` runs that check on any construction (a :class:`~symcot.constructions.mutant.SymbolicMutant`, a
planted bug) up to a size, exactly as ``symcot verify`` would: every exhaustive family size by size in the
family's order, then the seeded random families; the first failure is the smallest counterexample, and its
size is the mutant's *kill size*. Sizes with few inputs are replayed exactly input by input (a mutant
usually dies on one of the first inputs), larger ones with the batched engine; both give the same verdict
(:mod:`symcot.check.batched_check`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from symcot.check.batched_check import BatchedChecker
from symcot.check.exhaustive import Family, Progress, check_sizes, run_property_check
from symcot.check.spec import StepwiseSpec
from symcot.check.stepwise import check_input
from symcot.check.verdict import Verdict
from symcot.constructions.base import Construction
from symcot.errors import SymcotError

#: Sizes with at most this many inputs are replayed exactly, input by input (no kernel to compile); larger ones
#: exactly for their first :data:`EXACT_FIRST` inputs (a mutant usually fails early), then batched.
EXACT_BELOW = 500
EXACT_FIRST = 256


@dataclass
class Target:
    """What one variant of a claim compares, read off its construction check.

    Attributes:
        claim_id: the paper's label.
        variant: the construction variant (``as-written``, ``repaired``, …).
        make: builds the construction.
        spec: the claim's reference and conclusions.
        families: the check's input families (exhaustive ones first in the schedule, then samples).
        paper_sizes: the sizes the paper states (``d``, layers, heads).
        default_size: the size ``symcot verify`` checks by default.

    """

    claim_id: str
    variant: str
    make: Callable[[], Construction]
    spec: StepwiseSpec
    families: list[Family]
    paper_sizes: dict[str, Any] = field(default_factory=dict)
    default_size: int = 1

    @property
    def label(self) -> str:
        """``claim [variant]``."""
        return f"{self.claim_id} [{self.variant}]"


def construction_checks(claim: Any) -> list[Any]:
    """The checks of ``claim`` that replay a construction against a spec on input families."""
    out = []
    for chk in claim.checks:
        if getattr(chk, "symbolic", False) or getattr(chk, "all_n", False) or not hasattr(chk, "families") \
                or not hasattr(chk, "spec"):
            continue
        make = chk.make if callable(getattr(chk, "make", None)) else getattr(chk, "construction", None)
        if callable(make) and _takes_no_arguments(make):  # not a scan's make(value)
            out.append(chk)
    return out


def _takes_no_arguments(fn: Any) -> bool:
    """Whether ``fn()`` can be called (every parameter has a default)."""
    import inspect

    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


def target_of(claim: Any, variant: str | None = None) -> Target:
    """The :class:`Target` of ``claim``'s construction check of ``variant`` (default: its first one)."""
    checks = construction_checks(claim)
    if not checks:
        raise SymcotError(f"{claim.id} has no construction check: nothing to mutate")
    names = [c.variant for c in checks]
    if variant is None:
        chk = checks[0]
    elif variant in names:
        chk = checks[names.index(variant)]
    else:
        raise SymcotError(f"{claim.id} has no construction variant {variant!r}; it has {', '.join(names)}")
    make = chk.make if callable(getattr(chk, "make", None)) else chk.construction
    size = getattr(chk, "default_max_size", claim.default_max_size)
    sizes = getattr(chk, "paper_sizes", None) or {}
    return Target(claim.id, chk.variant, make, chk.spec, list(chk.families), dict(sizes), int(size))


@dataclass
class Kill:
    """The claim's check on one construction up to ``checked_to``.

    ``killed``: the check refutes it, first at ``size`` (the smallest counterexample's size) on ``input``,
    by ``family`` (``exhaustive`` or a seeded sample); ``where`` is the counterexample (step, layer,
    block, …). ``error`` holds the reason when the check itself failed.
    """

    killed: bool
    checked_to: int
    size: int | None = None
    family: str | None = None
    exhaustive: bool | None = None
    input: Any = None
    where: dict[str, Any] | None = None
    error: str | None = None
    inputs_checked: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {"killed": self.killed, "checked_to": self.checked_to, "size": self.size, "family": self.family,
                "exhaustive": self.exhaustive, "input": self.input, "where": self.where, "error": self.error,
                "inputs_checked": self.inputs_checked, "seconds": round(self.seconds, 3)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Kill:
        """Inverse of :meth:`as_dict`."""
        return cls(**d)


def hybrid_family(fam: Family, cons: Construction, spec: StepwiseSpec, checker: BatchedChecker,
                  exact_below: int = EXACT_BELOW) -> Family:
    """``fam`` with each input paired with its result, in the family's order.

    A size of at most ``exact_below`` inputs is replayed exactly input by input; a larger one exactly for its
    first :data:`EXACT_FIRST` inputs, then in batches by ``checker``.
    """

    def inputs(size: int) -> Iterator[tuple[Any, Any]]:
        it = iter(fam.inputs(size))
        first = exact_below if fam.count(size) <= exact_below else min(EXACT_FIRST, exact_below)
        for inp in islice(it, first):
            mm = check_input(cons, spec, inp)
            yield inp, None if mm is None else mm.as_dict()
            if mm is not None:
                return
        while part := list(islice(it, checker.batch)):
            results, err = checker.check(part)
            yield from zip(part, results)
            if err is not None:
                raise err
            if results and results[-1] is not None:
                return

    return replace(fam, inputs=inputs, describe=lambda item: fam.describe(item[0]), inputs_range=None)


def _result(item: tuple[Any, Any]) -> Any:
    return item[1]


def run_check(target: Target, cons: Construction, max_size: int, progress: Progress | None = None,
              families: list[Family] | None = None, exact_below: int = EXACT_BELOW) -> Verdict:
    """The claim's check of ``cons`` up to ``max_size`` (the verdict ``symcot verify`` would give it)."""
    start = time.perf_counter()
    notes, size_info, refuted = check_sizes(target.claim_id, cons, target.paper_sizes, start)
    if refuted is not None:
        return refuted
    checker = BatchedChecker(cons, target.spec)
    wrapped = [hybrid_family(f, cons, target.spec, checker, exact_below) for f in families or target.families]
    row = run_property_check(target.claim_id, cons.variant, "exhaustive exact replay, every CoT step", wrapped,
                             max_size, _result, progress, 1)
    row.notes = notes + row.notes
    row.seconds = time.perf_counter() - start
    return row


def kill(target: Target, cons: Construction, max_size: int, progress: Progress | None = None,
         exhaustive_only: bool = False, min_size: int = 1, exact_below: int = EXACT_BELOW) -> Kill:
    """Run the claim's check on ``cons`` up to ``max_size`` and say whether, where and how small it fails.

    ``exhaustive_only`` leaves the seeded random families out; ``min_size`` skips the sizes below it (a
    construction already known to pass them).
    """
    fams = [f for f in target.families if f.exhaustive or not exhaustive_only]
    if min_size > 1:
        fams = [replace(f, min_size=max(f.min_size, min_size)) for f in fams]
    row = run_check(target, cons, max_size, progress, fams, exact_below)
    if row.verdict == "refuted":
        cex = dict(row.counterexample or {})
        size, fam_name, inp = cex.pop("size", None), cex.pop("family", None), cex.pop("input", None)
        exhaustive = next((f.exhaustive for f in fams if f.name == fam_name), None)
        if size is None and cex.get("kind") == "size":  # the size accounting (no input)
            size, exhaustive = 1, True
        return Kill(True, max_size, size, fam_name, exhaustive, inp, cex, None, row.inputs_checked, row.seconds)
    if row.verdict == "verified":
        return Kill(False, max_size, inputs_checked=row.inputs_checked, seconds=row.seconds)
    return Kill(False, max_size, error="; ".join(row.notes) or row.verdict, inputs_checked=row.inputs_checked,
                seconds=row.seconds)
