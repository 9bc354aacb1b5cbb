r"""lem:widsupffn -- the width-update FFN of hidden dimension 4 (Appendix "Realizing wid").

Claimed: for ``v = [v_1 ‖ v_2 ‖ v_3]`` with ``v_1 ∈ {0, 1}``, ``v_2, v_3 ∈ ℤ^+`` and ``v_2 ≤ λ`` for a
large ``λ``, ``f(v) = [0 ‖ v_2 + 1 ‖ max(v_3, v_2 + 1)]`` if ``v_1 = 0`` and ``[1 ‖ 1 ‖ max(v_3, 1)]`` if
``v_1 = 1``, computed by ``W_2 relu(W_1 v + b_1) + b_2`` with the proof's weights::

    W_1 = [[1,0,0], [-λ,1,0], [0,0,1], [-λ,1,-1]],  b_1 = [0,0,0,1]
    W_2 = [[1,0,0,0], [0,1,0,0], [0,0,1,1]],        b_2 = [0,1,0]

Interpretive choices:

1. ``ℤ^+`` is the positive integers (the proof: "v_3 ∈ ℤ^+ ⟹ v_3 ≥ 1"), stated as four named
   hypotheses (``v_2 ≥ 1``, ``v_2 ∈ ℤ``, ``v_3 ≥ 1``, ``v_3 ∈ ℤ``) so the core shows which are used.
2. ``λ`` is a real with ``λ > 0`` ("a strictly positive large scalar"), quantified; the domain's bound
   ``v_2 ≤ λ`` is the same ``λ`` (as written). The decoupled λ analysis bounds ``v_2 ≤ B`` for an
   integer ``B`` (thm:cotwidoftree takes ``V_max = n``).
3. ``v_1`` is a gate (both values enumerated).

``lem:widsupffn:note`` (our id) checks the proof's last sentence: "the first component of f(v) can be
even assigned to 0, when v_1 = 1, by changing W_2[0,0] = 0".
"""

from __future__ import annotations

from symcot.claims import Claim
from symcot.ir import Layout, Map, lam
from symcot.lemmas import Gate, LambdaSpec, Lemma, LemmaCheck, Override, Relaxation, each, integral, lam_hyp


def _target(first_when_1: int) -> dict:
    return {
        "v1": lambda x, i, K: K.ite(x.v1() == 0, 0, first_when_1),
        "v2": lambda x, i, K: K.ite(x.v1() == 0, x.v2() + 1, 1),
        "v3": lambda x, i, K: K.ite(x.v1() == 0, K.max(x.v3(), x.v2() + 1), K.max(x.v3(), 1)),
    }


def lemma() -> Lemma:
    """lem:widsupffn as written."""
    L = Layout("widsup.in", [("v1", 1), ("v2", 1), ("v3", 1)])
    Hd = Layout("widsup.hidden", [("h1", 1), ("h2", 1), ("h3", 1), ("h4", 1)])
    Out = Layout("widsup.out", [("v1", 1), ("v2", 1), ("v3", 1)])
    x, z = L.vars(), Hd.vars()
    w1 = Map("W_1", L, Hd, {"h1": x.v1, "h2": -lam * x.v1 + x.v2, "h3": x.v3, "h4": -lam * x.v1 + x.v2 - x.v3 + 1},
             max_degree=1, doc="W_1 v + b_1 of the proof")
    w2 = Map("W_2", Hd, Out, {"v1": z.h1, "v2": z.h2 + 1, "v3": z.h3 + z.h4}, max_degree=1, doc="W_2 h + b_2")
    return Lemma(
        "lem:widsupffn", L, w2, _target(1), w1=w1, gates=(Gate("v1", (0, 1), "v_1 ∈ {0, 1}"),),
        hyps=(lam_hyp("λ > 0", lambda K: K.lam > 0),
              each("v_2 ≥ 1", "v2", lambda v, K: v >= 1), integral("v_2 ∈ ℤ", "v2"),
              each("v_2 ≤ λ", "v2", lambda v, K: v <= K.bound),
              each("v_3 ≥ 1", "v3", lambda v, K: v >= 1), integral("v_3 ∈ ℤ", "v3")),
        has_lam=True,
        relaxations=(
            Relaxation("v_2 ≥ 0 and v_3 ≥ 1 real", drop=("v_2 ≥ 1", "v_2 ∈ ℤ", "v_3 ∈ ℤ"),
                       add=(each("v_2 ≥ 0", "v2", lambda v, K: v >= 0),)),
            Relaxation("v_3 ≥ 0 integer", drop=("v_3 ≥ 1",), add=(each("v_3 ≥ 0", "v3", lambda v, K: v >= 0),)),
        ),
    )


def note() -> Lemma:
    """The proof's closing remark: with ``W_2[0,0] = 0`` the first component is 0 in both cases."""
    base = lemma()
    return base.replace(id="lem:widsupffn:note", target=_target(0), relaxations=()).mutate(
        Override("W_2", ("v1", 0), (("h1", 0),), 0))


LAMBDA = LambdaSpec(bounds=(1, 2, 3), bound_int=True, qe_symbolic_bound=False,
                    bound_hyps=(lam_hyp("B ≥ 1", lambda K: K.bound >= 1),))

WHERE = "Appendix \"Realizing wid\" (app:cotwid); used in thm:cotwidoftree"

CLAIMS = [
    Claim(id="lem:widsupffn", kind="lemma",
          statement="A ReLU FFN of hidden dimension 4 computes f(v) = [0‖v2+1‖max(v3,v2+1)] (v1=0), "
                    "[1‖1‖max(v3,1)] (v1=1) for v2, v3 ∈ ℤ+, v2 ≤ λ.",
          where=WHERE, checks=[LemmaCheck(lemma, lam=LAMBDA)], default_max_size=1),
    Claim(id="lem:widsupffn:note", kind="sentence",
          statement="With W_2[0,0] = 0 the first component of f(v) is 0 also when v1 = 1.",
          where=WHERE + "; last sentence of the proof (id ours)",
          checks=[LemmaCheck(note)], default_max_size=1),
]
