"""thm:cotdfs as written: encoding, sizes, step-by-step agreement, and refutation of broken weights."""

import pytest
import sympy as sp

from proofs.cot_path_to_tree.constructions.cotdfs import PAPER_D, DfsConstruction, build_decoder
from symcot.check.exhaustive import run_construction_check
from symcot.check.stepwise import check_input
from symcot.constructions.mutant import Mutant
from symcot.errors import InvalidInputError
from symcot.inputs import Digraph, digraph_count, rooted_labeled_trees
from symcot.inputs.dyck import catalan
from symcot.ir import n


def test_sizes_match_the_theorem():
    s = build_decoder().sizes()
    assert sp.expand(s.d - PAPER_D) == 0 and s.layers == 2 and s.max_heads == 2
    assert s.heads == [0, 2]  # layer 1 has trivial attention
    assert s.ffn_hidden == [6 * n + 3, 6 * n + 3]


def test_prompt_is_the_papers_encoding():
    g = Digraph.from_arcs(3, [(0, 1), (1, 2), (2, 0)])
    p = DfsConstruction().prompt((g, 1))
    assert p.labels == ["x_⊥", "x_0", "x_1", "x_2", "y_0"]
    assert p.tokens[0] == [0] * 21
    # x_1 = [e_1 ‖ 0 ‖ 0 ‖ A_1 ‖ 0 ‖ 0 ‖ -1 ‖ -1 ‖ 0]
    assert p.tokens[2] == [0, 1, 0] + [0] * 6 + [0, 0, 1] + [0] * 6 + [-1, -1, 0]
    # y_0 = [e_p ‖ 0 ‖ e_p ‖ A_p ‖ 0 ‖ 0 ‖ -1 ‖ -1 ‖ 1] with p = 1
    assert p.tokens[4] == [0, 1, 0] + [0] * 3 + [0, 1, 0] + [0, 0, 1] + [0] * 6 + [-1, -1, 1]


def test_invalid_inputs_are_rejected_clearly():
    c = DfsConstruction()
    with pytest.raises(InvalidInputError, match="self-loop"):
        Digraph.from_arcs(2, [(0, 0)])
    with pytest.raises(InvalidInputError, match="source 5"):
        c.prompt((Digraph.from_arcs(2, [(0, 1)]), 5))
    with pytest.raises(InvalidInputError, match="weights other than 1"):
        c.prompt((Digraph.from_weighted_arcs(2, {(0, 1): 3}), 0))


def test_as_written_agrees_with_the_dynamic_on_small_inputs(dfs_proofs):
    spec, cons = dfs_proofs.SPEC, DfsConstruction()
    for size in range(1, 6):
        for inp in rooted_labeled_trees(size):
            assert check_input(cons, spec, inp) is None, inp


def test_as_written_verified_to_four_and_the_tree_sentence_at_its_default(claims):
    """All digraphs n ≤ 4 × source, random digraphs to n = 12; all rooted trees n ≤ 6 (the tree sentence's default)."""
    dfs = claims["thm:cotdfs"]
    assert dfs.default_max_size == 4  # n = 5: the slow test below
    row = dfs.run()[0]
    assert row.verdict == "verified" and row.max_size == 4 and row.variant == "as-written"
    exhaustive = sum(k * digraph_count(k) for k in range(1, 5))
    assert exhaustive == 16585
    fams = {f["family"]: f for f in row.families}
    assert fams["simple digraphs × every source"]["inputs_checked"] == exhaustive
    assert fams["simple digraphs × every source"]["sizes_complete"] == [1, 2, 3, 4]
    assert row.inputs_checked == exhaustive + 12 * 8
    tree = claims["thm:cotdfs:tree"].run()[0]
    assert tree.verdict == "verified" and tree.max_size == 6
    labeled, ordered = sum(k ** (k - 1) for k in range(1, 7)), sum(catalan(k - 1) for k in range(1, 7))
    assert tree.inputs_checked == labeled + ordered  # the ordered trees (a part of the domain) run along
    fams = {f["family"]: f for f in tree.families}
    assert [f["inputs_checked"] for f in fams.values()] == [labeled, ordered]


def test_broken_parent_gate_is_refuted_with_the_smallest_counterexample(dfs_proofs):
    # W_2^(2): par ← flg1·buf + …  -- drop the flg1·buf term for coordinate 0.
    m = Mutant(DfsConstruction(), 2, "W_2", ("par", 0), [("flg1", 0), ("buf", 0)], 0)
    row = run_construction_check("thm:cotdfs", m, dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 4, dfs_proofs.PAPER_SIZES)
    assert row.verdict == "refuted" and row.max_size == 1
    c = row.counterexample
    assert c["size"] == 2 and c["input"]["arcs"] == [[0, 1]] and c["input"]["source"] == 0
    assert (c["step"], c["layer"], c["kind"], c["block"]) == (1, 2, "block", "par")
    assert c["expected"] == [1, 0] and c["got"] == [0, 0]


def test_broken_layer1_flag_is_located_in_layer1(dfs_proofs):
    m = Mutant(DfsConstruction(), 1, "W_2", ("flg1", 0), [("flg2", 0)], 0)  # flg1 = ReLU(γ) only
    row = run_construction_check("thm:cotdfs", m, dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 4)
    c = row.counterexample
    assert row.verdict == "refuted" and c["size"] == 3 and c["input"]["arcs"] == [[0, 1], [0, 2]]
    assert (c["step"], c["layer"], c["block"], c["expected"], c["got"]) == (1, 1, "flg1", [1], [2])
    assert "γ_t" in c["proof_says"]


def test_broken_traverse_key_is_located_at_head_t(dfs_proofs):
    m = Mutant(DfsConstruction(), 2, "K_T", ("v", 0), [("cur", 0)], 0)  # x_0 can no longer be found
    row = run_construction_check("thm:cotdfs", m, dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 3)
    c = row.counterexample
    assert row.verdict == "refuted" and c["kind"] == "head" and c["head"] == "T" and c["layer"] == 2
    assert c["expected"] == "x_0" and c["got"] == "x_⊥" and c["input"]["arcs"] == [[1, 0]]


def test_a_mutant_that_changes_nothing_is_an_error(dfs_proofs):
    from symcot.errors import SymcotError

    m = Mutant(DfsConstruction(), 2, "W_2", ("par", 0), [("flg1", 0), ("buf", 0)], 1)  # already 1
    with pytest.raises(SymcotError, match="changes nothing"):
        m.concrete((Digraph.from_arcs(2, [(0, 1)]), 0))


@pytest.mark.slow
def test_as_written_verified_one_size_past_its_deepest_mutant(claims):
    """``--max-size 5``: every digraph n ≤ 5 × source (5,259,561 inputs with the smaller sizes), batched."""
    row = claims["thm:cotdfs"].run(max_size=5, engine="batched")[0]
    assert row.verdict == "verified" and row.max_size == 5 and row.method.endswith("[batched engine]")
    assert row.inputs_checked == sum(k * digraph_count(k) for k in range(1, 6)) + 12 * 8
