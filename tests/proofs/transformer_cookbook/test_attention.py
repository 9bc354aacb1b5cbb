"""Chapter 4's attention recipes: each badge verified; a kind a recipe is not badged for refuted, smallest input."""

from proofs.transformer_cookbook.attention import IDENTITY, LOOKUP, UNIFORM
from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress


def _rows(claim, size):
    return {chk.variant: chk.run(RunContext(claim.id, size, Progress(False))) for chk in claim.checks}


def test_identity_attention_holds_under_every_badge():
    rows = _rows(IDENTITY, 4)
    assert {v: (r.verdict, r.max_size) for v, r in rows.items()} == {
        "as-written": ("verified", 4), "UHAT": ("verified", 4), "AHAT": ("verified", 4)}


def test_uniform_attention_holds_under_its_badges_and_fails_under_uhat():
    rows = _rows(UNIFORM, 4)
    assert [rows[v].verdict for v in ("as-written", "AHAT", "UHAT")] == ["verified", "verified", "refuted"]
    cex = rows["UHAT"].counterexample
    assert (cex["input"]["string"], cex["position"], cex["got"][2], cex["expected"][2]) == ("ab", 0, "1", "1/2")


def test_quadratic_maximisation_retrieves_a_i_under_its_badges_and_not_under_softmax():
    rows = _rows(LOOKUP, 4)
    assert [rows[v].verdict for v in ("as-written", "AHAT", "SMAT")] == ["verified", "verified", "refuted"]
    assert rows["as-written"].inputs_checked == 1 + 4 + 27 + 256
    cex = rows["SMAT"].counterexample
    assert (cex["input"]["text"], cex["position"], cex["expected"]) == ("a = (0, 1)", 0, 0)
    assert "+/-" in cex["got"][0]  # a certified ball that excludes the reference: a decided refutation
