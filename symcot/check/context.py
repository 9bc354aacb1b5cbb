"""What a check is run with (:class:`RunContext`) and what it will enumerate (:class:`Schedule`).

Every check of a claim (:class:`symcot.claims.Check`) has one signature, ``run(self, ctx) -> Verdict``:
``ctx`` carries the claim's id, the size to run at and the run's options (progress, jobs, replay engine,
reach, shard engine). A check applies the options that mean something to it and ignores the others (a
lemma has no replay engine). :meth:`symcot.claims.Claim.context` builds the context, choosing the size.

A check that enumerates input families also states its schedule, ``schedule(ctx) -> Schedule``: the
``(size, family)`` pairs it runs, in order, and the engine its inputs go through. Its ``run`` walks the same
pairs (through :func:`symcot.check.exhaustive.size_schedule` or its own ``schedule``), and ``symcot verify``
reads them, through :func:`schedule_of`, for its out-of-reach estimate and the method of an interrupted row.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from symcot.check.exhaustive import Progress
from symcot.errors import SymcotError
from symcot.inputs.family import Family

if TYPE_CHECKING:
    from symcot.check.shard import DaskEngine, LocalPool

#: The replay engines of ``symcot verify --engine``.
ENGINES = ("exact", "batched")


@dataclass(frozen=True)
class RunContext:
    """One run of one check.

    Attributes:
        claim_id: the claim's id (the row's ``id``).
        max_size: the size to run at (:meth:`symcot.claims.Claim.max_size_of`: ``--max-size``, else the
            check's ``default_max_size``, else the claim's).
        progress: the progress bars (silent by default).
        jobs: worker processes.
        engine: ``exact`` or ``batched`` replay, for the checks that replay a decoder on input families.
        reach: the size of the families marked ``Family.reach`` (``symcot verify --reach``; ``None``: ``max_size``),
            for the checks that take it.
        shard_engine: where the batched engine's shards run (a :class:`~symcot.check.shard.DaskEngine`;
            ``None``: ``jobs`` processes on this machine).

    """

    claim_id: str
    max_size: int
    progress: Progress = field(default_factory=lambda: Progress(False))
    jobs: int = 1
    engine: str = "exact"
    reach: int | None = None
    shard_engine: DaskEngine | LocalPool | None = None

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise SymcotError(f"unknown engine {self.engine!r} (one of {', '.join(ENGINES)})")


@dataclass(frozen=True)
class Schedule:
    """What a check enumerates: ``(size, family)`` pairs in the order it runs them, and through which engine.

    ``engine`` is ``batched`` or ``exact`` (a decoder replayed) or ``property`` (no decoder: a reference
    algorithm's property); ``symcot verify`` takes its rate for the out-of-reach estimate.
    """

    steps: Sequence[tuple[int, Family]]
    engine: str

    def inputs(self, stop_above: int | None = None) -> int | None:
        """How many inputs the steps hold (``None`` when a family's count fails: the run reports it).

        The sum stops once it passes ``stop_above`` (it is then a lower bound).
        """
        total = 0
        for size, fam in self.steps:
            try:
                total += int(fam.count(size))
            except Exception:  # noqa: BLE001 - a count that fails is not worth an estimate; the run reports it
                return None
            if stop_above is not None and total > stop_above:
                break
        return total


class Scheduled(Protocol):
    """A check that states what it enumerates."""

    def schedule(self, ctx: RunContext) -> Schedule:
        """The ``(size, family)`` pairs :meth:`run` walks at ``ctx``, and its engine."""
        ...


def schedule_of(chk: object, ctx: RunContext) -> Schedule | None:
    """``chk``'s schedule at ``ctx``, or ``None`` for a check that enumerates no families (a lemma, Z3)."""
    fn = getattr(chk, "schedule", None)
    return fn(ctx) if callable(fn) else None


def check_signature(chk: object) -> None:
    """Raise a :class:`SymcotError` naming the file and line of ``chk.run`` unless it is ``run(self, ctx)``.

    A check written the old way, ``run(self, claim_id, max_size, progress, jobs=1)``, is named with the
    signature to write instead. A ``run`` that is not a Python function (a callable object) is not inspected.
    """
    run = getattr(chk, "run", None)
    name = type(chk).__name__
    if not callable(run):
        raise SymcotError(f"{name} (a check of a claim) has no run method: a check's signature is {_SIGNATURE}")
    fn = getattr(run, "__func__", run)
    code = getattr(fn, "__code__", None)
    if code is None:
        return
    bound = 1 if getattr(run, "__self__", None) is not None else 0
    names = code.co_varnames[bound:code.co_argcount]
    required = len(names) - len(getattr(fn, "__defaults__", None) or ())
    kwonly = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    required_kwonly = [k for k in kwonly if k not in (getattr(fn, "__kwdefaults__", None) or {})]
    takes_one = bool(names) or bool(code.co_flags & inspect.CO_VARARGS)
    if takes_one and required <= 1 and not required_kwonly and (not names or names[0] != "claim_id"):
        return
    params = ", ".join(("self", *names) if bound else names)
    raise SymcotError(f"{code.co_filename}:{code.co_firstlineno}: {name}.run({params}): a check's signature is "
                      f"{_SIGNATURE}")


_SIGNATURE = ("run(self, ctx) -> Verdict, ctx a symcot.check.context.RunContext (ctx.claim_id, ctx.max_size, "
              "ctx.progress, ctx.jobs, ctx.engine, ctx.reach, ctx.shard_engine)")


__all__ = ["ENGINES", "RunContext", "Schedule", "Scheduled", "check_signature", "schedule_of"]
