r"""lem:shiftonehot -- shift a one-hot vector by the sign of m (Appendix "Realizing str").

Claimed: for ``d ≥ 2`` and ``v = [m ‖ h ‖ 0_d] ∈ ℝ^{2d+1}`` with ``m ∈ {-1, +1}`` and ``h ∈ {0,1}^d``
one-hot, an FFN ``W_2 relu(W_1 v + b_1) + b_2`` produces ``[m ‖ h ‖ h']`` where ``h'`` is the
zero-padded one-position shift of ``h`` (right if ``m = +1``, left if ``m = -1``). The proof's weights,
as printed (hidden width ``3d + 2``)::

    W_1 = [[1, 0, 0], [-1, 0, 0], [0_d, I_d, 0], [0.5·1_d, S_R, 0], [-0.5·1_d, S_L, 0]]
    b_1 = [0, 0, 0_d, -0.5·1_d, -0.5·1_d]
    W_2 = [[1, -1, 0, 0, 0], [0, 0, I_d, 0, 0], [0, 0, 0, I_d, I_d]],  b_2 = 0

with ``(S_R)_{ij} = 1`` iff ``i - j = 1`` (the IR's ``Shift``: ``S e_j = e_{j+1}``) and ``S_L = S_Rᵀ``.
Hidden blocks: ``zm_pos``, ``zm_neg``, ``z_h``, ``z_plus``, ``z_minus`` (the proof's ``z_{m,+}``,
``z_{m,-}``, ``z_h``, ``z_+``, ``z_-``); the input's third block is ``pad`` (the ``0_d``), the output's
third ``h_shift`` (``h'``).

Interpretive choices:

1. ``0.5`` is the exact rational ``1/2``.
2. "zero-padded shift": ``h'_i = h_{i-1}`` (``m = +1``) or ``h_{i+1}`` (``m = -1``), ``0`` where the
   index leaves ``0..d-1``.
3. "one-hot" is four named hypotheses (``h_i ≥ 0``, ``h_i ≤ 1``, ``h_i ∈ ℤ``, ``Σ h_i = 1``), so the
   unsat core shows which the network needs; ``pad = 0`` and ``d ≥ 2`` are named too.

Every row is local (``I``, ``S``, ``Sᵀ``, broadcasts of ``m``), so the lemma is proved for every ``d``
by the index-function encoding, besides the sweep ``d = 2..max_size``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from symcot.claims import Claim
from symcot.ir import Layout, Map, Shift, bcast, ones
from symcot.lemmas import Gate, Lemma, LemmaCheck, dim_hyp, each, onehot

#: The lemma's dimension (the paper's ``d``).
d = sp.Symbol("d", integer=True, positive=True)
HALF = Fraction(1, 2)


def lemma() -> Lemma:
    """lem:shiftonehot as written."""
    L = Layout("shift.in", [("m", 1), ("h", d), ("pad", d)])
    Hd = Layout("shift.hidden", [("zm_pos", 1), ("zm_neg", 1), ("z_h", d), ("z_plus", d), ("z_minus", d)])
    Out = Layout("shift.out", [("m", 1), ("h", d), ("h_shift", d)])
    x, z = L.vars(), Hd.vars()
    s_r = Shift(d, name="S_R")
    w1 = Map("W_1", L, Hd, {
        "zm_pos": x.m, "zm_neg": -x.m, "z_h": x.h,
        "z_plus": HALF * bcast(x.m, d) + s_r @ x.h - HALF * ones(d),
        "z_minus": -HALF * bcast(x.m, d) + s_r.T @ x.h - HALF * ones(d),
    }, max_degree=1, doc="W_1 v + b_1 of the proof")
    w2 = Map("W_2", Hd, Out, {"m": z.zm_pos - z.zm_neg, "h": z.z_h, "h_shift": z.z_plus + z.z_minus}, max_degree=1,
             doc="W_2 z + b_2 of the proof")
    return Lemma(
        "lem:shiftonehot", L, w2,
        target={"m": lambda x, i, K: x.m(), "h": lambda x, i, K: x.h(i),
                "h_shift": lambda x, i, K: K.ite(x.m() == 1, x.h(i - 1), x.h(i + 1))},
        w1=w1, gates=(Gate("m", (1, -1), "m ∈ {-1, +1}"),),
        hyps=tuple(onehot("h")) + (each("pad = 0_d", "pad", lambda v, K: v == 0),
                                   dim_hyp("d ≥ 2", lambda s, K: s[d] >= 2)),
        dims={d: 1},
    )


CLAIM = Claim(
    id="lem:shiftonehot",
    kind="lemma",
    statement="For d ≥ 2, v = [m‖h‖0_d], m ∈ {-1,1}, h one-hot: a ReLU FFN outputs [m‖h‖h'] with h' the "
              "zero-padded shift of h directed by m.",
    where="Appendix \"Realizing str\" (app:cotstr), after thm:cottreestrahler; used in thm:cotpathstrahler",
    checks=[LemmaCheck(lemma)],
    default_max_size=16,
)
