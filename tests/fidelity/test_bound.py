"""BoundCheck: a bound is refuted at the first input above it, an equality case where it fails; tightness."""

from __future__ import annotations

import importlib

from symcot.check.context import RunContext
from symcot.fidelity.bound import BoundCheck
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS


def _height():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotwidofpath")


def test_the_printed_height_bound_holds_with_slack_one_and_its_equality_case_fails(claims):
    rows = {r.variant: r for r in claims["thm:cotwidofpath:height"].run(max_size=7)}
    assert rows["as-written"].verdict == "refuted"
    c = rows["as-written"].counterexample
    assert c["input"]["word"] == "UD" and (c["expected"], c["got"]) == (2, 1)
    loose = rows["bound-only"]
    assert loose.verdict == "verified" and loose.details["slack"] == [1] and not loose.details["attained"]
    assert [p["largest"] for p in loose.details["per_size"]] == [1, 2, 3, 4, 5, 6]
    assert all(p["reached_by"] == 1 for p in loose.details["per_size"])  # only the path
    tight = rows["repaired"]
    assert tight.verdict == "verified" and tight.details["slack"] == [0] and tight.details["attained"]


def test_a_bound_too_small_is_refuted_at_the_first_input_above_it():
    h = _height()
    low = BoundCheck("low", NONEMPTY_DYCK_WORDS, h.height, lambda size: size - 2, "n/2 - 1")
    row = low.run(RunContext("x", 6))
    assert row.verdict == "refuted" and row.counterexample["input"]["word"] == "UD"
    assert row.counterexample["got"] == 1 and row.failing_input == "UD"


def test_an_equality_said_to_hold_only_in_one_case_is_refuted_outside_it():
    h = _height()
    never_path = BoundCheck("x", NONEMPTY_DYCK_WORDS, h.height, h.half, "n/2", lambda w: False, "never", True)
    row = never_path.run(RunContext("x", 5))
    assert row.verdict == "refuted" and "only when never" in row.counterexample["what"]
