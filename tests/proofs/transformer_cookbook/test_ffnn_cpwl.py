from proofs.transformer_cookbook import ffnn_cpwl as mod
from symcot.lemmas import Override

from .helpers import mutant_refuted, rows


def test_verified_up_to_four_pieces():
    r = rows(mod.CLAIM, max_size=4)["as-written"]
    assert r.verdict == "verified" and r.max_size == 4
    assert r.details["sizes_checked"] == [2, 4] and "not proved for all n" in r.details["dimension"]


def test_a_shifted_breakpoint_is_refuted():
    # the unit ReLU(x - x_2) with bias +1: the slope changes one unit too early
    c = mutant_refuted(mod.lemma(), Override("W_1", ("r", 0), (), 1), max_size=3)
    assert c.sizes == {"n": 2}
    xs, t = c.inputs["xs"], c.inputs["x"][0]
    assert xs[1] - 1 < t < xs[1] + 1  # the failure is where the two units disagree


def test_a_wrong_slope_change_is_refuted():
    # W_2 without the linear term's negative unit: m_1 (x - x_1) becomes m_1 ReLU(x - x_1)
    c = mutant_refuted(mod.lemma(), Override("W_2", ("y", 0), (("lin_neg", 0), ("ms", 0)), 0), max_size=3)
    assert c.sizes == {"n": 2} and c.inputs["x"][0] < c.inputs["xs"][0] and c.inputs["ms"][0] == 1
