r"""lem:addwidplus1 -- raise wd by one when some p_i reaches wd + 1 (Appendix "Realizing wid").

Claimed: for ``v = [p_1 ‖ … ‖ p_H ‖ wd]`` with ``wd ≥ 0``, ``p_i ≥ 0``, ``p_i ≤ wd + 1`` for all ``i`` and
``p_i = wd + 1`` for at most one ``i``, an FFN outputs ``[p ‖ wd + 1]`` if some ``p_i = wd + 1`` and ``v``
otherwise (eq:addwidplus1). The proof's network, as printed (hidden width ``2H + 1``: blocks ``p``, ``wd``,
``tmp`` with ``tmp_i = p_i - wd``; ``wd' = wd + Σ_i relu(p_i - wd)``), is stated once in
:func:`symcot.gadgets.addwidplus1` (the network thm:cotwidofpath's second layer runs).

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

from typing import Any

from proofs.cot_path_to_tree.gadgets import addwidplus1
from symcot.claims import Claim, Reading
from symcot.ir import H, Layout, Map, n
from symcot.lemmas import Lemma, LemmaCheck, Relaxation, dim_hyp, each, integral, whole
from symcot.lemmas.gadget_lemma import gadget_maps
from symcot.lemmas.inuse import InUseCheck


def network() -> tuple[Layout, Map, Map]:
    """Input layout, ``W_1`` and ``W_2`` of the proof (:func:`symcot.gadgets.addwidplus1` on ``[p ‖ wd]``)."""
    L = Layout("addwid.in", [("p", H), ("wd", 1)])
    x = L.vars()
    w1, w2 = gadget_maps(addwidplus1(x.p, x.wd), L, "addwid")
    assert w1 is not None
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


def in_use(variant: str = "as-written", **changes: Any) -> InUseCheck:
    """The row ``in:thm:cotwidofpath[/variant]``: layer 2's network on ``[π_p ‖ π_wd]``, ``H = n/2 + 1``."""
    from .thm_cotwidofpath import CLAIMS as PATH_CLAIMS

    opts: dict[str, Any] = dict(
        target=TARGET, hyps=STATED + INTEGRAL + (dim_hyp("n ∈ 2ℤ (|w| of a Dyck word)", lambda s, K: s[n] % 2 == 0),),
        dims={n: 2}, construction_variant=variant,
        notes=["layer 2: v = [π_p ‖ π_wd] at the FFN input, H = n/2 + 1 counters; the stated hypotheses and "
               "p_i, wd ∈ ℤ (counts)"])
    opts.update(changes)
    return InUseCheck("lem:addwidplus1", PATH_CLAIMS[0], **opts)


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
                              "lemma to integer counts"]),
            in_use("as-written"), in_use("read-repaired"), in_use("repaired")],
    default_max_size=16,
    readings={"as-written": Reading("as-written", "p_i, wd real, as stated (only bounds are given)"),
              "repaired": Reading("repair", "hypothesis p_i, wd ∈ ℤ added; the weights unchanged")},
)
