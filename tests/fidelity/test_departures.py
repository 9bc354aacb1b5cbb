"""Departures from Section-3 matrices: found on the compiled maps, absorbed through a coordinate, replayed."""

from __future__ import annotations

import importlib
from fractions import Fraction

import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cotdijkstra import DijkstraConstruction
from symcot.check.context import RunContext
from symcot.fidelity.departures import DeparturesCheck, Homogenised, first_difference, homogenise, map_terms
from symcot.inputs import Digraph


@pytest.fixture(scope="module")
def dfs():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")


ARC = (Digraph(2, ((0, 1),)), 0)


def test_the_dfs_departures_are_found_on_the_compiled_maps():
    terms = {(t.layer, t.label): t for t in map_terms(DfsConstruction().concrete(ARC))}
    w1 = terms[(1, "W_1")]
    assert w1.constants == {"flg2": [-1]} and "flg1 ← vis·nbr" in w1.quadratic
    assert terms[(2, "Q_T")].quadratic == ["v ← vis·nbr"] and not terms[(2, "Q_T")].constants
    assert not terms[(2, "W_O")].departs and not terms[(2, "K_T")].departs


def test_homogenise_agrees_where_the_coordinate_is_1_and_only_there():
    mp = DfsConstruction().concrete(ARC).get_map(1, "W_1")
    u = mp.src.slice("flg3").start
    for level in ("constants", "bilinear"):
        hom = homogenise(mp, u, level)
        assert not hom.const and (level == "constants" or not hom.lin)
        x = [Fraction(k % 3, 2) for k in range(mp.d_in)]
        x[u] = 1
        assert hom(x) == mp(x)
        x[u] = 0
        assert hom(x) != mp(x)


def test_dfs_constants_are_absorbed_through_flg3_but_its_bilinear_maps_are_not(dfs):
    const = DeparturesCheck("as-written", DfsConstruction, dfs.SPEC, [dfs.DIGRAPHS], "constants").run(
        RunContext("x", 3))
    assert const.verdict == "verified" and const.max_size == 3
    (row,) = [r for r in const.details["departures"] if r["through"]]
    assert (row["layer"], row["map"], row["through"]) == (1, "W_1", "flg3") and row["one_on"].startswith("y tokens")
    bil = DeparturesCheck("as-written", DfsConstruction, dfs.SPEC, [dfs.DIGRAPHS], "bilinear").run(RunContext("x", 3))
    c = bil.counterexample
    assert bil.verdict == "refuted" and (c["step"], c["layer"], c["kind"], c["head"]) == (1, 2, "head", "T")
    assert (c["expected"], c["got"]) == ("x_1", "x_⊥")


def test_a_wrong_coordinate_is_caught_by_the_replay():
    """Through cur[0] (not 1 on the tokens) the rewritten decoder parts from the original."""
    wrong = Homogenised(DfsConstruction(), {(1, "W_1"): ("cur", 0)}, "constants")
    inp = (Digraph(3, ((0, 1), (1, 2))), 1)
    diff = first_difference(DfsConstruction(), wrong, 5, inp)
    assert diff is not None and diff["layer"] in (1, 2)
    assert first_difference(DfsConstruction(), Homogenised(DfsConstruction(), {(1, "W_1"): ("flg3", 0)},
                                                           "constants"), 5, inp) is None


def test_a_constant_without_a_coordinate_is_refuted():
    d = importlib.import_module("proofs.cot_path_to_tree.thm_cotdijkstra")
    row = DeparturesCheck("as-written", lambda: DijkstraConstruction("as-written"), d.SPEC, [d.UNIT]).run(
        RunContext("x", 3))
    c = row.counterexample
    assert row.verdict == "refuted" and c["kind"] == "departure" and (c["layer"], c["maps_without"][0]["map"]) == (
        2, "Q_S")
    assert c["maps_without"][0]["constants"] == {"v": [3]}  # λ = 3 at n = 3


def test_the_claims_verdicts(claims):
    for level in ("fact1", "bilinearstack"):
        rows = claims[f"thm:cotpathstrahler:{level}"].run(max_size=4)
        assert [(r.variant, r.verdict) for r in rows] == [("as-written", "verified"), ("repaired", "verified")]
        assert all(d["through"] == "flg" for d in rows[0].details["departures"] if d["through"])
    dfs = {r.id: r.verdict for c in ("thm:cotdfs:fact1", "thm:cotdfs:bilinearstack") for r in claims[c].run(3)}
    assert dfs == {"thm:cotdfs:fact1": "verified", "thm:cotdfs:bilinearstack": "refuted"}
