"""Chapter 5's ALiBi: recency with a slope, uniform weights without one, and a cancelled bias refuted."""

import math
from fractions import Fraction

from proofs.transformer_cookbook.positional_alibi import ALIBI, SLOPE, construction, weights
from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress
from symcot.model.interval import compare


def _rows(size):
    return {chk.variant: chk.run(RunContext(ALIBI.id, size, Progress(False))) for chk in ALIBI.checks}


def test_the_bias_favours_recent_keys_and_no_bias_is_uniform_and_a_cancelled_bias_is_refuted():
    rows = _rows(5)
    assert {v: (r.verdict, r.max_size) for v, r in rows.items()} == {
        "as-written": ("verified", 5), "no-bias": ("verified", 5), "cancelled": ("refuted", 1)}
    assert rows["as-written"].inputs_checked == 2 + 4 + 8 + 16 + 32
    cex = rows["cancelled"].counterexample
    assert (cex["input"]["string"], cex["position"], cex["got"]) == ("aa", 1, ["1/2", "1/2"])
    assert ALIBI.expect_of(ALIBI.checks[2]) == "refuted"


def test_weights_and_output_against_a_brute_force_softmax_of_the_bias():
    cons = construction(SLOPE)
    s = ("a", "b", "b", "a")
    ws = weights(cons, s)
    enc = cons.run(s)
    for i in range(len(s)):
        e = [math.exp(float(SLOPE) * (j - i)) for j in range(i + 1)]  # ⟨-(i), …, -1, 0⟩ · m, 0-based
        for j in range(i + 1):
            want = e[j] / sum(e)
            assert compare(ws[i][j], Fraction(want) - Fraction(1, 10**9)) > 0
            assert compare(ws[i][j], Fraction(want) + Fraction(1, 10**9)) < 0
        avg = sum(ej * (1 if a == "a" else -1) for ej, a in zip(e, s)) / sum(e)
        got = cons.read(cons.concrete(s), enc.outputs[i])[0]
        tol = Fraction(1, 10**9)
        assert compare(got, Fraction(avg) - tol) > 0 and compare(got, Fraction(avg) + tol) < 0
    assert weights(construction(Fraction(0)), s)[3] == [Fraction(1, 4)] * 4  # exact: every score the same
