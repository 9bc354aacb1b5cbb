"""Encoder and recogniser checks: verified, refuted with the string, position, layer, head and block; unknown
when the intervals cannot decide."""

import math
from fractions import Fraction

import pytest

from symcot.check.context import RunContext
from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.check.exhaustive import Progress
from symcot.errors import DescriptionError
from symcot.inputs.strings import strings_family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import AHAT, SMAT, HeadRule, ModelDescription

L = Layout("enc", [("x", 1), ("m", 1)])
K1 = Layout("enc.key", [("k", 1)])


def mean_of_x(desc: ModelDescription, scored: bool = False, value_one: bool = False) -> Decoder:
    """One head: ``m ← Σ_j w_j x_j`` (scores 0, or ``x_j`` when ``scored``); the FFN is the identity."""
    x = L.vars()
    q = Map("Q", L, K1, {"k": 1 + 0 * x.x}) if scored else Map("Q", L, K1, zero=["k"])
    k = Map("K", L, K1, {"k": x.x}) if scored else Map("K", L, K1, zero=["k"])
    v = Map("V", L, L, {"x": 1 + 0 * x.x} if value_one else {"x": x.x}, zero=["m"])
    head = Head("u", q, k, v)
    vs = value_space([head])
    w_o = Map("W_O", vs, L, {"m": vs.vars()["u.x"]}, zero=["x"])
    return Decoder("mean", L, [Layer(Attention([head], w_o), FFN(Map("W_1", L, L, keep=["x", "m"]),
                                                                 Map("W_2", L, L, keep=["x", "m"])))], desc)


def embed(a, i, n):
    return [1 if a == "a" else 0, 0]


def prefix_share(s):
    return [Fraction(s[:i + 1].count("a"), i + 1) for i in range(len(s))]


def run(check, size=5):
    return check.run(RunContext("test:enc", size, Progress(False)))


@pytest.mark.parametrize("kind", [AHAT(), SMAT(3)], ids=["AHAT", "SMAT"])
def test_a_future_masked_uniform_encoder_computes_the_prefix_share(kind):
    desc = ModelDescription("prefix", direction="encoder", head=HeadRule("future", kind))
    chk = EncoderCheck(lambda: EncoderConstruction("as-written", mean_of_x(desc), embed, Readout("m")),
                       prefix_share, [strings_family("ab")],
                       attends=lambda s, layer, head, i: range(i + 1))
    row = run(chk)
    assert row.verdict == "verified" and row.max_size == 5 and row.inputs_checked == 62


def test_a_wrong_mask_is_refuted_with_the_string_position_layer_and_block():
    desc = ModelDescription("strict", direction="encoder", head=HeadRule("strict-future", AHAT()))
    chk = EncoderCheck(lambda: EncoderConstruction("strict", mean_of_x(desc), embed, Readout("m")),
                       prefix_share, [strings_family("ab")])
    row = run(chk)
    cex = row.counterexample
    assert row.verdict == "refuted"
    assert (cex["input"]["string"], cex["position"], cex["layer"], cex["block"]) == ("a", 0, 1, "m")
    assert cex["got"] == ["0"] and cex["expected"] == 1


def test_a_wrong_attention_expectation_names_the_layer_and_the_head():
    desc = ModelDescription("none", direction="encoder", head=HeadRule("none", AHAT()))
    chk = EncoderCheck(lambda: EncoderConstruction("unmasked", mean_of_x(desc), embed, Readout("m")),
                       prefix_share, [strings_family("ab")], attends=lambda s, layer, head, i: range(i + 1))
    cex = run(chk).counterexample
    assert (cex["kind"], cex["input"]["string"], cex["position"], cex["layer"], cex["head"]) == \
        ("attention", "aa", 0, 1, "u")
    assert cex["attends"] == [0, 1] and cex["expected"] == [0]


def softmax_majority(s):
    """Accept iff Σ softmax(x)·x > 1/2 with τ = 1: k·e > n - k, k the number of a's."""
    k, n = s.count("a"), len(s)
    return k * math.e > n - k  # never equal: e is irrational


def test_a_softmax_recogniser_is_decided_by_its_intervals():
    desc = ModelDescription("soft", direction="recogniser", head=HeadRule("none", SMAT(1)))
    make = lambda: EncoderConstruction("softmax", mean_of_x(desc, scored=True), embed,  # noqa: E731
                                       Readout("m", "sign", Fraction(1, 2)))
    row = run(EncoderCheck(make, softmax_majority, [strings_family("ab")]), 6)
    assert row.verdict == "verified" and row.max_size == 6
    wrong = run(EncoderCheck(make, lambda s: s.count("a") > len(s) / 2, [strings_family("ab")]), 6)
    assert wrong.verdict == "refuted" and wrong.counterexample["input"]["string"] == "ab"


def test_a_value_the_intervals_cannot_settle_is_unknown_naming_where():
    desc = ModelDescription("soft", direction="encoder", head=HeadRule("none", SMAT(1)))
    make = lambda: EncoderConstruction("sum-one", mean_of_x(desc, scored=True, value_one=True), embed,  # noqa: E731
                                       Readout("m"))
    row = run(EncoderCheck(make, lambda s: [1] * len(s), [strings_family("ab")]), 3)
    assert row.verdict == "unknown"
    und = row.details["undecided"]
    assert (und["string"], und["position"], und["layer"]) == ("ab", 0, 1) and "+/-" in und["interval"]


def test_an_encoder_construction_needs_an_encoder_description():
    with pytest.raises(DescriptionError, match="direction 'encoder' or 'recogniser'"):
        EncoderConstruction("x", mean_of_x(ModelDescription()), embed, Readout("m"))
    with pytest.raises(DescriptionError, match="unknown readout"):
        Readout("m", "argmax")
