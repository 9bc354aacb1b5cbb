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


def _equal_for_all(a, b, *hyps):
    s = z3.Solver()
    s.add(*hyps, a != b)
    return s.check() == z3.unsat


def test_max_min_and_piecewise_are_translated_exactly():
    import sympy as sp

    from symcot.ir import m, n
    from symcot.lemmas.kit import sympy_to_z3

    mz, nz = z3.Ints("m n")
    syms = {m: mz, n: nz}
    assert _equal_for_all(sympy_to_z3(sp.Max(0, m - 8), syms), z3.If(mz >= 8, mz - 8, 0))
    assert _equal_for_all(sympy_to_z3(sp.Min(n, m, 3), syms), z3.If(z3.And(nz <= mz, nz <= 3), nz,
                                                                    z3.If(mz <= 3, mz, 3)))
    pw = sp.Piecewise((1, m < 3), (m, sp.And(m >= 5, sp.Ne(m, 7))), (0, True))
    assert _equal_for_all(sympy_to_z3(pw, syms), z3.If(mz < 3, 1, z3.If(z3.And(mz >= 5, mz != 7), mz, 0)))
    assert sympy_to_z3(sp.Max(0, m - 8), {m: 10}) == 2
    assert z3.simplify(sympy_to_z3(sp.Min(m, sp.Rational(1, 2)), {m: 3})).eq(z3.Q(1, 2))


def test_what_has_no_exact_translation_stays_unsupported():
    import pytest
    import sympy as sp

    from symcot.ir import m
    from symcot.lemmas.kit import Unsupported, sympy_to_z3

    mz = z3.Int("m")
    for e in [sp.Piecewise((1, m < 3)), sp.Piecewise((1, sp.Eq(sp.Mod(m, 2), 0)), (0, True)), sp.sqrt(m),
              sp.Max(0, sp.sqrt(m) - 2)]:
        with pytest.raises(Unsupported):
            sympy_to_z3(e, {m: mz})
