"""One batch replayed exactly with the margin recorder, and its tokens compared with the claim's spec.

The replay runs in float64 where that is provably exact: every weight and prompt value is an integer,
so every value of the run is one, and the recorder's bound on every partial sum and product (``sums``)
and on every stored value stays at most ``2^52``, so float64 formed each of them exactly. Otherwise (a
rational weight, or a larger bound) the batch is replayed again on exact Python numbers. Either way the
figures are exact; :attr:`BatchResult.engine` says which ran.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from symcot.check.extremal_search import Score
from symcot.check.stepwise import Mismatch, StepwiseSpec, final_mismatch, step_mismatch
from symcot.replay.floating import FloatDecoder, generate
from symcot.replay.scaling import as_rational
from symcot.study.precision.batches import Batch
from symcot.study.precision.margins import CERTIFY_LIMIT, MarginRecorder, RunStats, Witness, exact_number
from symcot.study.precision.rows import RowRecorder, Tee


@dataclass
class BatchResult:
    """The exact figures of a batch, its exact tokens and the first input whose tokens break the spec."""

    stats: RunStats
    outputs: np.ndarray  # (T, B, d): y_1 … y_T, exact (certified float64 integers, or object)
    denominator: int
    engine: str  # "float64 (certified integers)" or "exact"
    failure: tuple[int, Any, Mismatch] | None  # (row, input, mismatch) of the first failing row
    rows: list[Score] | None = None  # per row, what guides the search (``run_batch(rows=True)``)


def coordinate_namer(dec: Any) -> Any:
    """``name(layer, label, index)``: the block coordinate (``W_1: cur[2]``) of a map's output, for witnesses.

    ``label`` is a map label (``Q_T``, ``W_O``, ``W_1``, …), ``token``, ``ffn_in`` or ``hidden`` (the
    output layout of that layer's ``W_1``).
    """
    layouts: dict[tuple[int, str], Any] = {}
    for k, layer in enumerate(dec.layers, 1):
        pairs = [("W_1", layer.ffn.w1), ("W_2", layer.ffn.w2), ("hidden", layer.ffn.w1)]
        if layer.attention is not None:
            pairs.append(("W_O", layer.attention.out))
            for h in layer.attention.heads:
                pairs += [(f"Q_{h.name}", h.query), (f"K_{h.name}", h.key), (f"V_{h.name}", h.value)]
        for label, m in pairs:
            layouts[(k, label)] = m.dst

    def name(layer: int | None, label: str, index: int) -> str:
        lay = dec.layout if label in ("token", "ffn_in") else layouts.get((layer or 0, label))
        if lay is None:
            return f"{label}[{index}]"
        try:
            return f"{label}: {lay.coordinate_name(index)}"
        except IndexError:
            return f"{label}[{index}]"

    return name


def head_contributions(dec: Any) -> dict[tuple[int, str], Any]:
    """Per head, ``f(values)``: its contribution to ``α''`` (its columns of ``W_O``) for ``(L, B, d_value)`` values.

    Exact: float64 values are projected in float64 only when ``Σ|W|·|v| ≤ 2^52`` (every product and sum
    then exact on integers), otherwise on Python numbers. Heads of a ``W_O`` with degree-2 terms get none.
    """
    out: dict[tuple[int, str], Any] = {}
    for k, layer in enumerate(dec.layers, 1):
        if layer.attention is None or layer.attention.out.quad:
            continue
        w_o = layer.attention.out
        exact = np.zeros((w_o.d_out, w_o.d_in), dtype=object)
        exact.fill(0)
        for o, i, c in w_o.lin:
            exact[o, i] += as_rational(c)
        off = 0
        for h in layer.attention.heads:
            dv = h.value.d_out
            out[(k, h.name)] = _projector(exact[:, off: off + dv])
            off += dv
    return out


def _projector(block: np.ndarray) -> Any:
    as_float = np.ascontiguousarray(block.astype(np.float64).T)
    row_sum = float(np.abs(as_float).sum(axis=0).max(initial=0.0))  # max_o Σ_i |W_oi|
    integral = all(Fraction(x).denominator == 1 for x in block.ravel())

    def project(values: np.ndarray) -> np.ndarray:
        shape = values.shape
        flat = values.reshape(-1, shape[-1])
        if values.dtype != object and integral and float(np.abs(flat).max(initial=0.0)) * row_sum <= CERTIFY_LIMIT:
            return (flat @ as_float).reshape(*shape[:-1], block.shape[0])
        if values.dtype != object:
            flat = np.vectorize(exact_number, otypes=[object])(flat)
        return (flat @ block.T).reshape(*shape[:-1], block.shape[0])

    return project


def weight_magnitude(fd: FloatDecoder, stats: RunStats, inp: Any) -> None:
    """The largest ``|coefficient|`` of every map into ``stats.magnitudes["weights"]``."""
    for layer, label, m in fd.maps():
        c = m.coefficients()
        if c.size:
            i = int(np.argmax(np.abs(c)))
            v = exact_number(abs(c[i]))
            stats.magnitudes["weights"].offer(v, Witness(inp, -1, "-", layer, label))


def _denominator(arr: np.ndarray) -> int:
    den = 1
    if arr.dtype == object:
        for v in arr.ravel():
            d = getattr(v, "denominator", 1)
            if d != 1:
                den = math.lcm(den, d)
    return den


def run_batch(batch: Batch, spec: StepwiseSpec, eps: float, betas: tuple[float, ...] = (),
              force_exact: bool = False, margins: bool = True, rows: bool = False) -> BatchResult:
    """Replay ``batch`` exactly with the margin recorder and compare every row with ``spec``.

    ``margins=False`` records magnitudes and partial sums only (see :class:`MarginRecorder`); ``rows=True`` also
    each row's own :class:`~symcot.check.extremal_search.Score` (:class:`~.rows.RowRecorder`).
    """
    prompt = batch.prompt_array()
    coord = coordinate_namer(batch.decoder)
    contrib = head_contributions(batch.decoder) if margins else {}
    engine = "exact"
    stats: RunStats | None = None
    outputs: np.ndarray | None = None
    layers = len(batch.decoder.layers)
    per_row: RowRecorder | None = None
    for fmt in ("float64", "exact"):
        if fmt == "float64" and (force_exact or not batch.integral()):
            continue
        fd = FloatDecoder(batch.decoder, fmt)
        rec = MarginRecorder(batch.inputs, batch.labels, coord, eps, betas, margins, layers, contrib)
        per_row = RowRecorder(batch.rows, len(batch.labels), layers) if rows else None
        outs = generate(fd, batch.prompt_float() if fmt == "float64" else prompt, batch.steps,
                        recorder=rec if per_row is None else Tee(rec, per_row))
        weight_magnitude(fd, rec.stats, batch.inputs[0])
        top = max(rec.stats.stored, rec.stats.sums.value or 0)
        if fmt == "exact" or (np.all(np.isfinite(outs)) and top <= CERTIFY_LIMIT):
            engine = "exact" if fmt == "exact" else "float64 (certified integers)"
            stats, outputs = rec.stats, outs
            break
    assert stats is not None and outputs is not None
    den = _denominator(outputs) if engine == "exact" else 1
    stats.denominator = math.lcm(stats.denominator, den)
    failure = None
    for r in range(batch.rows):
        mm = row_mismatch(spec, batch, r, exact_tokens(outputs[:, r]))
        if mm is not None:
            failure = (r, batch.inputs[r], mm)
            break
    return BatchResult(stats, outputs, den, engine, failure, per_row.scores() if per_row is not None else None)


def exact_tokens(rows: np.ndarray) -> list[list[Any]]:
    """``(T, d)`` exact values (certified float64 integers or Python numbers) as token lists."""
    if rows.dtype == object:
        return [[exact_number(v) for v in row] for row in rows]
    return rows.astype(np.int64).tolist()


def row_mismatch(spec: StepwiseSpec, batch: Batch, row: int, tokens: list[list[Any]]) -> Mismatch | None:
    """The claim's comparison of one row's generated tokens ``y_1 … y_T`` (exact numbers).

    Step by step against the construction's encoding and stop rule, then the spec's conclusions
    (:func:`~symcot.check.stepwise.step_mismatch`, :func:`~symcot.check.stepwise.final_mismatch`).
    """
    layout = batch.decoder.layout
    cons = batch.construction
    inp, states = batch.inputs[row], batch.states[row]
    layers = len(batch.decoder.layers)
    for t, y in enumerate(tokens, 1):
        mm = step_mismatch(cons, spec, inp, states, t, y, layout, layers)
        if mm is not None:
            return mm
    return final_mismatch(spec, inp, tokens, batch.prompts[row][-1], layout)
