r"""lem:mMc -- gate the pair (M, c) by the sign of m (Appendix "Realizing str").

Claimed: for a real bound ``λ ≥ 0`` and ``v = [m ‖ M ‖ c] ∈ {-1, 1} × [0, λ] × [0, λ]``, an FFN
``W_2 relu(W_1 v + b_1) + b_2`` outputs ``[1 ‖ 0 ‖ 0]`` if ``m = 1`` and ``[-1 ‖ M ‖ c]`` if ``m = -1``.
The proof's weights are transcribed as printed::

    W_1 = [[1,0,0], [-1,0,0], [0,1,0], [λ/2,1,0], [0,0,1], [λ/2,0,1]],  b_1 = [0,0,0,-λ/2,0,-λ/2]
    W_2 = [[1,-1,0,0,0,0], [0,0,1,-1,0,0], [0,0,0,0,1,-1]],            b_2 = 0

Hidden blocks are named after the proof's rows: ``m_pos = relu(m)``, ``m_neg = relu(-m)``,
``M = relu(M)``, ``M_gate = relu(M + λ/2 m - λ/2)``, ``c``, ``c_gate``.

Interpretive choices:

1. ``λ`` is one real, quantified over ``λ ≥ 0``: the weights and the domain's bound are the same ``λ``
   (as written). The λ analysis also *decouples* them (weights ``λ``, inputs in ``[0, B]``), which is
   how thm:cotpathstrahler's footnote uses the lemma ("any λ above this threshold").
2. ``m`` is a gate (both values enumerated); ``M`` and ``c`` are reals.
"""

from __future__ import annotations

from symcot.claims import Claim
from symcot.ir import Layout, Map, lam
from symcot.lemmas import Gate, LambdaSpec, Lemma, LemmaCheck, each, lam_hyp

HALF = lam / 2


def lemma() -> Lemma:
    """lem:mMc as written."""
    L = Layout("mMc.in", [("m", 1), ("M", 1), ("c", 1)])
    Hd = Layout("mMc.hidden", [("m_pos", 1), ("m_neg", 1), ("M", 1), ("M_gate", 1), ("c", 1), ("c_gate", 1)])
    Out = Layout("mMc.out", [("m", 1), ("M", 1), ("c", 1)])
    x, z = L.vars(), Hd.vars()
    w1 = Map("W_1", L, Hd, {
        "m_pos": x.m, "m_neg": -x.m, "M": x.M, "M_gate": HALF * x.m + x.M - HALF,
        "c": x.c, "c_gate": HALF * x.m + x.c - HALF,
    }, max_degree=1, doc="W_1 v + b_1 of the proof")
    w2 = Map("W_2", Hd, Out, {"m": z.m_pos - z.m_neg, "M": z.M - z.M_gate, "c": z.c - z.c_gate}, max_degree=1,
             doc="W_2 of the proof, b_2 = 0")
    return Lemma(
        "lem:mMc", L, w2,
        target={"m": lambda x, i, K: x.m(),
                "M": lambda x, i, K: K.ite(x.m() == 1, 0, x.M()),
                "c": lambda x, i, K: K.ite(x.m() == 1, 0, x.c())},
        w1=w1, gates=(Gate("m", (1, -1), "m ∈ {-1, 1}"),),
        hyps=(lam_hyp("λ ≥ 0", lambda K: K.lam >= 0),
              each("M ≥ 0", "M", lambda v, K: v >= 0), each("M ≤ λ", "M", lambda v, K: v <= K.bound),
              each("c ≥ 0", "c", lambda v, K: v >= 0), each("c ≤ λ", "c", lambda v, K: v <= K.bound)),
        has_lam=True,
    )


LAMBDA = LambdaSpec(bounds=(1, 2, 3), bound_hyps=(lam_hyp("B ≥ 0", lambda K: K.bound >= 0),))

CLAIM = Claim(
    id="lem:mMc",
    kind="lemma",
    statement="For λ ≥ 0 and v = [m‖M‖c] ∈ {-1,1}×[0,λ]², an FFN outputs [1‖0‖0] if m = 1 and [-1‖M‖c] if m = -1.",
    where="Appendix \"Realizing str\" (app:cotstr), after thm:cottreestrahler; used in thm:cotpathstrahler",
    checks=[LemmaCheck(lemma, lam=LAMBDA)],
    default_max_size=1,
)
