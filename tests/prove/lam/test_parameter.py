"""ParameterScan: the smallest working value of a construction's constant per size, against the text's value."""

from __future__ import annotations

import dataclasses
import importlib
from fractions import Fraction

import pytest

from proofs.cot_path_to_tree.constructions.cotpathstrahler import StrahlerPathConstruction, build_decoder
from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction
from symcot.check.context import RunContext
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS
from symcot.prove.lam.parameter import ParameterScan, just_above_log2


@pytest.fixture(scope="module")
def W():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotwidoftree")


@pytest.fixture(scope="module")
def P():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotpathstrahler")


def _vmax(W, rule):
    return ParameterScan("as-written", lambda v: WidthTreeConstruction("as-written", v_max=v), W.WIDTH_SPEC,
                         [dataclasses.replace(W.TREES, max_size=5)], "V_max", rule)


def test_v_max_n_holds_with_slack_two(W):
    scan = _vmax(W, lambda size: size)
    row = scan.run(RunContext("x", 5))
    assert row.verdict == "verified" and row.max_size == 5
    groups = row.details["groups"]
    assert [g["smallest"] for g in groups] == [0, 1, 1, 2, 3]  # n - 2 from n = 3 on
    assert all(g["smallest_minus_half_fails"] for g in groups if g["smallest"] > 0)
    answers = [scan.answer(g) for g in groups]
    assert [a.value for a in answers] == [0, 1, 1, 2, 3] and all(a.certified and a.scope == "size" for a in answers)
    assert answers[0].certificate.below is None  # 0 is the scan's first value
    below = answers[-1].certificate.below
    assert below["minus_half_fails"] and below["counterexample"]["V_max"] == 2 and below["counterexample"]["size"] == 5


def test_a_printed_value_too_small_is_refuted(W):
    row = _vmax(W, lambda size: max(size - 3, 0)).run(RunContext("x", 5))
    assert row.verdict == "refuted" and row.counterexample["size"] == 2 and row.counterexample["V_max"] == 0
    assert "the printed V_max = 0 fails at n = 2" in row.notes[0] and row.counterexample["block"] in ("twd", "mwd")


def test_the_footnote_threshold_and_a_false_one(P):
    def scan(threshold):
        return ParameterScan("repaired", lambda v: StrahlerPathConstruction("repaired", decoder=build_decoder(
            "repaired", v)), P.SPEC, [NONEMPTY_DYCK_WORDS], "λ of lem:mMc", lambda size: 2 * size, threshold=threshold)

    ok = scan(lambda size: just_above_log2(size + 2)).run(RunContext("x", 5))
    assert ok.verdict == "verified" and all(g["above_threshold_passes"] for g in ok.details["groups"])
    assert [g["smallest"] for g in ok.details["groups"]] == [1, 1, 1, 1]
    bad = scan(lambda size: (Fraction(1, 2), "0")).run(RunContext("x", 5))  # "any λ above 0 works": λ = 1/2 fails
    assert bad.verdict == "refuted" and bad.counterexample["λ of lem:mMc"] == "1/2"


def test_just_above_log2_is_exact():
    for k in range(1, 40):
        q, text = just_above_log2(k)
        assert 2 ** q.numerator > k ** q.denominator >= 2 ** (q.numerator - 1) and text == f"log2({k})"


def test_the_footnote_claim(claims):
    rows = {r.variant: r for r in claims["thm:cotpathstrahler:footnote"].run(max_size=6)}
    assert rows["as-written"].verdict == "verified" and rows["repaired"].verdict == "verified"
    assert rows["as-written"].details["slack"] == [1, 2]  # str stays below ⌊log2(n'+2)⌋ for n' ≤ 6
