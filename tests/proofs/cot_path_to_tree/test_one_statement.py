"""Where each construction states its readings and its per-step claims: one place each.

A reading is stated once, in its construction module's ``READINGS`` (the claim reads it from there); the
per-step claims a failure is located by are the all-n statement's cuts and head choices where the
construction has a statement for every variant it builds, else its ``invariants`` — never both.
"""

import dataclasses
import importlib

import pytest

from symcot.claims import Reading
from symcot.constructions.base import Construction

#: The constructions of the paper, by the claims that check them.
CLAIMS = ["thm:cotdfs", "thm:cotdfs:phi", "thm:cotdijkstra", "thm:cotpathtotree", "thm:cottreestrahler",
          "thm:cotpathstrahler", "thm:cotwidofpath", "thm:cotwidoftree", "thm:cotwidoftree:width"]
#: A statement written for some variants only (claim: why): the other variants' proof states its per-step claims itself.
ONE_VARIANT_STATEMENTS = {
    "thm:cottreestrahler": "written for the repaired decoder",
    "thm:cotpathstrahler": "written for the letter/m = π_q and printed-q/m = π_tmp_q readings; tmp-q, q_0 = 0 and "
                           "m-from-the-other-block have none, and invariants() locates their failures",
}


def _constructions(claim):
    return [chk.construction() for chk in claim.checks if hasattr(chk, "construction")]


def _restated(claim) -> list[str]:
    """The variants whose reading the claim does not take from its construction module's ``READINGS``."""
    cons = _constructions(claim)
    readings = getattr(importlib.import_module(type(cons[0]).__module__), "READINGS", {})
    out = []
    for v in sorted({c.variant for c in cons}):
        r = claim.reading(v)
        if v in readings:
            ok = r is readings[v]
        else:  # the only reading: the statement as printed, described by the library
            ok = r is not None and v == "as-written" and len(readings) == 0
        if not ok:
            out.append(v)
    return out


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_every_reading_is_stated_once_in_its_construction_module(claims, claim_id):
    assert _restated(claims[claim_id]) == []


def test_a_reading_restated_in_the_claim_is_found(claims):
    claim = claims["thm:cotwidofpath"]
    copy = dataclasses.replace(claim, readings={**claim.readings,
                                                "repaired": Reading("repair", claim.readings["repaired"].text)})
    assert _restated(copy) == ["repaired"]


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_per_step_claims_are_stated_once(claims, claim_id):
    cons = _constructions(claims[claim_id])
    cls = type(cons[0])
    own = "invariants" in {k for c in cls.__mro__ if c is not Construction and c is not object for k in vars(c)}
    stated = [c.variant for c in cons if c.all_n is not None]  # a statement may be the instance's (per variant)
    if claim_id in ONE_VARIANT_STATEMENTS:
        assert stated, f"{claim_id} has no all-n statement: drop it from ONE_VARIANT_STATEMENTS"
    if stated and claim_id not in ONE_VARIANT_STATEMENTS:
        assert not own, f"{cls.__name__} states per-step claims in invariants() beside its all-n statement"
    else:
        assert own, f"{cls.__name__} locates no failure: neither a statement for every variant nor invariants()"
