"""A lemma's λ analysis (symcot.lemmas.lam) through the shared search and in the shared answer's shape."""

import importlib
from fractions import Fraction

from symcot.lemmas.lam import _bisect, analyse, answer


def mod(stem):
    return importlib.import_module(f"proofs.cot_path_to_tree.{stem}")


def test_mmc_lambda_star_as_an_answer():
    m = mod("lem_mMc")
    out = analyse(m.lemma(), m.LAMBDA, proved_for_free_lambda=True)
    a = answer(out)
    assert (a.value, a.scope, a.holds_at_value, a.certificate.at) == (0, "all inputs", True, "proved")
    # below λ* = 0 the domain [0, λ] is empty: nothing refutes, so the answer is not certified from below
    assert a.certificate.below["status"].startswith("vacuous") and not a.certified
    d = answer(out, decoupled=True)
    assert (d.value, d.at, d.certificate.at, d.certified) == ("B", "every B", "proved", True)
    assert d.certificate.below["λ"] == Fraction(299, 100) and d.certificate.below["counterexample"]["kind"] == "output"


def test_a_bisection_answers_with_its_bracket():
    m = mod("lem_mMc")
    lem = m.lemma().replace(decoupled=True, bound_value=3)
    out = _bisect(lem, m.LAMBDA, lo=Fraction(0), hi=Fraction(8), steps=6)
    assert out == {"method": "bisection", "lambda_star_interval": [Fraction(23, 8), Fraction(3)]}
    a = answer(out)
    assert a.value == 3 and a.interval == (Fraction(23, 8), Fraction(3)) and a.method == "bisection"
    none = _bisect(lem, m.LAMBDA, lo=Fraction(0), hi=Fraction(2), steps=3)
    assert none["lambda_star"] is None and answer(none).value is None and answer(none).holds_at_value is None


def test_answer_of_a_qe2_result_without_a_certificate():
    a = answer({"condition": "λ is good iff λ > 1", "method": "qe2", "lambda_star": 1, "attained": False})
    assert a.value == 1 and a.holds_at_value is False and a.certificate.at is None and not a.certified
