"""One string through an encoder, recorded: weights per head and position, blocks, readout against reference."""

from fractions import Fraction

from proofs.transformer_cookbook.attention_ties import TIE_BREAKING, unique_choice
from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.check.encoder_trace import trace_encoder
from symcot.inputs.strings import strings_family
from symcot.model.description import SMAT, HeadRule, ModelDescription
from tests.check.test_encoder import embed, mean_of_x, softmax_majority


def _check(variant):
    return next(c for c in TIE_BREAKING.checks if c.variant == variant)


def test_each_head_attends_where_unique_hard_attention_would():
    for variant, tie in (("as-written", "leftmost"), ("rightmost", "rightmost")):
        for w in ("0110", "1001", "000", "1"):
            t = trace_encoder(_check(variant), tuple(w), "t")
            head = t.layers[0].heads[0]
            assert head.name == "t" and head.rule.attention.kind == "average"
            assert [head.attended(i) for i in range(len(w))] == [[unique_choice(tuple(w), tie)]] * len(w)
            assert t.ok and t.verdicts == ["ok"] * len(w)
            assert t.readouts == [[Fraction(1, unique_choice(tuple(w), tie) + 1)]] * len(w)


def test_without_the_term_the_tie_is_averaged_and_the_trace_is_not_ok():
    t = trace_encoder(_check("no-tie-break"), tuple("0110"), "t")
    head = t.layers[0].heads[0]
    assert head.weights[0] == [(1, Fraction(1, 2)), (2, Fraction(1, 2))]
    assert head.expected == [[1]] * 4 and all(head.differs(i) for i in range(4))
    assert not t.ok and t.verdicts == ["differs"] * 4 and t.reference == [Fraction(1, 2)] * 4


def test_blocks_are_the_layout_and_inputs_carry_the_positional_encoding():
    t = trace_encoder(_check("as-written"), tuple("01"), "t")
    assert t.blocks == [("b", 1), ("one", 1), ("val", 1), ("p", 1)]
    assert t.inputs == [[0, 1, 0, 1], [1, 1, 0, Fraction(1, 2)]]
    assert t.layers[0].outputs[0][2] == Fraction(1, 2)  # val after the layer: 1/(j+1) of the attended j = 1


def test_a_recogniser_is_read_at_the_last_position_only():
    desc = ModelDescription("soft", direction="recogniser", head=HeadRule("none", SMAT(1)))
    chk = EncoderCheck(lambda: EncoderConstruction("softmax", mean_of_x(desc, scored=True), embed,
                                                   Readout("m", "sign", Fraction(1, 2))),
                       softmax_majority, [strings_family("ab")])
    t = trace_encoder(chk, ("a", "b", "b"), "t")
    assert t.recogniser and t.readouts[:2] == [None, None] and t.verdicts == [None, None, "ok"]
    assert t.readouts[2] is softmax_majority("abb") and t.ok
    wrong = EncoderCheck(chk.construction, lambda s: not softmax_majority(s), chk.families)
    assert not trace_encoder(wrong, ("a", "b", "b"), "t").ok


def test_a_value_the_intervals_cannot_settle_is_undecided_not_a_guess():
    desc = ModelDescription("soft", direction="encoder", head=HeadRule("none", SMAT(1)))
    chk = EncoderCheck(lambda: EncoderConstruction("sum-one", mean_of_x(desc, scored=True, value_one=True), embed,
                                                   Readout("m")), lambda s: [1] * len(s), [strings_family("ab")])
    t = trace_encoder(chk, ("a", "b"), "t")
    assert t.verdicts == ["undecided", "undecided"] and not t.ok
    assert "position 0" in t.undecided[0] and "layer 1" in t.undecided[0]
