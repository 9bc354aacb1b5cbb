"""The gadgets of Appendix "Realizing str": lem:shiftonehot, lem:mMc and the fold, as printed."""

from fractions import Fraction

import sympy as sp

from proofs.cot_path_to_tree.gadgets import fold, mmc, shiftonehot
from symcot.ir import Layout, Map, lam

HALF = Fraction(1, 2)


def test_shiftonehot_is_the_printed_network(dense):
    d = sp.Symbol("d", integer=True, positive=True)
    L = Layout("mh", [("m", 1), ("h", d)])
    x = L.vars()
    g = shiftonehot(x.m, x.h)
    b1, w1, b2, w2, _q = dense(g, L, {d: 3})
    # W_1 = [[1, 0], [-1, 0], [0_d, I_d], [0.5·1_d, S_R], [-0.5·1_d, S_L]], b_1 = [0, 0, 0_d, -0.5·1_d, -0.5·1_d]
    assert w1[0] == [1, 0, 0, 0] and w1[1] == [-1, 0, 0, 0]
    assert w1[2:5] == [[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    assert w1[5:8] == [[HALF, 0, 0, 0], [HALF, 1, 0, 0], [HALF, 0, 1, 0]]  # S_R: (S_R)_{ij} = 1 iff i - j = 1
    assert w1[8:11] == [[-HALF, 0, 1, 0], [-HALF, 0, 0, 1], [-HALF, 0, 0, 0]]  # S_L = S_Rᵀ
    assert b1 == [0, 0, 0, 0, 0, -HALF, -HALF, -HALF, -HALF, -HALF, -HALF]
    assert w2[0] == [1, -1] + [0] * 9 and w2[1:4] == [[0, 0, 1, 0, 0] + [0] * 6, [0, 0, 0, 1, 0] + [0] * 6,
                                                       [0, 0, 0, 0, 1] + [0] * 6]
    assert [r[5:] for r in w2[4:]] == [[1, 0, 0, 1, 0, 0], [0, 1, 0, 0, 1, 0], [0, 0, 1, 0, 0, 1]] and b2 == [0] * 7


def test_mmc_is_the_printed_network(dense):
    L = Layout("mMc", [("m", 1), ("M", 1), ("c", 1)])
    x = L.vars()
    b1, w1, b2, w2, _q = dense(mmc(x.m, x.M, x.c, lam), L)
    half = lam / 2
    assert [[sp.sympify(c) for c in r] for r in w1] == [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [half, 1, 0], [0, 0, 1],
                                                        [half, 0, 1]]
    assert [sp.sympify(c) for c in b1] == [0, 0, 0, -half, 0, -half]
    assert w2 == [[1, -1, 0, 0, 0, 0], [0, 0, 1, -1, 0, 0], [0, 0, 0, 0, 1, -1]] and b2 == [0, 0, 0]


def test_the_fold_is_the_tree_strahler_w1_4():
    L = Layout("f", [(b, 1) for b in ("M", "dp", "dz", "dn", "cp", "cz", "cu")])
    x = L.vars()
    mf, cf = fold(x.M, x.dp, x.dz, x.dn, x.cp, x.cz, x.cu)
    out = Layout("o", [("M", 1), ("c", 1)])
    cm = Map("W", L, out, {"M": mf, "c": cf}).instantiate({})
    _b, w, q = cm.dense()
    assert w == [[1, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0]]  # M, and π_{tmp_{D-1}}·1
    assert q[0][2][4] == 1 and q[1][2][5] == 1 and q[1][3][6] == 1  # tmp_D tmp_cbuf; tmp_D tmp_cbuf-1; tmp_D+1 c_buf
    # on indicators: D = 0 and c_u > 0 raises M; D < 0 gives c = c_u (the transcription of W_1^(4))
    assert cm([3, 0, 1, 0, 1, 0, 1]) == [4, 0] and cm([3, 0, 0, 1, 1, 0, 2]) == [3, 2]
