"""Predecessor: without a mask the periodic vectors pick i + 1, not i - 1; a strict causal mask repairs it."""

from proofs.transformer_cookbook.attention_predecessor import (
    MAXIMISING,
    PREDECESSOR,
    VARIANTS,
    _check,
    identity_failure,
    v,
)
from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress
from symcot.model.interval import compare


def _rows(size):
    return {chk.variant: chk.run(RunContext(PREDECESSOR.id, size, Progress(False))) for chk in PREDECESSOR.checks}


def _attended(variant, s):
    cons = _check(variant).construction()
    enc = cons.run(tuple(s))
    return [sorted(j for j, _ in enc.records[i][0].heads[0].weights) for i in range(len(s))]


def test_the_repairs_and_the_successor_reading_hold_and_the_as_written_reading_is_refuted():
    rows = _rows(5)
    assert {v_: (r.verdict, r.max_size) for v_, r in rows.items()} == {
        "as-written": ("refuted", None), "AHAT": ("refuted", None), "causal-UHAT": ("verified", 5),
        "causal-AHAT": ("verified", 5), "successor": ("verified", 5)}
    cex = rows["as-written"].counterexample
    assert (cex["input"]["string"], cex["position"], cex["attends"], cex["expected"]) == ("a", 0, [0], [])


def test_without_a_mask_each_position_attends_to_its_successor():
    assert _attended("as-written", "abab") == [[1], [2], [3], [2]]
    assert _attended("AHAT", "aba") == [[1], [2], [1]]
    assert _attended("causal-UHAT", "abab") == [[], [0], [1], [2]]
    assert set(VARIANTS) == set(PREDECESSOR.readings)


def test_the_position_vectors_are_certified_and_alternate_in_sign():
    v0, v3 = v(0, 4), v(3, 4)
    assert compare(v0[0], 1) == 0 and compare(v0[1], 0) == 0
    assert v3[2] == -10 and compare(v3[0], v0[0]) < 0


def test_the_displayed_score_is_off_by_the_third_coordinates_product():
    rows = {chk.variant: chk.run(RunContext(MAXIMISING.id, 6, Progress(False))) for chk in MAXIMISING.checks}
    assert (rows["times-100"].verdict, rows["times-100"].max_size, rows["times-100"].inputs_checked) == (
        "verified", 6, 36)
    bad = rows["as-written"]
    assert bad.verdict == "refuted"
    assert (bad.counterexample["input"]["text"], bad.counterexample["actual"], bad.counterexample["stated"]) == (
        "i = 0, j = 0", "cos(0π) + -100", "cos(0π) + -10")
    assert identity_failure(10, (2, 3))["stated"].endswith("+ 10") and identity_failure(100, (2, 3)) is None
