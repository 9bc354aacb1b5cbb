"""Claims of a paper and the checks that decide them; ``proofs/`` modules declare them.

A proofs module defines ``CLAIM`` (or ``CLAIMS``), a :class:`Claim` keyed by the paper's LaTeX label,
with one :class:`Check` per variant (``as-written`` first, other readings and repairs after) and, per variant,
a :class:`~symcot.constructions.readings.Reading` (its kind and what it reads or changes). ``symcot verify``
runs them; ``symcot claims`` lists the readings, with their verdicts from a report.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from symcot.check.exhaustive import Family, Progress, run_construction_check, run_property_check
from symcot.check.inherit import Inheritance
from symcot.check.size import name_sizes
from symcot.check.stepwise import StepwiseSpec
from symcot.check.verdict import Verdict
from symcot.constructions.base import Construction
from symcot.constructions.readings import Reading, as_written, in_use, mutant, reading, repair

__all__ = ["Check", "Claim", "ConstructionCheck", "PropertyCheck", "Reading", "as_written", "mutant", "reading",
           "repair"]


class Check(Protocol):
    """Decides one variant of a claim."""

    variant: str
    method: str

    def run(self, claim_id: str, max_size: int, progress: Progress, jobs: int = 1) -> Verdict:
        """Compute the verdict row for this variant.

        A check may also take ``engine`` (exact or batched replay) and ``reach`` (the size of the
        families marked ``Family.reach``) as keyword arguments; :meth:`Claim.run` passes them when it does.
        """
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

    @property
    def variant(self) -> str:
        """The construction's variant name."""
        return self.construction().variant

    def run(self, claim_id: str, max_size: int, progress: Progress, jobs: int = 1, engine: str = "exact",
            reach: int | None = None, shard_engine: Any = None) -> Verdict:
        """Check every family up to ``max_size`` (``reach`` for ``Family.reach`` families), exactly or batched.

        ``shard_engine`` (a :class:`~symcot.check.shard.DaskEngine`) runs the batched engine's shards of the
        large sizes on a cluster instead of ``jobs`` local processes.
        """
        cons = self.construction()
        if engine == "batched":
            from symcot.check.batched_check import run_batched_check

            row = run_batched_check(claim_id, cons, self.spec, self.families, max_size, self.paper_sizes,
                                    progress=progress, method=f"{self.method} [batched engine]", jobs=jobs,
                                    reach=reach, engine=shard_engine)
        elif engine == "exact":
            row = run_construction_check(claim_id, cons, self.spec, self.families, max_size,
                                         self.paper_sizes, progress=progress, method=self.method, jobs=jobs,
                                         reach=reach)
        else:
            raise ValueError(f"unknown engine {engine!r}")
        name_sizes(row, self, cons)
        return self.inherits.trace(row) if self.inherits is not None else row


@dataclass
class PropertyCheck:
    """A property checked on every input of some families, without a decoder.

    ``per_input(inp)`` returns ``None`` when the property holds, else a JSON-friendly description of the
    failure. Used for statements about reference algorithms (an observation's update rule against the
    recursive definition, a bijection, a proposition).
    """

    variant: str
    families: list[Family]
    per_input: Callable[[Any], dict[str, Any] | None]
    method: str = "exhaustive enumeration"

    def run(self, claim_id: str, max_size: int, progress: Progress, jobs: int = 1, engine: str = "exact") -> Verdict:
        """Check every family up to ``max_size`` (no decoder: ``engine`` does not apply)."""
        return run_property_check(claim_id, self.variant, self.method, self.families, max_size, self.per_input,
                                  progress, jobs)


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
    checks: list[Any]
    default_max_size: int
    notes: list[str] = field(default_factory=list)
    readings: dict[str, Reading] = field(default_factory=dict)
    in_use_size: int | None = None

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
        (the all-n prover) run only with ``all_n``. ``engine`` (exact or batched replay) and
        ``reach`` (the size of the families marked ``Family.reach``) are passed to the checks that take
        them; the others (lemmas, symbolic checks) run as usual.
        """
        return [self.run_check(chk, max_size, progress, jobs, engine, reach)
                for chk in self.selected(variants, symbolic, all_n)]

    def selected(self, variants: list[str] | None = None, symbolic: bool = False, all_n: bool = False) -> list[Any]:
        """The checks :meth:`run` runs: the symbolic ones, the all-n ones or the others, only ``variants`` if given."""
        return [chk for chk in self.checks if bool(getattr(chk, "symbolic", False)) == symbolic
                and bool(getattr(chk, "all_n", False)) == all_n and (not variants or chk.variant in variants)]

    def max_size_of(self, chk: Any, max_size: int | None = None) -> int:
        """The size ``chk`` runs at: ``max_size``, else the check's own default, else the claim's."""
        return max_size if max_size is not None else getattr(chk, "default_max_size", self.default_max_size)

    def run_check(self, chk: Any, max_size: int | None = None, progress: Progress | None = None, jobs: int = 1,
                  engine: str = "exact", reach: int | None = None, shard_engine: Any = None) -> Verdict:
        """The verdict row of one of this claim's checks (see :meth:`run`).

        ``shard_engine`` (where the batched engine's shards run, :mod:`symcot.check.shard`) goes to the checks
        that take it; ``None``: on this machine.
        """
        # engine and reach go only to the checks they apply to (a lemma has neither)
        options: dict[str, Any] = {}
        if engine != "exact" and _accepts(chk.run, "engine"):
            options["engine"] = engine
        if reach is not None and _accepts(chk.run, "reach"):
            options["reach"] = reach
        if shard_engine is not None and _accepts(chk.run, "shard_engine"):
            options["shard_engine"] = shard_engine
        return chk.run(self.id, self.max_size_of(chk, max_size), progress or Progress(False), jobs, **options)


def _accepts(fn: Callable[..., Any], name: str) -> bool:
    """Whether ``fn`` takes the keyword argument ``name``."""
    params = inspect.signature(fn).parameters
    return name in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
