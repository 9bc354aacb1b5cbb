"""Coefficients of block expressions: listed once each, replaced in a copy, the compiled map changes accordingly."""

from fractions import Fraction

import pytest
import sympy as sp

from symcot.ir import Layout, Map, Ramp, Shift, dot, lam, n, ones
from symcot.ir.coeffs import coefficient_at, coefficients, plain, value_text, with_coefficient

L = Layout("t", [("a", n), ("b", n), ("s", 1)])
x = L.vars()


def compiled(expr, size=3, lam_value=5):
    return Map("M", L, Layout("o", [("out", expr.size)]), {"out": expr}).instantiate({n: size}, {lam: lam_value})


def test_each_written_number_is_one_coefficient():
    e = x.a - 2 * x.b + Shift(n) @ x.a + lam * ones(n)
    cs = coefficients(e)
    assert [(c.slot, c.value, c.term) for c in cs] == [
        ("implicit", 1, "π_a"), ("c", -2, "π_b"), ("implicit", 1, "S_n π_a"), ("const", lam, "1_n")]
    assert [c.symbolic for c in cs] == [False, False, False, True]
    assert len({c.key for c in cs}) == len(cs)


def test_a_factor_of_a_product_has_no_coefficient_of_its_own_but_its_constants_do():
    e = dot(ones(n) - x.a, x.b)  # (1_n - π_a)ᵀ π_b
    cs = coefficients(e)
    assert [(c.path, c.slot, c.value) for c in cs] == [((), "implicit", 1), (("a", 0), "c", 1), (("a", 1), "c", -1)]


def test_ramp_start_and_step_are_coefficients():
    e = Ramp(n, 1, -1, tex="r") @ x.s
    assert [(c.slot, c.value) for c in coefficients(e)] == [("start", 1), ("step", -1)]
    cs = coefficients(e)
    assert compiled(with_coefficient(e, cs[1], 0)).lin == [(0, 2 * 3, 1), (1, 6, 1), (2, 6, 1)]


@pytest.mark.parametrize("index,value", [(0, 0), (1, 3), (2, -1), (3, lam + 1)])
def test_a_replaced_coefficient_changes_exactly_its_term(index, value):
    e = x.a - 2 * x.b + Shift(n) @ x.a + lam * ones(n)
    c = coefficients(e)[index]
    new = with_coefficient(e, c, value)
    assert coefficient_at(new, c) == sp.sympify(value)
    assert coefficient_at(e, c) == c.value  # the original is untouched
    assert e.latex() != new.latex()
    before, after = compiled(e), compiled(new)
    if index == 3:  # the constant λ·1_n: only the biases change (λ = 5 → 6)
        assert before.lin == after.lin and after.const == [(r, 6) for r in range(3)]
    else:  # one linear term changes: π_a (input coordinates 0..2), π_b (3..5) or S π_a (0..1 into rows 1..2)
        reads = {0: {0, 1, 2}, 1: {3, 4, 5}, 2: {0, 1}}[index]
        assert before.const == after.const
        assert {i for _o, i, _v in set(before.lin) ^ set(after.lin)} <= reads


def test_values_are_exact_and_printed_with_lambda():
    c = coefficients(lam / 2 * x.s)[0]
    assert value_text(c.value) == "λ/2"
    assert coefficient_at(with_coefficient(lam / 2 * x.s, c, Fraction(1, 3)), c) == sp.Rational(1, 3)
    with pytest.raises(TypeError, match="float"):
        with_coefficient(x.s * 2, coefficients(x.s * 2)[0], 0.5)


def test_an_unknown_slot_is_refused():
    c = coefficients(x.a)[0]
    bad = type(c)(c.path, "step", c.value, c.term)
    with pytest.raises(ValueError, match="no coefficient"):
        with_coefficient(x.a, bad, 2)


def test_plain_text_of_terms():
    assert plain(r"\pi_{cur^{(T)}}") == "π_T.cur"
    assert plain(r"\left(\mathbf{1}_{n} -\pi_{vis}\right)^\top \pi_{flg_1}") == "(1_n - π_vis)ᵀ π_flg1"
    assert plain(r"\mathbf{1}_{1}") == "1"
