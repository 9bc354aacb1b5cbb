"""thm:cotdijkstra: encoding, sizes, the as-written refutation, the repair, mutants and the λ scan."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
import sympy as sp

from symcot.check.exhaustive import Family, run_construction_check
from symcot.check.stepwise import check_input
from symcot.constructions.cotdijkstra import (
    AS_WRITTEN,
    PAPER_D,
    REPAIRED,
    DijkstraConstruction,
    FixedLambda,
    build_decoder,
    lambda_rule,
)
from symcot.constructions.mutant import Mutant
from symcot.errors import InvalidInputError
from symcot.inputs import Digraph
from symcot.ir import n
from symcot.replay import render_text, replay

ROOT = Path(__file__).resolve().parent.parent.parent


def _load(name: str):
    return importlib.import_module(f"proofs.{name}")


@pytest.fixture(scope="module")
def P():
    return _load("thm_cotdijkstra")


def test_sizes_match_the_theorem():
    s = build_decoder().sizes()
    assert sp.expand(s.d - PAPER_D) == 0 and s.d == 5 * n + 1
    assert s.layers == 2 and s.heads == [1, 1] and s.max_heads == 1
    assert s.degrees["layer2.Q_S"] == 2  # (1 - π_vis) ⊙ (λ - π_dis)
    assert all(v == 1 for k, v in s.degrees.items() if k != "layer2.Q_S")


def test_prompt_is_the_papers_encoding_with_each_reading_of_absent_arcs():
    g = Digraph.from_weighted_arcs(3, {(0, 1): 2, (1, 2): "3/2"})
    lam = lambda_rule((g, 0))
    assert lam == 5  # 1 + (n - 1)·max weight
    for enc, absent in ((AS_WRITTEN, 0), (REPAIRED, lam)):
        p = DijkstraConstruction(encoding=enc).prompt((g, 0))
        assert p.labels == ["x_0", "x_1", "x_2", "y_0"]
        # x_1 = [e_1 ‖ -λ ‖ 0^n ‖ A_{1,:} ‖ λ^n ‖ 0^n], a_11 = 0 in both readings
        assert p.tokens[1] == [0, 1, 0, -lam, 0, 0, 0, absent, 0, Fraction(3, 2), lam, lam, lam, 0, 0, 0]
        # y_0 = [e_p ‖ 0 ‖ e_p ‖ 0^n ‖ λ^n ‖ 0^n]
        assert p.tokens[3] == [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, lam, lam, lam, 0, 0, 0]


def test_invalid_inputs_are_rejected_clearly():
    c = DijkstraConstruction("repaired")
    with pytest.raises(InvalidInputError, match="unreachable"):
        c.prompt((Digraph.from_weighted_arcs(3, {(0, 1): 1}), 0))
    with pytest.raises(InvalidInputError, match="source 4"):
        c.prompt((Digraph.from_weighted_arcs(2, {(0, 1): 1}), 4))
    with pytest.raises(InvalidInputError, match="positive"):
        c.prompt((Digraph.from_weighted_arcs(2, {(0, 1): -2}), 0))


def test_as_written_is_refuted_by_a_non_arc_read_as_a_weight_zero_arc(P):
    row = run_construction_check("thm:cotdijkstra", DijkstraConstruction("as-written"), P.SPEC, [P.WEIGHTED], 3,
                                 P.PAPER_SIZES)
    assert row.verdict == "refuted" and row.max_size == 2
    c = row.counterexample
    assert c["input"]["arcs"] == [[0, 1], [0, 2]] and c["input"]["weights"] == [1, 2] and c["input"]["source"] == 0
    assert (c["step"], c["layer"], c["kind"], c["block"]) == (2, 1, "block", "dis")
    assert c["expected"] == [0, 1, 2] and c["got"] == [0, 1, 1]  # 1 has no arc to 2: min(2, Dist[1] + 0) = 1
    assert "Dist^(t) to Dist^(t+1)" in c["proof_says"]


def test_as_written_is_right_on_complete_digraphs(P):
    """Where every off-diagonal pair is an arc there is no absent weight to misread."""
    spec = P.SPEC
    cons = DijkstraConstruction("as-written")
    for k in (1, 2, 3):
        pairs = [(u, v) for u in range(k) for v in range(k) if u != v]
        for ws in product((1, 2, 3), repeat=len(pairs)):
            g = Digraph(k, tuple(pairs), ws)
            for s in range(k):
                assert check_input(cons, spec, (g, s)) is None


def test_repaired_is_verified_on_every_family_to_size_3(P):
    row = run_construction_check("thm:cotdijkstra", DijkstraConstruction("repaired"), P.SPEC,
                                 [P.WEIGHTED, P.UNIT, P.TREES, P.RANDOM], 3, P.PAPER_SIZES)
    assert row.verdict == "verified" and row.max_size == 3
    fams = {f["family"]: f for f in row.families}
    assert fams[P.WEIGHTED.name]["inputs_checked"] == 1 + 24 + 10368
    assert fams[P.RANDOM.name]["sizes_complete"] == list(range(4, 11))
    assert row.inputs_checked == 10393 + (1 + 4 + 96) + (1 + 2 + 9) + 12 * 7


def test_a_broken_relaxation_weight_is_refuted(P):
    m = Mutant(DijkstraConstruction("repaired"), 1, "W_1", ("wei", 0), [("crd", 0)], 0)  # forget -π_crd in wei[0]
    row = run_construction_check("thm:cotdijkstra", m, P.SPEC, [P.WEIGHTED], 3, P.PAPER_SIZES)
    c = row.counterexample
    assert row.verdict == "refuted" and c["input"]["text"] == "Digraph(n=3; 0->1:1, 2->0:1), source 2"
    assert (c["step"], c["layer"], c["block"], c["expected"], c["got"]) == (2, 1, "dis", [1, 2, 0], [0, 2, 0])


def test_a_broken_buffer_gate_is_refuted_at_crd(P):
    m = Mutant(DijkstraConstruction("repaired"), 2, "W_1", ("buf", 0), [("buf", 1)], 0)  # γ[0] misses -λ buf[1]
    fam = dataclasses.replace(P.WEIGHTED, min_size=2)  # buf[1] exists from n = 2 on
    row = run_construction_check("thm:cotdijkstra", m, P.SPEC, [fam], 3, P.PAPER_SIZES)
    c = row.counterexample
    assert row.verdict == "refuted" and c["size"] == 3
    assert (c["step"], c["layer"], c["block"], c["expected"], c["got"]) == (2, 2, "crd", [2], [3])


def test_a_too_small_lambda_is_located_at_the_selection_head(P):
    c = DijkstraConstruction("repaired", lam_of=FixedLambda(2))
    row = run_construction_check("thm:cotdijkstra", c, P.make_spec(FixedLambda(2)), [P.UNIT], 3)
    cx = row.counterexample
    assert row.verdict == "refuted" and cx["input"]["text"] == "Digraph(n=3; 0->1, 1->2), source 0"
    assert (cx["step"], cx["layer"], cx["kind"], cx["head"], cx["expected"], cx["got"]) == (2, 2, "head", "S", "x_2",
                                                                                          "x_0")
    assert "score 0, margin 0" in cx["explanation"]  # Dist[2] = 2 = λ scores like a visited vertex


def test_smallest_lambda_scan(P):
    unit3 = list(P.UNIT.inputs(3))
    res = P.smallest_lambda(P._repaired, unit3, limit=7)
    assert res["smallest"] == 3 and res["confirmed"] == [4, 5, 6] and res["not_upward_closed"] == []
    assert P.largest_finite_distance(unit3) == 2
    none = P.smallest_lambda(P._as_written, unit3, limit=7)
    assert none["smallest"] is None


def test_lambda_scan_check_reports_details(P):
    chk = P.LambdaScanCheck("repaired", P._repaired, [P.UNIT], [])
    row = chk.run("thm:cotdijkstra", 3, None)
    assert row.verdict == "verified" and row.max_size == 3
    got = [(g["n"], g["smallest"]) for g in row.details["smallest_lambda"]]
    assert got == [(1, 1), (2, 2), (3, 3)]
    assert row.details["smallest_equals_(n-1)W+1"] is True
    bad = P.LambdaScanCheck("as-written", P._as_written, [P.UNIT], []).run("thm:cotdijkstra", 3, None)
    assert bad.verdict == "refuted" and bad.details["groups_without_working_lambda"] == [
        f"{P.UNIT.name} n=3 (none in 1..7)"]


def test_family_count_mismatch_is_an_error(P):
    wrong = Family("weighted, wrong count", P.WEIGHTED.inputs, lambda k: 5, P.WEIGHTED.describe)
    row = run_construction_check("thm:cotdijkstra", DijkstraConstruction("repaired"), P.SPEC, [wrong], 2)
    assert row.verdict == "error"


def test_trace_shows_the_selection(P):
    g = Digraph.from_weighted_arcs(3, {(0, 1): 2, (0, 2): 1, (2, 1): "1/2"})
    tr = replay(DijkstraConstruction("repaired"), (g, 0), P.SPEC, input_text="triangle")
    assert tr.ok and len(tr.steps) == 2 and tr.stopped
    text = render_text(tr)
    assert "head S -> x_2" in text and "head S -> x_1" in text
    assert text.count("ok: matches the reference") == 2


def test_parallel_lambda_scan_gives_the_same_answer(P, monkeypatch):
    monkeypatch.setattr(P, "PARALLEL_MIN", 10)
    unit3 = list(P.UNIT.inputs(3))
    assert P.smallest_lambda(P._repaired, unit3, 7, jobs=2) == P.smallest_lambda(P._repaired, unit3, 7, jobs=1)
    cons = DijkstraConstruction("repaired", lam_of=FixedLambda(2))
    spec = P.make_spec(FixedLambda(2))
    assert P._first_failure(cons, spec, unit3, jobs=2) == P._first_failure(cons, spec, unit3, jobs=1) is not None
