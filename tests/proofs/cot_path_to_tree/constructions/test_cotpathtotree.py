"""thm:cotpathtotree as written: encoding, sizes d and d', every step against Algorithm 1, and mutants."""

import importlib

import pytest
import sympy as sp

from proofs.cot_path_to_tree.constructions.cotpathtotree import (
    PAPER_D,
    PAPER_HIDDEN,
    PathToTreeConstruction,
    build_decoder,
)
from symcot.check.context import RunContext
from symcot.check.exhaustive import run_construction_check
from symcot.check.stepwise import check_input
from symcot.check.trace import replay
from symcot.constructions.mutant import Mutant
from symcot.errors import InvalidInputError
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS, words_by_rank
from symcot.ir import m


@pytest.fixture(scope="module")
def proofs(claims):
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotpathtotree")


def test_sizes_match_the_theorem():
    s = build_decoder().sizes()
    assert sp.expand(s.d - PAPER_D) == 0 and s.layers == 1 and s.max_heads == 2
    assert sp.expand(s.ffn_hidden[0] - PAPER_HIDDEN) == 0  # d' = 2m² + 6m - 2
    assert s.key_dims == [[2 * m - 2, m + 1]]
    assert s.degrees["layer1.W_1"] == 2 and s.degrees["layer1.W_2"] == 1


def test_prompt_is_the_papers_encoding():
    p = PathToTreeConstruction().prompt("UD")
    assert p.labels == ["x_0", "x_1", "y_0"]
    # blocks: cur 2, nl 2, par 2, A 4, pos 2, stp 1, buf 2, flg 1  (d = m² + 6m = 16)
    assert p.tokens[0] == [0] * 10 + [1, 0] + [1] + [0, 0] + [0]
    assert p.tokens[1] == [0] * 10 + [0, 1] + [-1] + [0, 0] + [0]
    assert p.tokens[2] == [1, 0, 1, 0] + [0] * 6 + [1, 0] + [0] + [0, 0] + [1]
    assert PathToTreeConstruction().prompt("").labels == ["y_0"]


def test_non_dyck_words_are_rejected_clearly():
    c = PathToTreeConstruction()
    with pytest.raises(InvalidInputError, match="below zero"):
        c.prompt("DU")
    with pytest.raises(InvalidInputError, match="unbalanced"):
        c.prompt("UUD")
    with pytest.raises(InvalidInputError, match="letter 'x'"):
        c.prompt("UxD")


def test_as_written_matches_algorithm1_at_every_step(proofs):
    cons = PathToTreeConstruction()
    for size in range(1, 8):
        for w in words_by_rank(size):
            assert check_input(cons, proofs.SPEC, w) is None, w


def test_proof_invariants_hold_inside_every_step(proofs):
    for w in words_by_rank(5):
        tr = replay(PathToTreeConstruction(), w, proofs.SPEC)
        assert tr.ok and len(tr.steps) == len(w), w
    tr = replay(PathToTreeConstruction(), "UUDD", proofs.SPEC)
    heads = [{h.head: tr.labels[h.index] for h in s.layers[0].heads} for s in tr.steps]
    assert heads == [{"U": "x_0", "D": "y_0"}, {"U": "x_1", "D": "y_1"}, {"U": "x_2", "D": "y_2"},
                     {"U": "x_3", "D": "y_1"}]


def test_claim_verified_with_sizes_checked(claims):
    row = claims["thm:cotpathtotree"].run(max_size=6)[0]
    assert row.verdict == "verified" and row.max_size == 6 and row.inputs_checked == 1 + 1 + 2 + 5 + 14 + 42
    assert claims["thm:cotpathtotree"].checks[0].input_kind == "dyck"


def test_hidden_width_mismatch_is_refuted(proofs):
    chk = proofs.CLAIMS[0].checks[0]
    bad = type(chk)(chk.construction, chk.spec, chk.families, chk.paper_sizes, paper_hidden=[2 * m**2 + 6 * m])
    row = bad.run(RunContext("thm:cotpathtotree", 3))
    assert row.verdict == "refuted" and row.counterexample["kind"] == "size"
    assert row.counterexample["differences"][0]["construction"] == "2*m**2 + 6*m - 2"


def test_dropping_the_symmetric_edge_is_refuted_with_the_smallest_word(proofs):
    # W_2: A[am+b] = A[am+b] + A'[am+b] + A'[bm+a]; drop A'[0·2+1] from A[1·2+0] (the entry A[1, 0] of UD).
    mut = Mutant(PathToTreeConstruction(), 1, "W_2", ("A", 2), [("A'", 1)], 0)
    row = run_construction_check("thm:cotpathtotree", mut, proofs.SPEC, [NONEMPTY_DYCK_WORDS], 4, proofs.PAPER_SIZES)
    c = row.counterexample
    assert row.verdict == "refuted" and row.max_size == 1
    assert (c["input"]["word"], c["step"], c["layer"], c["block"]) == ("UD", 1, 1, "A")
    assert c["expected"] == [0, 1, 1, 0] and c["got"] == [0, 1, 0, 0]


def test_a_broken_parent_key_is_located_at_head_d(proofs):
    # K_D = [π_cur ‖ π_flg]: drop the cur[1] term, so node 1's creation token y_1 is no longer found.
    # (Dropping cur[0] is not a fault: the root's parent is never needed.)
    mut = Mutant(PathToTreeConstruction(), 1, "K_D", ("v", 1), [("cur", 1)], 0)
    row = run_construction_check("thm:cotpathtotree", mut, proofs.SPEC, [NONEMPTY_DYCK_WORDS], 4, proofs.PAPER_SIZES)
    c = row.counterexample
    assert row.verdict == "refuted" and c["kind"] == "head" and c["head"] == "D"
    assert c["input"]["word"] == "UD" and c["step"] == 2 and (c["expected"], c["got"]) == ("y_1", "y_0")


@pytest.mark.slow
def test_as_written_on_every_word_up_to_10_nodes(claims):
    row = claims["thm:cotpathtotree"].run(max_size=10)[0]
    assert row.verdict == "verified" and row.max_size == 10 and row.inputs_checked == 6918
