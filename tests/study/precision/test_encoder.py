"""Margins of encoder claims: by hand on the tie-breaking recipe and a toy ReLU; zero on a tie; the formats."""

from fractions import Fraction

import pytest

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.errors import SymcotError
from symcot.inputs.strings import strings_family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import UHAT, HeadRule, ModelDescription
from symcot.registry import load_claims, select
from symcot.study.precision.encoder import encoder_json, format_lengths, study_encoder


def _tie_breaking():
    return select(load_claims(None), ["sec:tie-breaking"])[0]


def _head(row):
    (h,) = row["heads"]
    return h


def test_tie_breaking_margins_are_the_gap_of_the_last_two_positions():
    # scores b_j + 1/(j+1) with query 1: the closest choice is between positions n-2 and n-1 both holding 1,
    # a gap of 1/((n-1)n); relative to S = |score| of each, 1/(2n² - 1)
    js = encoder_json(study_encoder(_tie_breaking(), max_size=5))
    assert js["variant"] == "as-written" and js["rejected"] == []
    for row in js["rows"][1:]:
        n, h = row["n"], _head(row)
        assert h["ties"] == 0 and h["events"] == n * 2 ** n and row["strings"] == 2 ** n
        assert Fraction(h["margin"]["value"]) == Fraction(1, (n - 1) * n)
        assert Fraction(h["relative_margin"]["value"]) == Fraction(1, 2 * n * n - 1)
        assert row["departures"] == 0
    assert _head(js["rows"][0])["margin"] is None  # one position: nothing to compare


def test_a_tie_has_margin_zero_and_same_keys_keep_it():
    # without the 1/(j+1) term, equal bits tie and AHAT averages them: margin 0, and the mutant departs; the tied
    # positions have the same key, so every format computes their scores alike and keeps the tie
    js = encoder_json(study_encoder(_tie_breaking(), max_size=3, variant="no-tie-break"))
    two = js["rows"][1]
    h = _head(two)
    assert h["ties"] == h["same_key_ties"] == 4 and h["margin"]["value"] == 0
    assert "tie" in h["margin"]["where"] and two["departures"] == 2
    assert h["relative_margin"]["value"] == 1  # 01: score 1 against 0, S = 1 + 0
    assert all(f["n"] is None for f in js["formats"].values())


def _tie_check() -> EncoderCheck:
    """UHAT (leftmost), query (1, 1), key (b, c): x = (1, 0) and y = (0, 1) tie with different keys; val = b."""
    x = T.vars()
    head = Head("t", Map("Q", T, K2, {"k1": x.one, "k2": x.one}), Map("K", T, K2, {"k1": x.b, "k2": x.c}),
                Map("V", T, T, {"val": x.b}, zero=["b", "c", "one"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, T, {"val": vs.vars()["t.val"]}, zero=["b", "c", "one"])
    ffn = FFN(Map("W_1", T, T, zero=list(T.names)), Map("W_2", T, T, zero=list(T.names)))
    desc = ModelDescription("toy tie", direction="encoder", head=HeadRule("none", UHAT()), residual="both")
    dec = Decoder("tie toy", T, [Layer(Attention([head], w_o), ffn)], desc)
    codes = {"x": [1, 0, 1, 0], "y": [0, 1, 1, 0], "z": [0, 0, 1, 0]}

    def construction() -> EncoderConstruction:
        return EncoderConstruction("as-written", dec, lambda a, i, n: codes[a], Readout("val"))

    def reference(s):
        first = next((j for j, a in enumerate(s) if a != "z"), 0)
        return [codes[s[first]][0]] * len(s)

    return EncoderCheck(construction, reference, [strings_family("xyz")])


def test_a_tie_between_different_keys_has_relative_margin_zero_and_no_format_keeps_it():
    js = encoder_json(study_encoder(_Claim(_tie_check()), max_size=2))
    h = _head(js["rows"][1])
    assert js["rows"][1]["departures"] == 0
    assert h["margin"]["value"] == 0 and h["relative_margin"]["value"] == 0 and h["ties"] > h["same_key_ties"]
    assert "different keys" in h["relative_margin"]["where"]
    assert all(f["n"] == 2 and "a tie between different keys" in f["reason"] for f in js["formats"].values())


def test_the_first_order_condition_gives_each_format_its_length():
    # bfloat16: 3·2^-8 + 2^-24 ≈ 0.0117 exceeds 1/(2n² - 1) first at n = 7; float16 (3·2^-11) only from n = 19
    ep = study_encoder(_tie_breaking(), max_size=7)
    got = format_lengths(ep.rows)
    assert got["bfloat16"]["n"] == 7 and got["bfloat16"]["kept_up_to"] == 6
    assert got["float16"]["n"] is None and got["float16"]["kept_up_to"] == 7


def test_the_default_variant_is_the_first_that_holds_and_a_missing_one_is_named():
    ep = study_encoder(select(load_claims(None), ["ch4:predecessor"])[0], max_size=3)
    assert ep.variant == "causal-UHAT" and [r["variant"] for r in ep.rejected] == ["as-written", "AHAT"]
    with pytest.raises(SymcotError, match="no construction variant 'nope'"):
        study_encoder(_tie_breaking(), variant="nope")


L = Layout("toy.relu", [("b", 1), ("h", 1)])
T = Layout("toy.tie", [("b", 1), ("c", 1), ("one", 1), ("val", 1)])
K2 = Layout("toy.tie.key", [("k1", 1), ("k2", 1)])


def _relu_check(offset: int) -> EncoderCheck:
    """One FFN layer: h = ReLU(2b - offset); the reference is the bit itself."""
    x = L.vars()
    ffn = FFN(Map("W_1", L, L, {"h": 2 * x.b - offset}, zero=["b"]), Map("W_2", L, L, {"h": x.h}, zero=["b"]))
    dec = Decoder("relu toy", L, [Layer(None, ffn)], ModelDescription("toy", direction="encoder", residual="both"))

    def construction() -> EncoderConstruction:
        return EncoderConstruction("as-written", dec, lambda a, i, n: [int(a), 0], Readout("h"))

    return EncoderCheck(construction, lambda s: [int(a) for a in s], [strings_family("01")])


class _Claim:
    def __init__(self, check):
        self.checks, self.id, self.default_max_size = [check], "toy:relu", 3


def test_relu_pre_activations_by_hand():
    js = encoder_json(study_encoder(_Claim(_relu_check(1))))
    row = js["rows"][-1]
    units = {u["unit"]: u for u in row["relus"]}
    assert units["b"]["zeros"] == units["b"]["evaluations"] == 3 * 8 and units["b"]["smallest"] is None
    # 2b - 1 is ±1: smallest |x| = 1; T = 2|b| + 1, so |x|/T = 1/3 at b = 1
    assert units["h"]["smallest"]["value"] == 1 and units["h"]["relative"]["value"] == "1/3"
    assert units["h"]["zeros"] == 0 and row["departures"] == 0 and row["heads"] == []


def test_a_relu_that_sits_at_zero_is_counted_not_measured():
    # 2b - 2 is 0 at b = 1 and -2 at b = 0: the bit is lost (the check departs), the zeros are counted
    js = encoder_json(study_encoder(_Claim(_relu_check(2)), variant="as-written"))
    units = {u["unit"]: u for u in js["rows"][0]["relus"]}
    assert units["h"]["zeros"] == 1 and units["h"]["smallest"]["value"] == 2
    assert js["rows"][0]["departures"] == 1


def test_ball_scores_give_certified_lower_bounds_close_to_the_real_margin():
    # ch4:predecessor (causal-UHAT): v_i = (cos θ_i, sin θ_i, ±10), θ_i = π(1 - 2^-i)/10; at n = 4, position 3 picks
    # 2 over 0 (both +100 from the third coordinate) by cos(θ_3 - θ_2) - cos(θ_3 - θ_0)
    import math

    ep = study_encoder(select(load_claims(None), ["ch4:predecessor"])[0], max_size=4)
    js = encoder_json(ep)
    h = _head(js["rows"][-1])
    theta = [math.pi * (1 - 2.0 ** -i) / 10 for i in range(4)]
    real = math.cos(theta[3] - theta[2]) - math.cos(theta[3] - theta[0])
    lower = Fraction(h["margin"]["value"])
    assert h["balls"] > 0 and "certified lower bound" in h["margin"]["where"]
    assert 0 < lower <= Fraction(real) * (1 + Fraction(1, 10**9)) and abs(float(lower) - real) < 1e-12
    assert js["formats"]["float16"]["n"] == 4 and js["formats"]["float32"]["n"] is None


def test_a_grid_check_is_studied_point_by_point():
    import importlib

    from symcot.study.precision.encoder import encoder_checks, study_encoder

    claim = importlib.import_module("proofs.transformer_cookbook.dyck_uhat").CLAIMS[0]
    names = [c.variant for c in encoder_checks(claim)]
    assert "as-written [k=1,D=1]" in names and "repaired [k=3,D=3]" in names
    with pytest.raises(SymcotError, match="no construction variant 'repaired'"):
        study_encoder(claim, 2, "repaired")  # a grid's variant is named at a point
    ep = study_encoder(claim, 2, "repaired [k=1,D=1]")
    assert ep.variant == "repaired [k=1,D=1]" and ep.rows and not any(r.departures for r in ep.rows)
