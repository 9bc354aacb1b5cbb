"""The Z3 kit's logic folds Python booleans and keeps Z3 terms (symcot.lemmas.kit)."""

from __future__ import annotations

import z3

from symcot.lemmas.kit import Z3Kit


def test_and_and_or_fold_python_booleans_and_join_z3_terms():
    a, b = z3.Bools("a b")
    assert Z3Kit.And() is True and Z3Kit.Or() is False
    assert Z3Kit.And(True, a) is a and Z3Kit.Or(False, a) is a
    assert Z3Kit.And(a, False, b) is False and Z3Kit.Or(a, True, b) is True
    assert z3.eq(Z3Kit.And(a, True, b), z3.And(a, b)) and z3.eq(Z3Kit.Or(a, False, b), z3.Or(a, b))


def test_implies_is_not_a_or_b_with_the_same_folding():
    a = z3.Bool("a")
    assert Z3Kit.Implies(False, a) is True and Z3Kit.Implies(True, a) is a
    s = z3.Solver()
    s.add(z3.Not(z3.Implies(a, a) == Z3Kit.Implies(a, a)))
    assert s.check() == z3.unsat
