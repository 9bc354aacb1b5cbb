"""thm:cotdfs:phi: the DFS decoder with one more component emits φ(G_T); a broken sign is refuted."""

import importlib

import pytest
import sympy as sp

from proofs.cot_path_to_tree.algorithms import phi
from proofs.cot_path_to_tree.constructions.cotdfs import build_decoder as dfs_decoder
from proofs.cot_path_to_tree.constructions.cotdfs_phi import PAPER_D, DfsPhiConstruction, build_decoder
from symcot.check.exhaustive import Family, run_construction_check
from symcot.check.spec import RunView
from symcot.constructions.mutant import Mutant
from symcot.inputs import Digraph
from symcot.ir import n
from symcot.model import generate


@pytest.fixture(scope="module")
def P(claims):
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs_phi")


def trees_upto(P, k):
    return Family(P.TREES.name, P.TREES.inputs, P.TREES.count, P.TREES.describe, max_size=k)


def test_sizes_match_the_paragraph():
    s = build_decoder().sizes()
    assert sp.expand(s.d - PAPER_D) == 0 and s.d == 6 * n + 4 and s.layers == 2 and s.max_heads == 2


def test_only_the_final_map_differs_from_dfs_on_the_dfs_blocks():
    dfs, ext = dfs_decoder().instantiate({n: 3}), build_decoder().instantiate({n: 3})
    d = dfs.layout.dim  # the DFS blocks come first, q is the last coordinate
    for k in (1, 2):
        for label in ("W_1", "W_2") + (("Q_T", "K_T", "Q_B", "K_B") if k == 2 else ()):
            a, b = dfs.get_map(k, label), ext.get_map(k, label)
            rows = lambda m: sorted(t for t in m.lin + m.quad + m.const if t[0] < d)  # noqa: E731
            assert rows(a) == rows(b), (k, label)
    w2 = ext.get_map(2, "W_2")
    q = d
    assert w2.coefficient(q) == -1 and w2.coefficient(q, ext.layout.offsets["flg1"]) == 2


def test_emits_phi_on_an_example(P):
    g = Digraph.undirected(5, [(0, 1), (1, 2), (1, 3), (0, 4)])
    cons = DfsPhiConstruction()
    dec = cons.concrete((g, 0))
    gen = generate(dec, cons.prompt((g, 0)).tokens, 20, stop=lambda y: dec.layout.pi("cur", y) == [0] * 5)
    assert len(gen.outputs) == 9 and dec.layout.pi("q", gen.outputs[-1]) == [-1]
    run = RunView(gen.outputs, cons.prompt((g, 0)).tokens[-1], dec.layout)
    assert P._spelled(run, (g, 0)) == phi(g, 0) == "UUDUDDUD"


def test_verified_on_every_rooted_tree_up_to_5(P):
    row = run_construction_check("thm:cotdfs:phi", DfsPhiConstruction(), P.SPEC, [trees_upto(P, 5)], 5,
                                 P.PAPER_SIZES)
    assert row.verdict == "verified" and row.max_size == 5 and row.inputs_checked == 701


def test_broken_sign_is_refuted(P):
    # W_2^(2): q = 2·flg1 - 1; make it flg1 - 1, so a traverse records 0 instead of +1.
    m = Mutant(DfsPhiConstruction(), 2, "W_2", ("q", 0), [("flg1", 0)], 1)
    row = run_construction_check("thm:cotdfs:phi", m, P.SPEC, [trees_upto(P, 5)], 5)
    c = row.counterexample
    assert row.verdict == "refuted" and c["size"] == 2 and c["input"]["phi"] == "UD"
    assert (c["step"], c["block"], c["expected"], c["got"]) == (1, "q", [1], [0])


def test_word_check_catches_a_wrong_word_even_when_blocks_agree(P):
    # The conclusion alone: a construction whose per-step q is not compared still needs the word to be φ.
    from proofs.cot_path_to_tree.constructions.cotdfs import ENCODING as DFS_ENCODING

    class Lenient(DfsPhiConstruction):
        encoding = DFS_ENCODING  # q left out of enc: only the conclusion reads it

    m = Mutant(Lenient(), 2, "W_2", ("q", 0), (), 1)  # q = 2·flg1 + 1: never -1
    row = run_construction_check("thm:cotdfs:phi", m, P.SPEC, [trees_upto(P, 4)], 4)
    c = row.counterexample
    assert row.verdict == "refuted" and c["kind"] == "steps" and c["size"] == 2
    assert "φ(G_T)" in c["got"] and "but UD by the definition" in c["got"]


@pytest.mark.slow
def test_verified_on_every_rooted_tree_up_to_7(P):
    row = run_construction_check("thm:cotdfs:phi", DfsPhiConstruction(), P.SPEC, [P.TREES], 7, P.PAPER_SIZES, jobs=2)
    assert row.verdict == "verified" and row.max_size == 7
    assert row.inputs_checked == sum(k ** (k - 1) for k in range(1, 8))
