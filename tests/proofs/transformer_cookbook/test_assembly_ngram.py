"""n-grams: the heads must attend to t - h from position t - 1; the as-written offset reads one symbol too early."""

import itertools
from fractions import Fraction

from proofs.transformer_cookbook import assembly_ngram as m
from tests.proofs.transformer_cookbook.helpers import rows


def _chain(order, s):
    """P(s_1..s_k | ^) by the n-gram chain rule (the table, read for each prefix from a padded string)."""
    padded = (m.BOS,) * (order - 2) + s
    total = Fraction(1)
    for k in range(1, len(s)):
        hist = tuple(padded[k + order - 3 - r] for r in range(order - 1))  # y_{k-1}, …, y_{k-n+1}
        total *= m.table(order)[hist][s[k]]
    return total


def test_the_reference_is_the_chain_rule_ratio():
    """p(y | prefix) = P(prefix y) / P(prefix), wherever P(prefix) > 0, for every ^ w up to length 6."""
    for order in m.ORDERS:
        for n in range(0, 6):
            for w in itertools.product(m.SIGMA, repeat=n):
                s = (m.BOS, *w)
                law = m.ngram_law(order, s)
                for p in range(len(s)):
                    prefix = s[:p + 1]
                    if _chain(order, prefix) == 0:
                        continue
                    for y in m.SIGMA:
                        assert law[p][y] == _chain(order, prefix + (y,)) / _chain(order, prefix), (order, s, p, y)
                    assert sum(law[p].values()) == 1


def test_verdicts_of_every_variant():
    got = rows(m.NGRAM, 6)
    assert {v: r.verdict for v, r in got.items()} == {
        "as-written": "refuted", "attend-t-minus-h": "verified", "AHAT": "verified", "no-and-threshold": "refuted"}
    cex = got["as-written"].counterexample
    assert (cex["order"], cex["string"], cex["position"]) == (2, "^a", 1)
    assert got["attend-t-minus-h"].inputs_checked == 2 * (2 ** 6 - 1)


def test_the_score_equation():
    got = rows(m.HARD_ATTENTION_SCORES, 8)
    assert {v: r.verdict for v, r in got.items()} == {"as-written": "verified", "squared": "verified",
                                                      "positive": "refuted"}


def test_the_table_has_a_zero_and_sums_to_one():
    for order in m.ORDERS:
        laws = m.table(order).values()
        assert all(sum(law.values()) == 1 for law in laws)
        assert any(v == 0 for law in laws for v in law.values())
