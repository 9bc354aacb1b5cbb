"""Printed matrix typings against the compiled maps: entries, shapes, identities, trivial attention."""

from __future__ import annotations

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cotdijkstra import DijkstraConstruction
from symcot.check.context import RunContext
from symcot.constructions.mutant import Mutant
from symcot.fidelity.domains import DomainCheck, MatrixStatement
from symcot.inputs import Digraph

SIGNS = frozenset({-1, 0, 1})


def _star(size):
    return Digraph.undirected(size, [(0, j) for j in range(1, size)]), 0


def test_the_path_to_tree_w2_has_a_2_on_the_diagonal_of_a(claims):
    (row,) = claims["thm:cotpathtotree:domains"].run(max_size=4)
    c = row.counterexample
    assert row.verdict == "refuted" and c["size"] == 2 and c["kind"] == "entry" and c["got"] == 2
    assert c["what"] == "W_2: A[0] ← A'[0]"
    diag = {f"A[{a * 2 + a}] ← A'[{a * 2 + a}]" for a in range(2)}
    assert {e["entry"] for e in c["outside"]} == diag and all(e["value"] == 2 for e in c["outside"])


def test_printed_typings_that_hold(claims):
    for cid in ("thm:cotdfs:domains", "thm:cotdijkstra:domains", "thm:cottreestrahler:domains"):
        (row,) = claims[cid].run(max_size=4)
        assert row.verdict == "verified" and row.max_size == 4, cid


def test_an_entry_outside_the_printed_set_is_refuted():
    broken = Mutant(DfsConstruction(), 2, "W_O", ("cur", 0), [("T.cur", 0)], 2)
    st = MatrixStatement(2, "W_O", SIGNS, "W_O^{(2)} ∈ {-1, 0, 1}^{d×2d}", ("d", "2*d"))
    row = DomainCheck("mutant", lambda: broken, [st], _star).run(RunContext("x", 3))
    assert row.verdict == "refuted" and row.counterexample["got"] == 2
    assert row.counterexample["what"] == "W_O: cur ← T.cur" and row.counterexample["size"] == 1


def test_a_wrong_shape_or_identity_is_refuted():
    shape = MatrixStatement(2, "W_O", SIGNS, "a d×d W_O", ("d", "d"))
    row = DomainCheck("as-written", DfsConstruction, [shape], _star).run(RunContext("x", 3))
    assert row.verdict == "refuted" and row.counterexample["kind"] == "shape"
    ident = MatrixStatement(2, "W_O", SIGNS, "W_O the identity", identity=True)
    assert DomainCheck("as-written", DfsConstruction, [ident], _star).run(RunContext("x", 3)).verdict == "refuted"
    v = MatrixStatement(1, "V_R", frozenset({0, 1}), "V^{(1)} the identity", ("d", "d"), identity=True)
    chk = DomainCheck("as-written", lambda: DijkstraConstruction("as-written"), [v], _star)
    assert chk.run(RunContext("x", 3)).verdict == "verified"


def test_w_o_zero_means_a_trivial_attention():
    zero = MatrixStatement(2, "W_O", frozenset({0}), "W_O^{(2)} = 0")
    row = DomainCheck("as-written", DfsConstruction, [zero], _star).run(RunContext("x", 2))
    assert row.verdict == "refuted"  # layer 2 of the DFS decoder has two heads
    trivial = MatrixStatement(1, "W_O", frozenset({0}), "W_O^{(1)} = 0")
    assert DomainCheck("as-written", DfsConstruction, [trivial], _star).run(RunContext("x", 2)).verdict == "verified"
