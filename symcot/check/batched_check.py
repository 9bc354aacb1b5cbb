"""Exhaustive checking with the batched engine: same verdict, counterexample and count as the exact checker.

:func:`run_batched_check` is a drop-in for :func:`symcot.check.exhaustive.run_construction_check`. It
runs the same size-by-size schedule (it *is* that schedule: the families are wrapped so that
:func:`~symcot.check.exhaustive.run_property_check` sees one pre-computed result per input, in the
family's order), but inputs are replayed in batches by :class:`~symcot.replay.batched.BatchedDecoder`
under the rules of ``sec:trans``. After every CoT step the rows' ``y_t`` are compared, exactly and
vectorised, with the construction's ``enc(s_t)`` (:meth:`~symcot.constructions.base.Construction.expected_table`,
from the reference run per input) and with its stop rule exactly as :func:`~symcot.check.stepwise.check_input`
does: the rule must not fire before the reference's last step ``T`` and must fire at ``T``; the claim's
conclusions (``spec.conclusions``) are checked on the rows that pass every step.

The first failing input of a batch (in the family's order) is then re-checked by the exact per-input
path, :func:`~symcot.check.stepwise.check_input`, which produces the diagnosed counterexample (the
layer, head or block where the proof's invariants break). If the exact path does not fail on it, the
engines disagree and the check ends with an ``error`` verdict rather than a wrong one. Inputs the
batched engine cannot represent (symbolic coefficients, expected values that are not exact numbers)
are checked by the exact path directly.

The certificates of all batches (:mod:`symcot.replay.scaling`) are summarised in ``Verdict.details``.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

import numpy as np

from symcot.check.exhaustive import Family, Progress, check_sizes, run_property_check
from symcot.check.expected import Expected, table_disagreement, table_disagreements, table_items
from symcot.check.kernel_check import BatchOutcome, EngineDisagreement, check_input_batch
from symcot.check.parallel import batch_items
from symcot.check.shard import sharded_family
from symcot.check.stepwise import StepwiseSpec, check_input, compare_blocks
from symcot.check.verdict import Verdict
from symcot.constructions.base import Construction
from symcot.constructions.encoding import StopRule
from symcot.errors import InvalidInputError, locate
from symcot.replay.batched import BatchedDecoder, StepView
from symcot.replay.batched.views import exact_lists
from symcot.replay.scaling import Certificate, NotNumericError, merge

__all__ = ["BatchedChecker", "EngineDisagreement", "batched_family", "run_batched_check", "table_disagreements"]

#: Rows per batch on which the encoding's table is compared with its per-step values (two interpreters of one
#: statement: a disagreement is a bug in one of them).
SPOT_CHECK = 4

#: Inputs replayed together (memory grows linearly with it: a few MB per thousand inputs at n ≈ 10).
BATCH = 2048

#: Sizes with fewer inputs than this get a kernel compiled without optimisation (``-O0``): it compiles several
#: times faster and runs a few times slower, which such a size does not notice.
QUICK_KERNEL_BELOW = 20_000


def kernel_opt(total: int) -> str | None:
    """The C optimisation level of the kernel of a size with ``total`` inputs (``None``: the default)."""
    return "-O0" if total < QUICK_KERNEL_BELOW else None

METHOD = "exhaustive exact replay, every CoT step"


@dataclass
class _Row:
    """One prepared input: reference states, prompt and the expected block values per step."""

    k: int  # position in the chunk
    inp: Any
    states: Any
    total: int
    dec: Any
    prompt: Any
    expected: list[dict[str, list[Any]]] | None  # per step; None when ``table`` holds them
    table: dict[str, np.ndarray] | None = None  # Construction.expected_table's arrays

    def y0_expected(self) -> dict[str, list[Any]]:
        """What ``y_0`` must carry."""
        if self.table is not None:
            return {b: a[0].tolist() for b, (a, here) in table_items(self.table) if here is None or here[0]}
        assert self.expected is not None
        return self.expected[0]


@dataclass
class BatchedChecker:
    """Checks lists of inputs of one construction with the batched engine (see the module docstring).

    Attributes:
        cons: the construction.
        spec: what to compare (the same :class:`StepwiseSpec` the exact checker uses).
        batch: inputs per engine run.
        certificates: one per engine run (see :mod:`symcot.replay.scaling`).
        exact_fallbacks: inputs decided by exact replay because the engine cannot represent them.
        native: the compiled kernel (:mod:`symcot.replay.native`): ``None`` when available, ``False`` never.

    """

    cons: Construction
    spec: StepwiseSpec
    batch: int = BATCH
    certificates: list[Certificate] = field(default_factory=list)
    exact_fallbacks: int = 0
    native: bool | None = None
    _engines: dict[int, tuple[Any, BatchedDecoder]] = field(default_factory=dict, repr=False)
    _decoders: dict[Any, Any] = field(default_factory=dict, repr=False)

    def _concrete(self, inp: Any) -> Any:
        """``cons.concrete(inp)``, looked up by the sizes and constants (``Construction.concrete``'s own key)."""
        try:
            key = (frozenset(self.cons.env(inp).items()), frozenset(self.cons.subs(inp).items()))
            dec = self._decoders.get(key)
        except TypeError:  # unhashable constants: no lookup
            return self.cons.concrete(inp)
        if dec is None:
            dec = self._decoders[key] = self.cons.concrete(inp)
        return dec

    def engine(self, dec: Any) -> BatchedDecoder:
        """The batched engine of a concrete decoder (one per decoder object)."""
        got = self._engines.get(id(dec))
        if got is None or got[0] is not dec:
            got = (dec, BatchedDecoder(dec))
            self._engines[id(dec)] = got
        return got[1]

    def shipped(self, forked: bool = False) -> BatchedChecker:
        """A copy to send to a shard's worker: no certificates collected yet, no decoders or engines built.

        ``forked``: the workers are forked from this process (:class:`~symcot.check.shard.LocalPool`), so they
        inherit the decoders and compiled kernels built so far (:meth:`prepare`) instead of building their own.
        """
        if forked:
            return replace(self, certificates=[], exact_fallbacks=0)
        return replace(self, certificates=[], exact_fallbacks=0, _engines={}, _decoders={})

    def prepare(self, fam: Family, size: int) -> None:
        """Build the decoder and compile the kernel of ``fam``'s inputs of ``size`` here, before workers fork."""
        if fam.batch_range is None or not self.spec.batched or self.native is False or fam.count(size) == 0:
            return
        batch = fam.batch_range(size, 0, 1)
        if batch.count:
            self.engine(self._concrete(batch.item(0))).native_kernel(1, kernel_opt(batch.total))

    # -- one batch of enumerated inputs --------------------------------------------------------------
    def check_batch(self, batch: Any) -> BatchOutcome:
        """Check an :class:`~symcot.inputs.batch.InputBatch` (rank order), up to and with its first failure.

        In the native kernel with the claim's batch reference where both exist
        (:func:`symcot.check.kernel_check.check_input_batch`), else input by input (:meth:`check`) on the
        batch's rows as the enumerator yields them; the verdict, counterexample and count are the same.
        """
        if batch.count == 0:
            return BatchOutcome(0, None)
        if self.spec.batched and self.native is not False:
            dec = self._concrete(batch.item(0))
            kernel = self.engine(dec).native_kernel(1, kernel_opt(batch.total))
            if kernel is not None:
                paused = gc.isenabled()
                gc.disable()
                try:
                    out = check_input_batch(self.cons, self.spec, batch, dec, kernel)
                except (NotImplementedError, InvalidInputError, RuntimeError):
                    out = None  # not for this batch (or an input error): input by input, as the exact checker
                finally:
                    if paused:
                        gc.enable()
                if out is not None:
                    if out.certificate is not None:
                        self.certificates.append(out.certificate)
                    self.exact_fallbacks += out.exact_rows
                    return out
        items = [batch.item(i) for i in range(batch.count)]
        results, err = self.check(items)
        for k, res in enumerate(results):
            if res is not None:
                return BatchOutcome(k + 1, (k, items[k], res))
        return BatchOutcome(len(results), None, error=err)

    # -- one chunk ----------------------------------------------------------------------------------
    def check(self, inputs: list[Any]) -> tuple[list[dict[str, Any] | None], BaseException | None]:
        """Results for ``inputs`` in order, up to and including the first failure.

        Returns ``(results, error)``: ``results[i]`` is ``None`` (passes) or the counterexample of
        :func:`check_input` (``Mismatch.as_dict()``); ``error`` is the exception that preparing the input
        after the last result raised (the exact checker would have raised it there too), else ``None``.
        """
        # the per-input Python below allocates many small objects that live until the batch ends; the
        # cyclic garbage collector would rescan them over and over (~40 % of the time), so it waits
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._check(inputs)
        finally:
            if paused:
                gc.enable()

    def _check(self, inputs: list[Any]) -> tuple[list[dict[str, Any] | None], BaseException | None]:
        rows: list[_Row] = []
        error: BaseException | None = None
        spec = self.spec
        spec.check_selection(self.cons)
        for k, inp in enumerate(inputs):
            try:
                states = spec.reference(inp)
                dec = self._concrete(inp)
                prompt = self.cons.prompt(inp)
                total = len(states) - 1
                table = spec.expected_table(self.cons, inp, states)
                expected = None
                if table is None or k < SPOT_CHECK:
                    expected = [spec.expected(self.cons, inp, states[t], t) for t in range(total + 1)]
                if table is not None and k < SPOT_CHECK:
                    why = table_disagreement(table, expected)
                    if why:
                        raise EngineDisagreement(f"the encoding's table disagrees with its per-step values on "
                                                 f"{inp!r}: {why}")
            except EngineDisagreement:
                raise
            except Exception as e:  # noqa: BLE001 - re-raised at the same input, as the exact checker does
                error = e
                break
            rows.append(_Row(k, inp, states, total, dec, prompt, None if table is not None else expected, table))
        bad = self._failures(rows)
        n_ok = len(rows)
        first = min(bad) if bad else None
        results: list[dict[str, Any] | None] = []
        for r in rows:
            if first is not None and r.k > first:
                break
            if r.k == first:
                mm = check_input(self.cons, spec, r.inp)
                if mm is None:
                    raise EngineDisagreement(
                        f"the batched engine fails input #{r.k} of its batch but exact replay accepts it "
                        f"({bad[first]}); please report this")
                results.append(mm.as_dict())
                return results, None
            results.append(None)
        assert len(results) == n_ok
        return results, error

    # -- the batched comparison ---------------------------------------------------------------------
    def _failures(self, rows: list[_Row]) -> dict[int, str]:
        """``{chunk position: why}`` for the rows whose batched replay departs from the reference."""
        bad: dict[int, str] = {}
        groups: dict[tuple[int, int], list[_Row]] = {}
        for r in rows:
            y0_bad = compare_blocks(r.dec.layout, r.prompt.tokens[-1], r.y0_expected())
            if y0_bad:
                bad[r.k] = f"y_0 block {y0_bad[0][0]}"
                continue
            groups.setdefault((id(r.dec), len(r.prompt.tokens)), []).append(r)
        for grp in groups.values():
            try:
                bad.update(self._run_group(grp))
            except NotNumericError:
                # not representable by the batched engine: the exact path decides each input
                for r in grp:
                    self.exact_fallbacks += 1
                    if check_input(self.cons, self.spec, r.inp) is not None:
                        bad[r.k] = "exact path"
                        break
        return bad

    def _run_group(self, grp: list[_Row]) -> dict[int, str]:
        spec = self.spec
        dec = grp[0].dec
        layout = dec.layout
        eng = self.engine(dec)
        exp = Expected(grp, layout)
        bad: dict[int, str] = {}
        for i in exp.unrepresentable:
            r = grp[i]
            self.exact_fallbacks += 1
            if check_input(self.cons, spec, r.inp) is not None:
                bad[r.k] = "exact path"
        runnable = [i for i in range(len(grp)) if i not in exp.unrepresentable]
        if not runnable:
            return bad
        totals = np.array([grp[i].total for i in runnable], dtype=np.int64)
        stop = self.cons.stop

        def on_step(view: StepView) -> np.ndarray:
            t = view.t
            idx = np.asarray(runnable)[view.rows]
            fail = exp.mismatch(view, idx)
            if stop is not None:
                stops = _stop_fires(stop, layout, view)
                tot = totals[view.rows]
                fail |= (stops & (t < tot)) | (~stops & (t == tot))
            for j in np.flatnonzero(fail):
                bad[grp[idx[j]].k] = f"step {t}"
            return fail

        prompts = [grp[i].prompt.tokens for i in runnable]
        keep = bool(spec.conclusions)
        run = eng.run(prompts, totals, on_step=on_step, keep_outputs=keep, native=self.native)
        self.certificates.append(run.certificate)
        if keep:
            assert run.outputs is not None
            for j, i in enumerate(runnable):
                r = grp[i]
                if r.k in bad:
                    continue
                msg = spec.final_failure(r.inp, run.outputs[j], r.prompt.tokens[-1], layout)
                if msg:
                    bad[r.k] = "final"
        return bad

    def certificate(self) -> Certificate | None:
        """The certificates of every engine run so far, merged."""
        return merge(self.certificates)


def _stop_fires(stop: StopRule, layout: Any, view: StepView) -> np.ndarray:
    """Whether the stop rule fires on each row of ``view`` (its batched reading, spot-checked at ``t = 1``)."""
    stops = np.asarray(stop.fires_batched(view), dtype=bool)
    if view.t == 1:  # the two readings of the stop rule must agree: spot-check a few rows
        ex = exact_lists(view.y[:, :8], view.scale)
        if [stop.fires(layout, y) for y in ex] != stops[:8].tolist():
            raise EngineDisagreement("the batched stop rule disagrees with the exact one")
    return stops


def batched_family(fam: Family, checker: BatchedChecker, chunk: int | None = None) -> Family:
    """``fam`` with each input paired with its pre-computed result, for :func:`run_property_check`.

    A family with batches (``Family.batch_range``) is checked batch by batch (:meth:`BatchedChecker.check_batch`):
    the inputs that pass come as :class:`~symcot.check.parallel.Passed` counts, the failing one as
    ``(input, counterexample)``.
    """
    size_of_chunk = chunk or checker.batch

    def batches(size: int) -> Iterator[Any]:
        assert fam.batch_range is not None
        total = fam.count(size)
        for start in range(0, total, size_of_chunk):
            out = checker.check_batch(fam.batch_range(size, start, min(start + size_of_chunk, total)))
            if (yield from batch_items(out)):
                return

    def inputs(size: int) -> Iterator[tuple[Any, Any]]:
        if fam.batch_range is not None:
            yield from batches(size)
            return
        it = iter(fam.inputs(size))
        while True:
            part = list(islice(it, size_of_chunk))
            if not part:
                return
            results, err = checker.check(part)
            yield from zip(part, results)
            if err is not None:
                from symcot.check.exhaustive import input_text

                raise locate(err, f"on input {input_text(fam, part[len(results)])}") from err
            if results and results[-1] is not None:
                return

    return replace(fam, inputs=inputs, describe=lambda item: fam.describe(item[0]), inputs_range=None,
                   batch_range=None)


def _result(item: tuple[Any, Any]) -> Any:
    return item[1]


def run_batched_check(
    claim_id: str,
    cons: Construction,
    spec: StepwiseSpec,
    families: list[Family],
    max_size: int,
    paper_sizes: dict[str, Any] | None = None,
    progress: Progress | None = None,
    method: str = METHOD,
    jobs: int = 1,
    batch: int = BATCH,
    engine: Any = None,
    reach: int | None = None,
    native: bool | None = None,
) -> Verdict:
    """Check ``cons`` on every family up to ``max_size`` with the batched engine.

    Same arguments and the same verdict, counterexample and ``inputs_checked`` as
    :func:`~symcot.check.exhaustive.run_construction_check`; ``details`` adds the engine and its
    exactness certificate. ``jobs > 1`` (or a distributed ``engine``, see :mod:`symcot.check.shard`)
    checks large sizes as independent rank-range shards on that many processes. ``reach`` takes the
    families marked ``Family.reach`` up to that size (``symcot verify --reach``). ``native=False`` keeps
    the compiled kernel out (the numpy engine alone).
    """
    start = time.perf_counter()
    notes, size_info, refuted = check_sizes(claim_id, cons, paper_sizes, start)
    if refuted is not None:
        return refuted
    checker = BatchedChecker(cons, spec, batch, native=native)
    shard_stats: dict[str, Any] = {}
    if jobs > 1 or engine is not None:
        wrapped = [sharded_family(f, checker, batched_family(f, checker), jobs=jobs, engine=engine, stats=shard_stats)
                   for f in families]
    else:
        wrapped = [batched_family(f, checker) for f in families]
    row = run_property_check(claim_id, cons.variant, method, wrapped, max_size, _result, progress, 1, reach)
    if row.failing_input is not None:  # the family's item is (input, result)
        row.failing_input = row.failing_input[0]
    row.notes = notes + row.notes
    row.sizes = size_info
    row.seconds = time.perf_counter() - start
    certs = checker.certificates + shard_stats.get("certificates", [])
    cert = merge(certs)
    row.details = {
        **(row.details or {}),
        "engine": "batched",
        "batch": batch,
        "certificate": cert.as_dict() if cert else None,
        "exact_fallbacks": checker.exact_fallbacks + shard_stats.get("exact_fallbacks", 0),
    }
    if shard_stats:
        row.details["shards"] = {k: v for k, v in shard_stats.items() if k not in ("certificates",)}
    return row
