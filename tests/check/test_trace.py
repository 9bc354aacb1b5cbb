"""Readable traces of exact replay (symcot.check.trace): heads, margins, ties, and where a proof's invariant breaks."""

from pathlib import Path

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from symcot.check.trace import render_text, replay
from symcot.constructions.mutant import Mutant
from symcot.inputs import Digraph

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def test_trace_shows_heads_margins_and_ties(dfs_proofs):
    g = Digraph.undirected(3, [(0, 1), (0, 2)])
    tr = replay(DfsConstruction(), (g, 0), dfs_proofs.SPEC, input_text="star")
    assert tr.ok and len(tr.steps) == 5
    first = tr.steps[0].layers[1].heads
    assert first[0].head == "T" and tr.labels[first[0].index] == "x_1" and first[0].tie
    text = render_text(tr)
    assert "head T -> x_1 (score 1, margin 0)  TIE among 2 tokens (x_1, x_2)" in text
    assert "head B -> y_0 (score 2, margin 1)" in text
    assert text.count("ok: matches the reference") == 5


def test_trace_flags_proof_invariant_violations(dfs_proofs):
    m = Mutant(DfsConstruction(), 2, "K_T", ("v", 1), [("cur", 1)], 0)
    g = Digraph.undirected(3, [(0, 1), (0, 2)])
    tr = replay(m, (g, 0), dfs_proofs.SPEC)
    assert not tr.ok
    first = tr.steps[0].mismatches
    assert "layer 2 head T: proof says x_1, selected x_2" in first
    assert "!! MISMATCH" in render_text(tr)


def test_trace_rendering_matches_golden_file(dfs_proofs):
    g = Digraph.from_arcs(3, [(0, 1), (0, 2), (2, 1)])
    text = render_text(replay(DfsConstruction(), (g, 0), dfs_proofs.SPEC, input_text=f"{g}, source 0")) + "\n"
    assert text == (GOLDEN / "dfs_trace.txt").read_text()
