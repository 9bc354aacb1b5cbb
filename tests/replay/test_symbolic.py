"""Symbolic replay: polynomials, forking decisions, the symbolic Dijkstra reference, the check, λ_min."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
import sympy as sp

import proofs.cot_path_to_tree.thm_cotdijkstra as dijkstra_proof
import proofs.cot_path_to_tree.thm_cotpathstrahler as path_strahler_proof
import proofs.cot_path_to_tree.thm_cottreestrahler as strahler_proof
import proofs.cot_path_to_tree.thm_cotwidoftree as width_proof
from proofs.cot_path_to_tree.algorithms.dijkstra import INF, dijkstra_dynamic
from proofs.cot_path_to_tree.algorithms.dijkstra_symbolic import DijkstraReference, dijkstra_symbolic, symbolic_weights
from proofs.cot_path_to_tree.constructions.cotdijkstra import DijkstraConstruction
from proofs.cot_path_to_tree.constructions.cotpathstrahler import StrahlerPathConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction
from symcot.check.context import RunContext
from symcot.constructions.mutant import Mutant
from symcot.errors import InvalidInputError
from symcot.inputs import Digraph
from symcot.inputs.weighted import weighted_digraphs_with_sources
from symcot.ir import lam
from symcot.prove.symbolic_check import SymbolicCheck, lambda_min, refute_all
from symcot.prove.symbolic_target import Domain, SymbolicTarget
from symcot.replay.symbolic import (
    LAMBDA,
    Atom,
    Decider,
    Explorer,
    Fork,
    PathSolver,
    Poly,
    SolverUnknown,
    UndecidedComparison,
    from_sympy,
)

L = Poly.var(LAMBDA)
W = Poly.var("w")


def DijkstraTarget(variant, make=None):  # noqa: N802 - reads like the class it builds
    return SymbolicTarget("thm:cotdijkstra", make or (lambda: DijkstraConstruction(variant)), dijkstra_proof.SPEC,
                          dijkstra_proof.TOPOLOGIES, weighted=DijkstraReference())


def StrahlerTreeTarget(variant, make=None):  # noqa: N802
    return SymbolicTarget("thm:cottreestrahler", make or (lambda: StrahlerTreeConstruction(variant)),
                          strahler_proof.SPEC, strahler_proof.TREES)


def WidthTreeTarget(variant):  # noqa: N802
    return SymbolicTarget("thm:cotwidoftree", lambda: WidthTreeConstruction(variant), width_proof.SPEC,
                          width_proof.TREES)


def StrahlerPathTarget(variant):  # noqa: N802
    return SymbolicTarget("thm:cotpathstrahler", lambda: StrahlerPathConstruction(variant),
                          path_strahler_proof.SPEC, path_strahler_proof.NONEMPTY_DYCK_WORDS)

# -- polynomials -------------------------------------------------------------------------------------------


def test_poly_arithmetic_is_exact_and_constants_come_back_as_numbers():
    p = 2 * L - W + Fraction(1, 3)
    assert str(p) == "2·λ - w + 1/3"
    assert (p - p) == 0 and isinstance(p - p, int)
    assert (L + 1) - L == 1
    assert (L * 0) == 0 and (L * 1) is L
    assert (L * W - W * L) == 0
    assert (L / 2).evaluate({LAMBDA: 3}) == Fraction(3, 2)
    assert p.evaluate({LAMBDA: 1, "w": 5}) == Fraction(-8, 3)
    assert (L + W) == (W + L) and hash(L + W) == hash(W + L)


def test_poly_comparisons_are_allowed_only_when_the_signs_decide_them():
    assert L > 0 and L + W > 0 and -L < 0 and 2 * L >= 0  # every symbol is positive
    with pytest.raises(UndecidedComparison):
        _ = L > 1
    with pytest.raises(UndecidedComparison):
        _ = L == 2
    with pytest.raises(UndecidedComparison):
        bool(L - W)


def test_sympy_coefficients_become_polynomials_in_lambda():
    assert from_sympy(lam / 2 - 1) == L / 2 - 1
    assert from_sympy(sp.Integer(3)) == 3 and from_sympy(Fraction(4, 2)) == 2


# -- decisions ----------------------------------------------------------------------------------------------


def test_a_relu_forks_only_when_the_path_condition_allows_both_signs():
    ps = PathSolver([LAMBDA])
    ps.push([Atom(L, ">")])
    d = Decider(ps)
    d.start()
    with pytest.raises(Fork) as f:
        d.relu_positive(L - 2)
    assert [o for o, _ in f.value.options] == [True, False]
    ps.push([Atom(L - 3, ">=")])  # λ ≥ 3: λ - 2 > 0 is implied
    d.start()
    assert d.relu_positive(L - 2) is True and d.relu_positive(2 - L) is False
    ps.push([Atom(3 - L, ">=")])  # λ = 3: ReLU(λ - 3) = λ - 3 = 0, no fork
    d.start()
    assert d.relu_positive(L - 3) is True
    assert ps.implied(Atom(L - 3, "==")) is True  # both bounds are facts of the path
    assert ps.implied(Atom(L - 4, ">")) is None and ps.decide(Atom(L - 4, ">")) is False  # Z3 decides it


def test_a_fork_replays_the_logged_outcomes_without_asking_again():
    ps = PathSolver([LAMBDA])
    ps.push([Atom(L, ">")])
    d = Decider(ps)
    d.start([False])
    assert d.holds(Atom(L - 2, ">")) is False
    assert d.log == [False]


# -- the symbolic Dijkstra reference ------------------------------------------------------------------------


def test_symbolic_reference_with_exact_comparisons_is_the_numeric_reference():
    checked = 0
    for n in (1, 2, 3):
        for g, s in weighted_digraphs_with_sources(n, (1, 2)):
            assert dijkstra_symbolic(g, s, lambda a, b: a < b) == dijkstra_dynamic(g, s)
            checked += 1
    assert checked == 1 + 12 + 1620


def test_symbolic_reference_decides_every_comparison_through_the_callback():
    g = symbolic_weights(Digraph.from_arcs(3, [(0, 1), (0, 2), (1, 2)]), Poly.var)
    asked = []

    def less(a, b):
        asked.append((str(a), str(b)))
        return False

    states = dijkstra_symbolic(g, 0, less)
    assert ("w[0,2]", "w[0,1]") in asked  # the argmin compares the two tentative distances
    assert states[1].cur == 1 and states[1].dist == (0, Poly.var("w[0,1]"), Poly.var("w[0,2]"))
    assert states[2].dist[2] == Poly.var("w[0,2]")  # relaxation w01 + w12 < w02 answered "no"
    assert states[0].dist == (0, INF, INF)


def test_invalid_topologies_are_rejected_clearly():
    with pytest.raises(InvalidInputError, match="unreachable"):
        DijkstraTarget("repaired").instance((Digraph.from_arcs(3, [(0, 1)]), 0), Domain())
    with pytest.raises(InvalidInputError, match="cycle"):
        StrahlerTreeTarget("repaired").instance((Digraph.undirected(3, [(0, 1), (1, 2), (2, 0)]), 0), Domain())


# -- replay: proofs, refutations, re-checks ---------------------------------------------------------------


def test_repaired_dijkstra_is_proved_for_all_weights_on_a_small_topology_with_forks():
    t = DijkstraTarget("repaired")
    inp = (Digraph.from_arcs(3, [(0, 1), (0, 2), (1, 2)]), 0)
    r = Explorer(t.instance(inp, Domain())).run()
    assert not r.bad and r.branches == r.agree >= 3 and r.stats.forks >= 2  # argmin tie and relaxation


def test_as_written_dijkstra_is_refuted_at_the_source_for_every_lambda_and_weight():
    chk = SymbolicCheck("as-written", DijkstraTarget("as-written"), lambda_min=False)
    v = chk.run(RunContext("thm:cotdijkstra", 3))
    assert v.verdict == "refuted" and v.max_size == 1
    c = v.counterexample
    assert c["input"]["arcs"] == [[0, 1]] and c["numeric_replay"] == "reproduces the departure"
    assert (c["step"], c["layer"], c["block"]) == (1, 1, "dis")


def test_missing_arc_zero_dijkstra_is_refuted_with_a_rechecked_weight_vector():
    chk = SymbolicCheck("missing-arc-0", DijkstraTarget("missing-arc-0"), lambda_min=False)
    v = chk.run(RunContext("thm:cotdijkstra", 3))
    assert v.verdict == "refuted" and v.max_size == 2
    c = v.counterexample
    assert c["input"]["arcs"] == [[0, 1], [0, 2]] and c["input"]["source"] == 0  # as in the errata
    assert c["numeric_replay"] == "reproduces the departure" and c["block"] == "dis" and c["layer"] == 1
    w01, w02 = (Fraction(c["point"]["weights"][k]) for k in ("0->1", "0->2"))
    assert 0 < w01 <= w02 and c["got"][2] == c["point"]["weights"]["0->1"]  # vertex 2 relaxed to Dist[1] + 0
    assert v.details["branches"] >= 1 and v.details["z3_queries"] > 0


def test_a_deliberately_too_small_lambda_is_refuted_with_a_concrete_counterexample():
    # Strahler: λ_min is 2n - 3 = 3 at n = 3; on λ ≥ 2 some tree departs, on λ ≥ 3 none does.
    t = StrahlerTreeTarget("repaired")
    trees = list(t.topologies(3))
    _, first = refute_all(t, trees, Domain("bound", 2, strict=False))
    assert first is not None
    k, piece = first
    lam_v = piece.point[LAMBDA]
    assert 2 <= lam_v < 3
    mm = t.recheck(trees[k], piece.point)  # the exact replay at that λ
    assert mm is not None and mm["kind"] == "head" and mm["head"] == "B"
    assert refute_all(t, trees, Domain("bound", 3, strict=False))[1] is None
    # Dijkstra: λ = (n - 1)·W exactly is too small on the unit-weight path.
    d = DijkstraTarget("repaired")
    path = (Digraph.from_arcs(3, [(0, 1), (1, 2)]), 0)
    r = Explorer(d.instance(path, Domain("bound", 2, strict=False, weight_bound=1, hi=Fraction(201, 100)))).run()
    assert r.bad and d.recheck(path, r.bad[0].point) is not None


def test_a_mutant_is_refuted_by_the_symbolic_check():
    def make():
        return Mutant(DijkstraConstruction("repaired"), 1, "W_2", ("dis", 0), [("wei", 0)], 0)

    v = SymbolicCheck("mutant", DijkstraTarget("mutant", make=make), lambda_min=False).run(
        RunContext("thm:cotdijkstra", 2))
    assert v.verdict == "refuted" and v.counterexample["numeric_replay"] == "reproduces the departure"
    # a mutant of a λ coefficient: K_B = [1·π_cur ‖ π_flg4] instead of λ·π_cur
    def make_k():
        return Mutant(StrahlerTreeConstruction("repaired"), 2, "K_B", ("v", 0), [("cur", 0)], 1)

    v = SymbolicCheck("mutant", StrahlerTreeTarget("mutant", make=make_k), lambda_min=False).run(
        RunContext("thm:cottreestrahler", 4))
    assert v.verdict == "refuted" and v.counterexample["numeric_replay"] == "reproduces the departure"


def test_repaired_width_is_proved_and_as_written_refuted():
    v = SymbolicCheck("repaired", WidthTreeTarget("repaired"), lambda_min=False).run(RunContext("thm:cotwidoftree", 4))
    assert v.verdict == "proved" and v.max_size == 4 and v.inputs_checked == 1 + 2 + 9 + 64
    w = SymbolicCheck("as-written", WidthTreeTarget("as-written"), lambda_min=False).run(
        RunContext("thm:cotwidoftree", 4))
    assert w.verdict == "refuted" and w.counterexample["input"]["text"].startswith("tree {0-1}, root 0")


# -- λ_min -------------------------------------------------------------------------------------------------


def test_lambda_min_is_certified_by_a_proof_and_counterexamples_at_and_below():
    s = lambda_min(StrahlerTreeTarget("repaired"), 3)
    assert s["lambda_min"] == 3 and s["attained"] is False and s["certified"]  # every λ ≥ 3 works
    assert s["counterexample_below"]["numeric_replay"] is not None and s["proof"]["verdict"] == "proved"
    w = lambda_min(WidthTreeTarget("repaired"), 3)
    assert w["lambda_min"] == 2 and w["attained"] is True and w["certified"]  # λ > 2 works, λ = 2 fails
    assert Fraction(w["counterexample_at"]["point"]["lambda"]) == 2
    d = lambda_min(DijkstraTarget("repaired"), 3)
    assert d["lambda_min"] == 2 and d["attained"] is True and d["certified"]  # λ > 2·W, any W
    assert d["proof"]["domain"] == "λ > 2·W, 0 < w_e ≤ W"
    assert d["counterexample_at"]["point"]["weights"] == {"0->1": 1, "1->2": 1}  # the unit path
    none = lambda_min(DijkstraTarget("missing-arc-0"), 3)
    assert none["lambda_min"] is None and none["certified"]  # departures for arbitrarily large λ
    assert Fraction(none["counterexample_large_lambda"]["point"]["lambda"]) >= 1000


def test_symbolic_check_reports_lambda_min_per_size_and_a_fitted_formula():
    v = SymbolicCheck("repaired", StrahlerTreeTarget("repaired")).run(RunContext("thm:cottreestrahler:lambda", 4))
    assert v.verdict == "proved"
    rows = v.details["lambda_min"]
    assert [r["lambda_min"] for r in rows] == [0, 1, 3, 5] and all(r["certified"] for r in rows)
    assert v.details["lambda_min_formula"] == "2·n - 3"
    assert [r["paper"] for r in rows] == [1, 3, 5, 7]


def test_formula_fit_needs_three_certified_points_on_a_polynomial():
    chk = SymbolicCheck("repaired", WidthTreeTarget("repaired"))

    def rows(values):
        return [{"n": k, "lambda_min": v, "certified": True} for k, v in values.items()]

    assert chk._formula(rows({2: 1, 3: 2, 4: 3}))["lambda_min_formula"] == "n - 1"
    assert chk._formula(rows({2: 1, 3: 2}))["lambda_min_formula"] is None  # two points certify nothing linear
    assert chk._formula(rows({2: 1, 3: 2, 4: 4}))["lambda_min_formula"] is None  # no line, too few for degree 2
    uncertified = [{"n": k, "lambda_min": k - 1, "certified": k != 3} for k in (2, 3, 4)]
    assert chk._formula(uncertified)["lambda_min_formula"] is None

def test_default_size_and_unknown_verdict():
    chk = SymbolicCheck("repaired", WidthTreeTarget("repaired"), default_size=3)
    assert chk.default_max_size == 3 and chk.size_for(6) == 6 and chk.size_for(4) == 4

    class Stuck:
        name = "stuck"
        topology_family = "one input"
        rule_text = "none"
        weighted = False

        def topologies(self, size):
            return [size]

        def count(self, size):
            return 1

        def instance(self, inp, dom):
            raise SolverUnknown("timeout")

    v = SymbolicCheck("x", Stuck(), lambda_min=False).run(RunContext("stuck", 1))
    assert v.verdict == "unknown" and "timeout" in v.notes[-1]


def test_every_point_of_a_product_of_small_weights_agrees_with_the_proof():
    # the proof covers the exact replay: repaired Dijkstra on every weight pattern of one topology at λ = rule
    from symcot.check.stepwise import check_input

    t = DijkstraTarget("repaired")
    g = Digraph.from_arcs(3, [(0, 1), (0, 2), (1, 2), (2, 1)])
    assert not Explorer(t.instance((g, 0), Domain())).run().bad
    for ws in product((1, Fraction(1, 2), 3), repeat=4):
        gw = Digraph(3, g.arcs, ws)
        rule = DijkstraConstruction("repaired").lam_value((gw, 0))
        point = {LAMBDA: rule, **{f"w[{u},{v}]": w for (u, v), w in zip(g.arcs, ws)}}
        cons, num = t.numeric((g, 0), point)
        assert check_input(cons, t.spec, num) is None


def test_verify_symbolic_runs_the_symbolic_rows_only(tmp_path, capsys):
    import json

    from symcot.cli import main

    out = tmp_path / "r.json"
    rc = main(["verify", "--symbolic", "thm:cottreestrahler", "--max-size", "3", "--json", str(out), "--no-progress"])
    text = capsys.readouterr().out
    assert rc == 1  # as written is refuted (the final backtrack), the repair is proved
    rows = json.loads(out.read_text())["claims"]
    assert [(r["variant"], r["verdict"]) for r in rows] == [("as-written", "refuted"), ("repaired", "proved")]
    assert rows[0]["counterexample"]["input"]["text"].endswith("at λ = 3")
    assert "counterexample: Digraph(n=2; 0->1, 1->0), root 0 at λ = 3: step 3" in text


def test_strahler_on_paths_lambda_min_and_the_as_written_parent_lookup():
    v = SymbolicCheck("as-written", StrahlerPathTarget("as-written"), lambda_min=False).run(
        RunContext("thm:cotpathstrahler", 4))
    assert v.verdict == "refuted" and v.counterexample["input"]["word"] == "UDUD"
    assert v.counterexample["head"] == "par" and v.counterexample["numeric_replay"] == "reproduces the departure"
    r = lambda_min(StrahlerPathTarget("repaired"), 4)
    assert r["lambda_min"] == 3 and r["attained"] and r["certified"]  # λ > |w| - 3 on words of length 6
    assert lambda_min(StrahlerPathTarget("repaired"), 1)["statement"] == "no input of this size"


@pytest.mark.slow
def test_dijkstra_up_to_four_vertices_and_its_lambda_formula():
    v = SymbolicCheck("repaired", DijkstraTarget("repaired")).run(RunContext("thm:cotdijkstra", 4, jobs=2))
    assert v.verdict == "proved" and v.max_size == 4 and v.inputs_checked == 1 + 4 + 96 + 9728
    assert v.details["lambda_min_formula"] == "(n - 1)·W"
    assert all(r["certified"] for r in v.details["lambda_min"])


@pytest.mark.slow
def test_trees_up_to_six_vertices():
    w = SymbolicCheck("repaired", WidthTreeTarget("repaired")).run(RunContext("thm:cotwidoftree", 6, jobs=2))
    assert w.verdict == "proved" and w.details["lambda_min_formula"] == "n - 1"
    s = SymbolicCheck("repaired", StrahlerTreeTarget("repaired")).run(
        RunContext("thm:cottreestrahler:lambda", 6, jobs=2))
    assert s.verdict == "proved" and s.details["lambda_min_formula"] == "2·n - 3"


def test_the_branches_partition_the_domain():
    import z3

    from symcot.replay.symbolic import z3_formula

    t = DijkstraTarget("repaired")
    inst = t.instance((Digraph.from_arcs(3, [(0, 1), (0, 2), (1, 2), (2, 1)]), 0), Domain())
    r = Explorer(inst, record=True).run()
    assert not r.bad and len(r.leaves) == r.branches >= 4
    dom = [z3_formula(a) for a in inst.domain]
    conj = [z3.And(*[z3_formula(a) for a in leaf]) for leaf in r.leaves]
    s = z3.Solver()
    s.add(*dom, z3.Not(z3.Or(*conj)))
    assert s.check() == z3.unsat  # the leaves cover the domain
    for i in range(len(conj)):
        for j in range(i):
            s = z3.Solver()
            s.add(conj[i], conj[j])
            assert s.check() == z3.unsat  # and no two overlap
