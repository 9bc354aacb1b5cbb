r"""thm:cotpathtotree -- the one-layer, two-head decoder realizing Algorithm 1, as written.

Paper: *Chain-of-Thought Shows the Path to a Tree*, Appendix "Realizing Algorithm 1"
(``app:cotpathtotree``), proof of ``thm:cotpathtotree`` with ``eq:proprelu``; it simulates Algorithm 1
(``algo:pathtotree``). ``m`` is the number of tree nodes, the word has length ``2(m-1)``.

Embedding (``d = m² + 6m``), blocks in the paper's order::

    x_τ = [0^m ‖ 0^m ‖ 0^m ‖ 0^{m²} ‖ ê_τ ‖ q_τ ‖ 0^m ‖ 0]      (cur nl par A pos stp buf flg), q_τ = s_{τ+1} - s_τ
    y_0 = [e_0 ‖ e_0 ‖ 0^m ‖ 0^{m²} ‖ ê_0 ‖ 0 ‖ 0^m ‖ 1]

with ``pos`` of size ``2m - 2`` (the basis ``ê_0 … ê_{2m-3}``); the prompt is ``[x_0, …, x_{2m-3}, y_0]``
(no sentinel).

Head U: ``Q_U = π_pos``, ``K_U = π_pos``; its value copies ``π_stp`` of the selected token into ``stp``
and is 0 elsewhere. Head D: ``Q_D = [π_cur ‖ π_flg]``, ``K_D = [π_cur ‖ π_flg]``; its value copies
``π_par`` of the selected token into ``buf``. ``W_O ∈ {0,1}^{d×2d}`` sums the two values.

FFN: ``h = W_1 β`` has the hidden blocks ``[cur' ‖ nl' ‖ par' ‖ buf' ‖ A ‖ pos ‖ A']`` of total size
``d' = 2m² + 6m - 2``::

    cur' = S π_nl + π_stp - 1        nl'  = π_nl - π_stp - 1        par' = π_cur + π_stp - 1
    buf' = π_buf - π_stp - 1         A    = π_A                      pos  = π_pos
    A'_{am+b} = π_cur(β)_a π_nl(β)_{b-1} + π_stp - 1   (π_nl(β)_{-1} read as 0)

and ``W_2`` writes ``cur = cur' + buf'``, ``nl = cur' + nl'``, ``par = par'``,
``A[am+b] = A[am+b] + A'[am+b] + A'[bm+a]``, ``pos = S' pos``, ``stp = 0``, ``buf = 0``, ``flg = 1``.

Interpretive choices (each is a place a reader could differ):

1. *Values and W_O.* The proof defines ``α''_U := V_U α'_U`` ("copies π_stp(α'_U) = q_t into the stp block
   and is 0 elsewhere") and ``α''_D := V_D α'_D`` ("copies π_par(α'_D) into the buf block and is 0
   elsewhere"), and ``W_O`` "sums the two contributions": so the value maps do the routing and ``W_O`` is
   the block-wise sum ``[I_d ‖ I_d]``.
2. *Both heads run at every step.* The text says "the U head is selected when π_stp(x_t) = +1, the D head
   when π_stp(x_t) = -1", but nothing gates the heads; both contribute, and the FFN's ReLU branch
   (eq:proprelu) discards the unused one. The U head is the one that reads ``q_t`` on every step.
3. *The A' feature* ``β^T M^{(a,b)} β = π_cur(β)_a π_nl(β)_{b-1}`` is stated as ``vec(π_cur (S π_nl)^T)``,
   since ``(S π_nl)_b = π_nl(β)_{b-1}`` with ``(S π_nl)_0 = 0``.
4. *flg = 1* is a constant (bias) of ``W_2``: the hidden layer "drops the flg and stp blocks", so
   ``W_2 ∈ {0,1}^{d×d'}`` cannot copy it; it is the only affine term of ``W_2``.
5. *par after a D step.* ``π_par(y_{t+1}) = π'_par(h') = ReLU(π_cur + q_t - 1)``, which is ``0^m`` on a
   ``D``; the checker expects exactly that (``π_par : R^d → E_m ∪ {0^m}``).
6. *The last cursor.* ``S' ê_{2m-3} = 0``, so ``π_pos(y_{2m-2}) = 0``. For ``m = 1`` (the empty word)
   ``pos`` has no coordinate, ``ê_0`` is the empty vector and there is no step.
7. *Steps.* "The generation runs for exactly T steps" (def:algorelationbycot): ``2(m - 1)`` steps, one per
   letter, with no stop rule.

Sizes: the paper's count of eight blocks and ``d = m² + 6m`` agree with ``pos`` having ``2m - 2``
coordinates (``4m + m² + (2m - 2) + 2``); the hidden width ``d' = 2m² + 6m - 2`` is the sum of the
seven hidden blocks.
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.algorithms.alg1_facts import VOCABULARY as ALG1_VOCABULARY
from proofs.cot_path_to_tree.gadgets import Gadget, branch, merge_units
from symcot.constructions.alln import AllNStatement, Choice, Segment, Y
from symcot.constructions.base import Construction
from symcot.constructions.encoding import StateEncoding, const, flat, onehot, scalar
from symcot.inputs.dyck import validate_dyck
from symcot.ir import Commutation, Layout, Map, Shift, m, outer
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space

BLOCKS = ["cur", "nl", "par", "A", "pos", "stp", "buf", "flg"]
HIDDEN = ["cur", "nl", "par", "buf", "A", "pos", "A'"]
#: d = m² + 6m, as stated in the proof.
PAPER_D = m**2 + 6 * m
#: d' = 2m² + 6m - 2, the FFN width stated in the proof.
PAPER_HIDDEN = 2 * m**2 + 6 * m - 2


def layout() -> Layout:
    """The embedding layout ``[cur ‖ nl ‖ par ‖ A ‖ pos ‖ stp ‖ buf ‖ flg]``."""
    return Layout("pathtotree", [("cur", m), ("nl", m), ("par", m), ("A", m**2), ("pos", 2 * m - 2),
                                 ("stp", 1), ("buf", m), ("flg", 1)])


def hidden_layout() -> Layout:
    """The FFN's hidden layout ``[cur' ‖ nl' ‖ par' ‖ buf' ‖ A ‖ pos ‖ A']`` (``d' = 2m² + 6m - 2``)."""
    return Layout("pathtotree.hidden", [("cur", m), ("nl", m), ("par", m), ("buf", m), ("A", m**2),
                                        ("pos", 2 * m - 2), ("A'", m**2)])


def proprelu_branches(x: Any) -> dict[str, Gadget]:
    """The five gated blocks of ``h = W_1 β``, each one unit of eq:proprelu on ``q = π_stp(β)``.

    ``cur' = ReLU(S π_nl + π_stp - 1)`` (the ``U`` branch), ``nl' = ReLU(π_nl - π_stp - 1)`` (``D``),
    ``par' = ReLU(π_cur + π_stp - 1)`` (``U``), ``buf' = ReLU(π_buf - π_stp - 1)`` (``D``) and
    ``A' = ReLU(vec(π_cur (S π_nl)ᵀ) + π_stp - 1)`` (``U``); ``W_2`` sums them (the outputs are combined there).
    """
    def unit(v: Any, sign: int, name: str) -> Gadget:
        return branch(v, x.stp, sign, units={"sel": name}, writes={"sel": None})

    return {"cur": unit(Shift(m) @ x.nl, 1, "cur"), "nl": unit(x.nl, -1, "nl"), "par": unit(x.cur, 1, "par"),
            "buf": unit(x.buf, -1, "buf"), "A'": unit(outer(x.cur, Shift(m) @ x.nl), 1, "A'")}


def build_decoder(name: str = "thm:cotpathtotree/as-written") -> Decoder:
    """The decoder exactly as the proof of ``thm:cotpathtotree`` states it (see the module docstring)."""
    L = layout()
    Hd = hidden_layout()
    x = L.vars()
    others = lambda *keep: [b for b in BLOCKS if b not in keep]  # noqa: E731

    ku = Layout("pathtotree.key_U", [("v", 2 * m - 2)])
    head_u = Head(
        "U",
        query=Map("Q_U", L, ku, {"v": x.pos}, max_degree=1, doc="Q_U y_t = π_pos(y_t)"),
        key=Map("K_U", L, ku, {"v": x.pos}, max_degree=1, doc="K_U α = π_pos(α)"),
        value=Map("V_U", L, L, {"stp": x.stp}, zero=others("stp"), max_degree=1,
                  doc="copies π_stp(α'_U) = q_t into the stp block and is 0 elsewhere"),
    )
    kd = Layout("pathtotree.key_D", [("v", m), ("f", 1)])
    head_d = Head(
        "D",
        query=Map("Q_D", L, kd, {"v": x.cur, "f": x.flg}, max_degree=1, doc="Q_D y_t = [π_cur(y_t) ‖ π_flg(y_t)]"),
        key=Map("K_D", L, kd, {"v": x.cur, "f": x.flg}, max_degree=1, doc="K_D α = [π_cur(α) ‖ π_flg(α)]"),
        value=Map("V_D", L, L, {"buf": x.par}, zero=others("buf"), max_degree=1,
                  doc="copies the recorded parent π_par(α'_D) into the buf block and is 0 elsewhere"),
    )
    vs = value_space([head_u, head_d])
    o = vs.vars()
    w_o = Map("W_O", vs, L, {b: o[f"U.{b}"] + o[f"D.{b}"] for b in BLOCKS}, max_degree=1,
              doc="W_O ∈ {0,1}^{d×2d} sums the two contributions, α'' = α''_U + α''_D")

    branches = proprelu_branches(x)
    w1 = Map("W_1", L, Hd, {**merge_units(*branches.values()), "A": x.A, "pos": x.pos},
             doc="h = W_1 β: each block gated by the sign of π_stp through eq:proprelu; "
                 "A'_{am+b} = π_cur(β)_a π_nl(β)_{b-1} + π_stp - 1")
    h = Hd.vars()
    sel = {b: g.outputs(h)["sel"] for b, g in branches.items()}  # ReLU(v ± π_stp - 1) = 1[π_stp = ±1] v
    transpose = Commutation(m, tex="P_{\\top}")  # A'[bm+a] read at am+b
    w2 = Map("W_2", Hd, L, {
        "cur": sel["cur"] + sel["buf"],
        "nl": sel["cur"] + sel["nl"],
        "par": sel["par"],
        "A": h.A + sel["A'"] + transpose @ sel["A'"],
        "pos": Shift(2 * m - 2, name="S'") @ h.pos,
        "flg": 1,
    }, zero=["stp", "buf"], doc="y_{t+1} = W_2 h': sums the gated blocks; A[am+b] += A'[am+b] + A'[bm+a]; "
                                 "pos advances by S'; stp = 0, buf = 0, flg = 1")
    ffn = FFN(w1, w2, gadgets=tuple(branches.values()))
    return Decoder(name, L, [Layer(Attention([head_u, head_d], w_o), ffn)])


#: The encoding of Algorithm 1's state after ``t`` letters in ``y_t``: ``cur = e_i``, ``nl = e_nl``,
#: ``par = e_{parent}`` after a ``U`` and ``0^m`` otherwise, ``A`` the flattened ``A_w``, ``pos = ê_t`` (``0``
#: once the word is read), ``stp = 0``, ``buf = 0^m``, ``flg = 1``.
ENCODING = StateEncoding({"cur": onehot("i"), "nl": onehot("nl"), "par": onehot("par"), "A": flat("a"),
                          "pos": onehot("cursor"), "stp": const(0), "buf": const(0), "flg": const(1)})


#: ``x_τ = [0^m ‖ 0^m ‖ 0^m ‖ 0^{m²} ‖ ê_τ ‖ q_τ ‖ 0^m ‖ 0]`` (the prompt is the statement's segments, read at ``τ``
#: through :data:`X_VIEWS`: ``q_τ = +1`` for ``U``, ``-1`` for ``D``).
X_TOKEN = StateEncoding({"pos": onehot("tau"), "stp": scalar("q")})
#: ``y_0 = [e_0 ‖ e_0 ‖ 0^m ‖ 0^{m²} ‖ ê_0 ‖ 0 ‖ 0^m ‖ 1]`` (``ê_0`` is empty when ``m = 1``).
Y0_TOKEN = StateEncoding({"cur": onehot("tau"), "nl": onehot("tau"), "pos": onehot("tau"), "flg": const(1)})

# -- the statement for every m (read by the all-n prover, symcot.prove.alln) -------------------------------

#: Head U: "the lowest-indexed of these is the input token x_t"; head D: "the creation token of the current
#: vertex i_t (the y token that first set π_cur = π_cur(y_t))".
CHOICES = (
    Choice(1, "U", lambda c, t: [(True, "x", t)], "the lowest-indexed token whose pos block is ê_t is x_t"),
    Choice(1, "D", lambda c, t: [(True, Y, c.made(c.i(t)))],
           "the lowest-indexed y token with π_cur = π_cur(y_t) is the creation token of i_t"),
)
X_VIEWS = {"tau": lambda c, i: i, "q": lambda c, i: c.ite(c.up(i), 1, -1)}
STATEMENT = AllNStatement(
    ALG1_VOCABULARY, {m: lambda c: c.m},
    (Segment("x", lambda c: c.T, X_TOKEN, X_VIEWS, lambda i: f"x_{i}"),),
    Segment("y_0", lambda c: 1, Y0_TOKEN, {"tau": lambda c, i: 0}, lambda i: "y_0"),
    ENCODING, {}, CHOICES, last_token="all")


class PathToTreeConstruction(Construction):
    """The paper's Algorithm-1 decoder with its input encoding and the proof's head choices.

    Its prompt ``[x_0, …, x_{2m-3}, y_0]`` is the statement's segments.
    """

    encoding = ENCODING
    all_n = STATEMENT

    def __init__(self, decoder: Decoder | None = None, variant: str = "as-written", notes: list[str] | None = None):
        super().__init__("thm:cotpathtotree", variant, decoder or build_decoder(f"thm:cotpathtotree/{variant}"),
                         notes or [])

    def env(self, inp: str) -> dict:
        """``{m: |w|/2 + 1}``."""
        return {m: len(inp) // 2 + 1}

    def validate(self, inp: str) -> None:
        """A Dyck word."""
        validate_dyck(inp)


