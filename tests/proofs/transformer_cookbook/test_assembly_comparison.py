"""Comparison: gtz(C_2 - C_1 + 0.5) fails at C_1 = C_2; the network computes gtz(C_2 - C_1), i.e. C_1 < C_2."""

from fractions import Fraction

from proofs.transformer_cookbook import assembly_comparison as m
from tests.proofs.transformer_cookbook.helpers import rows


def test_verdicts_and_smallest_counterexamples():
    got = rows(m.COMPARISON, 5)
    assert {v: r.verdict for v, r in got.items()} == {
        "as-written": "refuted", "network-is-gtz": "verified", "network-leq": "refuted", "shift-one": "verified",
        "shift-one-network": "verified", "boolean-pair": "refuted", "one-min": "refuted"}
    for v in ("as-written", "network-leq", "one-min"):
        assert got[v].counterexample["input"]["text"] == "i = 0, C_1 = 0, C_2 = 0", v
    assert got["as-written"].counterexample["got"] == "0"
    assert got["network-is-gtz"].inputs_checked == sum((n + 1) ** 2 for n in range(1, 6))


def test_gtz_is_a_clipped_ramp_and_the_network_a_plain_comparison():
    """Brute force: gtz by its two mins; the network against the integer comparison, every i ≤ 6 and count."""
    for i in range(7):
        p = Fraction(1, i + 1)
        for c1 in range(i + 2):
            for c2 in range(i + 2):
                d = c2 - c1
                assert m.gtz(Fraction(d), i) == (p / 2 if d >= 1 else -p / 2)
                assert m.ffn(Fraction(0), m.stream(i, c1, c2)) == [p / 2 if c1 < c2 else -p / 2] * 2
                assert m.ffn(Fraction(1), m.stream(i, c1, c2))[0] == (p / 2 if c1 <= c2 else -p / 2)
                assert m.expected(i, c1, c2) == (p / 2 if c1 <= c2 else -p / 2)
    assert m.gtz(Fraction(1, 2), 0) == 0  # the draft's X = C_2 - C_1 + 0.5 at C_1 = C_2
