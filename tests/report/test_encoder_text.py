"""The encoder replay table: values, intervals rounded outwards, column groups that fit, a readable tail."""

from fractions import Fraction

from symcot.model.interval import Ball, exp, sqrt
from symcot.report.encoder_text import fmt, render_table


def test_exact_values_print_exactly_and_balls_as_outward_intervals():
    assert fmt(Fraction(5, 12)) == "5/12" and fmt(3) == "3" and fmt(True) == "1"
    assert fmt([1, Fraction(1, 2)]) == "[1,1/2]"
    assert fmt(sqrt(Fraction(9, 4))) == "3/2"  # a rational root stays exact
    e = exp(Fraction(1))
    text = fmt(e)
    lo, hi = (float(x) for x in text[1:-1].split(","))
    assert lo <= 2.718281828 <= hi and text == "[2.718,2.719]"
    assert fmt(Ball(Fraction(0))) == "0"


def test_negative_intervals_round_away_from_the_value():
    text = fmt(-exp(Fraction(1)))
    lo, hi = (float(x) for x in text[1:-1].split(","))
    assert lo <= -2.718281828 <= hi and text == "[-2.719,-2.718]"


def test_columns_split_into_groups_that_fit_and_text_rows_wrap():
    rows = [("position", [str(i) for i in range(12)]), "a long line of text across the table " * 3,
            ("value", ["1/3"] * 12)]
    lines = render_table(rows, 30)
    assert max(len(ln) for ln in lines) <= 30
    heads = [ln for ln in lines if ln.startswith("positions ")]
    assert heads == ["positions 0–3 of 0–11", "positions 4–7 of 0–11", "positions 8–11 of 0–11"]  # 8 + 4 × 5 ≤ 30
    one = render_table(rows, None)
    assert len([ln for ln in one if ln.startswith("value")]) == 1 and not any("positions" in ln for ln in one)


def test_a_recogniser_reads_accept_or_reject_at_the_last_position():
    from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
    from symcot.check.encoder_trace import trace_encoder
    from symcot.inputs.strings import strings_family
    from symcot.model.description import SMAT, HeadRule, ModelDescription
    from symcot.report.encoder_text import render_encoder
    from tests.check.test_encoder import embed, mean_of_x, softmax_majority

    desc = ModelDescription("soft", direction="recogniser", head=HeadRule("none", SMAT(1)))
    chk = EncoderCheck(lambda: EncoderConstruction("softmax", mean_of_x(desc, scored=True), embed,
                                                   Readout("m", "sign", Fraction(1, 2))),
                       softmax_majority, [strings_family("ab")])
    text = render_encoder(trace_encoder(chk, ("a", "b", "b"), "demo [softmax]"), 100)
    rows = {ln.split()[0]: ln.split()[1:] for ln in text.splitlines() if ln and ln.split()[0] in ("readout",
                                                                                               "reference", "match")}
    want = "accept" if softmax_majority("abb") else "reject"
    assert rows == {"readout": [want], "reference": [want], "match": ["ok"]}  # only the last column is read
    assert "head u: α(j=2)" in text and "certified interval" in text
    assert text.rstrip().endswith("ok: the readout matches the reference at the last position")
