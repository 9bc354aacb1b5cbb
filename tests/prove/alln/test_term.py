"""The term evaluator gives every operator Z3's meaning, and refuses what it cannot evaluate exactly."""

import random
from fractions import Fraction
from types import SimpleNamespace

import pytest
import z3

from symcot.prove.alln.term import LAMBDA, TermError, compile_term


def _z3_value(term):
    s = z3.simplify(term)
    if z3.is_true(s) or z3.is_false(s):
        return z3.is_true(s)
    if z3.is_int_value(s):
        return s.as_long()
    return Fraction(s.numerator_as_long(), s.denominator_as_long())


@pytest.mark.parametrize("seed", range(5))
def test_integer_division_and_mod_are_smtlib_s_on_every_sign(seed):
    rng = random.Random(seed)
    a, b = z3.Int("a"), z3.Int("b")
    for op in (lambda x, y: x / y, lambda x, y: x % y):
        fn = compile_term(op(a, b), (a, b))
        for _ in range(50):
            x, y = rng.randint(-20, 20), rng.choice([v for v in range(-7, 8) if v])
            assert fn(None, x, y) == _z3_value(op(z3.IntVal(x), z3.IntVal(y))), (x, y)


def test_random_terms_agree_with_z3s_simplifier():
    rng = random.Random(7)
    x, y = z3.Int("x"), z3.Int("y")
    leaves = [x, y, z3.IntVal(3), z3.IntVal(-2)]

    def term(d):
        if d == 0:
            return rng.choice(leaves)
        a, b = term(d - 1), term(d - 1)
        return rng.choice([a + b, a - b, a * b, z3.If(a < b, a, b), z3.If(a == b, a + 1, -b), -a])

    for _ in range(200):
        t = term(3)
        fn = compile_term(t, (x, y))
        vx, vy = rng.randint(-5, 5), rng.randint(-5, 5)
        assert fn(None, vx, vy) == _z3_value(z3.substitute(t, (x, z3.IntVal(vx)), (y, z3.IntVal(vy))))


def test_symbols_are_read_from_the_run_and_lambda_as_lam():
    n, adj = z3.Int("n"), z3.Function("adj", z3.IntSort(), z3.IntSort(), z3.BoolSort())
    lam = z3.Real(LAMBDA)
    i = z3.Int("i!trace0")
    t = z3.If(z3.And(adj(i, n - 1), i < n), z3.ToReal(n) + lam / 2, z3.RealVal(0))
    run = SimpleNamespace(n=4, adj=lambda a, b: (a, b) == (1, 3), lam=Fraction(5))
    fn = compile_term(t, (i,))
    assert fn(run, 1) == Fraction(13, 2) and fn(run, 2) == 0


def test_ite_reads_only_the_branch_it_takes():
    x = z3.Int("x")
    fn = compile_term(z3.If(x == 0, z3.IntVal(0), 10 / x), (x,))
    assert fn(None, 0) == 0 and fn(None, 5) == 2


@pytest.mark.parametrize("term", [z3.IntVal(1) / z3.Int("x"), z3.IntVal(1) % z3.Int("x"),
                                  z3.RealVal(1) / z3.ToReal(z3.Int("x"))])
def test_division_by_zero_is_an_error_not_a_value(term):
    with pytest.raises(TermError, match="zero"):
        compile_term(term, (z3.Int("x"),))(None, 0)


def test_a_constant_outside_the_vocabulary_and_the_parameters_is_an_error():
    with pytest.raises(TermError, match="neither a symbol"):
        compile_term(z3.Int("k!3") + 1)


def test_an_operator_without_an_exact_evaluation_is_an_error():
    x = z3.BitVec("x", 8)
    with pytest.raises(TermError, match="no exact evaluation"):
        compile_term(x & 3, ())
