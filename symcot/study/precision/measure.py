"""Float and softmax replays of a batch, read back and compared with the claim's spec.

A float run feeds its raw outputs back (the paper's ``y_t ∈ R^d``). To compare a generated token with
the spec, each coordinate is read as the nearest multiple of ``1/D`` (``D`` the common denominator of the
exact run's tokens; 1 for the integer constructions), the reading a decoder of discrete states would
make. A row whose readings equal the exact run's tokens at every step passes (the exact run passed the
spec); any other row is compared with the spec itself (:func:`~symcot.study.precision.analysis.row_mismatch`),
so a difference in a block the spec does not compare is not a failure. A non-finite value is one.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from symcot.check.stepwise import Mismatch, StepwiseSpec
from symcot.replay.floating import HARD, FloatDecoder, Hard, Softmax, generate, get_format
from symcot.study.precision.analysis import BatchResult, row_mismatch
from symcot.study.precision.batches import Batch


@dataclass(frozen=True)
class Config:
    """One float run setting: a format and an attention rule."""

    fmt: str
    attention: Hard | Softmax = HARD

    @property
    def key(self) -> str:
        """``float32 hard``, ``float64 softmax β=100``."""
        return f"{self.fmt} {self.attention}"

    @property
    def softmax(self) -> bool:
        """Softmax attention."""
        return isinstance(self.attention, Softmax)


def _read(x: np.ndarray, den: int) -> np.ndarray:
    """Floats read as integers ``k`` meaning ``k/den`` (float64 array of integral values)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.rint(x.astype(np.float64) * den)


def _exact_scaled(outputs: np.ndarray, den: int) -> np.ndarray:
    if outputs.dtype == object:
        return np.array([[[float(v * den) for v in row] for row in step] for step in outputs], dtype=np.float64)
    return outputs * den


def _tokens(read: np.ndarray, row: int, den: int) -> list[list[Any]]:
    ints = read[:, row].astype(np.int64).tolist()
    return ints if den == 1 else [[Fraction(k, den) for k in tok] for tok in ints]


def float_failure(batch: Batch, exact: BatchResult, spec: StepwiseSpec, config: Config,
                  cache: dict[Any, FloatDecoder] | None = None) -> tuple[int, Mismatch] | None:
    """The first row (in family order) whose float run departs from the spec: ``(row, mismatch)``."""
    fmt = get_format(config.fmt)
    key = (id(batch.decoder), fmt.name)
    fd = cache.get(key) if cache is not None else None
    if fd is None:
        fd = FloatDecoder(batch.decoder, fmt)
        if cache is not None:
            cache[key] = fd
    prompt = fmt.round(batch.prompt_float().astype(fmt.accum))
    outs = generate(fd, prompt, batch.steps, config.attention)
    den = exact.denominator
    read = _read(outs, den)
    want = _exact_scaled(exact.outputs, den)
    finite = np.isfinite(read).all(axis=(0, 2))
    same = (read == want).all(axis=(0, 2)) & finite
    bad = sorted((int(r) for r in np.flatnonzero(~same)), key=lambda r: batch.order[r])
    for r in bad:
        if not finite[r]:
            t = int(np.flatnonzero(~np.isfinite(read[:, r]).all(axis=1))[0]) + 1
            return r, Mismatch(t, None, "overflow", "non-finite value", "finite values", "inf or nan",
                               f"the {config.key} run produced a non-finite value at step {t}")
        mm = row_mismatch(spec, batch, r, _tokens(read, r, den))
        if mm is not None:
            return r, mm
    return None
