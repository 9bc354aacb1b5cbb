r"""eq:proprelu -- one ReLU selects a branch by the sign of q (Appendix "Realizing Algorithm 1").

Claimed (proof of ``thm:cotpathtotree``)::

    For v ∈ {0,1} and q ∈ {+1,-1},
        relu(v + q - 1) = 1[q = +1] v,    relu(v - q - 1) = 1[q = -1] v.

Stated as an FFN: ``W_1`` writes the two pre-activations ``v + q - 1`` and ``v - q - 1`` (hidden blocks
``up`` and ``down``; the bias ``-1`` is the map's constant), ``W_2`` is the identity. Each unit is
:func:`symcot.gadgets.branch`, the unit thm:cotpathtotree's ``W_1`` builds its five gated blocks from. ``q`` is a gate
(both values enumerated). ``v ∈ {0,1}`` is three named hypotheses (``v ≥ 0``, ``v ≤ 1``, ``v ∈ ℤ``) so
the unsat core shows which part the identity uses.

Relaxations reported in the details: ``v ∈ [0, 2]`` real (the largest interval on which both
identities hold) and ``v ∈ [0, 3]`` real (fails: ``relu(3 - 2) = 1``).
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.gadgets import branch, merge_units
from symcot.claims import Claim
from symcot.ir import Layout, Map, m
from symcot.lemmas import Gate, Lemma, LemmaCheck, Relaxation, each, integral
from symcot.lemmas.inuse import InUseCheck


def branches(v: Any, q: Any) -> tuple[Any, Any]:
    """The two units of the identity on ``(v, q)``: ``up = ReLU(v + q - 1)``, ``down = ReLU(v - q - 1)``."""
    return (branch(v, q, 1, units={"sel": "up"}, writes={"sel": "up"}),
            branch(v, q, -1, units={"sel": "down"}, writes={"sel": "down"}))


def lemma() -> Lemma:
    """eq:proprelu as written: both branches of :func:`symcot.gadgets.branch` on ``[v ‖ q]``."""
    L = Layout("proprelu.in", [("v", 1), ("q", 1)])
    Hd = Layout("proprelu.hidden", [("up", 1), ("down", 1)])
    Out = Layout("proprelu.out", [("up", 1), ("down", 1)])
    x = L.vars()
    up, down = branches(x.v, x.q)
    w1 = Map("W_1", L, Hd, merge_units(up, down), max_degree=1, doc="v + q - 1 and v - q - 1")
    h = Hd.vars()
    w2 = Map("W_2", Hd, Out, {**up.w2(h), **down.w2(h)}, max_degree=1, doc="identity")
    v_in_01 = (each("v ≥ 0", "v", lambda v, K: v >= 0), each("v ≤ 1", "v", lambda v, K: v <= 1),
               integral("v ∈ ℤ", "v"))
    return Lemma(
        "eq:proprelu", L, w2,
        target={"up": lambda x, i, K: K.ite(x.q() == 1, x.v(), 0),
                "down": lambda x, i, K: K.ite(x.q() == -1, x.v(), 0)},  # 1[q = ±1] v
        w1=w1, gates=(Gate("q", (1, -1), "q ∈ {+1, -1}"),), hyps=v_in_01,
        relaxations=(
            Relaxation("v ∈ [0, 2] real", drop=("v ≥ 0", "v ≤ 1", "v ∈ ℤ"),
                       add=(each("v ≥ 0", "v", lambda v, K: v >= 0), each("v ≤ 2", "v", lambda v, K: v <= 2))),
            Relaxation("v ∈ [0, 3] real", drop=("v ≥ 0", "v ≤ 1", "v ∈ ℤ"),
                       add=(each("v ≥ 0", "v", lambda v, K: v >= 0), each("v ≤ 3", "v", lambda v, K: v <= 3))),
        ),
    )


def _selected(sign: int) -> dict[str, Any]:
    """The target of one branch on a block ``v``: ``1[q = sign] v_i``."""
    return {"sel": lambda x, i, K: K.ite(x.q() == sign, x.v(i), 0)}


def in_use(**changes: Any) -> InUseCheck:
    """The row ``in:thm:cotpathtotree``: the five gated blocks of ``h = W_1 β`` on what the decoder feeds them."""
    from .thm_cotpathtotree import CLAIMS as TREE_CLAIMS

    opts: dict[str, Any] = dict(
        target=lambda g: _selected(g.params["sign"]), gates=(Gate("q", (1, -1), "q = π_stp ∈ {+1, -1}"),),
        hyps=(each("v_i ≥ 0", "v", lambda v, K: v >= 0), each("v_i ≤ 1", "v", lambda v, K: v <= 1),
              integral("v_i ∈ ℤ", "v")),
        dims={m: 2},
        notes=["cur' (v = S π_nl), nl' (v = π_nl), par' (v = π_cur), buf' (v = π_buf), A' (v = vec(π_cur (S π_nl)ᵀ)) "
               "with q = π_stp at the FFN input; one unit per coordinate of v, v ∈ {0, 1}"])
    opts.update(changes)
    return InUseCheck("eq:proprelu", TREE_CLAIMS[0], **opts)


CLAIM = Claim(
    id="eq:proprelu",
    kind="equation",
    statement="For v ∈ {0,1}, q ∈ {+1,-1}: relu(v+q-1) = 1[q=+1]v and relu(v-q-1) = 1[q=-1]v.",
    where="Appendix \"Realizing Algorithm 1\" (app:cotpathtotree), proof of thm:cotpathtotree",
    checks=[LemmaCheck(lemma), in_use()],
    default_max_size=1,
)
