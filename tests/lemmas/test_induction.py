"""Rows that sum over a block of symbolic size, proved for every size by induction; wrong ones never proved."""

import pytest
import sympy as sp

from symcot.ir import Layout, Map
from symcot.ir.expr import dot
from symcot.ir.matrices import Ones
from symcot.lemmas import Lemma, each, prove
from symcot.lemmas.induction import Fold, Induction, prove_by_induction
from symcot.lemmas.lemma import LemmaError
from symcot.lemmas.solver import terms

d = sp.Symbol("d", integer=True, positive=True)
L = Layout("ind.in", [("v", d), ("w", d), ("c", 1)])
OUT = Layout("ind.out", [("y", 1)])


def _running(x, i, K):
    return (x.c(),)


def _add(st, k, x, i, K):
    return (st[0] + x.v(k) * x.w(k),)


def _bent(st, k, x, i, K):
    # right for the first five summands, one too many from the sixth on (d ≥ 6)
    return (st[0] + x.v(k) * x.w(k) + K.ite(k >= 5, 1, 0),)


def _out(st, x, i, K):
    return st[0]


def _inv(S, F, st, k, x, i, K):
    return F(S) == st[0]


def _lemma(fold, **kw):
    v = L.vars()
    w2 = Map("W_2", L, OUT, {"y": v.c + dot(v.v, v.w)})
    return Lemma("t:ind", L, w2, {"y": fold.row}, relu=False, hyps=(each("v ≥ 0", "v", lambda x, K: x >= 0),),
                 dims={d: 1}, induction=Induction("y", fold), **kw)


RIGHT = Fold(lambda x: x.size("v"), _running, _add, _out, _inv, "c + Σ v_k w_k")


def test_a_sum_is_proved_for_every_size():
    lem = _lemma(RIGHT)
    r = prove_by_induction(lem, *terms(lem))
    assert r["status"] == "proved" and r["queries"] == 4
    res = prove(lem, 3)
    assert res.status == "proved" and "induction on the sum of block 'y'" in res.dimension


def test_right_up_to_five_wrong_from_six_is_not_proved():
    lem = _lemma(Fold(lambda x: x.size("v"), _running, _bent, _out, _inv, "bent at k = 5"))
    res = prove(lem, 5)
    assert res.status == "verified" and res.max_size == 5
    assert "the induction: step (a model)" in res.dimension
    assert prove(lem, 6).status == "refuted"  # and it is wrong: the sweep finds it at d = 6


def test_a_fold_of_the_wrong_length_is_not_proved():
    short = Fold(lambda x: x.size("v") - 1, _running, _add, _out, _inv, "one summand short")
    r = prove_by_induction(_lemma(short), *terms(_lemma(short)))
    assert r["status"] == "failed" and r["failed"].startswith("length")


@pytest.mark.parametrize("inv, where", [(lambda *a: True, "conclusion"), (lambda *a: False, "base")])
def test_an_invariant_too_weak_or_false_proves_nothing(inv, where):
    fold = Fold(lambda x: x.size("v"), _running, _add, _out, inv, "c + Σ v_k w_k")
    r = prove_by_induction(_lemma(fold), *terms(_lemma(fold)))
    assert r["status"] == "failed" and r["failed"].startswith(where)


def test_the_target_must_be_the_fold():
    v = L.vars()
    w2 = Map("W_2", L, OUT, {"y": v.c + dot(v.v, v.w)})
    with pytest.raises(LemmaError, match="not its induction's fold"):
        Lemma("t:ind", L, w2, {"y": lambda x, i, K: 0}, relu=False, dims={d: 1}, induction=Induction("y", RIGHT))


def _both(S, F, st, k, x, i, K):
    return F(S) == st[0]


def _add_both(st, k, x, i, K):
    return (st[0] + x.v(k) * x.w(k) + x.v(k) * x.v(k),)


def test_two_sums_of_one_size_advance_together():
    v = L.vars()
    fold = Fold(lambda x: x.size("v"), _running, _add_both, _out, _both, "c + Σ v_k w_k + Σ v_k²")
    w2 = Map("W_2", L, OUT, {"y": v.c + dot(v.v, v.w) + dot(v.v, v.v)})
    lem = Lemma("t:ind", L, w2, {"y": fold.row}, relu=False, dims={d: 1}, induction=Induction("y", fold))
    assert prove_by_induction(lem, *terms(lem))["status"] == "proved"
    wrong = Lemma("t:ind", L, w2, {"y": RIGHT.row}, relu=False, dims={d: 1}, induction=Induction("y", RIGHT))
    assert prove_by_induction(wrong, *terms(wrong))["status"] == "failed"


def test_sums_of_two_sizes_are_refused():
    lay = Layout("ind.two", [("v", d), ("u", d + 1), ("c", 1)])
    v = lay.vars()
    w2 = Map("W_2", lay, OUT, {"y": v.c + dot(v.v, v.v) + dot(v.u, v.u)})
    lem = Lemma("t:ind", lay, w2, {"y": RIGHT.row}, relu=False, dims={d: 1}, induction=Induction("y", RIGHT))
    r = prove_by_induction(lem, *terms(lem))
    assert r["status"] == "unsupported" and "different sizes" in r["reason"]


def test_a_sum_inside_a_summand_is_refused_not_left_free():
    # hidden units h_j = ReLU(1ᵀ v), each a sum over d; the output Σ_j h_j w_j sums them again
    v = L.vars()
    hid = Layout("ind.hid", [("h", d), ("w", d), ("c", 1)])
    w1 = Map("W_1", L, hid, {"h": Ones(d, d) @ v.v, "w": v.w, "c": v.c})
    hv = hid.vars()
    w2 = Map("W_2", hid, OUT, {"y": hv.c + dot(hv.h, hv.w)})
    lem = Lemma("t:ind", L, w2, {"y": RIGHT.row}, w1=w1, hyps=(each("v ≥ 0", "v", lambda x, K: x >= 0),
                each("w ≥ 0", "w", lambda x, K: x >= 0), each("c ≥ 0", "c", lambda x, K: x >= 0)),
                dims={d: 1}, induction=Induction("y", RIGHT))
    r = prove_by_induction(lem, *terms(lem))
    assert r["status"] == "unsupported" and "inside a summand" in r["reason"]


def test_the_other_target_blocks_must_be_proved_too():
    two = Layout("ind.out2", [("y", 1), ("z", d)])
    v = L.vars()
    w2 = Map("W_2", L, two, {"y": v.c + dot(v.v, v.w), "z": v.v})
    ok = Lemma("t:ind", L, w2, {"y": RIGHT.row, "z": lambda x, i, K: x.v(i)}, relu=False, dims={d: 1},
               induction=Induction("y", RIGHT))
    res = prove(ok, 3)
    assert res.status == "proved"
    # z wrong only at coordinate 3, which exists from d = 4 on: the sweep to 3 passes, the proof must not
    bad = ok.replace(target={"y": RIGHT.row, "z": lambda x, i, K: K.ite(i == 3, 0, x.v(i))})
    res = prove(bad, 3)
    assert res.status == "verified" and "the other blocks (z): sat" in res.dimension
