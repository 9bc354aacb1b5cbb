"""Inherited failures: computed by replaying the counterexample through the base claim's construction."""

from __future__ import annotations

import importlib

import pytest

from proofs.cot_path_to_tree.constructions.cotdijkstra import DijkstraConstruction
from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction
from symcot.check.context import RunContext
from symcot.check.exhaustive import run_construction_check
from symcot.check.inherit import Inheritance, inherited_text
from symcot.check.verdict import Verdict
from symcot.inputs import Digraph


@pytest.fixture(scope="module")
def W():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotwidoftree")


@pytest.fixture(scope="module")
def D():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotdijkstra")


EDGE = (Digraph.undirected(2, [(0, 1)]), 0)


def test_the_width_failure_is_thm_cotdijkstras(W, claims):
    row = claims["thm:cotwidoftree"].run(max_size=4, variants=["as-written"])[0]
    h = row.inherited_from
    assert row.verdict == "refuted" and h is not None
    assert (h["claim"], h["variant"], h["step"], h["layer"], h["kind"], h["name"]) == (
        "thm:cotdijkstra", "as-written", 1, 1, "block", "dis")
    assert h["expected"] == [0, 1] and h["got"] == [2, 1]
    assert inherited_text(row) == "inherited from thm:cotdijkstra [as-written]: step 1, layer 1, block dis"
    assert row.as_dict()["inherited_from"]["claim"] == "thm:cotdijkstra"
    assert Verdict.from_dict(row.as_dict()).inherited_from == row.as_dict()["inherited_from"]


def test_a_base_that_passes_is_not_an_origin(W, D):
    """The repaired Dijkstra passes on the tree: the as-written width failure is not inherited from it."""
    row = run_construction_check("thm:cotwidoftree", WidthTreeConstruction("as-written"), W.SPEC, [W.TREES], 3)
    assert row.verdict == "refuted" and row.failing_input == EDGE
    base = Inheritance("thm:cotdijkstra", "repaired", lambda: DijkstraConstruction("repaired"), D.SPEC)
    out = base.trace(row)
    assert out.inherited_from is None and "inherited_from" not in out.as_dict()
    assert any(n.startswith("not inherited from thm:cotdijkstra [repaired]") and n.endswith("it passes")
               for n in out.notes)


def test_a_base_failing_elsewhere_is_not_an_origin(D):
    row = Verdict("x", "as-written", "refuted", "m", 1, 1, 0.0,
                  {"step": 2, "layer": 1, "kind": "block", "block": "dis"}, failing_input=EDGE)
    out = Inheritance("thm:cotdijkstra", "as-written", lambda: DijkstraConstruction("as-written"), D.SPEC).trace(row)
    assert out.inherited_from is None
    assert out.notes == ["not inherited from thm:cotdijkstra [as-written]: on the same input it fails elsewhere "
                         "(step 1, layer 1, block dis)"]


def test_an_input_outside_the_bases_domain_is_said_so(D):
    row = Verdict("x", "as-written", "refuted", "m", 1, 1, 0.0,
                  {"step": 1, "layer": 1, "kind": "block", "block": "dis"}, failing_input=EDGE)
    away = Inheritance("thm:cotdijkstra", "as-written", lambda: DijkstraConstruction("as-written"), D.SPEC,
                       to_base=lambda inp: (Digraph(2, ((1, 0),)), 0))  # 1 is not reachable from 0
    out = away.trace(row)
    assert out.inherited_from is None and "outside its domain" in out.notes[0]


def test_the_batched_engine_traces_the_same_origin(W):
    chk = next(c for c in W.CLAIMS[1].checks if c.variant == "as-written" and not getattr(c, "symbolic", False))
    exact = chk.run(RunContext("thm:cotwidoftree", 4))
    batched = chk.run(RunContext("thm:cotwidoftree", 4, engine="batched"))
    assert exact.inherited_from == batched.inherited_from is not None
