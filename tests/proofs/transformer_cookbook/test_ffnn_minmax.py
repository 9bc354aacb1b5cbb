from proofs.transformer_cookbook import ffnn_minmax as mod
from symcot.lemmas import Override

from .helpers import mutant_refuted, rows


def test_both_diagrams_are_proved_for_all_reals():
    r = rows(mod.CLAIM)
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "proved"}
    assert r["as-written"].details["dimension"] == "no dimension"


def test_a_changed_output_weight_is_refuted():
    # max diagram with the weight of ReLU(y - x) set to -1 instead of 1
    c = mutant_refuted(mod.lemma(), Override("W_2", ("max", 0), (("diff_max", 0),), -1))
    m = c.mismatches[0]
    assert m["block"] == "max"
    x, y = c.inputs["x"][0], c.inputs["y"][0]
    assert m["expected"] == max(x, y) and m["got"] == x - max(0, y - x)


def test_a_changed_first_layer_weight_is_refuted():
    # min diagram reading ReLU(x + y) instead of ReLU(x - y)
    c = mutant_refuted(mod.lemma(), Override("W_1", ("diff_min", 0), (("y", 0),), 1))
    assert c.mismatches[0]["block"] == "min"
