import sympy as sp

from proofs.transformer_cookbook import eq_gelu as mod
from proofs.transformer_cookbook.recipes import TANH_CUBIC
from symcot.check.context import RunContext
from symcot.lemmas.facts import SymbolicCheck

from .helpers import rows


def test_tanh_form_agrees_to_degree_three():
    r = rows(mod.CLAIMS[0])
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "proved", "degree-3": "proved",
                                                   "degree-4": "refuted"}
    got = sp.sympify(r["degree-4"].counterexample["got"][0][0])
    a = sp.sqrt(2 / sp.pi)
    # x^4 coefficients: (a·c - a³/3)/2 (tanh form, c = 0.044715) against -a/12 (x Φ(x))
    assert sp.simplify(got - ((a * TANH_CUBIC - a**3 / 3) / 2 + a / 12)) == 0


def test_sigmoid_form_agrees_to_degree_one_only():
    r = rows(mod.CLAIMS[1])
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "refuted", "degree-1": "proved"}
    got = sp.sympify(r["as-written"].counterexample["got"][0][0])
    assert sp.simplify(got - (sp.Rational(1702, 4000) - 1 / sp.sqrt(2 * sp.pi))) == 0


def test_a_changed_tanh_scale_is_refuted():
    def broken(x):
        return x / 2 * (1 + sp.tanh(x + TANH_CUBIC * x**3))  # √(2/π) dropped

    chk = SymbolicCheck(mod.agree(broken, "mutant", 2))
    assert chk.run(RunContext("mutant", 1)).verdict == "refuted"
