"""The ReLU identities: the signed copy, 1[v = 0], 1[v > 0] in both forms, and eq:proprelu's branch units."""

from fractions import Fraction

import pytest

from proofs.cot_path_to_tree.gadgets import branch, ind_pos, ind_pos_at, ind_zero, ind_zero_at, signed_pass
from symcot.ir import Layout, Map, m
from symcot.model.semantics import EXACT

L = Layout("v", [("v", 1), ("one", 1), ("a", 1), ("b", 1), ("c", 1)])
X = L.vars()


def run(g, vec, env=None):
    """Evaluate the gadget's network exactly: ``W_2 ReLU(W_1 x)`` over its units."""
    hid = Layout("h", g.units())
    w1 = Map("W_1", L, hid, g.w1()).instantiate(env or {})
    outs = g.outputs(hid.vars())
    out = Layout("o", [(r, e.size) for r, e in outs.items()])
    w2 = Map("W_2", hid, out, outs).instantiate(env or {})
    return w2([EXACT.relu(v) for v in w1(vec)])


@pytest.mark.parametrize("v", range(-3, 4))
def test_the_indicators_on_integers(v):
    assert run(ind_zero_at(X.v), [v, 1, 0, 0, 0]) == [int(v == 0)]
    assert run(ind_pos_at(X.v), [v, 1, 0, 0, 0]) == [int(v > 0)]
    assert run(ind_zero_at(X.v, X.one), [v, 1, 0, 0, 0]) == [int(v == 0)]  # the 1s from a block (π_flg3)
    assert run(ind_zero(X.a, X.v, X.b), [v, 0, v + 1, v - 1, 0]) == [int(v == 0)]  # units carried from elsewhere
    assert run(ind_pos(X.v, X.b), [v, 0, 0, max(v - 1, 0), 0]) == [int(v > 0)]  # ReLU(v - 1) already rectified
    assert run(signed_pass(X.v), [v, 0, 0, 0, 0]) == [v]


def test_the_forms_share_one_statement():
    at, plain = ind_zero_at(X.v, 1), ind_zero(X.a, X.v, X.b)
    assert at.label == plain.label == "thm:cottreestrahler:ind0" and at.kind != plain.kind
    assert [r for r, _s in at.units()] == [r for r, _s in plain.units()] == ["vp1", "v", "vm1"]
    assert at.params == {"one": 1} and set(ind_zero_at(X.v, X.one).inputs) == {"v", "one"}
    assert run(ind_zero_at(X.v, 1), [1, 0, 0, 0, 0]) == [0] and run(ind_zero_at(X.v, 1), [0, 0, 0, 0, 0]) == [1]
    assert run(ind_zero_at(X.v, 1), [Fraction(1, 2), 0, 0, 0, 0]) == [Fraction(1, 2)]  # off the integers: no


def test_proprelu_branches_select_by_the_sign_of_q():
    P = Layout("vq", [("v", m), ("q", 1)])
    x = P.vars()
    up, down = branch(x.v, x.q, 1), branch(x.v, x.q, -1)
    for g, q, want in ((up, 1, [1, 0]), (up, -1, [0, 0]), (down, -1, [1, 0]), (down, 1, [0, 0])):
        hid = Layout("h", g.units())
        w1 = Map("W_1", P, hid, g.w1()).instantiate({m: 2})
        assert [EXACT.relu(v) for v in w1([1, 0, q])] == want
    with pytest.raises(ValueError, match="q = \\+1 or q = -1"):
        branch(x.v, x.q, 0)
