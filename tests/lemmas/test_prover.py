"""The lemma prover's mechanics: cores, too-weak domains, exact replay, timeouts, all-dimension proofs."""

import importlib
from fractions import Fraction

import pytest
import sympy as sp
import z3

from symcot.check.context import RunContext
from symcot.ir import Layout, Map, Shift, lam
from symcot.lemmas import Gate, Lemma, LemmaCheck, LocalIndexMatrix, Override, each, prove, whole
from symcot.lemmas.encode import concrete_maps, replay
from symcot.lemmas.kit import ExactKit, Unsupported, Z3Kit, sympy_to_z3, z3_to_exact
from symcot.lemmas.lemma import ConcreteX
from symcot.lemmas.solver import check_model, input_vars, prove_at
from symcot.lemmas.symbolic import check_local

d = sp.Symbol("d", integer=True, positive=True)


INT = (each("v ∈ ℤ", "v", lambda v, K: K.is_int(v)),)


def indicator(hyps=INT):
    """1[v = 0] = relu(v+1) - 2 relu(v) + relu(v-1)."""
    L = Layout("t.in", [("v", 1)])
    Hd = Layout("t.hid", [("a", 1), ("b", 1), ("c", 1)])
    Out = Layout("t.out", [("y", 1)])
    x, z = L.vars(), Hd.vars()
    w1 = Map("W_1", L, Hd, {"a": x.v + 1, "b": x.v, "c": x.v - 1})
    w2 = Map("W_2", Hd, Out, {"y": z.a - 2 * z.b + z.c})
    return Lemma("t:ind0", L, w2, {"y": lambda x, i, K: K.ite(x.v() == 0, 1, 0)}, w1=w1, hyps=hyps)


def shift(target_bug_from=None):
    """y = S h (a local row) with an optional wrong target from index ``target_bug_from`` on."""
    L = Layout("s.in", [("h", d)])
    Out = Layout("s.out", [("y", d)])
    x = L.vars()
    w2 = Map("W_2", L, Out, {"y": Shift(d) @ x.h})

    def row(x, i, K):
        good = x.h(i - 1)
        if target_bug_from is None:
            return good
        return K.ite(i >= target_bug_from, good + 1, good)

    return Lemma("t:shift", L, w2, {"y": row}, relu=False, hyps=(each("h ≥ 0", "h", lambda v, K: v >= 0),),
                 dims={d: 1})


def test_a_needed_hypothesis_is_in_the_core_and_a_too_weak_domain_is_refuted():
    ok = prove(indicator())
    assert ok.status == "proved" and ok.used == {"v ∈ ℤ"} and ok.unused == []
    weak = prove(indicator(hyps=()))
    assert weak.status == "refuted"
    cex = weak.counterexample
    v = cex.inputs["v"][0]
    assert isinstance(v, Fraction) and v.denominator > 1  # a non-integer v, exactly
    mism = cex.mismatches[0]
    assert mism["expected"] == (1 if v == 0 else 0) and mism["got"] != mism["expected"]
    _hidden, out = replay(indicator(), {}, None, [v])  # independent exact replay
    assert out[0] == mism["got"]


def test_unused_hypotheses_are_reported():
    lem = indicator(hyps=(each("v ∈ ℤ", "v", lambda v, K: K.is_int(v)), each("v ≤ 100", "v", lambda v, K: v <= 100)))
    r = prove(lem)
    assert r.status == "proved" and r.unused == ["v ≤ 100"]


def test_a_changed_bias_is_refuted_with_an_exact_counterexample():
    mut = indicator().mutate(Override("W_1", ("a", 0), (), 2))  # relu(v + 2) instead of relu(v + 1)
    r = prove(mut)
    assert r.status == "refuted"
    v = r.counterexample.inputs["v"][0]
    _hid, out = replay(mut, {}, None, [v])
    assert out[0] == r.counterexample.mismatches[0]["got"] != r.counterexample.mismatches[0]["expected"]


def test_timeout_gives_unknown_never_proved():
    # x^2 - 61 y^2 = 1 has a solution only with x = 1766319049: no answer within 50 ms.
    L = Layout("pell.in", [("x", 1), ("y", 1)])
    Out = Layout("pell.out", [("r", 1)])
    x = L.vars()
    w2 = Map("W_2", L, Out, {"r": x.x * x.x - 61 * (x.y * x.y)})

    def row(x, i, K):
        r = x.x() * x.x() - 61 * x.y() * x.y()
        return K.ite(r == 1, 0, r)

    lem = Lemma("t:pell", L, w2, {"r": row}, relu=False, ints={"x", "y"},
                hyps=(each("x ≥ 2", "x", lambda v, K: v >= 2),), timeout_ms=50)
    r = prove(lem)
    assert r.status == "unknown" and r.unknown and r.counterexample is None
    v = LemmaCheck(lambda: lem).run(RunContext("t:pell", 1))
    assert v.verdict == "unknown" and "never counted as proved" in v.notes[-1]


def test_all_dimension_query_finds_a_failure_beyond_the_sweep():
    r = prove(shift(target_bug_from=20), 8)
    assert r.status == "refuted"
    assert r.counterexample.sizes == {"d": 21} and r.counterexample.mismatches[0]["index"] == 20
    assert "all-dimension" in r.dimension


def test_local_rows_are_proved_for_every_dimension():
    r = prove(shift(), 16)
    assert r.status == "proved" and r.max_size == 16 and r.dimension.startswith("every d")
    assert r.unused == ["h ≥ 0"]


def test_a_row_summing_a_whole_block_is_only_verified():
    L = Layout("sum.in", [("h", d)])
    Out = Layout("sum.out", [("s", 1)])
    x = L.vars()
    w2 = Map("W_2", L, Out, {"s": x.h.sum()})
    lem = Lemma("t:sum", L, w2, {"s": lambda x, i, K: K.sum(x.vec("h"))}, relu=False, dims={d: 1})
    r = prove(lem, 16)
    assert r.status == "verified" and r.max_size == 16 and "not proved for all d" in r.dimension


def test_symbolic_rows_of_index_matrices_are_checked_against_their_entries():
    good = LocalIndexMatrix(d, d, lambda i, j, env: 1 if i == j + 1 else 0, "S",
                            sym_row=lambda i, s: [(1, i - 1, z3.And(i >= 1, i - 1 < s[d]))])
    check_local(good, {d: 5})
    bad = LocalIndexMatrix(d, d, lambda i, j, env: 1 if i == j + 1 else 0, "S",
                           sym_row=lambda i, s: [(1, i + 1, z3.And(i + 1 < s[d]))])
    with pytest.raises(Unsupported):
        check_local(bad, {d: 5})
    L = Layout("lm.in", [("h", d)])
    Out = Layout("lm.out", [("y", d)])
    lem = Lemma("t:lm", L, Map("W_2", L, Out, {"y": bad @ L.vars().h}), {"y": lambda x, i, K: x.h(i - 1)},
                relu=False, dims={d: 1})
    v = LemmaCheck(lambda: lem).run(RunContext("t:lm", 4))
    assert v.verdict == "error" and "differs from the matrix row" in v.notes[-1]


def test_an_empty_domain_is_not_a_proof():
    lem = indicator(hyps=(each("v ≥ 1", "v", lambda v, K: v >= 1), each("v ≤ 0", "v", lambda v, K: v <= 0)))
    r = prove(lem)
    assert r.status == "unknown" and any("empty" in n for n in r.notes)


def test_a_model_that_does_not_differ_is_not_reported():
    lem = indicator()
    from symcot.ir.layout import ConcreteLayout

    xs = input_vars(lem, ConcreteLayout(lem.inputs, {}), {})
    s = z3.Solver()
    s.add(xs["v"][0] == 3)
    assert s.check() == z3.sat
    cex, why = check_model(lem, {}, {}, xs, s.model(), None, None, "test")
    assert cex is None and "does not differ" in why


def test_gates_are_enumerated_and_whole_hypotheses_can_exclude_a_gate_value():
    L = Layout("g.in", [("m", 1), ("v", 1)])
    Out = Layout("g.out", [("y", 1)])
    x = L.vars()
    lem = Lemma("t:g", L, Map("W_2", L, Out, {"y": x.m * x.v}), {"y": lambda x, i, K: x.v()}, relu=False,
                gates=(Gate("m", (1, -1)),), hyps=(whole("m = 1", lambda x, K: x.m() == 1),))
    o = prove_at(lem, {})
    assert o.status == "proved" and any("excluded by m = 1" in n for n in o.notes)
    assert prove(lem.replace(hyps=())).status == "refuted"


def test_kits_and_exact_translation():
    assert ExactKit.relu(Fraction(-1, 2)) == 0 and ExactKit.max(1, Fraction(3, 2)) == Fraction(3, 2)
    assert Z3Kit.And(True, False) is False and Z3Kit.Or(False) is False and Z3Kit.ite(True, 1, 2) == 1
    t = sympy_to_z3(lam / 2 - sp.Rational(1, 3), {lam: Fraction(5)})
    assert z3_to_exact(z3.simplify(z3.RealVal(0) + t)) == Fraction(13, 6)
    with pytest.raises(Unsupported):
        sympy_to_z3(sp.sqrt(2) * lam, {lam: 1})
    x = ConcreteX({"h": [1, 2, 3]})
    assert x.h(-1) == 0 and x.h(2) == 3 and x.size("h") == 3


def test_overrides_address_block_coordinates():
    lem = indicator().mutate(Override("W_2", ("y", 0), (("b", 0),), -1))
    _w1, w2 = concrete_maps(lem, {})
    assert w2.coefficient(0, 1) == -1
    with pytest.raises(IndexError):
        concrete_maps(indicator().mutate(Override("W_2", ("y", 1), (), 0)), {})


def test_bisection_fallback_brackets_lambda_star(claims):

    from symcot.lemmas.lam import LambdaSpec, _bisect

    mmc = importlib.import_module("proofs.cot_path_to_tree.lem_mMc").lemma().replace(decoupled=True, bound_value=3)
    out = _bisect(mmc, LambdaSpec(), lo=Fraction(0), hi=Fraction(8), steps=10)
    lo, hi = out["lambda_star_interval"]
    assert lo < 3 <= hi and hi - lo == Fraction(8, 1024)


def test_statement_errors_are_clear():
    from symcot.lemmas.lemma import LemmaError

    lem = indicator()
    with pytest.raises(LemmaError, match="no block"):
        lem.replace(hyps=(each("w ≥ 0", "w", lambda v, K: v >= 0),))
    with pytest.raises(LemmaError, match="repeat"):
        lem.replace(hyps=INT + INT)


def test_lambda_star_by_quantifier_elimination_is_certified():
    # relu(x - λ) = 0 for x ∈ [0, 5] holds iff λ ≥ 5: qe2 finds it, the certificate checks both sides.
    from symcot.lemmas import LambdaSpec, lam_hyp

    L = Layout("q.in", [("x", 1)])
    Hd = Layout("q.hid", [("a", 1)])
    Out = Layout("q.out", [("y", 1)])
    x, z = L.vars(), Hd.vars()
    lem = Lemma("t:qe", L, Map("W_2", Hd, Out, {"y": z.a}), {"y": lambda x, i, K: 0},
                w1=Map("W_1", L, Hd, {"a": x.x - lam}), has_lam=True,
                hyps=(lam_hyp("λ ≥ 0", lambda K: K.lam >= 0), each("x ≥ 0", "x", lambda v, K: v >= 0),
                      each("x ≤ 5", "x", lambda v, K: v <= 5)))
    v = LemmaCheck(lambda: lem, lam=LambdaSpec(decoupled=False)).run(RunContext("t:qe", 1))
    assert v.verdict == "refuted"  # some λ ≥ 0 fails
    info = v.details["lambda"]
    assert info["method"] == "qe2" and info["lambda_star"] == 5 and info["attained"] is True
    cert = info["certificate"]
    assert (cert["at_lambda_star"], cert["below"], cert["at_below"]) == ("proved", "499/100", "refuted")
    assert cert["counterexample_below"]["got"] == "1/100"
