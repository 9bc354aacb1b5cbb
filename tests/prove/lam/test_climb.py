"""The supremum of λ over one region (symcot.prove.lam.climb.region_sup)."""

from __future__ import annotations

from fractions import Fraction

from symcot.prove.lam.climb import Sup, region_sup
from symcot.replay.symbolic import LAMBDA, Atom, Poly

LAM = Poly.var(LAMBDA)


def test_a_closed_bound_is_attained_and_an_open_one_is_not():
    closed = region_sup([Atom(LAM, ">"), Atom(3 - LAM, ">=")])
    assert closed.found and closed.value == Fraction(3) and closed.attained
    opened = region_sup([Atom(LAM, ">"), Atom(Fraction(5, 2) - LAM, ">")])
    assert opened.found and opened.value == Fraction(5, 2) and not opened.attained


def test_an_empty_region_has_no_supremum_and_an_unbounded_one_says_so():
    assert not region_sup([Atom(LAM - 2, ">"), Atom(1 - LAM, ">")]).found
    up = region_sup([Atom(LAM - 2, ">")])
    assert up.found and up.unbounded


def test_better_prefers_a_larger_value_then_an_attained_one():
    two_open, two_closed, three = Sup(Fraction(2), found=True), Sup(Fraction(2), attained=True, found=True), \
        Sup(Fraction(3), found=True)
    assert two_open.better(three) and not three.better(two_closed)
    assert two_open.better(two_closed) and not two_closed.better(two_open)
    assert not two_open.better(Sup())
