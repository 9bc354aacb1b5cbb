"""Chapter 5's sinusoids and RoPE: the printed index range is wrong, RoPE's relative score is proved."""

import math
from fractions import Fraction

from proofs.transformer_cookbook.positional_rotary import (
    OFFSETS,
    POSITION_PAIRS,
    ROPE,
    SINUSOIDAL,
    distinct_rotations,
    written_as_printed,
    written_half_range,
)
from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress
from symcot.claims import PropertyCheck
from symcot.model.interval import cos, power, sin


def _rows(claim, size):
    return {chk.variant: chk.run(RunContext(claim.id, size, Progress(False))) for chk in claim.checks}


def test_the_printed_range_writes_coordinates_beyond_d_and_the_half_range_writes_exactly_d():
    rows = _rows(SINUSOIDAL, 8)
    assert (rows["as-written"].verdict, rows["as-written"].counterexample["got"]) == ("refuted", [2, 3])
    assert (rows["half-range"].verdict, rows["half-range"].max_size, rows["half-range"].inputs_checked) == (
        "verified", 8, 4)
    assert written_as_printed(2) == [2, 3, 4, 5] and written_half_range(6) == [0, 1, 2, 3, 4, 5]


def test_rope_scores_depend_on_the_offset_only_and_offsets_determine_the_rotation():
    rows = _rows(ROPE, 6)
    assert {v: r.verdict for v, r in rows.items()} == {"as-written": "proved", "unique": "verified",
                                                       "key-transposed": "refuted"}
    assert rows["unique"].inputs_checked == sum(OFFSETS.count(n) for n in range(1, 7)) == 55  # C(11, 2)
    cex = rows["key-transposed"].counterexample
    assert cex["input"]["text"] == "p = 1, p' = 1 against p = 0, p' = 0" and cex["expected"] == "1"
    assert ROPE.expect_of(ROPE.checks[2]) == "refuted"
    assert sum(POSITION_PAIRS.count(n) for n in range(1, 5)) == len(
        [(p, d) for p in range(1, 4) for d in range(4)])


def test_the_relative_identity_against_a_brute_force_rope_at_every_width():
    # RoPE(x, p) by the draft's formula (θ_k = M^{-2(k-1)/d}, M = 10000), floats: the score depends on p' - p only
    def rope(x, pos, d):
        out = []
        for k in range(d // 2):
            t = pos * 10000 ** (-2 * k / d)
            a, b = x[2 * k], x[2 * k + 1]
            out += [math.cos(t) * a - math.sin(t) * b, math.sin(t) * a + math.cos(t) * b]
        return out

    for d in (2, 4, 6):
        qv, kv = [1, -2, 3, 0, 1, 2][:d], [2, 1, -1, 1, 0, 3][:d]
        for pos, pos2 in ((0, 3), (2, 5), (7, 10)):
            got = sum(a * b for a, b in zip(rope(qv, pos, d), rope(kv, pos2, d)))
            want = sum(a * b for a, b in zip(qv, rope(kv, pos2 - pos, d)))
            assert abs(got - want) < 1e-9
    # and θ_2 of d = 4 as a certified ball, as the claim's reading of M^{-2(k-1)/d}
    assert float(power(10000, Fraction(-2, 4)).lower) <= 0.01 <= float(power(10000, Fraction(-2, 4)).upper)


def test_the_uniqueness_check_refutes_a_rotation_that_repeats():
    # θ = 0: every offset gives the identity rotation, decided exactly (sin 0 = 0)
    row = PropertyCheck("theta-0", [OFFSETS], distinct_rotations(0)).run(RunContext("t", 4, Progress(False)))
    assert row.verdict == "refuted" and row.counterexample["input"]["text"] == "δ = -1, δ' = 0"
    assert cos(0) == 1 and sin(0) == 0
