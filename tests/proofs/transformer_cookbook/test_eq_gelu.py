from fractions import Fraction

import mpmath
import sympy as sp
from flint import arb, fmpq

from proofs.transformer_cookbook import eq_gelu as mod
from proofs.transformer_cookbook.recipes import TANH_CUBIC
from symcot.check.context import RunContext
from symcot.lemmas.bound import MaxErrorCheck
from symcot.lemmas.facts import SymbolicCheck

from .helpers import rows


def test_tanh_form_agrees_to_degree_three():
    r = rows(mod.CLAIMS[0])
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "proved", "degree-3": "proved",
                                                   "degree-4": "refuted", "global": "proved"}
    got = sp.sympify(r["degree-4"].counterexample["got"][0][0])
    a = sp.sqrt(2 / sp.pi)
    # x^4 coefficients: (a·c - a³/3)/2 (tanh form, c = 0.044715) against -a/12 (x Φ(x))
    assert sp.simplify(got - ((a * TANH_CUBIC - a**3 / 3) / 2 + a / 12)) == 0


def _float_max(err, lo, hi):
    """An independent estimate: mpmath at 30 digits, a grid of 10⁻³ refined around its best point."""
    mpmath.mp.dps = 30
    best = max((abs(err(mpmath.mpf(k) / 1000)), mpmath.mpf(k) / 1000) for k in range(lo * 1000, hi * 1000 + 1))
    x = mpmath.findroot(lambda t: mpmath.diff(err, t), best[1])
    return abs(err(x))


def _sigmoid(t):
    return t / (1 + mpmath.exp(-mpmath.mpf("1.702") * t)) - t * mpmath.ncdf(t)


def _tanh(t):
    u = mpmath.sqrt(2 / mpmath.pi) * (t + mpmath.mpf("0.044715") * t**3)
    return t / 2 * (1 + mpmath.tanh(u)) - t * mpmath.ncdf(t)


def test_sigmoid_form_is_a_global_approximation_with_error_about_0_0203():
    r = rows(mod.CLAIMS[1])
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "proved", "degree-2": "refuted",
                                                   "degree-1": "proved"}
    d = r["as-written"].details
    lo, up = Fraction(d["max_error_lower"]), Fraction(d["max_error_upper"])
    assert lo <= Fraction(str(_float_max(_sigmoid, 0, 5))) <= up and up - lo < Fraction(1, 10**6)
    assert "every real x ∈ [0.020334, 0.020335]" in r["as-written"].scope
    assert Fraction(d["tail_bound"]) < Fraction(1, 10**6)  # beyond |x| = 10 the error is below 10⁻⁶


def test_tanh_form_global_error_about_0_00047():
    r = rows(mod.CLAIMS[0])["global"]
    lo, up = Fraction(r.details["max_error_lower"]), Fraction(r.details["max_error_upper"])
    assert lo <= Fraction(str(_float_max(_tanh, 0, 5))) <= up
    assert "[0.000473, 0.000474]" in r.scope


def test_the_arb_errors_are_the_sympy_forms():
    for err, form in ((mod.sigmoid_error, mod.gelu_sigmoid), (mod.tanh_error, mod.gelu_tanh)):
        for q in (Fraction(-3, 2), Fraction(1, 3), Fraction(7, 4)):
            want = sp.N(form(sp.Rational(q.numerator, q.denominator)) - mod.gelu_exact(
                sp.Rational(q.numerator, q.denominator)), 30)
            got = err(arb(fmpq(q.numerator, q.denominator)))
            assert abs(float(got.mid()) - float(want)) < 1e-13 and float(got.rad()) < 1e-13


def test_a_stated_bound_below_the_maximum_is_refuted():
    below = MaxErrorCheck(mod.sigmoid_error, -mod.L, mod.L, "sigmoid", claimed=Fraction(2, 100))
    r = below.run(RunContext("mutant", 1))
    assert r.verdict == "refuted" and abs(Fraction(r.counterexample["input"]["x"])) > 2
    above = MaxErrorCheck(mod.sigmoid_error, -mod.L, mod.L, "sigmoid", tail=mod.SIGMOID_TAIL,
                          claimed=Fraction(21, 1000))
    assert above.run(RunContext("control", 1)).verdict == "proved"


def test_a_changed_sigmoid_scale_has_another_error():
    def broken(x):  # 1.6 instead of 1.702
        return x / (1 + (-arb(fmpq(16, 10)) * x).exp()) - mod._phi_x(x)

    r = MaxErrorCheck(broken, -mod.L, mod.L, "mutant", claimed=Fraction(21, 1000)).run(RunContext("mutant", 1))
    assert r.verdict == "refuted"


def test_sigmoid_form_agrees_to_degree_one_only():
    r = rows(mod.CLAIMS[1])
    got = sp.sympify(r["degree-2"].counterexample["got"][0][0])
    assert sp.simplify(got - (sp.Rational(1702, 4000) - 1 / sp.sqrt(2 * sp.pi))) == 0


def test_a_changed_tanh_scale_is_refuted():
    def broken(x):
        return x / 2 * (1 + sp.tanh(x + TANH_CUBIC * x**3))  # √(2/π) dropped

    chk = SymbolicCheck(mod.agree(broken, "mutant", 2))
    assert chk.run(RunContext("mutant", 1)).verdict == "refuted"
