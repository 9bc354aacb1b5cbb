"""Mutation analysis of a claim's construction: which single-coefficient mutants its default check kills.

For one variant of a claim (:class:`~symcot.study.mutation.Target`), :func:`analyse` takes the mutants of the
construction's symbolic statement (:func:`symcot.constructions.mutant.symbolic_mutants`: every coefficient
set to 0, ±1, negated, and shifted in ``n`` or ``λ`` where it depends on them), a seeded sample of them plus
every mutant of a coefficient in ``n`` or ``λ``, and decides each:

* ``inert``: the change cannot reach any output, read off the statement (:func:`~symcot.constructions.mutant.inert`:
  a block no later map reads, or a term that reads only blocks set to zero), so the mutant is equivalent at
  every size (no run needed);
* ``killed``: the claim's own check fails on it at the default size; its *kill size* is the size of the
  smallest counterexample (found by an exhaustive family, or by one of the claim's seeded samples);
* a mutant the check passes is compared with the original beyond the default
  (:func:`~symcot.study.survivors.compare_beyond`): ``exposed`` (the check fails on a larger input: a
  behaviour-changing survivor, with that input's size as its kill size), ``scratch-only`` (tokens differ only
  where the check does not look, per block) or ``equivalent`` (no token differs on any input compared);
* ``error``: the check itself failed.

The mutation score is killed / behaviour-changing (killed + exposed). The analysis recommends a default size:
at least the largest kill size plus one (so that every behaviour-changing mutant is killed with a size to
spare) and at least the coverage saturation size (:mod:`symcot.study.coverage`), never below the current one.

Results are kept in a JSON state file as each mutant finishes: a run can be interrupted and resumed, and a
list of mutants split into shards (``shard = (i, k)``: every ``k``-th mutant from the ``i``-th) run
separately and their state files read together.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from symcot.check.exhaustive import Progress
from symcot.constructions.base import Construction
from symcot.constructions.mutant import SymbolicMutant, inert, statement_digest, symbolic_mutants
from symcot.errors import SymcotError
from symcot.study.coverage import Coverage
from symcot.study.mutation import Kill, Target, kill
from symcot.study.survivors import Beyond, compare_beyond, in_domain

STATUSES = ("inert", "killed", "exposed", "scratch-only", "equivalent", "error")
#: The statuses of a mutant whose behaviour on the claim's inputs differs.
BEHAVIOUR_CHANGING = ("killed", "exposed")
STATE_VERSION = 1


@dataclass
class Settings:
    """How the analysis runs (a state file remembers them; resuming needs the same ones).

    Attributes:
        size: the size the claim's check runs at (its default size unless asked otherwise).
        sample: how many mutants of constant coefficients to draw (0: all); mutants of coefficients in
            ``n`` or ``λ`` are always all taken.
        seed: the seed of that draw and of the random inputs.
        reach: the largest size of the random inputs a survivor is compared on.
        budget: seconds per survivor for comparing beyond ``size`` (every input of a family's size while it
            fits, then random inputs).
        per_size: random inputs per family and size.

    """

    size: int
    sample: int = 150
    seed: int = 0
    reach: int = 13
    budget: float = 60.0
    per_size: int = 8

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return dict(self.__dict__)


@dataclass
class MutantResult:
    """What the analysis found for one mutant (see the module docstring for ``status``)."""

    id: str
    text: str
    op: str
    symbolic: bool
    status: str
    kill_size: int | None = None
    kill: dict[str, Any] | None = None
    beyond: dict[str, Any] | None = None
    reason: str | None = None
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MutantResult:
        """Inverse of :meth:`as_dict`."""
        return cls(**d)


@dataclass
class Analysis:
    """The results of one claim variant's analysis (every mutant selected, done or not yet)."""

    claim_id: str
    variant: str
    current_default: int
    settings: Settings
    total_mutants: int
    selected: list[str]
    results: dict[str, MutantResult] = field(default_factory=dict)
    coverage: Coverage | None = None
    seconds: float = 0.0
    original: Kill | None = None  # the claim's check on the construction itself (it must pass)
    statement: str = ""  # the digest of the construction's statement (statement_digest) the results are about

    @property
    def original_fails(self) -> str | None:
        """Why the analysis did not run (the construction itself fails its check), or ``None``."""
        o = self.original
        if o is None or not (o.killed or o.error):
            return None
        return f"its check fails with an error: {o.error}" if o.error else \
            f"the construction fails its own check at n = {o.size}"

    def done(self) -> list[MutantResult]:
        """The finished results, in selection order."""
        return [self.results[i] for i in self.selected if i in self.results]

    def by_status(self, status: str) -> list[MutantResult]:
        """The finished results with ``status``."""
        return [r for r in self.done() if r.status == status]

    @property
    def complete(self) -> bool:
        """Whether every selected mutant has a result."""
        return all(i in self.results for i in self.selected)

    @property
    def behaviour_changing(self) -> list[MutantResult]:
        """Killed and exposed mutants."""
        return [r for r in self.done() if r.status in BEHAVIOUR_CHANGING]

    @property
    def score(self) -> tuple[int, int]:
        """``(killed, behaviour-changing)``."""
        return len(self.by_status("killed")), len(self.behaviour_changing)

    @property
    def max_kill_size(self) -> int | None:
        """The largest kill size of a behaviour-changing mutant."""
        sizes = [r.kill_size for r in self.behaviour_changing if r.kill_size is not None]
        return max(sizes) if sizes else None

    def recommended_default(self) -> int:
        """At least max kill size + 1 and the coverage saturation size; never below the current default."""
        want = self.current_default
        if self.max_kill_size is not None:
            want = max(want, self.max_kill_size + 1)
        if self.coverage is not None and self.coverage.saturation is not None:
            want = max(want, self.coverage.saturation)
        return want

    def killed_at(self, size: int) -> tuple[int, int]:
        """``(behaviour-changing mutants with a kill size ≤ size, behaviour-changing)``."""
        bc = self.behaviour_changing
        return sum(1 for r in bc if r.kill_size is not None and r.kill_size <= size), len(bc)


def select(mutants: Sequence[SymbolicMutant], sample: int, seed: int, decoder_of: Any = None) -> list[SymbolicMutant]:
    """Every mutant of a coefficient in ``n``/``λ``, every inert one, and ``sample`` of the others (all if 0).

    The draw is seeded; the order is the enumeration order.
    """
    always = [m for m in mutants if m.site.symbolic or inert(m.base.decoder, m.site)]
    rest = [m for m in mutants if m not in always]
    if sample and sample < len(rest):
        rest = random.Random(seed).sample(rest, sample)
    keep = {m.id for m in [*always, *rest]}
    return [m for m in mutants if m.id in keep]


# -- the state file --------------------------------------------------------------------------------------------


def _read_state(path: Path, target: Target, statement: str | None = None) -> dict[str, Any]:
    """The state file at ``path``, refused unless it is of ``target`` and (if it records one) of ``statement``.

    A state file without a digest (written before digests were recorded) is taken as it is.
    """
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SymcotError(f"cannot read the state file {path}: {e}") from e
    if data.get("version") != STATE_VERSION or data.get("claim") != target.claim_id \
            or data.get("variant") != target.variant:
        raise SymcotError(f"the state file {path} is not of {target.label}")
    if statement and data.get("statement") and data["statement"] != statement:
        raise SymcotError(f"the state file {path} is about another statement of {target.label} (digest "
                          f"{data['statement']}, now {statement}): the construction changed since; use another "
                          "--state")
    return data


def load_states(paths: Sequence[str | Path], target: Target, settings: Settings,
                statement: str | None = None) -> dict[str, MutantResult]:
    """The results of earlier runs (shards) of the same analysis; a state of another analysis is refused."""
    out: dict[str, MutantResult] = {}
    for p in paths:
        path = Path(p)
        if not path.exists():
            continue
        data = _read_state(path, target, statement)
        if data.get("settings") != settings.as_dict():
            raise SymcotError(f"the state file {path} was made with other settings ({data.get('settings')}); "
                              "use the same options or another --state")
        out.update({k: MutantResult.from_dict(v) for k, v in data.get("results", {}).items()})
    return out


def carried_over(paths: Sequence[str | Path], target: Target, settings: Settings,
                 statement: str | None = None) -> dict[str, MutantResult]:
    """The results of the same analysis at another size that hold at ``settings.size`` too.

    An inert mutant is inert at every size. A mutant killed by the check at size ``k`` through an exhaustive
    family, or exposed beyond that run's size by comparing every input of size ``k`` with every exhaustive
    family complete below ``k``, is killed at every size ``≥ k`` by that same smallest counterexample: the
    check runs the exhaustive sizes in order, before any sample. A survivor (equivalent or scratch-only) of a
    run at a size ``k <`` this one carries over when that run compared it with the original on every input of
    every exhaustive family at every size from ``k + 1`` to this one: the check passes on each of those inputs,
    so it passes here too, and the comparison beyond is that run's. Nothing else carries over (a kill by a
    seeded sample may come earlier from a larger exhaustive size). These facts are about the mutant alone, so
    the other settings need not agree; the construction must be the same (a state file of another
    ``statement`` digest is refused).
    """
    out: dict[str, MutantResult] = {}
    fixed_samples = all(f.exhaustive or f.max_size is not None for f in target.families)
    for p in paths:
        data = _read_state(Path(p), target, statement)
        old = int(data["settings"]["size"])
        for k, v in data.get("results", {}).items():
            r = MutantResult.from_dict(v)
            found = r.kill if r.status == "killed" else r.beyond if r.status == "exposed" else None
            exact = found is not None and bool(found.get("exhaustive")) and (r.status == "killed"
                                                                          or bool(found.get("smallest")))
            if r.status == "inert":
                out[k] = r
            elif found is not None and exact and r.kill_size is not None and r.kill_size <= settings.size:
                kill = r.kill if r.status == "killed" else {
                    "killed": True, "checked_to": settings.size, "size": r.kill_size, "family": found["family"],
                    "exhaustive": True, "input": found["input"], "where": found["where"], "error": None,
                    "inputs_checked": 0, "seconds": 0.0}
                out[k] = MutantResult(r.id, r.text, r.op, r.symbolic, "killed", r.kill_size, kill, None,
                                      f"carried over from the analysis at n = {old}", 0.0)
            elif r.status in ("equivalent", "scratch-only") and r.beyond and fixed_samples and old < settings.size:
                every = r.beyond.get("every", {})
                if all(s in every.get(f.name, []) for f in target.families for s in range(old + 1, settings.size + 1)
                       if in_domain(f, s)):
                    out[k] = replace(r, reason=f"carried over from the analysis at n = {old}, which compared every "
                                               f"input of every exhaustive family up to n = {settings.size}")
    return out


def load_original(paths: Sequence[str | Path], target: Target, settings: Settings,
                  statement: str | None = None) -> Kill | None:
    """The check of the construction itself at ``settings.size``, kept in a state file by an earlier run."""
    for p in paths:
        path = Path(p)
        if path.exists():
            data = _read_state(path, target, statement)
            if data.get("original") and data.get("settings") == settings.as_dict():
                return Kill.from_dict(data["original"])
    return None


def save_state(path: str | Path, analysis: Analysis) -> None:
    """Write the analysis' results so far (atomically: a temporary file renamed over ``path``)."""
    path = Path(path)
    data = {"version": STATE_VERSION, "claim": analysis.claim_id, "variant": analysis.variant,
            "statement": analysis.statement, "settings": analysis.settings.as_dict(),
            "original": analysis.original.as_dict() if analysis.original else None,
            "results": {k: v.as_dict() for k, v in analysis.results.items()}}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False))
    os.replace(tmp, path)


# -- one mutant ------------------------------------------------------------------------------------------------


def decide(target: Target, base: Construction, mutant: Construction, settings: Settings,
           progress: Progress | None = None) -> MutantResult:
    """Run the analysis on one construction (a mutant, or any other construction: a planted bug)."""
    t0 = time.perf_counter()
    mid = getattr(mutant, "id", mutant.variant)
    text = mutant.text() if isinstance(mutant, SymbolicMutant) else "; ".join(mutant.notes) or mutant.variant
    op = getattr(mutant, "op", "")
    symbolic = bool(getattr(getattr(mutant, "site", None), "symbolic", False))
    res = MutantResult(mid, text, op, symbolic, "error")
    why = inert(base.decoder, mutant.site) if isinstance(mutant, SymbolicMutant) else None
    if why is not None:
        res.status, res.reason = "inert", why
        return res
    k = kill(target, mutant, settings.size, progress)
    res.kill = k.as_dict()
    if k.error is not None:
        res.reason = k.error
    elif k.killed:
        res.status, res.kill_size = "killed", k.size
    else:
        rate = k.seconds / max(1, k.inputs_checked)
        beyond = compare_beyond(target, base, mutant, settings.size, settings.reach, settings.budget,
                                settings.per_size, settings.seed, rate)
        res.beyond = beyond.as_dict()
        res.status = beyond.status
        res.kill_size = beyond.size
    res.seconds = time.perf_counter() - t0
    return res


def analyse(target: Target, settings: Settings, shard: tuple[int, int] = (0, 1), states: Sequence[str | Path] = (),
            progress: Progress | None = None, extra: Sequence[Construction] = (),
            on_result: Callable[[MutantResult], None] | None = None, reuse: Sequence[str | Path] = ()) -> Analysis:
    """Analyse the selected mutants of ``target`` (see the module docstring).

    ``extra`` are further constructions treated as mutants (a planted bug), always selected.
    ``states``: state files to resume from (their results are kept); the first one is written after each
    mutant this call decides. ``shard = (i, k)`` decides only every ``k``-th selected mutant from the ``i``-th.
    ``reuse``: state files of the same analysis at another size, whose results that hold at this size are
    taken (:func:`carried_over`). The claim's check runs on the construction itself first (or is read from a
    state file); when it fails there is nothing to analyse and no mutant is decided.
    """
    t0 = time.perf_counter()
    base = target.make()
    every = symbolic_mutants(base)
    chosen: list[Construction] = [*select(every, settings.sample, settings.seed), *extra]
    ids = [getattr(m, "id", m.variant) for m in chosen]
    if len(set(ids)) != len(ids):
        raise SymcotError("two mutants share an id")
    digest = statement_digest(base.decoder)
    analysis = Analysis(target.claim_id, target.variant, target.default_size, settings, len(every), ids,
                        statement=digest)
    analysis.original = load_original(states, target, settings, digest) or kill(target, base, settings.size,
                                                                                  progress)
    if analysis.original_fails:
        analysis.seconds = time.perf_counter() - t0
        return analysis
    known = {**carried_over(reuse, target, settings, digest), **load_states(states, target, settings, digest)}
    analysis.results = {k: v for k, v in known.items() if k in set(ids)}
    i, k = shard
    mine = [m for j, m in enumerate(chosen) if j % k == i and ids[j] not in analysis.results]
    bar_progress = progress or Progress(False)
    if states:
        save_state(states[0], analysis)
    with bar_progress.bar(len(mine), f"mutate {target.label}") as bar:
        for m in mine:
            res = decide(target, base, m, settings)
            analysis.results[res.id] = res
            if states:
                save_state(states[0], analysis)
            if on_result is not None:
                on_result(res)
            bar.update(1)
    analysis.seconds = time.perf_counter() - t0
    return analysis


__all__ = ["BEHAVIOUR_CHANGING", "STATUSES", "Analysis", "Beyond", "Kill", "MutantResult", "Settings", "analyse",
           "carried_over", "decide", "load_original", "load_states", "save_state", "select"]
