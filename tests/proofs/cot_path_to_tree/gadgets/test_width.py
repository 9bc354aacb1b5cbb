"""The gadgets of Appendix "Realizing wid": the paper's printed matrices, entry by entry."""

import sympy as sp

from proofs.cot_path_to_tree.gadgets import addonetospecificheight, addwidplus1, widsupffn
from symcot.ir import H, Layout, lam

L3 = Layout("v", [("v1", 1), ("v2", 1), ("v3", 1)])


def test_widsupffn_is_the_printed_network(dense):
    x = L3.vars()
    g = widsupffn(x.v1, x.v2, x.v3, lam)
    b1, w1, b2, w2, q2 = dense(g, L3)
    assert [[sp.sympify(c) for c in r] for r in w1] == [[1, 0, 0], [-lam, 1, 0], [0, 0, 1], [-lam, 1, -1]]
    assert b1 == [0, 0, 0, 1]
    assert w2 == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1]] and b2 == [0, 1, 0] and not q2
    assert [u for u, _s in g.units()] == ["h1", "h2", "h3", "h4"] and g.label == "lem:widsupffn"


def test_widsupffn_takes_the_callers_names_and_lambda():
    x = L3.vars()
    g = widsupffn(x.v1, x.v2, x.v3, 5, units=("a", "b", "c", "d"), writes={"v2": "twd"})
    assert list(g.w1()) == ["a", "b", "c", "d"] and g.params == {"lam": 5}
    hid = Layout("h", g.units())
    assert list(g.w2(hid.vars())) == ["twd"] and g.used() == ["v2"]


def test_addwidplus1_is_the_printed_network(dense):
    L = Layout("pw", [("p", H), ("wd", 1)])
    x = L.vars()
    b1, w1, b2, w2, _q = dense(addwidplus1(x.p, x.wd), L, {H: 2})
    # W_1 = [I_{H+1}; I_H  -1_H], W_2 = [[I_H, 0, 0], [0, 1, 1_H^T]]
    assert w1 == [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, -1], [0, 1, -1]] and b1 == [0] * 5
    assert w2 == [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 1, 1]] and b2 == [0, 0, 0]


def test_addonetospecificheight_has_the_printed_pulses(dense):
    L = Layout("mhp", [("m", 1), ("h", 1), ("p", H)])
    x = L.vars()
    g = addonetospecificheight(x.m, x.h, x.p)
    b1, w1, b2, w2, _q = dense(g, L, {H: 3})
    names = [f"{u}[{i}]" for u, s in g.units() for i in range(3 if u == "p" else (2 if u.startswith("pls") else 1))]
    row = dict(zip(names, w1))
    # W_{1,id}: ReLU(m), ReLU(-m), ReLU(h), ReLU(p_i); W_{1,pls}^{(k)} = [[-(k-1), 1], [-k, 1], [-(k+1), 1]] on (m, h)
    assert row["m_pos[0]"] == [1, 0, 0, 0, 0] and row["m_neg[0]"] == [-1, 0, 0, 0, 0] and row["h[0]"] == [0, 1, 0, 0, 0]
    for k in (1, 2):
        assert [row[f"pls{s}[{k - 1}]"][:2] for s in range(3)] == [[-(k - 1), 1], [-k, 1], [-(k + 1), 1]]
    assert b1 == [0] * len(names) and len(names) == 4 * 3  # hidden width 4H
    col = {name: [w2[o][j] for o in range(len(w2))] for j, name in enumerate(names)}
    # W_{2,pls}: [1, -2, 1] of pulse k into p_{k+1} (0-based output row 2 + k); p_1 untouched
    for k in (1, 2):
        assert [col[f"pls{s}[{k - 1}]"][2 + k] for s in range(3)] == [1, -2, 1]
    assert all(col[f"pls{s}[{j}]"][2] == 0 for s in range(3) for j in range(2))
    assert w2[1][:3] == [1, -1, 1]  # h' = ReLU(m) - ReLU(-m) + ReLU(h)


def test_the_repaired_height_network_pulses_from_zero(dense):
    L = Layout("mhp", [("m", 1), ("h", 1), ("p", H)])
    x = L.vars()
    g = addonetospecificheight(x.m, x.h, x.p, first_k=0)
    _b1, w1, _b2, w2, _q = dense(g, L, {H: 2})
    assert len(w1) == 4 * 2 + 3  # hidden width 4H + 3
    assert [u for u, _s in g.units()][-3:] == ["pls0", "pls1", "pls2"] and g.params == {"first_k": 0}
    pls0 = 3 + 2  # after m_pos, m_neg, h and p (size H = 2)
    assert w1[pls0 + 0][:2] == [1, 1]  # pulse k = 0, row 0: h - (0 - 1)m = h + m
    assert w2[2][pls0] == 1  # routed into p_1
