r"""lem:mMc -- gate the pair (M, c) by the sign of m (Appendix "Realizing str").

Claimed: for a real bound ``λ ≥ 0`` and ``v = [m ‖ M ‖ c] ∈ {-1, 1} × [0, λ] × [0, λ]``, an FFN
``W_2 relu(W_1 v + b_1) + b_2`` outputs ``[1 ‖ 0 ‖ 0]`` if ``m = 1`` and ``[-1 ‖ M ‖ c]`` if ``m = -1``.
The proof's weights, as printed, are stated once in :func:`symcot.gadgets.mmc` (the network
thm:cotpathstrahler's fourth layer runs).

Hidden blocks are named after the proof's rows: ``m_pos = relu(m)``, ``m_neg = relu(-m)``,
``M = relu(M)``, ``M_gate = relu(M + λ/2 m - λ/2)``, ``c``, ``c_gate``.

Interpretive choices:

1. ``λ`` is one real, quantified over ``λ ≥ 0``: the weights and the domain's bound are the same ``λ``
   (as written). The λ analysis also *decouples* them (weights ``λ``, inputs in ``[0, B]``), which is
   how thm:cotpathstrahler's footnote uses the lemma ("any λ above this threshold").
2. ``m`` is a gate (both values enumerated); ``M`` and ``c`` are reals.
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.gadgets import mmc
from symcot.claims import Claim
from symcot.ir import Layout, lam
from symcot.lemmas import Gate, LambdaSpec, Lemma, LemmaCheck, each, integral, lam_hyp
from symcot.lemmas.gadget_lemma import gadget_maps
from symcot.lemmas.inuse import InUseCheck

TARGET = {"m": lambda x, i, K: x.m(),
          "M": lambda x, i, K: K.ite(x.m() == 1, 0, x.M()),
          "c": lambda x, i, K: K.ite(x.m() == 1, 0, x.c())}


def lemma() -> Lemma:
    """lem:mMc as written: :func:`symcot.gadgets.mmc` on ``[m ‖ M ‖ c]`` with a symbolic ``λ``."""
    L = Layout("mMc.in", [("m", 1), ("M", 1), ("c", 1)])
    x = L.vars()
    w1, w2 = gadget_maps(mmc(x.m, x.M, x.c, lam), L, "mMc")
    return Lemma(
        "lem:mMc", L, w2,
        target=TARGET, w1=w1, gates=(Gate("m", (1, -1), "m ∈ {-1, 1}"),),
        hyps=(lam_hyp("λ ≥ 0", lambda K: K.lam >= 0),
              each("M ≥ 0", "M", lambda v, K: v >= 0), each("M ≤ λ", "M", lambda v, K: v <= K.bound),
              each("c ≥ 0", "c", lambda v, K: v >= 0), each("c ≤ λ", "c", lambda v, K: v <= K.bound)),
        has_lam=True,
    )


#: What thm:cotpathstrahler feeds lem:mMc's network (layer 4: ``[π_q ‖ M_f ‖ c_f]``, the fold) and its identity
#: ``x = ReLU(x) - ReLU(-x)`` (the signed blocks ``q``, ``tmp_q`` carried through every FFN, choice 4).
PATH_MMC_HYPS = (
    integral("M ∈ ℤ", "M"), each("M ≥ 0", "M", lambda v, K: v >= 0), each("M ≤ λ", "M", lambda v, K: v <= K.bound),
    integral("c ∈ ℤ", "c"), each("c ≥ 0", "c", lambda v, K: v >= 0), each("c ≤ 2", "c", lambda v, K: v <= 2),
    each("c ≤ λ", "c", lambda v, K: v <= K.bound),
)


def _path_use(g: Any, what: str) -> Any:
    if g.kind == "signed_pass":
        return {"target": {"x": lambda x, i, K: x.x()}, "hyps": (),
                "gates": (Gate("x", (1, -1), "x ∈ {-1, 1} (π_q, π_tmp_q)"),)}[what]
    return {"target": TARGET, "hyps": PATH_MMC_HYPS, "gates": (Gate("m", (1, -1), "m = π_q ∈ {-1, 1}"),)}[what]


def in_use(variant: str = "as-written", **changes: Any) -> InUseCheck:
    """The row ``in:thm:cotpathstrahler[/variant]``: layer 4's lem:mMc (``λ`` as the decoder sets) and the carries."""
    from .thm_cotpathstrahler import CLAIMS as PATH_CLAIMS

    opts: dict[str, Any] = dict(
        target=lambda g: _path_use(g, "target"), hyps=lambda g: _path_use(g, "hyps"),
        gates=lambda g: _path_use(g, "gates"), construction_variant=variant,
        notes=["layer 4: v = [π_q ‖ M_f ‖ c_f] (M_f, c_f the fold of W_1^(4)), λ free and confirmed against the "
               "decoder's λ = n + 2 at every fed value; M_f, c_f are the outputs used (m is not); the signed "
               "carries of q, tmp_q use the identity m = ReLU(m) - ReLU(-m) of the proof"])
    opts.update(changes)
    return InUseCheck("lem:mMc", PATH_CLAIMS[0], **opts)


LAMBDA = LambdaSpec(bounds=(1, 2, 3), bound_hyps=(lam_hyp("B ≥ 0", lambda K: K.bound >= 0),))

CLAIM = Claim(
    id="lem:mMc",
    kind="lemma",
    statement="For λ ≥ 0 and v = [m‖M‖c] ∈ {-1,1}×[0,λ]², an FFN outputs [1‖0‖0] if m = 1 and [-1‖M‖c] if m = -1.",
    where="Appendix \"Realizing str\" (app:cotstr), after thm:cottreestrahler; used in thm:cotpathstrahler",
    checks=[LemmaCheck(lemma, lam=LAMBDA), in_use("as-written"), in_use("repaired")],
    default_max_size=1,
)
