r"""eq:proprelu -- one ReLU selects a branch by the sign of q (Appendix "Realizing Algorithm 1").

Claimed (proof of ``thm:cotpathtotree``)::

    For v ∈ {0,1} and q ∈ {+1,-1},
        relu(v + q - 1) = 1[q = +1] v,    relu(v - q - 1) = 1[q = -1] v.

Stated as an FFN: ``W_1`` writes the two pre-activations ``v + q - 1`` and ``v - q - 1`` (hidden blocks
``up`` and ``down``; the bias ``-1`` is the map's constant), ``W_2`` is the identity. ``q`` is a gate
(both values enumerated). ``v ∈ {0,1}`` is three named hypotheses (``v ≥ 0``, ``v ≤ 1``, ``v ∈ ℤ``) so
the unsat core shows which part the identity uses.

Relaxations reported in the details: ``v ∈ [0, 2]`` real (the largest interval on which both
identities hold) and ``v ∈ [0, 3]`` real (fails: ``relu(3 - 2) = 1``).
"""

from __future__ import annotations

from symcot.claims import Claim
from symcot.ir import Layout, Map
from symcot.lemmas import Gate, Lemma, LemmaCheck, Relaxation, each, integral


def layouts() -> tuple[Layout, Layout, Layout]:
    """Input ``[v ‖ q]``, hidden ``[up ‖ down]``, output ``[up ‖ down]``."""
    return (Layout("proprelu.in", [("v", 1), ("q", 1)]), Layout("proprelu.hidden", [("up", 1), ("down", 1)]),
            Layout("proprelu.out", [("up", 1), ("down", 1)]))


def lemma() -> Lemma:
    """eq:proprelu as written."""
    L, Hd, Out = layouts()
    x = L.vars()
    w1 = Map("W_1", L, Hd, {"up": x.v + x.q - 1, "down": x.v - x.q - 1}, max_degree=1,
             doc="v + q - 1 and v - q - 1")
    w2 = Map("W_2", Hd, Out, keep=["up", "down"], max_degree=1, doc="identity")
    v_in_01 = (each("v ≥ 0", "v", lambda v, K: v >= 0), each("v ≤ 1", "v", lambda v, K: v <= 1),
               integral("v ∈ ℤ", "v"))
    return Lemma(
        "eq:proprelu", L, w2,
        target={"up": lambda x, i, K: K.ite(x.q() == 1, x.v(), 0),
                "down": lambda x, i, K: K.ite(x.q() == -1, x.v(), 0)},
        w1=w1, gates=(Gate("q", (1, -1), "q ∈ {+1, -1}"),), hyps=v_in_01,
        relaxations=(
            Relaxation("v ∈ [0, 2] real", drop=("v ≥ 0", "v ≤ 1", "v ∈ ℤ"),
                       add=(each("v ≥ 0", "v", lambda v, K: v >= 0), each("v ≤ 2", "v", lambda v, K: v <= 2))),
            Relaxation("v ∈ [0, 3] real", drop=("v ≥ 0", "v ≤ 1", "v ∈ ℤ"),
                       add=(each("v ≥ 0", "v", lambda v, K: v >= 0), each("v ≤ 3", "v", lambda v, K: v <= 3))),
        ),
    )


CLAIM = Claim(
    id="eq:proprelu",
    kind="equation",
    statement="For v ∈ {0,1}, q ∈ {+1,-1}: relu(v+q-1) = 1[q=+1]v and relu(v-q-1) = 1[q=-1]v.",
    where="Appendix \"Realizing Algorithm 1\" (app:cotpathtotree), proof of thm:cotpathtotree",
    checks=[LemmaCheck(lemma)],
    default_max_size=1,
)
