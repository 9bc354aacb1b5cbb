"""The bilinear gates: the DFS parent gate (W_2-only) and eq:gatingTBstrahlertree."""

from proofs.cot_path_to_tree.gadgets import parent_gate, traverse_gate
from symcot.ir import Layout, Map, n


def test_the_parent_gate_reads_the_callers_hidden_units():
    L = Layout("beta", [("flg1", 1), ("buf", n), ("par", n)])
    x = L.vars()
    g = parent_gate(x.flg1, x.buf, x.par)
    assert g.stage == "hidden" and g.units() == [] and g.w1() == {}
    cm = Map("W_2", L, Layout("o", [("par", n)]), g.w2()).instantiate({n: 2})
    assert cm([1, 1, 0, 0, 1]) == [1, 0]  # traverse: the buffered vertex
    assert cm([0, 1, 0, 0, 1]) == [0, 1]  # backtrack: the parent kept
    assert cm.quad  # bilinear


def test_the_traverse_gate_commits_on_a_backtrack_and_sets_the_flags():
    L = Layout("y3", [("flg1", 1), ("flg2", 1), ("flg3", 1), ("M", 1), ("c", 1)])
    x = L.vars()
    g = traverse_gate(x.flg1, x.M, x.c)
    assert [u for u, _s in g.units()] == ["flg1", "M", "c"] and g.zero(x) == ["flg2"]
    cm = Map("W_2", L, L, g.w2(x), keep=["flg1"], zero=g.zero(x)).instantiate({})
    assert cm([0, 5, 5, 2, 1]) == [0, 0, 1, 2, 1]  # backtrack: (M, c) kept, flg2 = 0, flg3 = 1
    assert cm([1, 5, 5, 2, 1]) == [1, 0, 1, 0, 0]  # traverse: the empty accumulator
