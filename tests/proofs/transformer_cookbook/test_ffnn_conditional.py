import pytest

from proofs.transformer_cookbook import ffnn_conditional as mod
from symcot.lemmas import Override

from .helpers import cex, l1, mutant_refuted, rows


@pytest.fixture(scope="module")
def claim_rows():
    return rows(mod.CLAIM, max_size=3)


def test_verdicts_per_reading(claim_rows):
    r = claim_rows
    assert {v: x.verdict for v, x in r.items()} == {"as-written": "refuted", "swapped-branches": "proved",
                                                   "repaired": "proved", "header-domain": "refuted"}
    assert r["repaired"].details["dimension"].startswith("every d")


def test_the_printed_units_exchange_the_branches(claim_rows):
    sizes, blocks, m = cex(claim_rows["as-written"])
    # smallest: d = 1, the first gate value p = 0, one option 1 and the other 0; the network returns φ
    assert sizes == {"d": 1} and blocks["p"] == [0] and l1(blocks) == 1
    assert (m["expected"], m["got"]) == (blocks["psi"][0], blocks["phi"][0])


def test_outside_the_unit_interval_the_repair_fails(claim_rows):
    sizes, blocks, m = cex(claim_rows["header-domain"])
    assert sizes == {"d": 1} and blocks == {"p": [0], "phi": [0], "psi": [-1]}
    assert (m["expected"], m["got"]) == (-1, 0)


def test_a_changed_gate_weight_is_refuted():
    # repaired h_1 = ReLU(p - 1 + φ) with the weight of p set to 0
    c = mutant_refuted(mod.repaired(), Override("W_1", ("h1", 0), (("p", 0),), 0))
    assert c.sizes == {"d": 1} and c.inputs["p"] == [1]
