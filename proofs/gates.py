r"""Gating identities inside constructions, stated as lemmas over their flag domains.

``eq:gatingTBstrahlertree`` (Appendix "Realizing str", proof of thm:cottreestrahler, fourth layer)::

    π_M(y_{t+1}) = (1 - π_flg1(y_t^(3))) π_M(β'''),   π_c(y_{t+1}) = (1 - π_flg1(y_t^(3))) π_c(β'''),
    and W_2^(4) sets flg2 = 0, flg3 = 1.

"On a backtrack the gate is 1 and the accumulator commits; on a traverse it is 0, so the freshly visited
vertex receives the empty accumulator (0, 0)." Stated as the fourth layer's FFN restricted to the blocks
it gates: ``β''' = relu(W_1^(4) y)``, where ``W_1^(4)`` leaves ``flg1`` intact ("leaving the remaining
coordinates intact") and writes ``M̂ = π_M(W_1^(4) y)``, ``ĉ = π_c(W_1^(4) y)``, taken here as the inputs
``M``, ``c``; then the bilinear ``W_2^(4)``. Reading: ``W_2^(4)`` sees ``β'''`` only, so its gate is
``π_flg1(β''') = relu(π_flg1(y_t^(3)))``, equal to ``π_flg1(y_t^(3))`` on the flag domain ``{0, 1}``
(1 = traverse, 0 = backtrack). Hypotheses: ``M̂ ≥ 0`` and ``ĉ ≥ 0`` (the ReLU must pass them; they hold
in the construction, where both are sums of non-negative terms). The relaxation without them is
reported.

``thm:cotdfs:pargate`` (our id; Appendix "DFS", proof of thm:cotdfs): the bilinear ``W_2^(2)`` of the DFS
decoder "sets π_par(β) to value π_flg1(β) π_buf(β) + (1 - π_flg1(β)) π_par(β), which selects the buffered
vertex ... when π_flg1(y_t) = 1 and retains the existing parent otherwise". The map is taken from the
transcribed decoder (:func:`symcot.constructions.cotdfs.build_decoder`, layer 2), not restated; the lemma
reads its ``par`` block over ``flg1 ∈ {0, 1}``, ``buf`` and ``par`` one-hot or zero (the proof's
``π_par, π_buf : ℝ^d → E ∪ {0^n}``), for every ``n``.
"""

from __future__ import annotations

from symcot.claims import Claim
from symcot.constructions.cotdfs import build_decoder
from symcot.ir import Layout, Map, n
from symcot.lemmas import Gate, Lemma, LemmaCheck, Relaxation, each, onehot


def gating_tb() -> Lemma:
    """eq:gatingTBstrahlertree: ``relu`` then ``W_2^(4)`` on ``flg1, flg2, flg3, M, c``."""
    L = Layout("gateTB.in", [("flg1", 1), ("flg2", 1), ("flg3", 1), ("M", 1), ("c", 1)])
    x = L.vars()
    w1 = Map("W_1^{(4)}|", L, L, keep=["flg1", "flg2", "flg3", "M", "c"], max_degree=1,
             doc="the part of W_1^(4) the gate reads: flg1 kept, M̂ and ĉ as computed")
    w2 = Map("W_2^{(4)}", L, L, {"M": (1 - x.flg1) * x.M, "c": (1 - x.flg1) * x.c, "flg3": 1},
             keep=["flg1"], zero=["flg2"], doc="eq:gatingTBstrahlertree; flg2 = 0, flg3 = 1")
    return Lemma(
        "eq:gatingTBstrahlertree", L, w2,
        target={"M": lambda x, i, K: K.ite(x.flg1() == 0, x.M(), 0),
                "c": lambda x, i, K: K.ite(x.flg1() == 0, x.c(), 0),
                "flg2": lambda x, i, K: 0, "flg3": lambda x, i, K: 1},
        w1=w1, gates=(Gate("flg1", (0, 1), "flg1 ∈ {0, 1} (backtrack, traverse)"),),
        hyps=(each("M̂ ≥ 0", "M", lambda v, K: v >= 0), each("ĉ ≥ 0", "c", lambda v, K: v >= 0)),
        relaxations=(Relaxation("M̂, ĉ real (ReLU inputs unconstrained)", drop=("M̂ ≥ 0", "ĉ ≥ 0")),),
    )


def dfs_w22() -> Map:
    """``W_2^{(2)}`` of the transcribed DFS decoder (layer 2)."""
    dec = build_decoder()
    return dict(dec.maps_of(2))["W_2"]


def par_gate() -> Lemma:
    """thm:cotdfs:pargate: ``π_par ← π_flg1 π_buf + (1 - π_flg1) π_par`` over the flag domain."""
    w2 = dfs_w22()
    L: Layout = w2.src
    return Lemma(
        "thm:cotdfs:pargate", L, w2,
        target={"par": lambda x, i, K: K.ite(x.flg1() == 1, x.buf(i), x.par(i))},
        gates=(Gate("flg1", (0, 1), "flg1 ∈ {0, 1} (backtrack, traverse)"),),
        hyps=tuple(onehot("buf", zero_ok=True)) + tuple(onehot("par", zero_ok=True)),
        relu=False, dims={n: 1},
    )


CLAIMS = [
    Claim(id="eq:gatingTBstrahlertree", kind="equation",
          statement="W_2^(4) gates (M, c) by 1 - flg1: committed on a backtrack (flg1 = 0), (0, 0) on a traverse.",
          where="Appendix \"Realizing str\" (app:cotstr), proof of thm:cottreestrahler, fourth layer",
          checks=[LemmaCheck(gating_tb)], default_max_size=1),
    Claim(id="thm:cotdfs:pargate", kind="sentence",
          statement="W_2^(2) of the DFS decoder sets π_par to π_flg1 π_buf + (1 - π_flg1) π_par: buf on a "
                    "traverse, par otherwise.",
          where="Appendix \"DFS\" (app:cotdfs), proof of thm:cotdfs, last paragraph (no label; id ours)",
          checks=[LemmaCheck(par_gate)], default_max_size=16),
]
