"""Claims of a paper and the checks that decide them; ``proofs/`` modules declare them.

A proofs module defines ``CLAIM`` (or ``CLAIMS``), a :class:`Claim` keyed by the paper's LaTeX label,
with one :class:`Check` per variant (``as-written`` first, other readings and repairs after) and, per variant,
a :class:`~symcot.constructions.readings.Reading` (its kind and what it reads or changes). ``symcot verify``
runs them; ``symcot claims`` lists the readings, with their verdicts from a report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from symcot.check.context import RunContext, Schedule, check_signature
from symcot.check.exhaustive import Family, Progress, run_construction_check, run_property_check, size_schedule
from symcot.check.inherit import Inheritance
from symcot.check.size import name_sizes
from symcot.check.stepwise import StepwiseSpec
from symcot.check.verdict import EXPECTS, Verdict
from symcot.constructions.base import Construction
from symcot.constructions.readings import Reading, as_written, in_use, mutant, reading, repair
from symcot.errors import SymcotError, Undecided

if TYPE_CHECKING:
    from symcot.check.shard import DaskEngine, LocalPool

__all__ = ["Check", "Claim", "ConstructionCheck", "PropertyCheck", "Reading", "RunContext", "as_written", "mutant",
           "reading", "repair"]


class Check(Protocol):
    """Decides one variant of a claim: every check has this one signature.

    ``run(ctx)`` gets a :class:`~symcot.check.context.RunContext`: the claim's id, the size to run at and the
    run's options (progress, jobs, ``engine``, ``reach``, ``shard_engine``); a check applies the options that
    mean something to it and ignores the others. A check that enumerates input families may also state them,
    ``schedule(ctx) -> Schedule`` (:class:`~symcot.check.context.Scheduled`). A check may set
    ``default_max_size`` (its size when none is asked), ``symbolic`` or ``all_n`` (it runs only under
    ``symcot verify --symbolic`` or ``--all-n``).
    """

    @property
    def variant(self) -> str:
        """The variant this check decides (``as-written`` first)."""
        ...

    @property
    def method(self) -> str:
        """How it decides (the report's method column)."""
        ...

    def run(self, ctx: RunContext) -> Verdict:
        """The verdict row of this variant at ``ctx``."""
        ...


@dataclass
class ConstructionCheck:
    """Exact replay of a construction against a reference algorithm on input families."""

    construction: Callable[[], Construction]
    spec: StepwiseSpec
    families: list[Family]
    paper_sizes: dict[str, Any] = field(default_factory=dict)
    method: str = "exhaustive exact replay, every CoT step"
    #: How ``symcot replay`` builds this construction's input: ``"graph"`` (a ``(Digraph, source)`` pair),
    #: ``"dyck"`` (a Dyck word) or ``"custom"`` (``parse_input`` reads ``--input TEXT``).
    input_kind: str = "graph"
    parse_input: Callable[[str], Any] | None = None
    #: The claim this construction is built on: a refutation is traced back to it on the counterexample.
    inherits: Inheritance | None = None
    #: ``"refuted"``: this variant is a negative example, expected to be refuted (see :meth:`Claim.expect_of`).
    expect: str | None = None

    @property
    def variant(self) -> str:
        """The construction's variant name."""
        return self.construction().variant

    def schedule(self, ctx: RunContext) -> Schedule:
        """Every family up to ``ctx.max_size`` (``ctx.reach`` for ``Family.reach`` families), through ``ctx.engine``."""
        return Schedule(size_schedule(self.families, ctx.max_size, ctx.reach), ctx.engine)

    def run(self, ctx: RunContext) -> Verdict:
        """Check every family up to ``ctx.max_size`` (``ctx.reach`` for ``Family.reach`` families), exactly or batched.

        ``ctx.shard_engine`` (a :class:`~symcot.check.shard.DaskEngine`) runs the batched engine's shards of the
        large sizes on a cluster instead of ``ctx.jobs`` local processes.
        """
        cons = self.construction()
        desc = cons.decoder.description
        if ctx.engine == "batched" and not desc.section3:  # the batched engines run Section 3's rules only
            row = run_construction_check(ctx.claim_id, cons, self.spec, self.families, ctx.max_size,
                                         self.paper_sizes, progress=ctx.progress, method=self.method, jobs=ctx.jobs,
                                         reach=ctx.reach)
            row.notes.append(f"exact engine: the batched engine runs Section 3's rules only, not {desc.summary()}")
        elif ctx.engine == "batched":
            from symcot.check.batched_check import run_batched_check

            row = run_batched_check(ctx.claim_id, cons, self.spec, self.families, ctx.max_size, self.paper_sizes,
                                    progress=ctx.progress, method=f"{self.method} [batched engine]", jobs=ctx.jobs,
                                    reach=ctx.reach, engine=ctx.shard_engine)
        else:
            row = run_construction_check(ctx.claim_id, cons, self.spec, self.families, ctx.max_size,
                                         self.paper_sizes, progress=ctx.progress, method=self.method, jobs=ctx.jobs,
                                         reach=ctx.reach)
        name_sizes(row, self, cons)
        return self.inherits.trace(row) if self.inherits is not None else row


@dataclass
class PropertyCheck:
    """A property checked on every input of some families, without a decoder.

    ``per_input(inp)`` returns ``None`` when the property holds, else a JSON-friendly description of the
    failure. Used for statements about reference algorithms (an observation's update rule against the
    recursive definition, a bijection, a proposition). A ``certified`` check compares certified intervals: where
    they cannot settle a comparison ``per_input`` raises :class:`~symcot.errors.Undecided`, the input counts as
    undecided, never as holding, and a row that no input refutes is then ``unknown``, naming the first undecided
    input (``show`` prints it). A certified check runs in one process (its undecided inputs are collected there).
    """

    variant: str
    families: list[Family]
    per_input: Callable[[Any], dict[str, Any] | None]
    method: str = "exhaustive enumeration"
    #: ``"refuted"``: a property expected to fail (see :meth:`Claim.expect_of`).
    expect: str | None = None
    #: ``per_input`` may raise :class:`~symcot.errors.Undecided` (see above).
    certified: bool = False
    #: Lines put before the row's own notes.
    notes: list[str] = field(default_factory=list)
    #: How an undecided input is named in the row.
    show: Callable[[Any], str] = repr
    #: The transformer the property runs, when there is one (an encoder or grid check of the same variant, whose
    #: reference is what the property compares with): what ``symcot replay`` and ``symcot latex`` show. It does
    #: not take part in the verdict.
    runs_as: Any = None
    #: Which part is checked as formulas rather than run as a construction, and why (``symcot replay`` says so).
    as_formulas: str | None = None

    def schedule(self, ctx: RunContext) -> Schedule:
        """Every family up to ``ctx.max_size`` (``reach`` does not apply), without a decoder."""
        return Schedule(size_schedule(self.families, ctx.max_size), "property")

    def run(self, ctx: RunContext) -> Verdict:
        """Check every family up to ``ctx.max_size`` (no decoder: ``engine`` does not apply, nor ``reach``)."""
        if not self.certified:
            row = run_property_check(ctx.claim_id, self.variant, self.method, self.families, ctx.max_size,
                                     self.per_input, ctx.progress, ctx.jobs)
            row.notes = [*self.notes, *row.notes]
            return row
        undecided: list[tuple[Any, Undecided]] = []

        def each(inp: Any) -> dict[str, Any] | None:
            try:
                return self.per_input(inp)
            except Undecided as e:
                undecided.append((inp, e))
                return None

        row = run_property_check(ctx.claim_id, self.variant, self.method, self.families, ctx.max_size,
                                 each, ctx.progress, 1)
        row.notes = [*self.notes, *row.notes]
        if undecided and row.verdict == "verified":
            inp, e = undecided[0]
            row.verdict = "unknown"
            row.details = {**(row.details or {}), "undecided": {"input": self.show(inp), **e.as_dict()},
                           "undecided_inputs": len(undecided)}
            row.scope = f"undecided at {self.show(inp)}"
            row.notes.append(f"{len(undecided)} input(s) undecided by the intervals; first: {self.show(inp)}: {e}")
        return row


@dataclass
class Claim:
    """A statement of the paper, keyed by its label, with the checks that decide it.

    Attributes:
        id: the paper's LaTeX label (``thm:main``), or an id of ours for an unlabelled statement
            (documented in docs/claims.md).
        kind: theorem, lemma, proposition, observation, equation, sentence.
        statement: one line.
        where: where the paper states and proves it.
        checks: one per variant; the paper's transcription is the variant ``as-written``.
        default_max_size: the size ``symcot verify`` checks when ``--max-size`` is not given (justified per
            construction by ``symcot mutate`` and ``symcot coverage``: docs/adequacy.md).
        in_use_size: the size the rows ``in:<this claim>`` of the lemmas it uses replay to confirm the values
            its decoder feeds them (``None``: ``default_max_size``).
        readings: per variant name, its kind and one-line description (``as-written`` may be left out when
            it is the claim's only reading besides a lemma's ``in:<claim>`` rows, which are described by their
            name).

    """

    id: str
    kind: str
    statement: str
    where: str
    checks: list[Check]
    default_max_size: int
    notes: list[str] = field(default_factory=list)
    readings: dict[str, Reading] = field(default_factory=dict)
    in_use_size: int | None = None

    def __post_init__(self) -> None:
        for chk in self.checks:  # a check written with another signature is an error where it is declared
            check_signature(chk)
            if self.expect_of(chk) not in (None, *EXPECTS):
                raise SymcotError(f"claim {self.id} [{chk.variant}]: expect is 'refuted' or None, got "
                                  f"{self.expect_of(chk)!r}")

    def expect_of(self, chk: Check) -> str | None:
        """``"refuted"`` or ``None`` (expected to hold): the check's own ``expect``, else its variant's reading's."""
        own = getattr(chk, "expect", None)
        if own is not None:
            return str(own)
        found = self.readings.get(chk.variant)
        return found.expect if found is not None else None

    def variant_names(self) -> list[str]:
        """The variants of the checks, in order, each once (exhaustive and symbolic checks share a name)."""
        out: list[str] = []
        for chk in self.checks:
            if chk.variant not in out:
                out.append(chk.variant)
        return out

    def reading(self, variant: str) -> Reading | None:
        """The kind and description of ``variant`` (``None``: the claim does not describe it)."""
        if variant in self.readings:
            return self.readings[variant]
        found = in_use(variant)
        if found is not None:
            return found
        own = [v for v in self.variant_names() if in_use(v) is None]
        if variant == "as-written" and own == ["as-written"]:
            return Reading("as-written", "the statement as printed (the module lists its interpretive choices)")
        return None

    def run(self, max_size: int | None = None, progress: Progress | None = None,
            variants: list[str] | None = None, jobs: int = 1, symbolic: bool = False,
            engine: str = "exact", reach: int | None = None, all_n: bool = False) -> list[Verdict]:
        """Run every check (or the named variants) and return their verdict rows.

        Checks whose ``symbolic`` attribute is true (symbolic replay with Z3) run only when ``symbolic``
        is asked for; with ``symbolic`` only those run. Likewise checks whose ``all_n`` attribute is true
        (the all-n prover) run only with ``all_n``. Every check gets the same options in its
        :class:`~symcot.check.context.RunContext`; ``engine`` (exact or batched replay) and ``reach`` (the size
        of the families marked ``Family.reach``) matter to the checks that replay a decoder on such families.
        """
        return [self.run_check(chk, max_size, progress, jobs, engine, reach)
                for chk in self.selected(variants, symbolic, all_n)]

    def selected(self, variants: list[str] | None = None, symbolic: bool = False, all_n: bool = False) -> list[Check]:
        """The checks :meth:`run` runs: the symbolic ones, the all-n ones or the others, only ``variants`` if given."""
        return [chk for chk in self.checks if bool(getattr(chk, "symbolic", False)) == symbolic
                and bool(getattr(chk, "all_n", False)) == all_n and (not variants or chk.variant in variants)]

    def max_size_of(self, chk: Check, max_size: int | None = None) -> int:
        """The size ``chk`` runs at: ``max_size``, else the check's own default, else the claim's."""
        return max_size if max_size is not None else getattr(chk, "default_max_size", self.default_max_size)

    def context(self, chk: Check, max_size: int | None = None, progress: Progress | None = None, jobs: int = 1,
                engine: str = "exact", reach: int | None = None,
                shard_engine: DaskEngine | LocalPool | None = None) -> RunContext:
        """What ``chk`` runs with: this claim's id, its size (:meth:`max_size_of`) and the options as given."""
        return RunContext(self.id, self.max_size_of(chk, max_size), progress or Progress(False), jobs, engine, reach,
                          shard_engine)

    def run_check(self, chk: Check, max_size: int | None = None, progress: Progress | None = None, jobs: int = 1,
                  engine: str = "exact", reach: int | None = None,
                  shard_engine: DaskEngine | LocalPool | None = None) -> Verdict:
        """The verdict row of one of this claim's checks (see :meth:`run`): ``chk.run(self.context(chk, ...))``.

        ``shard_engine``: where the batched engine's shards run (:mod:`symcot.check.shard`); ``None``: on this
        machine. A check whose ``run`` is not ``run(self, ctx)`` is a :class:`~symcot.errors.SymcotError`
        naming its file and line.
        """
        check_signature(chk)
        row = chk.run(self.context(chk, max_size, progress, jobs, engine, reach, shard_engine))
        row.expect = self.expect_of(chk)
        return row
