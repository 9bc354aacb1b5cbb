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

from proofs.cot_path_to_tree.constructions.cotdijkstra import (
    AS_WRITTEN,
    MISSING_ARC_ZERO,
    PAPER_D,
    REPAIRED,
    DijkstraConstruction,
    build_decoder,
)
from symcot.check.context import RunContext
from symcot.check.exhaustive import Family, run_construction_check
from symcot.check.stepwise import check_input
from symcot.check.trace import render_text, replay
from symcot.constructions.mutant import Mutant
from symcot.errors import InvalidInputError
from symcot.inputs import Digraph
from symcot.ir import n
from symcot.prove.lam import scan as lam_scan

ROOT = Path(__file__).resolve().parent.parent.parent


def _load(name: str):
    return importlib.import_module(f"proofs.cot_path_to_tree.{name}")


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
    lam = DijkstraConstruction().lam_value((g, 0))
    assert lam == 5  # 1 + (n - 1)·max weight
    for enc, absent, diag in ((AS_WRITTEN, lam, lam), (MISSING_ARC_ZERO, 0, 0), (REPAIRED, lam, 0)):
        p = DijkstraConstruction(encoding=enc).prompt((g, 0))
        assert p.labels == ["x_0", "x_1", "x_2", "y_0"]
        # x_1 = [e_1 ‖ -λ ‖ 0^n ‖ A_{1,:} ‖ λ^n ‖ 0^n]: a_10 absent, a_11 the diagonal, a_12 = 3/2
        assert p.tokens[1] == [0, 1, 0, -lam, 0, 0, 0, absent, diag, Fraction(3, 2), lam, lam, lam, 0, 0, 0]
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


def test_as_written_is_refuted_at_the_sources_own_distance(P):
    """∞ on the diagonal (A ∈ ℝ_{>0}^{n×n}, no self-loop): Dist[p] stays λ after the first relaxation."""
    row = run_construction_check("thm:cotdijkstra", DijkstraConstruction("as-written"), P.SPEC, [P.WEIGHTED], 3,
                                 P.PAPER_SIZES)
    assert row.verdict == "refuted" and row.max_size == 1
    c = row.counterexample
    assert c["input"]["arcs"] == [[0, 1]] and c["input"]["source"] == 0  # a single arc
    assert (c["step"], c["layer"], c["kind"], c["block"]) == (1, 1, "block", "dis")
    assert c["expected"] == [0, 1] and c["got"] == [2, 1]  # λ = 2 stays at the source


def test_missing_arc_zero_is_refuted_by_a_non_arc_read_as_a_weight_zero_arc(P):
    row = run_construction_check("thm:cotdijkstra", DijkstraConstruction("missing-arc-0"), P.SPEC, [P.WEIGHTED], 3,
                                 P.PAPER_SIZES)
    assert row.verdict == "refuted" and row.max_size == 2
    c = row.counterexample
    assert c["input"]["arcs"] == [[0, 1], [0, 2]] and c["input"]["weights"] == [1, 2] and c["input"]["source"] == 0
    assert (c["step"], c["layer"], c["kind"], c["block"]) == (2, 1, "block", "dis")
    assert c["expected"] == [0, 1, 2] and c["got"] == [0, 1, 1]  # 1 has no arc to 2: min(2, Dist[1] + 0) = 1
    assert "Dist^(t) to Dist^(t+1)" in c["proof_says"]


def test_on_complete_digraphs_only_the_diagonal_reading_matters(P):
    """Every off-diagonal pair an arc: no absent weight to misread, so the 0 reading is right there; as written
    (∞ on the diagonal too) the source's distance still stays λ."""
    spec = P.SPEC
    zero, literal = DijkstraConstruction("missing-arc-0"), DijkstraConstruction("as-written")
    for k in (1, 2, 3):
        pairs = [(u, v) for u in range(k) for v in range(k) if u != v]
        for ws in product((1, 2, 3), repeat=len(pairs)):
            g = Digraph(k, tuple(pairs), ws)
            for s in range(k):
                assert check_input(zero, spec, (g, s)) is None
                bad = check_input(literal, spec, (g, s))
                assert (bad is None) == (k == 1)
                if bad is not None:
                    lam_v = literal.lam_value((g, s))
                    assert (bad.step, bad.name) == (1, "dis") and bad.got[s] == bad.expected[s] + lam_v


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
    c = DijkstraConstruction("repaired").with_lambda(2)
    row = run_construction_check("thm:cotdijkstra", c, P.SPEC, [P.UNIT], 3)
    cx = row.counterexample
    assert row.verdict == "refuted" and cx["input"]["text"] == "Digraph(n=3; 0->1, 1->2), source 0"
    assert (cx["step"], cx["layer"], cx["kind"], cx["head"], cx["expected"], cx["got"]) == (2, 2, "head", "S", "x_2",
                                                                                          "x_0")
    assert "score 0, margin 0" in cx["explanation"]  # Dist[2] = 2 = λ scores like a visited vertex


def test_smallest_lambda_scan(P):
    unit3 = list(P.UNIT.inputs(3))
    res = lam_scan.smallest_lambda(lambda: DijkstraConstruction("repaired"), P.SPEC, unit3, range(1, 8))
    assert res["smallest"] == 3 and res["confirmed"] == [4, 5, 6] and res["not_upward_closed"] == []
    assert P.largest_finite_distance(unit3) == 2
    none = lam_scan.smallest_lambda(lambda: DijkstraConstruction("missing-arc-0"), P.SPEC, unit3, range(1, 8))
    assert none["smallest"] is None


def test_lambda_scan_check_reports_details(P):
    def check(variant):
        return lam_scan.LambdaScanCheck(variant, lambda: DijkstraConstruction(variant), P.SPEC, [P.UNIT],
                                        P.largest_finite_distance, weight_of=P.FAMILY_W)

    row = check("repaired").run(RunContext("thm:cotdijkstra", 3))
    assert row.verdict == "verified" and row.max_size == 3
    got = [(g["n"], g["smallest"]) for g in row.details["smallest_lambda"]]
    assert got == [(1, 1), (2, 2), (3, 3)]
    assert row.details["smallest_equals_(n-1)W+1"] is True
    bad = check("missing-arc-0").run(RunContext("thm:cotdijkstra", 3))
    assert bad.verdict == "refuted" and bad.details["groups_without_working_lambda"] == [
        f"{P.UNIT.name} n=3 (none in 1..7)"]
    literal = check("as-written").run(RunContext("thm:cotdijkstra", 3))  # ∞ on the diagonal: no λ at all from n = 2
    assert literal.verdict == "refuted" and literal.details["groups_without_working_lambda"] == [
        f"{P.UNIT.name} n=2 (none in 1..5)", f"{P.UNIT.name} n=3 (none in 1..7)"]


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
    monkeypatch.setattr(lam_scan, "PARALLEL_MIN", 10)
    unit3 = list(P.UNIT.inputs(3))

    def make():
        return DijkstraConstruction("repaired")

    assert (lam_scan.smallest_lambda(make, P.SPEC, unit3, range(1, 8), jobs=2)
            == lam_scan.smallest_lambda(make, P.SPEC, unit3, range(1, 8), jobs=1))
    cons = make().with_lambda(2)
    one = lam_scan.first_failure(cons, P.SPEC, unit3, jobs=1)
    assert lam_scan.first_failure(cons, P.SPEC, unit3, jobs=2) == one is not None


def test_the_scan_groups_in_parallel_give_the_one_process_details(P):
    check = lam_scan.LambdaScanCheck("repaired", lambda: DijkstraConstruction("repaired"), P.SPEC, [P.UNIT, P.TREES],
                                     P.largest_finite_distance, weight_of=P.FAMILY_W)
    one = check.run(RunContext("thm:cotdijkstra", 3, jobs=1))
    two = check.run(RunContext("thm:cotdijkstra", 3, jobs=2))
    assert one.details == two.details and len(one.details["smallest_lambda"]) == 6


# -- the statement for every n ------------------------------------------------------------------------------


def test_the_statement_is_the_repaired_readings_and_every_reading_states_its_prompt_by_segments():
    for v in ("as-written", "missing-arc-0", "repaired"):
        cons = DijkstraConstruction(v)
        assert (cons.all_n is not None) == (v == "repaired"), v
        assert cons.stated_prompt() is not None and (cons.all_n is None or cons.stated_prompt() == cons.all_n.prompt)
    stmt = DijkstraConstruction("repaired").all_n
    assert set(stmt.token.blocks) == set(build_decoder().layout.names)
    assert [(ch.layer, ch.head, ch.cls) for ch in stmt.choices] == [(1, "R", "y"), (1, "R", "x"), (2, "S", "y")]
    assert set(stmt.cuts) == {1, 2}
    # the derived rule's form: a multiple of the longest finite distance's bound, (n - 1)·W
    assert sp.expand(DijkstraConstruction.lam_rule.scale - (n - 1) * sp.Symbol("W", positive=True)) == 0


def test_the_statement_holds_on_every_input_to_three_vertices(P):
    from symcot.prove.alln.concrete import check_statement

    cons = DijkstraConstruction("repaired")
    rep = check_statement(cons, cons.all_n, P.SPEC.reference, [P.WEIGHTED, P.UNIT, P.TREES], 3, 2, 2)
    assert rep.failure is None and rep.max_size == 3
    weighted = sum(1 for k in (1, 2) for _ in P.WEIGHTED.inputs(k))
    unit = sum(1 for k in (1, 2) for _ in P.UNIT.inputs(k))
    assert rep.z3_reading_inputs == weighted + unit + 1 + 2  # trees: 1 at n = 1, 2 at n = 2


def test_a_reading_with_another_diagonal_fails_the_statement_at_its_prompt(P):
    """The as-written decoder (a_ii = λ) against the repaired statement: its prompt is not the statement's."""
    from symcot.prove.alln.concrete import check_statement

    stmt = DijkstraConstruction("repaired").all_n
    rep = check_statement(DijkstraConstruction("as-written"), stmt, P.SPEC.reference, [P.UNIT], 2, 1, 1)
    f = rep.failure
    assert f is not None and f.kind == "prompt" and f.input["n"] == 1


@pytest.mark.slow
def test_the_repaired_decoder_is_proved_for_every_n_and_every_positive_weight(P):
    chk = next(c for c in P.CLAIMS[0].checks if type(c).__name__ == "AllNCheck" and c.variant == "repaired")
    row = chk.run(RunContext("thm:cotdijkstra", 4))
    # the exhaustive families hold weights {1, 2, 3} (n ≤ 3) and 1: the other positive weights are assumed alike
    assert row.verdict == "proved assuming" and row.scope.startswith("all n"), row.notes
    assert any("beyond arc weights in {1, 2, 3}" in a for a in row.details["assumptions"])
    assert row.details["concrete"]["domain"]["sizes"] == [1, 2, 3, 4]
    assert all(o["status"] == "proved" for o in row.details["obligations"])
    rule = row.details["lambda_rule"]
    derived = sp.sympify(rule["derived"].removeprefix("λ ≥ "), locals={"W": sp.Symbol("W", positive=True)})
    assert sp.expand(derived - (1 + (n - 1) * sp.Symbol("W", positive=True))) == 0, rule["derived"]
    assert rule["next_below"]["status"] != "proved"  # λ ≥ (n - 1)·W: not from the proof's facts


def test_an_inputs_prompt_keys_are_read_once_for_every_lambda(monkeypatch):
    cons = DijkstraConstruction("repaired")
    inp = (Digraph(3, ((0, 1), (1, 2))), 0)
    from symcot.constructions.alln import PromptStatement

    reads = []
    original = PromptStatement.keys
    monkeypatch.setattr(PromptStatement, "keys", lambda self, x: reads.append(x) or original(self, x))
    p7, p9 = cons.with_lambda(7).prompt(inp), cons.with_lambda(9).prompt(inp)
    assert len(reads) == 1  # the keys hold no λ
    assert p7.tokens != p9.tokens  # the tokens do (∞ is λ)
    assert DijkstraConstruction("repaired").with_lambda(9).prompt(inp).tokens == p9.tokens
    assert len(reads) == 2  # another construction reads them itself
