import pytest

from proofs.transformer_cookbook import ffnn_addition as mod
from symcot.lemmas import Override

from .helpers import cex, l1, mutant_refuted, rows


@pytest.fixture(scope="module")
def claim_rows():
    return rows(mod.CLAIM, max_size=4)


def test_verdicts_per_reading(claim_rows):
    r = claim_rows
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "proved", "d3-nonzero": "refuted",
                                                   "cancel-residual": "refuted", "cancel-d3-only": "proved"}
    assert r["as-written"].details["dimension"].startswith("every d")
    assert r["cancel-d3-only"].details["dimension"].startswith("every d")


def test_without_the_assumption_the_residual_adds_x_d3(claim_rows):
    r = claim_rows
    sizes, blocks, m = cex(r["d3-nonzero"])
    assert sizes == {"d": 3} and blocks["d1"] == blocks["d2"] == [0] and abs(blocks["d3"][0]) == 1
    assert m["block"] == "d3" and (m["expected"], m["got"]) == (-blocks["d3"][0], 0)


def test_cancelling_the_whole_residual_erases_the_other_coordinates(claim_rows):
    sizes, blocks, m = cex(claim_rows["cancel-residual"])
    assert sizes == {"d": 3} and l1(blocks) == 1 and blocks["d3"] == [0]
    assert m["block"] in ("d1", "d2") and m["got"] == -blocks[m["block"]][0] and m["expected"] == 0


def test_a_changed_output_weight_is_refuted():
    # W_2 row d3 = [1, -1, 1, 1]: a negative x_d2 is added with the wrong sign
    c = mutant_refuted(mod.as_printed(), Override("W_2", ("d3", 0), (("u4", 0),), 1))
    assert c.sizes == {"d": 3} and c.inputs["d2"][0] < 0


def test_a_changed_cancellation_weight_is_refuted():
    c = mutant_refuted(mod.cancel_d3(), Override("W_2", ("d3", 0), (("pos_d3", 0),), 0))
    assert c.sizes == {"d": 3} and c.inputs["d3"][0] > 0
