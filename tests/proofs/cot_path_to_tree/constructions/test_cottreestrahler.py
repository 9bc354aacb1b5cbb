"""thm:cottreestrahler: encoding, sizes, the as-written refutation, the repair, λ, and broken weights."""

import importlib

import pytest
import sympy as sp

from proofs.cot_path_to_tree.constructions.cottreestrahler import (
    PAPER_D,
    StrahlerTreeConstruction,
    build_decoder,
    layout,
)
from symcot.check.exhaustive import Family, run_construction_check
from symcot.check.stepwise import check_input
from symcot.check.trace import replay
from symcot.constructions.mutant import Mutant
from symcot.errors import InvalidInputError
from symcot.inputs import Digraph, rooted_labeled_trees
from symcot.ir import lam, n


@pytest.fixture(scope="module")
def P(claims):
    return importlib.import_module("proofs.cot_path_to_tree.thm_cottreestrahler")


def trees_upto(P, k):
    return Family(P.TREES.name, P.TREES.inputs, P.TREES.count, P.TREES.describe, max_size=k)


def test_sizes_match_the_theorem():
    for variant in ("as-written", "repaired"):
        s = build_decoder(variant).sizes()
        assert sp.expand(s.d - PAPER_D) == 0 and s.d == 6 * n + 14
        assert s.layers == 4 and s.max_heads == 2 and s.heads == [0, 2, 0, 0]
        assert s.ffn_hidden == [6 * n + 14, 6 * n + 14, 6 * n + 20, 6 * n + 14]
        assert s.degrees["layer4.W_1"] == 2 and s.degrees["layer4.W_2"] == 2 and s.degrees["layer2.K_B"] == 1
    # eleven appended scalars, although the proof says "ten"
    assert len(layout().names) - 9 == 11


def test_prompt_is_the_papers_encoding():
    g = Digraph.undirected(3, [(0, 1), (1, 2)])
    c = StrahlerTreeConstruction()
    p = c.prompt((g, 1))
    assert p.labels == ["x_⊥", "x_0", "x_1", "x_2", "y_0"]
    assert p.tokens[0] == [0] * 32
    assert p.tokens[2] == [0, 1, 0] + [0] * 6 + [1, 0, 1] + [0] * 6 + [-1, -1, 0] + [0] * 11
    assert p.tokens[4] == [0, 1, 0] + [0] * 3 + [0, 1, 0] + [1, 0, 1] + [0] * 6 + [-1, -1, 1] + [0] * 11
    assert c.subs((g, 1)) == {lam: 5}  # λ = 2n - 1


def test_invalid_inputs_are_rejected_clearly():
    c = StrahlerTreeConstruction("repaired")
    with pytest.raises(InvalidInputError, match="cycle"):
        c.prompt((Digraph.undirected(3, [(0, 1), (1, 2), (2, 0)]), 0))
    with pytest.raises(InvalidInputError, match="disconnected"):
        c.prompt((Digraph.undirected(3, [(0, 1)]), 0))
    with pytest.raises(InvalidInputError, match="no reverse"):
        c.prompt((Digraph.from_arcs(2, [(0, 1)]), 0))
    with pytest.raises(InvalidInputError, match="root"):
        c.prompt((Digraph.undirected(2, [(0, 1)]), 2))


def test_as_written_is_refuted_at_the_final_backtrack(P):
    row = run_construction_check("thm:cottreestrahler", StrahlerTreeConstruction("as-written"), P.SPEC,
                                 [P.TREES], 4, P.PAPER_SIZES)
    assert row.verdict == "refuted" and row.max_size == 1
    c = row.counterexample
    assert c["size"] == 2 and c["input"]["root"] == 0
    assert (c["step"], c["layer"], c["kind"], c["block"], c["expected"], c["got"]) == (3, 2, "block", "c_buf", [0], [1])
    assert c["other_differences"] == ["final block M", "final block c"]


def test_as_written_fails_only_at_the_last_step(P):
    survey = P.final_step_survey(5)
    assert [r["inputs"] for r in survey] == [1, 2, 9, 64, 625]
    assert all(r["mismatch_before_last_step"] == 0 for r in survey)
    assert [r["wrong_final_str"] for r in survey] == [0, 2, 6, 36, 380]
    assert all(r["wrong_iff_root_count_one"] for r in survey)
    assert all(r["wrong_final_str"] == 0 for r in P.final_step_survey(4, "repaired"))


def test_repaired_is_verified(P):
    row = run_construction_check("thm:cottreestrahler", StrahlerTreeConstruction("repaired"), P.SPEC,
                                 [trees_upto(P, 5)], 5, P.PAPER_SIZES)
    assert row.verdict == "verified" and row.max_size == 5 and row.inputs_checked == 1 + 2 + 9 + 64 + 625


def test_repaired_backtrack_head_takes_the_parent_as_last_left(P):
    # Root 0 with children 1 and 2, and 3 below 1: backtracking 3 -> 1 must read y_2 (cur = 1, last left),
    # the final backtrack reads x_⊥ (φ's empty accumulator).
    g = Digraph.undirected(4, [(0, 1), (0, 2), (1, 3)])
    tr = replay(StrahlerTreeConstruction("repaired"), (g, 0), P.SPEC)
    assert tr.ok and len(tr.steps) == 7
    picks = [tr.labels[st.layers[1].heads[1].index] for st in tr.steps]
    assert picks == ["x_⊥", "x_⊥", "y_1", "x_0", "x_⊥", "y_4", "x_⊥"]
    last = tr.steps[-1].token
    assert tr.layout.pi("cur", last) == [0] * 4  # the stop rule
    assert tr.layout.pi("M", last) == [1] and tr.layout.pi("c", last) == [1]  # str = 1, folded into φ


def test_smallest_lambda_per_n(claims):
    (row,) = claims["thm:cottreestrahler:lambda"].run(4)
    assert row.verdict == "verified" and row.max_size == 4
    per_n = row.details["groups"]
    assert [r["smallest"] for r in per_n] == [0, 1, 3, 5]  # 2n - 3 for n ≥ 2, below the proof's 2n - 1
    assert [r["printed"] for r in per_n] == [1, 3, 5, 7]
    assert all(r["smallest_minus_half_fails"] for r in per_n[1:])
    below = per_n[3]["counterexample_below"]
    assert below["λ"] == 4 and below["kind"] == "head" and below["head"] == "B"


def test_broken_fold_is_refuted(P):
    # W_1^(4): drop tmp_D·tmp_cbuf (the carry) from M.
    m = Mutant(StrahlerTreeConstruction("repaired"), 4, "W_1", ("M", 0), [("tmp_D", 0), ("tmp_cbuf", 0)], 0)
    row = run_construction_check("thm:cottreestrahler", m, P.SPEC, [trees_upto(P, 5)], 5)
    c = row.counterexample
    assert row.verdict == "refuted" and c["size"] == 3
    assert (c["step"], c["block"], c["expected"], c["got"]) == (4, "M", [1], [0])


def test_broken_indicator_is_located_in_layer3(P):
    # W_2^(3): 1[D=0] = ReLU(D+1) - 2ReLU(D) + ReLU(D-1); change the -2 to -1.
    m = Mutant(StrahlerTreeConstruction("repaired"), 3, "W_2", ("tmp_D", 0), [("tmp_D", 0)], -1)
    row = run_construction_check("thm:cottreestrahler", m, P.SPEC, [trees_upto(P, 5)], 5)
    c = row.counterexample
    assert row.verdict == "refuted" and c["layer"] == 3 and c["block"] == "tmp_D"
    assert "1[D=0]" in c["proof_says"]


def test_broken_timestamp_key_is_located_at_head_b(P):
    m = Mutant(StrahlerTreeConstruction("repaired"), 2, "K_B", ("f", 0), [("flg4", 0)], 0)
    bad = next(mm for inp in rooted_labeled_trees(4) if (mm := check_input(m, P.SPEC, inp)) is not None)
    assert bad.kind == "head" and bad.name == "B" and bad.layer == 2


@pytest.mark.slow
def test_repaired_on_every_rooted_labeled_tree_up_to_7(P):
    row = run_construction_check("thm:cottreestrahler", StrahlerTreeConstruction("repaired"), P.SPEC, [P.TREES], 7,
                                 P.PAPER_SIZES, jobs=2)
    assert row.verdict == "verified" and row.max_size == 7
    assert row.inputs_checked == sum(k ** (k - 1) for k in range(1, 8))
