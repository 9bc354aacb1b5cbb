r"""lem:shiftonehot -- shift a one-hot vector by the sign of m (Appendix "Realizing str").

Claimed: for ``d ≥ 2`` and ``v = [m ‖ h ‖ 0_d] ∈ ℝ^{2d+1}`` with ``m ∈ {-1, +1}`` and ``h ∈ {0,1}^d``
one-hot, an FFN ``W_2 relu(W_1 v + b_1) + b_2`` produces ``[m ‖ h ‖ h']`` where ``h'`` is the
zero-padded one-position shift of ``h`` (right if ``m = +1``, left if ``m = -1``). The proof's weights,
as printed (hidden width ``3d + 2``), are stated once in :func:`symcot.gadgets.shiftonehot` (the network
thm:cotpathstrahler's first layer runs), with ``(S_R)_{ij} = 1`` iff ``i - j = 1`` (the IR's ``Shift``:
``S e_j = e_{j+1}``) and ``S_L = S_Rᵀ``.
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

from typing import Any

import sympy as sp

from proofs.cot_path_to_tree.gadgets import shiftonehot
from symcot.claims import Claim
from symcot.ir import Layout, n
from symcot.lemmas import Gate, Lemma, LemmaCheck, dim_hyp, each, onehot
from symcot.lemmas.gadget_lemma import gadget_maps
from symcot.lemmas.inuse import InUseCheck

#: The lemma's dimension (the paper's ``d``).
d = sp.Symbol("d", integer=True, positive=True)


TARGET = {"m": lambda x, i, K: x.m(), "h": lambda x, i, K: x.h(i),
          "h_shift": lambda x, i, K: K.ite(x.m() == 1, x.h(i - 1), x.h(i + 1))}


def lemma() -> Lemma:
    """lem:shiftonehot as written: :func:`symcot.gadgets.shiftonehot` on ``[m ‖ h ‖ 0_d]``."""
    L = Layout("shift.in", [("m", 1), ("h", d), ("pad", d)])
    x = L.vars()
    w1, w2 = gadget_maps(shiftonehot(x.m, x.h), L, "shift")
    return Lemma(
        "lem:shiftonehot", L, w2,
        target=TARGET, w1=w1, gates=(Gate("m", (1, -1), "m ∈ {-1, +1}"),),
        hyps=tuple(onehot("h")) + (each("pad = 0_d", "pad", lambda v, K: v == 0),
                                   dim_hyp("d ≥ 2", lambda s, K: s[d] >= 2)),
        dims={d: 1},
    )


def in_use(variant: str = "as-written", **changes: Any) -> InUseCheck:
    """The row ``in:thm:cotpathstrahler[/variant]``: layer 1's shift of ``h = π_ht`` by ``m = π_q``, ``d = n``."""
    from .thm_cotpathstrahler import CLAIMS as PATH_CLAIMS

    opts: dict[str, Any] = dict(
        target=TARGET, gates=(Gate("m", (1, -1), "m = π_q ∈ {-1, +1}"),),
        hyps=(*onehot("h"), dim_hyp("n ∈ 2ℤ (|w| of a Dyck word)", lambda s, K: s[n] % 2 == 0)), dims={n: 2},
        construction_variant=variant,
        notes=["layer 1: v = [π_q ‖ π_ht] at the FFN input (m is π_q, choice 2 of the construction), d = n; the "
               "third block 0_d is tmp_ht, which the network does not read"])
    opts.update(changes)
    return InUseCheck("lem:shiftonehot", PATH_CLAIMS[0], **opts)


CLAIM = Claim(
    id="lem:shiftonehot",
    kind="lemma",
    statement="For d ≥ 2, v = [m‖h‖0_d], m ∈ {-1,1}, h one-hot: a ReLU FFN outputs [m‖h‖h'] with h' the "
              "zero-padded shift of h directed by m.",
    where="Appendix \"Realizing str\" (app:cotstr), after thm:cottreestrahler; used in thm:cotpathstrahler",
    checks=[LemmaCheck(lemma), in_use("as-written"), in_use("repaired")],
    default_max_size=16,
)
