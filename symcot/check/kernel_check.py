"""A whole batch of enumerated inputs checked without per-input Python: batch reference, prompts, kernel compare.

:class:`~symcot.check.batched_check.BatchedChecker` checks a list of input objects, preparing each in Python
(reference run, prompt, expected table). For a rank range of Dyck words or ordered trees
(:class:`~symcot.inputs.batch.InputBatch`) :func:`check_input_batch` does the same work on arrays:

1. the claim's batch reference (``StepwiseSpec.reference_batch``) gives every row's states as
   :class:`~symcot.algorithms.batched.fields.Fields`; the construction's state encoding is read on them
   (:meth:`StateEncoding.evaluate <symcot.constructions.encoding.StateEncoding.evaluate>`, the interpreter the
   per-input table uses);
2. the construction's prompt keys are read on the batch's stand-in (:meth:`Construction.prompt_batch
   <symcot.constructions.base.Construction.prompt_batch>`);
3. the native kernel runs every row and compares every ``y_t`` with the encoding and the stop rule as it goes
   (:func:`symcot.replay.native.check.check_indexed`), returning only the first step that differs per row;
4. the claim's conclusions are read once on the batch (:meth:`Conclusion.batch_failures
   <symcot.check.spec.Conclusion.batch_failures>`: the conclusion's own ``read`` on the runs and the batch's
   stand-in, its ``answer`` on the stand-in where it gives every row's, else on the input of each row that
   passed every step, up to the first row that did not).

A few rows of every batch (:data:`SPOT`) are also prepared per input, and their reference fields, prompt
tokens, sizes and conclusions' answers (where read on the stand-in) must equal the batch's (else
:class:`EngineDisagreement`). Every row the kernel flags is
re-checked by exact replay (:func:`~symcot.check.stepwise.check_input`), which gives the counterexample; a
flagged row that exact replay accepts is an engine disagreement, never a verdict. Rows the kernel cannot
decide (an int64 overflow, an inexact feedback, an expected value beyond int64) are decided by exact replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from symcot.check.spec import BatchRunView, NotInBatch, StandInDisagreement, StepwiseSpec
from symcot.check.stepwise import check_input
from symcot.constructions.base import Construction
from symcot.constructions.encoding import BlockValues, batch_field_arrays, field_arrays
from symcot.errors import SymcotError
from symcot.replay.native.check import STATUS, StopSpec, Term, check_indexed
from symcot.replay.scaling import LIMITS, Certificate
from symcot.replay.tokens import exact_table, intern_tokens

#: How many rows of every batch are also prepared per input and compared with the batch's arrays.
SPOT = 3

#: ``(row, input, counterexample)``: the first failing row of a batch.
Failure = tuple[int, Any, dict[str, Any]]


class EngineDisagreement(SymcotError):
    """The batched engine flagged an input that the exact per-input replay accepts (a bug in an engine)."""


@dataclass
class BatchOutcome:
    """What checking one batch found: rows checked (up to and with the first failure) and that failure.

    ``exact_rows`` counts rows decided by exact replay because the kernel could not; ``certificate`` is the
    batch's exactness certificate.
    """

    checked: int
    failure: Failure | None
    exact_rows: int = 0
    certificate: Certificate | None = None
    reasons: dict[str, int] = field(default_factory=dict)
    error: BaseException | None = None


def _spot_rows(count: int) -> list[int]:
    return sorted({0, count // 2, count - 1} if count > 2 else set(range(count)))[:SPOT]


def _same_arrays(a: Any, b: Any) -> bool:
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(_same_arrays(x, y) for x, y in zip(a, b))
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def spot_check(cons: Construction, spec: StepwiseSpec, batch: Any, arrays: dict[tuple[str, str], Any],
               lengths: np.ndarray, table: list[list[Any]], index: np.ndarray, key: Any, rows: list[int]) -> None:
    """Prepare ``rows`` per input and compare with the batch's arrays; :class:`EngineDisagreement` if they differ.

    Compared: the number of reference states, every field the encoding reads (:func:`field_arrays`), every
    prompt token, and the sizes and constants of the decoder (``key``: the batch's).
    """
    sizes = cons.concrete(batch.item(0)).layout.sizes
    for r in rows:
        inp = batch.item(r)
        states = spec.reference(inp)
        if len(states) != int(lengths[r]):
            raise EngineDisagreement(f"the batch reference has {int(lengths[r])} states for {inp!r}, the "
                                     f"reference {len(states)}")
        one = field_arrays(states, cons.encoding, sizes)
        if one is None:
            raise EngineDisagreement(f"the reference states of {inp!r} are not integers; the batch's are")
        for fk, want in one.items():
            got = arrays[fk]
            if isinstance(got, tuple):  # (values, mask); a batch's mask is None where nothing is missing
                got_r: Any = tuple(np.zeros(w.shape, dtype=bool) if x is None else x[r, : len(states)]
                                   for x, w in zip(got, want))
            else:
                got_r = got[r, : len(states)]
            if not _same_arrays(got_r, want):
                raise EngineDisagreement(f"the batch reference disagrees with the reference on field {fk[0]} "
                                         f"of {inp!r}")
        prompt = cons.prompt(inp)
        if [table[j] for j in index[r].tolist()] != prompt.tokens:
            raise EngineDisagreement(f"the batch prompt disagrees with the prompt of {inp!r}")
        if _decoder_key(cons, inp) != key:
            raise EngineDisagreement(f"{inp!r} has other sizes or constants than the first input of its batch")


def _decoder_key(cons: Construction, inp: Any) -> Any:
    return (tuple(sorted((str(k), v) for k, v in cons.env(inp).items())),
            tuple(sorted((str(k), str(v)) for k, v in cons.subs(inp).items())))


def _terms(blocks: dict[str, BlockValues], layout: Any) -> list[Term]:
    out = []
    for b, bv in blocks.items():
        col = layout.offsets[b]
        if bv.form == "const":
            out.append(Term(col, bv.size, "const", present=bv.present, value=int(bv.data)))
        elif bv.form == "index":
            out.append(Term(col, bv.size, "index", bv.data, bv.present))
        else:
            out.append(Term(col, bv.size, "int8" if bv.data.dtype == np.int8 else "int64", bv.data, bv.present))
    return out


def _token_table(tokens: list[list[Any]], d: int) -> tuple[np.ndarray, int]:
    """The distinct tokens as integers ``(U, d)`` at their common scale, in order (:mod:`symcot.replay.tokens`)."""
    table, idx = intern_tokens([tokens])
    table, scale = exact_table(table)
    return table[idx[0]].reshape(len(tokens), d), scale


def _exact(values: np.ndarray, scale: int) -> np.ndarray | None:
    """``values / scale`` as integers, or ``None`` if a value is not a multiple of ``scale``."""
    if scale == 1:
        return values
    if (values % scale).any():
        return None
    return values // scale


@dataclass
class KernelRun:
    """A batch prepared for the kernel (:func:`prepare_batch`).

    What :func:`~symcot.replay.native.check.check_indexed` takes, and what reading its result needs.
    """

    kernel: Any
    table: np.ndarray
    index: np.ndarray
    steps: np.ndarray
    terms: list[Term]
    expected_steps: int
    stop: StopSpec | None
    trace_cols: list[int]
    order: np.ndarray
    traced: list[str]
    unrepresentable: np.ndarray

    def run(self) -> Any:
        """The kernel on the batch: per row the first step that differs, the status, the last token, the trace."""
        return check_indexed(self.kernel, self.table, self.index, np.where(self.unrepresentable, 0, self.steps),
                             self.terms, self.expected_steps, self.stop, self.trace_cols, self.order)


def prepare_batch(cons: Construction, spec: StepwiseSpec, batch: Any, dec: Any, kernel: Any) -> KernelRun:
    """Steps 1 and 2 of the module docstring (and the spot check): the batch as the kernel's arrays.

    Raises:
        NotImplementedError: the encoding or the prompt tokens are not integers here (the caller checks the
            batch input by input).
        EngineDisagreement: a spot-checked row differs from its per-input preparation.

    """
    assert spec.reference_batch is not None
    spec.check_selection(cons)
    layout = dec.layout
    item0 = batch.item(0)
    lam = cons.lam_value(item0)
    fields = spec.reference_batch(batch)
    arrays, bad_rows = batch_field_arrays(fields, cons.encoding, layout.sizes)
    blocks = cons.encoding.evaluate(arrays, fields.steps, layout.sizes, lam)
    if blocks is None:
        raise NotImplementedError("the encoding is not integral here")
    if spec.compare is not None:  # the claim compares part of the encoding (StepwiseSpec.compare)
        blocks = {b: bv for b, bv in blocks.items() if b in spec.compare}
    for bv in blocks.values():
        bad_rows = bad_rows | bv.unrepresentable
    prompt = cons.prompt_batch(batch, layout, lam)
    spot_check(cons, spec, batch, arrays, fields.lengths, prompt.tokens, prompt.index, _decoder_key(cons, item0),
               _spot_rows(batch.count))
    table, scale = _token_table(prompt.tokens, layout.dim)
    if table.dtype == object or scale != kernel.sd.s_token:
        raise NotImplementedError("prompt tokens beyond int64 or at another scale")
    stop = None
    if cons.stop is not None:
        stop = StopSpec(layout.offsets[cons.stop.block], layout.sizes[cons.stop.block], cons.stop.value)
    traced = [b for c in spec.conclusions for b in c.trace]
    trace_cols = [c for b in traced for c in range(layout.offsets[b], layout.offsets[b] + layout.sizes[b])]
    # rows sorted by their prompts: rows run one after the other then share long prompt prefixes in the kernel
    order = np.lexsort(prompt.index.T[::-1])
    return KernelRun(kernel, table, prompt.index, fields.lengths - 1, _terms(blocks, layout), fields.steps, stop,
                     trace_cols, order, traced, bad_rows)


def check_input_batch(cons: Construction, spec: StepwiseSpec, batch: Any, dec: Any, kernel: Any) -> BatchOutcome:
    """Check every row of ``batch`` (module docstring); ``dec`` is the batch's decoder, ``kernel`` its native kernel.

    Returns the rows checked, up to and with the first that fails (in rank order), and its counterexample
    from exact replay.
    """
    kr = prepare_batch(cons, spec, batch, dec, kernel)
    res = kr.run()
    flagged = res.bad >= 0
    exact = kr.unrepresentable | (res.status != 0)
    reasons = {STATUS[int(s)]: int((res.status == s).sum()) for s in np.unique(res.status).tolist() if s}
    if kr.unrepresentable.any():
        reasons["an expected value is not an integer here"] = int(kr.unrepresentable.sum())
    ok = ~flagged & ~exact
    if spec.conclusions and ok.any():
        missed, undecided = _conclusion_failures(spec, batch, res, kr, ok, dec.layout)
        flagged |= missed
        exact |= undecided
        if undecided.any():
            reasons["a conclusion not read in batch"] = int(undecided.sum())
    cert = Certificate("int64", "native-checked", None, LIMITS["int64"], None, False, kernel.sd.scales(),
                       paths={"int64": 1})
    n_exact = 0
    for r in np.flatnonzero(flagged | exact).tolist():
        inp = batch.item(r)
        mm = check_input(cons, spec, inp)
        if exact[r]:
            n_exact += 1
        elif mm is None:
            raise EngineDisagreement(f"the batched engine fails input {inp!r} but exact replay accepts it; "
                                     "please report this")
        if mm is not None:
            return _outcome(r + 1, (r, inp, mm.as_dict()), n_exact, cert, reasons)
    return _outcome(batch.count, None, n_exact, cert, reasons)


def _outcome(checked: int, failure: Failure | None, n_exact: int, cert: Certificate,
             reasons: dict[str, int]) -> BatchOutcome:
    if n_exact:
        cert.promotions.append({"rows": n_exact, "from": "native", "to": "exact replay",
                                "reason": "; ".join(f"{k}: {v}" for k, v in reasons.items())})
    return BatchOutcome(checked, failure, n_exact, cert, reasons)


def _conclusion_failures(spec: StepwiseSpec, batch: Any, res: Any, kr: KernelRun, ok: np.ndarray,
                         layout: Any) -> tuple[np.ndarray, np.ndarray]:
    """Rows (among ``ok``) whose runs miss a conclusion, and rows not decided on the batch (exact replay's).

    Only the ``ok`` rows before the first row the kernel flagged (and could hold) are read: the batch's outcome
    is its first failing row, and such a row fails (or is an engine disagreement).
    """
    sd = kr.kernel.sd
    steps, traced = kr.steps, kr.traced
    final = _exact(res.final, sd.s_out)
    y0 = _exact(kr.table[kr.index[:, -1]], sd.s_token)
    trace = _exact(res.trace, sd.s_out)
    none = np.zeros(len(steps), dtype=bool)
    if final is None or y0 is None or trace is None:
        return none, ok.copy()  # values that are not integers: exact replay decides these rows
    if (steps == 0).any():
        final = np.where((steps == 0)[:, None], y0, final)
    run = BatchRunView(final, y0, trace, traced, steps, layout)
    need = ok.copy()
    flagged = np.flatnonzero((res.bad >= 0) & (res.status == 0) & ~kr.unrepresentable)
    if len(flagged):
        need[flagged[0]:] = False
    bad = none.copy()
    try:
        for c in spec.conclusions:
            bad |= c.batch_failures(run, batch, need, _spot_rows(batch.count))
    except NotInBatch:  # e.g. a read of a token some run does not have: per input (it fails there)
        return none, need
    except StandInDisagreement as e:
        raise EngineDisagreement(f"{e}; please report this") from e
    return bad & need, none
