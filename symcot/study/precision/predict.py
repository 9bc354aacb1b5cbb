r"""What a real transformer needs, derived from the exact figures: β(n, ε), bits, formats, thresholds.

**Softmax temperature.** For a head event with a unique maximum at ``j0``, margin ``γ_e`` and the
positions to suppress differing from ``v_{j0}`` by at most ``Δ_e`` (``‖·‖_∞``), softmax at ``β`` puts
weight at most ``Σ_{i≠j0} e^{-β(a_{j0}-a_i)} ≤ (L-1)e^{-βγ_e}`` off ``j0``, so its output is within
``(L-1)·Δ_e·e^{-βγ_e}`` of ``v_{j0}``; ``β ≥ ln((L-1)Δ_e/ε)/γ_e`` makes that at most ``ε``. A benign tie
(a tied group of ``k`` positions with equal values) needs the same with ``L - k`` and the group gap. A
deciding tie needs ``β = ∞``: softmax gives tied positions equal weight. ``β(n, ε)`` is the largest
requirement over every event of every input of size ``n``.

**A tie-free variant.** Subtracting ``δ·i`` from the score of position ``i`` (a positional coordinate in
every token and a constant query coordinate) breaks every tie toward the smallest index, as the hard
rule does, and with ``δ = γ_min/L`` (``γ_min`` the smallest margin or group gap, ``L`` the longest context)
leaves every margin at least ``γ_min/L``; then ``β ≥ L·ln((L-1)Δ/ε)/γ_min`` suffices.

**Bits.** Let ``D`` be the common denominator of every value of the run, ``M`` the largest magnitude of
any stored value (weights, tokens, queries, keys, values, scores, every map output) and ``S`` the
largest ``Σ|c|·|monomial|`` (or ``Σ|k_i q_i|``), which bounds every partial sum and product, in any
order. If ``D = 2^f``, every value is ``k·2^{-f}`` with integer ``|k| ≤ M·D``; a float with ``p``
significand bits holds every such value exactly when ``M·D ≤ 2^p`` (and ``2^{-f}`` is not below its
smallest subnormal, ``M`` not above its largest finite value), and an accumulator with ``q`` bits forms
every sum exactly when ``S·D ≤ 2^q``. Then every operation of the float replay is exact, and so are its
decisions (the argmax sees the exact scores; ties stay ties): it reproduces the exact replay. This is a
sufficient condition; a float run may also survive without it. Fixed point needs a sign bit,
``⌈log2(M + 1)⌉`` integer bits and ``f`` fraction bits (``S`` for the accumulator).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import ml_dtypes

from symcot.replay.floating import FORMATS, Format
from symcot.study.precision.margins import RunStats


def _bits(x: Any) -> int:
    """The smallest ``p ≥ 0`` with ``x ≤ 2^p`` (``x`` exact, ``≥ 0``)."""
    if x <= 1:
        return 0
    x = Fraction(x)
    p = max(0, math.ceil(x.numerator / x.denominator).bit_length() - 1)
    while 2**p < x:
        p += 1
    return p


def _log2_exact(d: int) -> int | None:
    return d.bit_length() - 1 if d > 0 and d & (d - 1) == 0 else None


def gamma(stats: RunStats) -> Any:
    """The smallest margin of a unique maximum over every head (``None`` if no event had a competitor)."""
    vals = [h.gamma.value for h in stats.heads.values() if h.gamma.value is not None]
    return min(vals) if vals else None


def tie_heads(stats: RunStats) -> list[str]:
    """``layer k, head X`` for every head with a deciding tie."""
    return [f"layer {h.layer}, head {h.head}" for h in stats.heads.values() if h.deciding]


def beta_needed(stats: RunStats, eps: float) -> dict[str, Any]:
    """``β(n, ε)`` (``inf`` with deciding ties), the part the other events need, and a tie-free variant's."""
    strict = max((h.beta.value for h in stats.heads.values() if h.beta.value is not None), default=0.0)
    deciding = sum(h.deciding for h in stats.heads.values())
    gaps = [h.gamma.value for h in stats.heads.values() if h.gamma.value is not None]
    gaps += [h.group_gap.value for h in stats.heads.values() if h.group_gap.value is not None]
    deltas = [h.delta.value for h in stats.heads.values() if h.delta.value is not None]
    length = stats.context
    tie_free = 0.0
    if gaps and deltas and length > 1 and max(deltas) > 0:
        need = math.log((length - 1) * float(max(deltas)) / eps)
        tie_free = max(0.0, length * need / float(min(gaps)))
    return {"eps": eps, "beta": math.inf if deciding else strict, "without_deciding_ties": strict,
            "tie_free_variant": tie_free, "deciding_ties": deciding}


def format_guarantee(stats: RunStats, fmt: Format) -> tuple[bool, str]:
    """Whether the sufficient condition (module docstring) holds for ``fmt``, and why not."""
    assert fmt.bits is not None and fmt.accum_bits is not None and fmt.max_finite is not None
    d = stats.denominator
    f = _log2_exact(d)
    if f is None:
        return False, f"values have denominator {d}, not a power of 2: no binary float holds them exactly"
    m, s = stats.stored, stats.sums.value or 0
    tiny = float(ml_dtypes.finfo(fmt.storage).smallest_subnormal)
    if 2.0**-f < tiny:
        return False, f"the grid 2^-{f} lies below the smallest subnormal"
    if m > fmt.max_finite:
        return False, f"M = {m} exceeds the largest finite value"
    if _bits(m * d) > fmt.bits:
        return False, f"M·D = {m * d} needs {_bits(m * d)} significand bits, {fmt.name} has {fmt.bits}"
    if _bits(s * d) > fmt.accum_bits:
        return False, f"S·D = {s * d} needs {_bits(s * d)} accumulator bits, the accumulator has {fmt.accum_bits}"
    return True, "every value and every partial sum is exact"


def bits(stats: RunStats, formats: tuple[str, ...]) -> dict[str, Any]:
    """Significand and fixed-point bits the run needs, and the formats guaranteed exact."""
    d = stats.denominator
    f = _log2_exact(d)
    m, s = stats.stored, stats.sums.value or 0
    out: dict[str, Any] = {"denominator": d, "M": m, "S": s, "significand_bits": _bits(m * d),
                           "accumulator_bits": _bits(s * d)}
    if f is not None:
        out["fixed_point"] = {"sign": 1, "integer": _bits(m + 1) if m >= 1 else 0, "fraction": f,
                              "total": 1 + (_bits(m + 1) if m >= 1 else 0) + f,
                              "accumulator_total": 1 + (_bits(s + 1) if s >= 1 else 0) + f}
    else:
        out["fixed_point"] = {"scale": f"1/{d}", "total": 1 + _bits(m * d + 1)}
    out["formats_exact"] = [name for name in formats if format_guarantee(stats, FORMATS[name])[0]]
    return out
