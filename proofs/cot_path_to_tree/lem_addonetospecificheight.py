r"""lem:addonetospecificheight -- add one to p_{h+1} by discrete pulses (Appendix "Realizing wid").

Claimed: for ``v = [m ‖ h ‖ p_1 ‖ … ‖ p_H]`` with ``H > h ≥ 1``, ``p_i ≥ 1`` and ``m ∈ {-1, 1}``, an FFN
outputs ``[m ‖ h+1 ‖ p_1 ‖ … ‖ p_{h+1}+1 ‖ … ‖ p_H]`` if ``m = 1`` and ``[m ‖ h-1 ‖ p_1 ‖ … ‖ p_H]`` if
``m = -1`` (eq:addonetospecificheight). The proof's network, transcribed as printed (hidden width 4H) and
stated once in :func:`symcot.gadgets.addonetospecificheight` (the network thm:cotwidofpath's first layer
runs):

- ``W_{1,id}``: ``relu(m)``, ``relu(-m)``, ``relu(h)``, ``relu(p_i)`` (hidden blocks ``m_pos``, ``m_neg``,
  ``h``, ``p``);
- ``W_{1,pls}``: for ``k = 1..H-1`` the rows ``h - (k-1)m``, ``h - km``, ``h - (k+1)m`` (hidden blocks
  ``pls0``, ``pls1``, ``pls2`` of size ``H-1``: row ``s`` of pulse ``k`` is entry ``k-1`` of ``pls<s>``);
- ``W_{2,id}``: ``m = relu(m) - relu(-m)``, ``h = relu(m) - relu(-m) + relu(h)``, ``p_i = relu(p_i)``;
- ``W_{2,pls}``: ``[1, -2, 1]`` of pulse ``k`` added to ``p_{k+1}`` (``p_1`` untouched).

Interpretive choices:

1. ``h`` is an integer (the proof: "Because h is integral"); ``p_i`` are reals ``≥ 1`` as stated.
2. The target's ``p_{h+1} + 1`` is read as "coordinate ``h+1`` gets ``+1`` when ``m = 1``, every other
   coordinate is unchanged"; ``H > h`` keeps ``p_{h+1}`` inside the vector.
3. ``W_{2,pls}``'s first row block "``0_{3×3} … 0_{3×3}``" is the three zero rows ``m``, ``h``, ``p_1``
   (the matrix has ``H + 2`` rows).
4. Hidden-unit order: the proof stacks the pulses as consecutive triples; we group the units by their
   place in the triple (``pls0``, ``pls1``, ``pls2``). This permutes hidden units (and ``W_2``'s columns
   with them), which commutes with the ReLU, so the network computes the same function; it keeps every
   row's index arithmetic linear for the all-``H`` proof (with the interleaved order the query needs
   ``div``/``mod`` by 3 and did not finish in 60 s).

The *use-site domain* is what thm:cotwidofpath feeds the network: the height ``ht`` starts at ``0`` and
the counts ``p_i`` at ``0`` (``y_0 = [e_0 ‖ 0 ‖ 0 ‖ 0^{n/2+1} ‖ 0]``), so ``0 ≤ h ≤ H - 1``, ``p_i ≥ 0``
integers; a Dyck path never steps down from height 0 (``m = -1 ⟹ h ≥ 1``); ``H = n/2 + 1 ≥ 2`` (a
non-empty Dyck word).

Variants:

- ``as-written``: the stated domain.
- ``repaired``: pulses for ``k = 0..H-1`` (one more block of three rows, hidden width ``4H + 3``), pulse
  ``k`` added to ``p_{k+1}``; on the use-site domain.
- ``in:thm:cotwidofpath``, ``in:thm:cotwidofpath/read-repaired``, ``in:thm:cotwidofpath/repaired``: the
  network each decoder variant runs (pulses from ``k = 1``, ``1``, ``0``), with ``H = n/2 + 1``, on the
  use-site domain, which the replay of that decoder confirms (:class:`~symcot.lemmas.inuse.InUseCheck`).
  The decoders that read the letters as intended feed ``h = 0`` at the first step of every word; as
  printed, the network then misses ``p_1``.
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.gadgets import addonetospecificheight
from symcot.claims import Claim, Reading
from symcot.ir import H, Layout, Map, n
from symcot.lemmas import Gate, Lemma, LemmaCheck, Relaxation, dim_hyp, each, integral, whole
from symcot.lemmas.gadget_lemma import gadget_maps
from symcot.lemmas.inuse import InUseCheck


def network(first_k: int = 1) -> tuple[Layout, Map, Map]:
    """Input layout, ``W_1`` and ``W_2`` with pulses ``k = first_k..H-1`` (``1``: as written).

    The network is :func:`symcot.gadgets.addonetospecificheight` on ``[m ‖ h ‖ p]``.
    """
    L = Layout("addone.in", [("m", 1), ("h", 1), ("p", H)])
    x = L.vars()
    w1, w2 = gadget_maps(addonetospecificheight(x.m, x.h, x.p, first_k), L, "addone")
    assert w1 is not None
    return L, w1, w2


TARGET = {
    "m": lambda x, i, K: x.m(),
    "h": lambda x, i, K: K.ite(x.m() == 1, x.h() + 1, x.h() - 1),
    "p": lambda x, i, K: x.p(i) + K.ite(K.And(x.m() == 1, x.h() == i), 1, 0),  # p[i] is p_{i+1}
}
GATE = (Gate("m", (1, -1), "m ∈ {-1, 1}"),)
H_INT = integral("h ∈ ℤ", "h")
H_LT = whole("h < H", lambda x, K: x.h() <= x.size("p") - 1)


def as_written() -> Lemma:
    """The lemma's network on its stated domain."""
    L, w1, w2 = network(1)
    return Lemma(
        "lem:addonetospecificheight", L, w2, TARGET, w1=w1, gates=GATE,
        hyps=(H_INT, each("h ≥ 1", "h", lambda v, K: v >= 1), H_LT, each("p_i ≥ 1", "p", lambda v, K: v >= 1)),
        dims={H: 1},
        relaxations=(Relaxation("p_i ≥ 0", drop=("p_i ≥ 1",), add=(each("p_i ≥ 0", "p", lambda v, K: v >= 0),)),),
    )


USE_HYPS = (H_INT, each("h ≥ 0", "h", lambda v, K: v >= 0), H_LT,
            each("p_i ≥ 0", "p", lambda v, K: v >= 0), integral("p_i ∈ ℤ", "p"),
            whole("m = -1 ⟹ h ≥ 1 (Dyck)", lambda x, K: K.Implies(x.m() == -1, x.h() >= 1)))


def repaired() -> Lemma:
    """Pulses from ``k = 0`` (hidden width ``4H + 3``), on the use-site domain."""
    L, w1, w2 = network(0)
    return Lemma("lem:addonetospecificheight", L, w2, TARGET, w1=w1, gates=GATE, hyps=USE_HYPS, dims={H: 2})


EVEN = dim_hyp("n ∈ 2ℤ (|w| of a Dyck word)", lambda s, K: s[n] % 2 == 0)


def in_use(variant: str = "as-written", **changes: Any) -> InUseCheck:
    """The row ``in:thm:cotwidofpath[/variant]``: layer 1's network on ``[π_q ‖ π_ht ‖ π_p]``, ``H = n/2 + 1``."""
    from .thm_cotwidofpath import CLAIMS as PATH_CLAIMS

    pulses = "k = 0..H-1 (the repair)" if variant == "repaired" else "k = 1..H-1 (as printed)"
    opts: dict[str, Any] = dict(
        target=TARGET, gates=GATE, hyps=(*USE_HYPS, EVEN), dims={n: 2}, construction_variant=variant,
        notes=[f"layer 1: v = [π_q ‖ π_ht ‖ π_p] at the FFN input, H = n/2 + 1, pulses {pulses}; the domain: "
               "h = ht ∈ [0, H-1] (y_0 has ht = 0), p_i ≥ 0 integers (y_0 has p = 0), m = -1 only at h ≥ 1 "
               "(Dyck) -- against the stated h ≥ 1, p_i ≥ 1"])
    opts.update(changes)
    return InUseCheck("lem:addonetospecificheight", PATH_CLAIMS[0], **opts)


CLAIM = Claim(
    id="lem:addonetospecificheight",
    kind="lemma",
    statement="For v = [m‖h‖p_1..p_H], H > h ≥ 1, p_i ≥ 1, m ∈ {-1,1}, a ReLU FFN adds 1 to p_{h+1} and "
              "m to h (eq:addonetospecificheight).",
    where="Appendix \"Realizing wid\" (app:cotwid); used in thm:cotwidofpath (layer 1)",
    checks=[
        LemmaCheck(as_written),
        LemmaCheck(repaired, variant="repaired",
                   notes=["pulses k = 0..H-1 (one extra block of three hidden units), on the use-site domain"]),
        in_use("as-written"), in_use("read-repaired"), in_use("repaired"),
    ],
    default_max_size=16,
    readings={
        "as-written": Reading("as-written", "the stated domain: H > h ≥ 1, p_i ≥ 1, m ∈ {-1, 1}, h integral"),
        "repaired": Reading("repair", "pulses k = 0..H-1 (one more block of three hidden units), on the use-site "
                                      "domain"),
    },
)
