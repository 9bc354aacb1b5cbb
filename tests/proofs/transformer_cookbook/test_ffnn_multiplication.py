import sympy as sp

from proofs.transformer_cookbook import ffnn_multiplication as mod
from proofs.transformer_cookbook.recipes import TANH_CUBIC, gelu_tanh
from symcot.check.context import RunContext
from symcot.lemmas.facts import SymbolicCheck

from .helpers import rows


def claims():
    return {c.id: c for c in mod.CLAIMS}


def test_product_estimate():
    r = rows(claims()["sec:ffnn_multiplication"])
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "proved", "signed": "refuted",
                                                   "exact-gelu": "proved"}
    assert r["as-written"].details["identities"][0]["simplified"] == "0"
    got = sp.sympify(r["signed"].counterexample["got"][0][0])
    # the x^4 coefficient of the error on y = -x: 2/(3π) - 0.044715 ≠ 0
    assert sp.simplify(got - (2 / (3 * sp.pi) - sp.Rational(8943, 200000))) == 0


def test_gelu_series_coefficient_is_twice_too_large():
    r = rows(claims()["sec:ffnn_multiplication:series"])
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "refuted", "repaired": "proved",
                                                   "exact-gelu": "refuted"}
    got = sp.sympify(r["as-written"].counterexample["got"][0][0])
    assert sp.simplify(got + 1 / sp.sqrt(2 * sp.pi)) == 0


def test_difference_line():
    r = rows(claims()["sec:ffnn_multiplication:difference"])
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "proved", "signed": "refuted"}
    got = sp.sympify(r["signed"].counterexample["got"][0][0])
    # the same x^4 coefficient scaled by √(2/π): the signed reading fails on y = -x
    assert sp.simplify(got - sp.sqrt(2 / sp.pi) * (2 / (3 * sp.pi) - sp.Rational(8943, 200000))) == 0


def test_readings_are_named():
    c = claims()["sec:ffnn_multiplication:difference"]
    assert c.reading("as-written").kind == "as-written"
    assert "|x|³ + |y|³" in c.reading("as-written").text
    assert c.reading("signed").kind == "reading" and "signed" in c.reading("signed").text


def test_a_changed_gelu_constant_is_refuted():
    # √(2/π) inside tanh replaced by 1: the quadratic coefficient becomes 1/2 and √(π/2)·(…) is no longer xy
    def broken(x):
        return x / 2 * (1 + sp.tanh(x + TANH_CUBIC * x**3))

    chk = SymbolicCheck(lambda: mod.third_order(lambda: mod.product_error(broken), "mutant"))
    r = chk.run(RunContext("mutant", 1))
    assert r.verdict == "refuted"
    good = SymbolicCheck(lambda: mod.third_order(lambda: mod.product_error(gelu_tanh), "tanh"))
    assert good.run(RunContext("control", 1)).verdict == "proved"


def test_a_changed_scale_is_refuted():
    chk = SymbolicCheck(lambda: mod.third_order(lambda: mod.product_error(gelu_tanh, sp.sqrt(sp.pi)), "mutant"))
    assert chk.run(RunContext("mutant", 1)).verdict == "refuted"
