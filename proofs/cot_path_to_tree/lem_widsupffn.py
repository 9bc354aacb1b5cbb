r"""lem:widsupffn -- the width-update FFN of hidden dimension 4 (Appendix "Realizing wid").

Claimed: for ``v = [v_1 ‖ v_2 ‖ v_3]`` with ``v_1 ∈ {0, 1}``, ``v_2, v_3 ∈ ℤ^+`` and ``v_2 ≤ λ`` for a
large ``λ``, ``f(v) = [0 ‖ v_2 + 1 ‖ max(v_3, v_2 + 1)]`` if ``v_1 = 0`` and ``[1 ‖ 1 ‖ max(v_3, 1)]`` if
``v_1 = 1``, computed by ``W_2 relu(W_1 v + b_1) + b_2`` with the proof's weights, stated once in
:func:`symcot.gadgets.widsupffn` (the network thm:cotwidoftree's third layer runs).

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

from typing import Any

from proofs.cot_path_to_tree.gadgets import widsupffn
from symcot.claims import Claim
from symcot.ir import Layout, lam, n
from symcot.lemmas import Gate, Hyp, LambdaSpec, Lemma, LemmaCheck, Override, Relaxation, each, integral, lam_hyp
from symcot.lemmas.gadget_lemma import gadget_maps
from symcot.lemmas.inuse import InUseCheck


def _target(first_when_1: int) -> dict:
    return {
        "v1": lambda x, i, K: K.ite(x.v1() == 0, 0, first_when_1),
        "v2": lambda x, i, K: K.ite(x.v1() == 0, x.v2() + 1, 1),
        "v3": lambda x, i, K: K.ite(x.v1() == 0, K.max(x.v3(), x.v2() + 1), K.max(x.v3(), 1)),
    }


def lemma() -> Lemma:
    """lem:widsupffn as written: :func:`symcot.gadgets.widsupffn` on ``[v_1 ‖ v_2 ‖ v_3]`` with a symbolic ``λ``."""
    L = Layout("widsup.in", [("v1", 1), ("v2", 1), ("v3", 1)])
    x = L.vars()
    w1, w2 = gadget_maps(widsupffn(x.v1, x.v2, x.v3, lam), L, "widsup")
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


def _upto_n_minus_1(name: str, block: str) -> Hyp:
    return each(f"{name} ≤ n - 1", block, lambda v, K: v <= K.sizes[n] - 1)


#: What thm:cotwidoftree's layer 3 feeds the gadget (v = [π_dif ‖ π_twd ‖ π_mwd], λ = V_max = n).
TREE_USE_GATES = (Gate("v1", (0, 1), "v_1 = π_dif ∈ {0, 1}"),)
TREE_USE_HYPS = (
    integral("v_2 ∈ ℤ", "v2"), each("v_2 ≥ 1", "v2", lambda v, K: v >= 1), _upto_n_minus_1("v_2", "v2"),
    integral("v_3 ∈ ℤ", "v3"), each("v_3 ≥ 1", "v3", lambda v, K: v >= 1), _upto_n_minus_1("v_3", "v3"),
)


def in_use(variant: str = "as-written", **changes: Any) -> InUseCheck:
    """The row ``in:thm:cotwidoftree[/variant]``: the layer-3 FFN with ``λ = V_max = n``, on what it is fed."""
    from .thm_cotwidoftree import CLAIMS as TREE_CLAIMS

    using = next(c for c in TREE_CLAIMS if c.id == "thm:cotwidoftree")
    opts: dict[str, Any] = dict(target=_target(1), hyps=TREE_USE_HYPS, gates=TREE_USE_GATES, dims={n: 2},
                                construction_variant=variant,
                                notes=["v = [π_dif ‖ π_twd ‖ π_mwd] at layer 3's FFN input, λ = V_max = n "
                                       "(the decoder's weights); hypotheses: the ranges the decoder feeds"])
    opts.update(changes)
    return InUseCheck("lem:widsupffn", using, **opts)

CLAIMS = [
    Claim(id="lem:widsupffn", kind="lemma",
          statement="A ReLU FFN of hidden dimension 4 computes f(v) = [0‖v2+1‖max(v3,v2+1)] (v1=0), "
                    "[1‖1‖max(v3,1)] (v1=1) for v2, v3 ∈ ℤ+, v2 ≤ λ.",
          where=WHERE, checks=[LemmaCheck(lemma, lam=LAMBDA), in_use("as-written"), in_use("repaired")],
          default_max_size=1),
    Claim(id="lem:widsupffn:note", kind="sentence",
          statement="With W_2[0,0] = 0 the first component of f(v) is 0 also when v1 = 1.",
          where=WHERE + "; last sentence of the proof (id ours)",
          checks=[LemmaCheck(note)], default_max_size=1),
]
