r"""lem:addwidplus1 -- raise wd by one when some p_i reaches wd + 1 (Appendix "Realizing wid").

Claimed: for ``v = [p_1 ‖ … ‖ p_H ‖ wd]`` with ``wd ≥ 0``, ``p_i ≥ 0``, ``p_i ≤ wd + 1`` for all ``i`` and
``p_i = wd + 1`` for at most one ``i``, an FFN outputs ``[p ‖ wd + 1]`` if some ``p_i = wd + 1`` and ``v``
otherwise (eq:addwidplus1). The proof's network, as printed (hidden width ``2H + 1``)::

    W_1 = [I_{H+1}; I_H  -1_H]    (hidden blocks p, wd, tmp with tmp_i = p_i - wd)
    W_2 = [[I_H, 0, 0], [0, 1, 1_H^T]]    (wd' = wd + Σ_i relu(p_i - wd))

Interpretive choices:

1. ``p_i`` and ``wd`` are reals, as the lemma states them (only bounds are given).
2. "at most one index" is the pairwise hypothesis ``¬(p_i = wd+1 ∧ p_j = wd+1)`` for ``i < j``.

The row ``wd' = wd + 1ᵀ tmp`` sums over all ``H`` coordinates, so no all-``H`` proof is attempted: the
verdict is at best ``verified`` for ``H ≤ max_size``.

Variants: ``as-written`` (refuted: the proof's "Consequently, the temporary variables evaluate to 1 if
p_i = wd + 1, 0 if p_i ≤ wd" skips ``wd < p_i < wd + 1``) and ``repaired`` (the hypothesis
``p_i, wd ∈ ℤ`` added; weights unchanged). thm:cotwidofpath applies the lemma to counts (integers), so
its use satisfies the added hypothesis.
"""

from __future__ import annotations

from symcot.claims import Claim
from symcot.ir import H, Layout, Map, bcast
from symcot.lemmas import Lemma, LemmaCheck, Relaxation, each, integral, whole


def network() -> tuple[Layout, Map, Map]:
    """Input layout, ``W_1`` and ``W_2`` of the proof."""
    L = Layout("addwid.in", [("p", H), ("wd", 1)])
    Hd = Layout("addwid.hidden", [("p", H), ("wd", 1), ("tmp", H)])
    Out = Layout("addwid.out", [("p", H), ("wd", 1)])
    x, z = L.vars(), Hd.vars()
    w1 = Map("W_1", L, Hd, {"p": x.p, "wd": x.wd, "tmp": x.p - bcast(x.wd, H)}, max_degree=1,
             doc="[I_{H+1}; I_H -1_H]")
    w2 = Map("W_2", Hd, Out, {"p": z.p, "wd": z.wd + z.tmp.sum()}, max_degree=1, doc="[[I_H 0 0]; [0 1 1_H^T]]")
    return L, w1, w2


def _at_most_one(x: object, K: object) -> object:
    p, wd = x.vec("p"), x.wd()
    return K.And(*[K.Not(K.And(p[i] == wd + 1, p[j] == wd + 1)) for i in range(len(p)) for j in range(i + 1, len(p))])


TARGET = {
    "p": lambda x, i, K: x.p(i),
    "wd": lambda x, i, K: x.wd() + K.ite(K.Or(*[v == x.wd() + 1 for v in x.vec("p")]), 1, 0),
}
STATED = (
    each("wd ≥ 0", "wd", lambda v, K: v >= 0),
    each("p_i ≥ 0", "p", lambda v, K: v >= 0),
    whole("p_i ≤ wd + 1", lambda x, K: K.And(*[v <= x.wd() + 1 for v in x.vec("p")])),
    whole("p_i = wd + 1 for at most one i", _at_most_one),
)
INTEGRAL = (integral("p_i ∈ ℤ", "p"), integral("wd ∈ ℤ", "wd"))


def as_written() -> Lemma:
    """The lemma as stated (reals)."""
    L, w1, w2 = network()
    return Lemma("lem:addwidplus1", L, w2, TARGET, w1=w1, hyps=STATED, dims={H: 1})


def repaired() -> Lemma:
    """The same network with ``p_i, wd ∈ ℤ`` added to the domain."""
    L, w1, w2 = network()
    return Lemma(
        "lem:addwidplus1", L, w2, TARGET, w1=w1, hyps=STATED + INTEGRAL, dims={H: 1},
        relaxations=(Relaxation("p_i - wd ∈ ℤ instead of p_i, wd ∈ ℤ", drop=("p_i ∈ ℤ", "wd ∈ ℤ"),
                                add=(whole("p_i - wd ∈ ℤ", lambda x, K: K.And(*[K.is_int(v - x.wd())
                                                                               for v in x.vec("p")])),)),),
    )


CLAIM = Claim(
    id="lem:addwidplus1",
    kind="lemma",
    statement="For v = [p_1..p_H‖wd], wd ≥ 0, 0 ≤ p_i ≤ wd+1, p_i = wd+1 for at most one i, a ReLU FFN adds 1 "
              "to wd iff some p_i = wd+1 (eq:addwidplus1).",
    where="Appendix \"Realizing wid\" (app:cotwid); used in thm:cotwidofpath (layer 2)",
    checks=[LemmaCheck(as_written,
                       notes=["where it is used (thm:cotwidofpath, layer 2) p_i and wd are integer counts, so the "
                              "failing inputs (p_i - wd ∉ ℤ) do not arise there; see the repaired variant"]),
            LemmaCheck(repaired, variant="repaired",
                       notes=["hypothesis p_i, wd ∈ ℤ added (weights unchanged); thm:cotwidofpath applies the "
                              "lemma to integer counts"])],
    default_max_size=16,
)
