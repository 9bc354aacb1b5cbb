"""Attention selection against a brute-force reading of the draft's definitions, on scores with ties everywhere."""

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcot.errors import Undecided
from symcot.model.attention import allowed, maximal, select
from symcot.model.description import AHAT, MASKS, SMAT, UHAT, HeadRule
from symcot.model.interval import Ball, pi

# the draft's chapter 4, literally: m(i, j) = 0 (attend) iff the predicate holds
PREDICATE = {
    "none": lambda i, j: True,
    "future": lambda i, j: j <= i,
    "strict-future": lambda i, j: j < i,
    "past": lambda i, j: j >= i,
    "strict-past": lambda i, j: j > i,
}
KINDS = {"leftmost": UHAT("leftmost"), "rightmost": UHAT("rightmost"), "average": AHAT()}


def reference(kind: str, mask: str, scores: list, i: int) -> dict[int, Fraction]:
    """Weights by the definitions: M = {j : s_j ≥ s_l for all allowed l}; min/max/average over M."""
    js = [j for j in range(len(scores)) if PREDICATE[mask](i, j)]
    if not js:
        return {}
    m = [j for j in js if all(scores[m] <= scores[j] for m in js)]
    if kind == "leftmost":
        return {min(m): Fraction(1)}
    if kind == "rightmost":
        return {max(m): Fraction(1)}
    return {j: Fraction(1, len(m)) for j in m}


# few distinct values, so that ties occur at every position
scores_st = st.lists(st.sampled_from([0, 1, 2, Fraction(1, 2), -1]), min_size=1, max_size=9)


@settings(max_examples=120, deadline=None)
@given(scores=scores_st, data=st.data())
@pytest.mark.parametrize("mask", list(MASKS))
@pytest.mark.parametrize("kind", list(KINDS))
def test_hard_selection_equals_the_definition(kind, mask, scores, data):
    i = data.draw(st.integers(0, len(scores) - 1))
    sel = select(HeadRule(mask, KINDS[kind]), "h", scores, i)
    assert dict(sel.weights) == reference(kind, mask, scores, i)
    assert sum(w for _, w in sel.weights) in ((0,) if not sel.weights else (1,))


@settings(max_examples=60, deadline=None)
@given(scores=scores_st, data=st.data(), tau=st.sampled_from([Fraction(1), Fraction(1, 3), Fraction(5, 2)]))
@pytest.mark.parametrize("mask", list(MASKS))
def test_softmax_weights_contain_the_true_weights(mask, scores, data, tau):
    i = data.draw(st.integers(0, len(scores) - 1))
    sel = select(HeadRule(mask, SMAT(tau)), "h", scores, i, tau)
    js = [j for j in range(len(scores)) if PREDICATE[mask](i, j)]
    assert [j for j, _ in sel.weights] == js
    with mpmath.workdps(60):
        e = {j: mpmath.exp(mpmath.mpf(scores[j].numerator) / scores[j].denominator / (mpmath.mpf(tau.numerator)
                                                                                      / tau.denominator))
             if isinstance(scores[j], Fraction) else mpmath.exp(mpmath.mpf(scores[j]) / (mpmath.mpf(tau.numerator)
                                                                                       / tau.denominator))
             for j in js}
        total = sum(e.values())
        for j, w in sel.weights:
            true = e[j] / total
            if isinstance(w, Ball):
                assert w.lower <= Fraction(str(mpmath.nstr(true, 50))) + Fraction(1, 10**45)
                assert Fraction(str(mpmath.nstr(true, 50))) - Fraction(1, 10**45) <= w.upper
                assert w.upper - w.lower < Fraction(1, 10**20)
            else:  # exact only when every allowed score is the same
                assert len(set(scores[m] for m in js)) == 1 and w == Fraction(1, len(js))


def test_masks_at_the_edges():
    assert list(allowed("strict-future", 0, 4)) == [] and list(allowed("strict-past", 3, 4)) == []
    assert list(allowed("future", 2, 4)) == [0, 1, 2] and list(allowed("past", 2, 4)) == [2, 3]
    sel = select(HeadRule("strict-future", AHAT()), "h", [1, 2], 0)
    assert sel.weights == [] and sel.index == -1


def test_ties_are_broken_by_the_rule_and_recorded():
    s = [1, 3, 0, 3, 3]
    left = select(HeadRule("none", UHAT("leftmost")), "h", s, 0)
    right = select(HeadRule("none", UHAT("rightmost")), "h", s, 0)
    avg = select(HeadRule("none", AHAT()), "h", s, 0)
    assert (left.index, right.index) == (1, 4) and left.tied == [1, 3, 4] and left.tie
    assert avg.weights == [(1, Fraction(1, 3)), (3, Fraction(1, 3)), (4, Fraction(1, 3))]
    assert left.margin == 0 and select(HeadRule("none"), "h", [1, 3, 2], 0).margin == 1


def test_balls_decide_the_maximum_only_when_they_are_apart():
    p = pi()
    assert maximal([p, 3, 4], range(3)) == [2]
    assert maximal([p, 3, 2], range(3)) == [0]
    assert maximal([p, Ball(Fraction(1, 3)), p - 1], range(3)) == [0]
    with pytest.raises(Undecided, match="the maximal scores"):
        maximal([p, p, 1], range(3))  # equal reals, but balls of positive radius: never decided
    exact_ball = Ball(2)
    assert maximal([exact_ball, 2, 1], range(3)) == [0, 1]  # radius 0: equality is decided


def wrong_select(rule, head, scores, i, tau=None):
    """A deliberately wrong variant: the future mask read as the strict one."""
    if rule.mask == "future":
        rule = HeadRule("strict-future", rule.attention)
    return select(rule, head, scores, i, tau)


def test_the_brute_force_comparison_catches_a_wrong_selection():
    found = None
    for n in range(1, 5):
        for i in range(n):
            scores = [0] * n
            if dict(wrong_select(HeadRule("future", UHAT()), "h", scores, i).weights) != \
                    reference("leftmost", "future", scores, i):
                found = (n, i)
                break
        if found:
            break
    assert found == (1, 0)
