import pytest
import sympy as sp

from proofs.transformer_cookbook import ffnn_boolean as mod
from proofs.transformer_cookbook.recipes import conjunction_units, n
from symcot.ir import Layout, Map
from symcot.lemmas import Override, prove
from symcot.lemmas.induction import Fold, Induction
from symcot.lemmas.kit import Unsupported
from symcot.lemmas.solver import prove_at
from symcot.lemmas.symbolic import SummedIndexMatrix, check_summed, summed_matrices

from .helpers import cex, mutant_refuted, rows


@pytest.fixture(scope="module")
def claims():
    return {c.id: c for c in mod.CLAIMS}


def test_dnf_as_printed_is_refuted_at_n_2(claims):
    r = rows(claims["sec:ffnn_boolean"])
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "refuted", "repaired": "verified",
                                                   "true-geq-1": "refuted"}
    sizes, blocks, m = cex(r["as-written"])
    # the unit ξ = (0, 1) reads ξ_1 = 0 for both literals: it fires at x = (0, 0)
    assert sizes == {"n": 2} and blocks == {"x": [0, 0], "phi": [0, 0, 1, 0]}
    assert (m["expected"], m["got"]) == (0, 1)
    assert r["repaired"].max_size == 3 and "not proved for all n" in r["repaired"].details["dimension"]


def test_dnf_with_true_at_least_one_outputs_true_for_a_false_phi(claims):
    sizes, blocks, m = cex(rows(claims["sec:ffnn_boolean"])["true-geq-1"])
    assert sizes == {"n": 2} and blocks in ({"x": [2, 0], "phi": [0, 0, 0, 1]}, {"x": [0, 2], "phi": [0, 0, 0, 1]})
    assert (m["expected"], m["got"]) == (0, 1)


def test_clause_units(claims):
    r = rows(claims["sec:ffnn_boolean:clauses"], max_size=5)
    assert r["repaired"].verdict == "proved" and r["repaired"].max_size == 5
    assert "every n (induction on the sum of block 'h'" in r["repaired"].details["dimension"]
    sizes, blocks, m = cex(r["as-written"])
    assert sizes == {"n": 2} and blocks == {"x": [1, 0]} and (m["block"], m["index"]) == ("h", 1)
    assert (m["expected"], m["got"]) == (1, 0)


def test_connectives(claims):
    assert rows(claims["sec:ffnn_boolean:and-or"])["as-written"].verdict == "proved"
    r = rows(claims["sec:ffnn_boolean:not"])
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "proved", "true-geq-1": "refuted",
                                                   "true-geq-1-relu": "proved"}
    sizes, blocks, m = cex(r["true-geq-1"])
    assert blocks == {"x": [2]} and (m["expected"], m["got"]) == (0, -1)


def test_a_changed_clause_bias_is_refuted():
    # unit ξ = 0 with bias 2 instead of 1 at n = 1: ReLU(2 - x) is 2 at x = 0 (and 1 at x = 1)
    c = mutant_refuted(mod.dnf_repaired(), Override("W_1", ("h", 0), (), 2))
    assert c.sizes == {"n": 1}
    c = mutant_refuted(mod.clauses(), Override("W_1", ("h", 0), (), 2))
    assert c.sizes == {"n": 1} and c.inputs == {"x": [0]}
    assert (c.mismatches[0]["expected"], c.mismatches[0]["got"]) == (1, 2)


def test_changed_connective_weights_are_refuted():
    mutant_refuted(mod.and_or(), Override("W_2", ("and", 0), (("diff_min", 0),), 1))
    mutant_refuted(mod.not_as_printed(), Override("W_2", ("not", 0), (), 0))
    c = mutant_refuted(mod.not_true_geq_1_relu(), Override("W_1", ("n", 0), (), 2))
    assert c.inputs == {"x": [0]} and c.mismatches[0]["got"] == 2


def _bent_literal(st, k, x, i, K):
    match, wrong = mod._literal(st, k, x, i, K)
    return K.ite(k >= 5, 0, match), wrong  # right for n ≤ 5, every clause false from a sixth input on


def test_clause_units_right_up_to_a_size_past_the_sweep_and_wrong_after_are_not_proved():
    bent = Fold(mod.CLAUSE.steps, mod._no_mismatch, _bent_literal, mod._clause_out, mod._clause_inv, "bent")
    lem = mod.clauses().replace(target={"h": bent.row}, induction=Induction("h", bent))
    res = prove(lem, 3)  # the sweep checks n ≤ 3; the target is right to n = 5 and wrong from n = 6
    assert res.status == "verified" and res.max_size == 3 and "the induction: step (a model)" in res.dimension
    assert prove_at(lem, {n: 5}).status == "proved"
    assert prove_at(lem, {n: 6}).status == "refuted"


@pytest.mark.parametrize("printed", [True, False])
def test_the_units_stated_sums_are_their_matrices(printed):
    lay = Layout("u.in", [("x", n)])
    w = Map("W", lay, Layout("u.out", [("h", 2**n)]), {"h": conjunction_units(lay.vars().x, n, printed)})
    mats = summed_matrices(w)
    assert len(mats) == 2
    for m in mats:
        for size in (1, 2, 3, 4):
            check_summed(m, {n: size})


def test_a_stated_sum_that_is_not_the_matrix_is_caught():
    wrong = SummedIndexMatrix(2, 2, lambda i, j, env: 1 if i == j else 0, "I",
                              lambda i, s, summer, col: summer(2, lambda j: col(j), "all"))  # J, not I
    with pytest.raises(Unsupported, match="stated sum of row 0"):
        check_summed(wrong, {sp.Symbol("m"): 1})
