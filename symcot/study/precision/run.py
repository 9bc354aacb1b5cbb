"""The precision study of one claim: exact figures per size, float and softmax runs, thresholds.

For the claim's construction (as written where its exact replay agrees with the spec on every input
analysed, otherwise the first variant that does), every input of the exhaustive families up to the size
asked (``Family.reach`` families up to ``reach``) is replayed exactly with the margin recorder
(:mod:`.analysis`) and then in every float setting (:class:`~.measure.Config`). A setting's measured
threshold is the smallest size at which some input departs from the spec, with that input and step.
A variant whose exact replay departs from the claim on any of these inputs (the exhaustive ones or the
path and star below) is not studied further. Settings that never fail on the exhaustive inputs are then
tried at larger sizes on the inputs a seeded search of the claim's own families evaluates, guided by each input's
magnitude and margin (:mod:`symcot.check.extremal_search`, :mod:`.rows`), or on the path and the star of a claim
on trees (:mod:`symcot.check.extremal`): ``start, 2·start, 4·start, …`` up to
``measure_up_to``, and between the last passing and the first failing size by bisection (which takes the
smallest failing size there to be the boundary; every size run is listed).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from symcot.check.exhaustive import Progress, family_top
from symcot.check.extremal import _covers, extremal_family, family_probes, in_domain
from symcot.check.extremal_search import SEARCH_BUDGET, Score, SearchLog, guided_search, searched_family
from symcot.check.stepwise import Mismatch
from symcot.errors import SymcotError
from symcot.inputs.family import Family
from symcot.replay.floating import FLOAT_FORMATS, HARD, Softmax
from symcot.study.precision.analysis import BatchResult, run_batch
from symcot.study.precision.batches import Batch, batches
from symcot.study.precision.margins import RunStats
from symcot.study.precision.measure import Config, float_failure

#: ``(index in the family's order, input, mismatch)`` of a failing input.
_Found = tuple[int, Any, Mismatch]
#: A probe on the extremal inputs is skipped when its caches would exceed this many bytes.
MEMORY_BUDGET = 1 << 30


@dataclass
class Options:
    """What to analyse and which float settings to run."""

    max_size: int | None = None
    reach: int | None = None
    eps: float = 1e-3
    betas: tuple[float, ...] = (10.0, 100.0, 1000.0)
    formats: tuple[str, ...] = FLOAT_FORMATS
    softmax_formats: tuple[str, ...] = ("float64", "float32")
    measure_up_to: int = 300
    variant: str | None = None
    search_budget: int = SEARCH_BUDGET
    search_trees: bool = False

    def configs(self) -> list[Config]:
        """Hard attention in every format, then softmax at every β in the softmax formats."""
        out = [Config(f, HARD) for f in self.formats]
        out += [Config(f, Softmax(b)) for b in self.betas for f in self.softmax_formats]
        return out


@dataclass
class Row:
    """The exact figures of one family at one size."""

    family: Family
    size: int
    stats: RunStats
    engines: set[str]
    seconds: float
    extremal: bool = False
    lambdas: set[Any] = field(default_factory=set)
    search: SearchLog | None = None


@dataclass
class Failure:
    """Where a float setting first departs from the spec."""

    size: int
    family: Family
    input: Any
    mismatch: Mismatch


@dataclass
class Measured:
    """A float setting's search: its first failure (if any) and every size it ran at."""

    config: Config
    failure: Failure | None = None
    passed: list[int] = field(default_factory=list)
    extremal_runs: list[tuple[int, bool]] = field(default_factory=list)
    skipped: str | None = None


@dataclass
class ClaimPrecision:
    """Everything the study of one claim found (rendered by :mod:`.summary`)."""

    claim: str
    check: Any
    variant: str
    options: Options
    rows: list[Row]
    measured: list[Measured]
    rejected: list[dict[str, Any]]
    extremal_used: bool
    seconds: float


def construction_checks(claim: Any) -> list[Any]:
    """The claim's checks that replay a construction (``construction()``, ``spec`` and ``families``)."""
    return [c for c in claim.checks if hasattr(c, "construction") and hasattr(c, "spec")
            and hasattr(c, "families") and not getattr(c, "symbolic", False) and not getattr(c, "all_n", False)]


class _Departs(Exception):
    """The exact replay of a variant departs from the claim on an input of the float search."""

    def __init__(self, counterexample: dict[str, Any]):
        super().__init__(counterexample)
        self.counterexample = counterexample


def _lambdas(b: Batch) -> set[Any]:
    """The value of the constant λ in a batch's decoder (empty when it has none)."""
    from symcot.ir.symbols import lam

    v = b.decoder.subs.get(lam)
    return set() if v is None else {v}


def _counted(it: Iterable[Any], bar: Any) -> Iterator[Any]:
    for x in it:
        bar.update(1)
        yield x


class _Study:
    def __init__(self, claim: Any, check: Any, opts: Options, progress: Progress):
        self.claim, self.check, self.opts, self.progress = claim, check, opts, progress
        self.cons = check.construction()
        self.spec = check.spec
        self.configs = opts.configs()
        self.measured = {c.key: Measured(c) for c in self.configs}
        self.rows: list[Row] = []
        self.cache: dict[Any, Any] = {}
        self._extremal_fam: Family | None = None
        self._searched: Family | None = None  # the inputs the search evaluated (claims not on trees)
        self._source: dict[str, Family] = {}
        self._search_fams: list[Family] = []
        self._probes: dict[int, Any] = {}

    def _active(self) -> list[Config]:
        return [c for c in self.configs if self.measured[c.key].failure is None]

    def _run(self, fam: Family, size: int, inputs: Iterable[Any], margins: bool = True,
             extremal: bool = False) -> tuple[Row, _Found | None, dict[str, _Found]]:
        """Analyse and float-run every input; the exact failure (if any) and each setting's first failure."""
        t0 = time.perf_counter()
        stats, engines, lams = RunStats(), set(), set()
        exact_fail: _Found | None = None
        float_fail: dict[str, _Found] = {}
        active = self._active()
        for b in batches(self.cons, self.spec, inputs):
            res = run_batch(b, self.spec, self.opts.eps, self.opts.betas, margins=margins)
            stats.merge(res.stats)
            engines.add(res.engine)
            lams |= _lambdas(b)
            if res.failure is not None:
                r, inp, mm = res.failure
                if exact_fail is None or b.order[r] < exact_fail[0]:
                    exact_fail = (b.order[r], inp, mm)
                continue
            self._float_runs(b, res, active, float_fail)
        row = Row(fam, size, stats, engines, time.perf_counter() - t0, extremal, lams)
        return row, exact_fail, float_fail

    def _float_runs(self, b: Batch, res: BatchResult, active: list[Config], float_fail: dict[str, _Found]) -> None:
        for cfg in active:
            got = float_failure(b, res, self.spec, cfg, self.cache)
            if got is not None:
                r, mm = got
                prev = float_fail.get(cfg.key)
                if prev is None or b.order[r] < prev[0]:
                    float_fail[cfg.key] = (b.order[r], b.inputs[r], mm)

    def exhaustive(self) -> tuple[int, dict[str, Any] | None]:
        """Every exhaustive family size by size; ``(largest size done, exact failure or None)``."""
        opts = self.opts
        max_size = opts.max_size if opts.max_size is not None else self.claim.default_max_size
        fams = [f for f in self.check.families if f.exhaustive]
        tops = {f.name: family_top(f, max_size, opts.reach) for f in fams}
        done = 0
        for size in range(1, max(tops.values(), default=0) + 1):
            for fam in fams:
                if not fam.min_size <= size <= tops[fam.name]:
                    continue
                desc = f"{self.claim.id}/{self.cons.variant} {fam.name} n={size}"
                with self.progress.bar(fam.count(size), desc) as bar:
                    row, exact_fail, float_fail = self._run(fam, size, _counted(fam.inputs(size), bar))
                if exact_fail is not None:
                    _, inp, mm = exact_fail
                    return done, {"family": fam.name, "size": size, "input": fam.describe(inp), **mm.as_dict()}
                if row.stats.inputs:
                    self.rows.append(row)
                for cfg in self._active():
                    got = float_fail.get(cfg.key)
                    if got is not None:
                        self.measured[cfg.key].failure = Failure(size, fam, got[1], got[2])
                    elif size not in self.measured[cfg.key].passed:
                        self.measured[cfg.key].passed.append(size)
            done = size
        return done, None

    # -- beyond the exhaustive sizes --------------------------------------------------------------
    def _probe_bytes(self, size: int, inputs: list[Any]) -> int:
        """Bytes held at once by a probe: the exact run's caches and tokens, and one float run's caches."""
        dec = self.cons.concrete(inputs[0])
        per_pos = 0
        for layer in dec.layers:
            for h in layer.attention.heads if layer.attention else []:
                per_pos += 2 * h.key.d_out + h.value.d_out
        steps = max(len(self.spec.reference(i)) for i in inputs)
        positions = len(self.cons.prompt(inputs[0]).tokens) + steps
        return 8 * len(inputs) * (2 * positions * per_pos + steps * dec.layout.dim)

    def extremal(self, start: int) -> bool:
        """Search the settings that have not failed at larger sizes; whether that was possible.

        The inputs are the path and the star where they lie in the claim's domain, else those the guided search of
        the claim's own families evaluates (:func:`~symcot.check.extremal_search.guided_search`); with
        ``search_trees``, the search there too, over the path and the star and the claim's own families.
        """
        kind = getattr(self.check, "input_kind", "graph")
        trees = in_domain(kind, self.check.families)
        if trees and not self.opts.search_trees:
            self._extremal_fam = extremal_family(kind)
        else:
            fams = ([extremal_family(kind)] if trees else []) + list(self.check.families)
            self._search_fams = fams
            self._extremal_fam = family_probes(fams)  # the pool of each size
            self._searched = searched_family(fams, f"{', '.join(f.name for f in fams)} (searched)",
                                             lambda n: [], lambda inp: self._source.get(repr(inp)))
            if not self._extremal_fam.count(start):
                for cfg in self._active():
                    self.measured[cfg.key].skipped = f"no family of this claim has inputs of size {start}"
                return False
        for cfg in self._active():
            self._search(cfg, start)
        return True

    def _probe(self, size: int, cfg: Config) -> tuple[bool | None, Failure | None]:
        """Whether ``cfg`` passes on the path and star of ``size`` (``None``: too large to run), and its failure."""
        fam = self._extremal_fam
        assert fam is not None
        if size not in self._probes:
            inputs = list(fam.inputs(size))
            if not inputs or self._probe_bytes(size, inputs) > MEMORY_BUDGET:
                self._probes[size] = None
            else:
                total = len(inputs) if self._searched is None else len(inputs) + self.opts.search_budget * sum(
                    1 for f in self._search_fams if _covers(f, size))
                with self.progress.bar(total, f"{self.claim.id}/{self.cons.variant} {fam.name} n={size}") as bar:
                    self._probes[size] = (self._extremal_batches(fam, size, inputs, bar) if self._searched is None
                                          else self._search_batches(size, bar))
        got = self._probes[size]
        if got is None:
            return None, None
        runs = self.measured[cfg.key].extremal_runs
        for b, res in got[0]:
            f = float_failure(b, res, self.spec, cfg, self.cache)
            if f is not None:
                runs.append((size, False))
                return False, Failure(size, self._searched or fam, b.inputs[f[0]], f[1])
        runs.append((size, True))
        return True, None

    def _search(self, cfg: Config, start: int) -> None:
        """Doubling from ``start`` to ``measure_up_to``, then bisection below the first failing size."""
        m = self.measured[cfg.key]
        cap = self.opts.measure_up_to
        schedule, s = [], start
        while s < cap:
            schedule.append(s)
            s *= 2
        schedule.append(cap)
        last_pass, first_fail, failure = start - 1, None, None
        for s in schedule:
            ok, fail = self._probe(s, cfg)
            if ok is None:
                m.skipped = (f"n = {s} would need more than {MEMORY_BUDGET >> 20} MiB" if self._extremal_fam and
                             self._extremal_fam.count(s) else f"no family of this claim has inputs of size {s}")
                break
            if not ok:
                first_fail, failure = s, fail
                break
            last_pass = s
        if first_fail is None:
            return
        while first_fail - last_pass > 1:
            mid = (first_fail + last_pass) // 2
            ok, fail = self._probe(mid, cfg)
            if ok:
                last_pass = mid
            else:
                first_fail, failure = mid, fail
        m.failure = failure

    def _search_batches(self, size: int, bar: Any) -> tuple[list[Any], Row]:
        """The guided search at ``size``: every batch it evaluated (exact run, magnitudes only) and their row."""
        assert self._searched is not None
        t0 = time.perf_counter()
        stats, engines, out, lams = RunStats(), set(), [], set()

        def evaluate(inputs: list[Any]) -> list[Score | None]:
            scores: list[Score | None] = [None] * len(inputs)
            for b in batches(self.cons, self.spec, inputs):
                lams.update(_lambdas(b))
                res = run_batch(b, self.spec, self.opts.eps, (), margins=False, rows=True)
                bar.update(b.rows)
                if res.failure is not None:
                    r, inp, mm = res.failure
                    desc = (self._source.get(repr(inp)) or self._searched).describe(inp)  # type: ignore[union-attr]
                    raise _Departs({"family": self._searched.name, "size": size,  # type: ignore[union-attr]
                                    "input": desc, **mm.as_dict()})
                stats.merge(res.stats)
                engines.add(res.engine)
                out.append((b, res))
                assert res.rows is not None
                for i, k in enumerate(b.order):
                    scores[k] = res.rows[i]
            return scores

        found = guided_search(self._search_fams, size, evaluate, budget=self.opts.search_budget,
                              source=self._source)
        row = Row(self._searched, size, stats, engines, time.perf_counter() - t0, True, lams, found.log)
        self.rows.append(row)
        return out, row

    def _extremal_batches(self, fam: Family, size: int, inputs: list[Any], bar: Any) -> tuple[list[Any], Row]:
        t0 = time.perf_counter()
        stats, engines, out, lams = RunStats(), set(), [], set()
        for b in batches(self.cons, self.spec, inputs):
            lams |= _lambdas(b)
            res = run_batch(b, self.spec, self.opts.eps, (), margins=False)
            bar.update(b.rows)
            if res.failure is not None:
                r, inp, mm = res.failure
                raise _Departs({"family": fam.name, "size": size, "input": fam.describe(inp), **mm.as_dict()})
            stats.merge(res.stats)
            engines.add(res.engine)
            out.append((b, res))
        row = Row(fam, size, stats, engines, time.perf_counter() - t0, True, lams)
        self.rows.append(row)
        return out, row


def candidates(claim: Any, opts: Options) -> list[Any]:
    """The checks :func:`study` may use, in order (one line naming the problem when there is none)."""
    checks = construction_checks(claim)
    if not checks:
        raise SymcotError(f"{claim.id} is not checked through a construction: no decoder to study")
    if opts.variant is not None:
        checks = [c for c in checks if c.variant == opts.variant]
        if not checks:
            known = ", ".join(c.variant for c in construction_checks(claim))
            raise SymcotError(f"{claim.id} has no construction variant {opts.variant!r}; variants: {known}")
    return checks


def study(claim: Any, opts: Options, progress: Progress | None = None) -> ClaimPrecision:
    """Run the precision study of ``claim`` (module docstring)."""
    t0 = time.perf_counter()
    progress = progress or Progress(False)
    checks = candidates(claim, opts)
    rejected: list[dict[str, Any]] = []
    seen: set[str] = set()
    for chk in checks:
        if chk.variant in seen:
            continue
        seen.add(chk.variant)
        st = _Study(claim, chk, opts, progress)
        done, failure = st.exhaustive()
        used = False
        if failure is None and done < opts.measure_up_to:
            try:
                used = st.extremal(done + 1)
            except _Departs as e:
                failure = e.counterexample
        if failure is not None and opts.variant is None:
            rejected.append({"variant": chk.variant, "counterexample": failure})
            continue
        if failure is not None:
            raise SymcotError(f"{claim.id} [{chk.variant}]: the exact replay departs from the spec at n = "
                              f"{failure['size']} ({failure['input'].get('text', failure['input'])}); "
                              "margins of a construction that does not hold are not reported")
        return ClaimPrecision(claim.id, chk, chk.variant, opts, st.rows, list(st.measured.values()), rejected,
                              used, time.perf_counter() - t0)
    fails = "; ".join(f"{r['variant']} fails at n = {r['counterexample']['size']}" for r in rejected)
    raise SymcotError(f"{claim.id}: no variant's exact replay agrees with the spec on every input analysed ({fails})")
