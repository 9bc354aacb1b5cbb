"""Tie breaking: ±1/(j+1) makes AHAT simulate leftmost/rightmost UHAT; without it AHAT averages the tie."""

from fractions import Fraction

from proofs.transformer_cookbook.attention_ties import TIE_BREAKING, tie_decoder, unique_choice
from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress


def _rows(size):
    return {chk.variant: chk.run(RunContext(TIE_BREAKING.id, size, Progress(False))) for chk in TIE_BREAKING.checks}


def test_both_directions_hold_and_the_unbroken_tie_is_refuted_at_the_smallest_input():
    rows = _rows(5)
    assert {v: (r.verdict, r.max_size, r.inputs_checked) for v, r in rows.items() if v != "no-tie-break"} == {
        "as-written": ("verified", 5, 62), "rightmost": ("verified", 5, 62)}
    bad = rows["no-tie-break"]
    assert bad.verdict == "refuted"
    cex = bad.counterexample
    assert (cex["input"]["string"], cex["position"], cex["attends"], cex["expected"]) == ("00", 0, [0, 1], [0])


def test_the_reference_is_unique_hard_attention():
    assert unique_choice(("0", "1", "1", "0"), "leftmost") == 1
    assert unique_choice(("0", "1", "1", "0"), "rightmost") == 2
    assert unique_choice(("0", "0"), "rightmost") == 1


def test_the_key_carries_the_tie_breaking_term():
    dec = tie_decoder(-1)
    assert dec.description.positional.at(2, 5) == [Fraction(1, 3)]
    assert dec.description.head.attention.kind == "average"
