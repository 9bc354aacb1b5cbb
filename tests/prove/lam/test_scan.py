"""The smallest-λ scan by exact replay (symcot.prove.lam.scan) through the shared search, read as answers."""

from __future__ import annotations

import importlib

import pytest

from proofs.cot_path_to_tree.constructions.cotdijkstra import DijkstraConstruction
from symcot.check.context import RunContext
from symcot.prove.lam import scan as lam_scan


@pytest.fixture(scope="module")
def P():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotdijkstra")


def _check(P, variant):
    return lam_scan.LambdaScanCheck(variant, lambda: DijkstraConstruction(variant), P.SPEC, [P.UNIT],
                                    P.largest_finite_distance, weight_of=P.FAMILY_W)


def test_each_group_reads_as_an_answer(P):
    chk = _check(P, "repaired")
    row = chk.run(RunContext("thm:cotdijkstra", 3))
    answers = [chk.answer(g) for g in row.details["smallest_lambda"]]
    assert [(a.value, a.at, a.scope, a.certified) for a in answers] == [
        (1, f"{P.UNIT.name} n = 1", "size", True), (2, f"{P.UNIT.name} n = 2", "size", True),
        (3, f"{P.UNIT.name} n = 3", "size", True)]
    assert answers[0].certificate.below is None  # λ = 1 is the scan's first value
    assert answers[2].certificate.below == {"λ": 2, "status": "fails on an input"}
    assert answers[2].certificate.at == "every input passes at λ = 3 and at λ = 4, 5, 6"


def test_a_group_without_a_working_lambda_has_no_value(P):
    chk = _check(P, "missing-arc-0")
    row = chk.run(RunContext("thm:cotdijkstra", 3))
    last = chk.answer(row.details["smallest_lambda"][-1])
    assert last.value is None and last.holds_at_value is None and not last.certified


def test_a_lambda_that_passes_below_a_failing_one_is_reported(P, monkeypatch):
    unit3 = list(P.UNIT.inputs(3))
    real = lam_scan.first_failure

    def flaky(cons, spec, inputs, jobs=1):  # λ = 1 passes every input, λ = 2 fails: not upward closed
        lam_value = cons.lam_fixed
        if lam_value == 1:
            return None
        return real(cons, spec, inputs, jobs)

    monkeypatch.setattr(lam_scan, "first_failure", flaky)
    res = lam_scan.smallest_lambda(lambda: DijkstraConstruction("repaired"), P.SPEC, unit3, range(1, 8))
    assert res == {"smallest": 3, "confirmed": [4, 5, 6], "not_upward_closed": [1]}
