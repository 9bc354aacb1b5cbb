"""Chapter 5: a future-masked BOS average gives 1/i; the unmasked one gives 1/n, not the claimed i/n."""

from fractions import Fraction

from proofs.transformer_cookbook.positional import I_OVER_N, ONE_OVER_I, i_over_n, one_over_i, one_over_n
from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress


def _rows(claim, size):
    return {chk.variant: chk.run(RunContext(claim.id, size, Progress(False))) for chk in claim.checks}


def _cex(row):
    c = row.counterexample
    return c["input"]["string"], c["position"], c["got"], c["expected"]


def test_one_over_i_holds_under_uniform_attentions_badges_and_not_under_uhat():
    rows = _rows(ONE_OVER_I, 5)
    assert {v: (r.verdict, r.max_size, r.inputs_checked) for v, r in rows.items() if v != "UHAT"} == {
        "as-written": ("verified", 5, 31), "SMAT": ("verified", 5, 31)}
    assert rows["UHAT"].verdict == "refuted" and _cex(rows["UHAT"]) == ("^a", 1, ["1"], "1/2")


def test_the_unmasked_bos_average_is_one_over_n_not_i_over_n():
    rows = _rows(I_OVER_N, 5)
    assert [rows[v].verdict for v in ("as-written", "SMAT", "one-over-n")] == ["refuted", "refuted", "verified"]
    assert _cex(rows["as-written"]) == ("^a", 1, ["1/2"], 1)
    assert rows["one-over-n"].max_size == 5


def test_the_references():
    s = ("^", "a", "b")
    assert one_over_i(s) == [1, Fraction(1, 2), Fraction(1, 3)]
    assert i_over_n(s) == [Fraction(1, 3), Fraction(2, 3), 1]
    assert one_over_n(s) == [Fraction(1, 3)] * 3
