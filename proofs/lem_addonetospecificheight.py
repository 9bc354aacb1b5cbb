r"""lem:addonetospecificheight -- add one to p_{h+1} by discrete pulses (Appendix "Realizing wid").

Claimed: for ``v = [m ‖ h ‖ p_1 ‖ … ‖ p_H]`` with ``H > h ≥ 1``, ``p_i ≥ 1`` and ``m ∈ {-1, 1}``, an FFN
outputs ``[m ‖ h+1 ‖ p_1 ‖ … ‖ p_{h+1}+1 ‖ … ‖ p_H]`` if ``m = 1`` and ``[m ‖ h-1 ‖ p_1 ‖ … ‖ p_H]`` if
``m = -1`` (eq:addonetospecificheight). The proof's network, transcribed as printed (hidden width 4H):

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

Variants:

- ``as-written``: the stated domain.
- ``use-site``: the domain thm:cotwidofpath feeds it: the height ``ht`` starts at ``0`` and the counts
  ``p_i`` at ``0`` (``y_0 = [e_0 ‖ 0 ‖ 0 ‖ 0^{n/2+1} ‖ 0]``), so ``0 ≤ h ≤ H - 1``, ``p_i ≥ 0`` integers;
  a Dyck path never steps down from height 0 (``m = -1 ⟹ h ≥ 1``); ``H = n/2 + 1 ≥ 2`` (a non-empty
  Dyck word). Same network.
- ``repaired``: pulses for ``k = 0..H-1`` (one more block of three rows, hidden width ``4H + 3``), pulse
  ``k`` added to ``p_{k+1}``; on the use-site domain.
"""

from __future__ import annotations

from symcot.claims import Claim
from symcot.ir import H, Layout, Map, Ones
from symcot.lemmas import Gate, Lemma, LemmaCheck, LocalIndexMatrix, Relaxation, each, integral, whole


def _pulse_maps(first_k: int) -> tuple[list[LocalIndexMatrix], LocalIndexMatrix, object]:
    """For pulses ``k = first_k..H-1``: the ``m`` column of each pulse row ``s`` and the routing ``R``.

    Pulse ``k`` sits at index ``j = k - first_k`` of the blocks ``pls0``, ``pls1``, ``pls2``; row ``s`` of
    the pulse has coefficient ``-(k - 1 + s)`` on ``m``; ``R`` adds pulse ``k`` to ``p_{k+1}`` (0-based
    index ``k``).
    """
    size = H - first_k

    def col(s: int) -> LocalIndexMatrix:
        return LocalIndexMatrix(size, 1, lambda j, c, env: -(j + first_k - 1 + s), tex=f"a_{s}",
                                sym_row=lambda j, sizes: [(-(j + first_k - 1 + s), 0, True)])

    def r_sym(i: object, sizes: dict) -> list:
        from z3 import And

        return [(1, i - first_k, And(i >= first_k, i - first_k < sizes[H] - first_k))]

    route = LocalIndexMatrix(H, size, lambda i, j, env: 1 if i == j + first_k else 0, tex="R", sym_row=r_sym,
                             nonzeros=lambda env: ((j + first_k, j) for j in range(env[H] - first_k)))
    return [col(0), col(1), col(2)], route, size


def network(first_k: int = 1) -> tuple[Layout, Map, Map]:
    """Input layout, ``W_1`` and ``W_2`` with pulses ``k = first_k..H-1`` (``1``: as written)."""
    cols, route, size = _pulse_maps(first_k)
    L = Layout("addone.in", [("m", 1), ("h", 1), ("p", H)])
    Hd = Layout("addone.hidden", [("m_pos", 1), ("m_neg", 1), ("h", 1), ("p", H),
                                   ("pls0", size), ("pls1", size), ("pls2", size)])
    Out = Layout("addone.out", [("m", 1), ("h", 1), ("p", H)])
    x, z = L.vars(), Hd.vars()
    h_all = Ones(size, 1) @ x.h
    w1 = Map("W_1", L, Hd, {"m_pos": x.m, "m_neg": -x.m, "h": x.h, "p": x.p,
                             "pls0": cols[0] @ x.m + h_all, "pls1": cols[1] @ x.m + h_all,
                             "pls2": cols[2] @ x.m + h_all},
             max_degree=1, doc="[W_{1,id}; W_{1,pls}] (pulse rows grouped by their place in the triple)")
    w2 = Map("W_2", Hd, Out, {"m": z.m_pos - z.m_neg, "h": z.m_pos - z.m_neg + z.h,
                             "p": z.p + route @ z.pls0 - 2 * (route @ z.pls1) + route @ z.pls2},
             max_degree=1, doc="[W_{2,id} ‖ W_{2,pls}]: [1, -2, 1] of pulse k into p_{k+1}")
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


def use_site() -> Lemma:
    """The same network on the domain thm:cotwidofpath uses it on (height and counts start at 0)."""
    L, w1, w2 = network(1)
    return Lemma("lem:addonetospecificheight", L, w2, TARGET, w1=w1, gates=GATE, hyps=USE_HYPS, dims={H: 2})


def repaired() -> Lemma:
    """Pulses from ``k = 0`` (hidden width ``4H + 3``), on the use-site domain."""
    L, w1, w2 = network(0)
    return Lemma("lem:addonetospecificheight", L, w2, TARGET, w1=w1, gates=GATE, hyps=USE_HYPS, dims={H: 2})


CLAIM = Claim(
    id="lem:addonetospecificheight",
    kind="lemma",
    statement="For v = [m‖h‖p_1..p_H], H > h ≥ 1, p_i ≥ 1, m ∈ {-1,1}, a ReLU FFN adds 1 to p_{h+1} and "
              "m to h (eq:addonetospecificheight).",
    where="Appendix \"Realizing wid\" (app:cotwid); used in thm:cotwidofpath (layer 1)",
    checks=[
        LemmaCheck(as_written),
        LemmaCheck(use_site, variant="use-site",
                   notes=["domain of thm:cotwidofpath: h = ht ∈ [0, H-1] (y_0 has ht = 0), p_i ≥ 0 integers "
                          "(y_0 has p = 0), m = -1 only at h ≥ 1; violates the stated h ≥ 1 and p_i ≥ 1"]),
        LemmaCheck(repaired, variant="repaired",
                   notes=["pulses k = 0..H-1 (one extra block of three hidden units), on the use-site domain"]),
    ],
    default_max_size=16,
)
