r"""thm:cottreestrahler -- the four-layer, two-head decoder computing ``str(G_T)`` during DFS, as written.

Paper: *Chain-of-Thought Shows the Path to a Tree*, Appendix "Realizing str on Trees and Paths", proof of
``thm:cottreestrahler`` (with ``eq:strahM``, ``eq:strahc``, ``eq:gatingTBstrahlertree``); it realises the
fold of ``obs:dynamicstrdfs`` (``eq:dynamicstrdfs``, Section 2.2) on top of the DFS decoder of
``thm:cotdfs`` (:mod:`proofs.cot_path_to_tree.constructions.cotdfs`, whose layers are reused, not copied).

Embedding (``d = 6n + 14``): the nine DFS blocks, then eleven scalars (the proof says "appending ten
scalar blocks" but lists eleven names and writes ``0^{11}``)::

    M ‖ c ‖ M_buf ‖ c_buf ‖ flg4 ‖ tmp_D-1 ‖ tmp_D ‖ tmp_D+1 ‖ tmp_cbuf-1 ‖ tmp_cbuf ‖ tmp_cbuf+1

``x_i`` and ``y_0`` are the DFS tokens with ``0^{11}`` appended; ``x_⊥ = 0^d``; ``λ = 2n - 1`` (the proof's
bound ``λ ≥ 2n - 1``; :class:`StrahlerTreeConstruction` takes another value for the λ sweep).

Layer 1 is the DFS layer 1 (the new blocks kept). Layer 2: head T as in DFS; head B keeps its query
``(1 - π_flg1)·[π_par ‖ π_flg3]`` with keys ``K_B = [λ·π_cur ‖ π_flg4]``, and its value ``V_B`` moves
``M, c`` into ``M_buf, c_buf`` and clears ``M, c``; ``W_O`` adds the DFS routing and ``B.M_buf, B.c_buf``
into ``M_buf, c_buf``. ``W_1^{(2)}``: the DFS map plus ``c ← c - 1``, ``flg4 ← flg4 + 1``,
``tmp_cbuf-1 ← c_buf - 1``. ``W_2^{(2)}``: the DFS parent gate plus ``M ← M + c`` (``= str(v)``) and
``tmp_D-1, tmp_D, tmp_D+1 ← D - 1, D, D + 1`` with ``D = M + c - M_buf``. Layer 3 (trivial attention):
``W_1^{(3)}`` extends the vector by six scalars ``1-D, -D, -D-1, 1-c_u, -c_u, -c_u-1``; ``W_2^{(3)}``
writes ``M ← M + ReLU(-D)`` and the indicators ``1[D>0], 1[D=0], 1[D<0], 1[c_u>0], 1[c_u=0]`` into
``tmp_D-1, tmp_D, tmp_D+1, tmp_cbuf, tmp_cbuf-1``. Layer 4 (trivial attention): ``W_1^{(4)}``:
``M ← M + tmp_D·tmp_cbuf``, ``c ← tmp_D-1·1 + tmp_D·tmp_cbuf-1 + tmp_D+1·c_buf``, resets ``M_buf``,
``c_buf`` and the ``tmp_·`` scalars; ``W_2^{(4)}`` (eq:gatingTBstrahlertree): ``M ← (1 - flg1)·M``,
``c ← (1 - flg1)·c``, ``flg2 ← 0``, ``flg3 ← 1``. Stop rule (DFS): ``π_cur(y_t) = 0^n``.

Interpretive choices (the most literal reading; each is a place a reader could differ):

1. *DFS choices carry over* (:mod:`proofs.cot_path_to_tree.constructions.cotdfs`, choices 1-6): unstated blocks are
   kept,
   "copies" overwrite, the DFS value maps are the identity and ``W_O`` routes, the FFN hidden layers of
   layers 1, 2 and 4 are the model layout, and the CoT stops at ``π_cur = 0^n``.
2. *V_B* "moves the accumulator into the buffers and clears the originals ... and is the identity on every
   other coordinate": ``M_buf ← M``, ``c_buf ← c``, ``M, c ← 0``, every other block kept. ``W_O`` adds
   ``B.M_buf``/``B.c_buf`` to ``M_buf``/``c_buf`` ("the buffers are written by the backtrack head alone")
   and writes nothing into ``M, c, flg4`` or the ``tmp_·`` scalars ("by neither head"). ``V_T`` stays the
   identity and ``W_O`` routes none of its new blocks ("zero on all ten new blocks").
3. *W_2^{(2)}* states ``M`` and ``tmp_D±1, tmp_D`` only; ``c`` keeps ``ReLU(c_v - 1)`` and
   ``tmp_cbuf-1`` keeps ``ReLU(c_u - 1)`` (unstated, kept). ``D`` is formed from ``β'``:
   ``π_M + π_c - π_{M_buf}`` as the text writes it.
4. *Layer 3.* "``W_1^{(3)}`` extends ``y_t^{(2)}`` by six scalar blocks": the hidden layout is the model
   layout (every block kept) followed by ``1-D, -D, -D-1, 1-c_u, -c_u, -c_u-1`` (width ``6n + 20``), with
   ``D = π_{tmp_D}`` and ``c_u = π_{c_buf}``; "the 1s the indicators require are supplied by
   ``π_flg3 = 1``", so the constants there are ``±π_flg3``. The indicators use the printed identities:
   ``1[D=0] = ReLU(D+1) - 2ReLU(D) + ReLU(D-1)`` on ``tmp_D+1, tmp_D, tmp_D-1``;
   ``1[D>0] = ReLU(D) - ReLU(D-1)``; ``1[D<0] = 1[-D>0] = ReLU(-D) - ReLU(-D-1)``;
   ``1[c_u=0] = 1[-c_u=0] = ReLU(1-c_u) - 2ReLU(-c_u) + ReLU(-c_u-1)``;
   ``1[c_u>0] = ReLU(c_u) - ReLU(c_u-1)`` on ``c_buf`` and ``tmp_cbuf-1`` (which layer 2 set to
   ``ReLU(c_u - 1)``). The block ``1-D`` is computed but no identity needs it; ``tmp_cbuf+1`` is never
   written. ``W_2^{(3)}`` keeps every block it does not state.
5. *W_1^{(4)}*: the ``1`` in ``π_{tmp_D-1}·1`` is the constant 1; "resets M_buf, c_buf, and the tmp_·
   blocks" resets the six ``tmp_·`` scalars (the DFS ``tmp`` register is already zero and is kept).
6. *The gate* eq:gatingTBstrahlertree reads ``π_flg1(y_t^{(3)})``; ``W_2^{(4)}`` reads ``β''' =
   ReLU(W_1^{(4)} y_t^{(3)})``, whose ``flg1`` is the same value (kept, in ``{0, 1}``).
7. *What y_t must carry* (the checker's reference,
   :func:`proofs.cot_path_to_tree.algorithms.strahler.strahler_dynamic`):
   the DFS state as in ``thm:cotdfs``; ``(M, c)`` = the fold state of obs:dynamicstrdfs (case form
   eq:dynamicstrdfs) of the current vertex -- ``(0, 0)`` after a traverse, the parent's folded
   accumulator after a backtrack, and after the final backtrack the fold of ``str(s)`` into φ's empty
   accumulator ("this final backtrack folds s under the same invariant"); ``M_buf = c_buf = 0`` and the
   ``tmp_·`` scalars 0 ("zero on every input and generated token"; reset by ``W_1^{(4)}``); ``flg4 = t``.

Erratum (variant ``as-written`` is refuted; see docs/errata/strahler-tree.md). On the final backtrack
``π_par(y_t) = 0^n`` (the root has parent φ), so the query is ``[0^n ‖ π_flg3] = [0^n ‖ 1]`` and every
score is the key's timestamp ``π_flg4``: head B selects the current token itself, ``y_{2n-2}``, whose
accumulator is the root's own, not φ's empty one. The sentence at fault:

    "while the constant π_{flg_3}(y_t^{(1)}) = 1 admits π_{flg_4}(α) into the score with unit weight"

together with "this final backtrack folds s under the same invariant, giving π_M(y_{2n-1}) = str(s)":
the final step folds ``str(s)`` into the root's own ``(M_s, c_s)``, where ``D = 0``, and returns
``M_s + 1[c_s > 0]``, one too many whenever one child of the root attains its maximum (``c_s = 1``).

Variant ``repaired``: the query's second component is ``(1 - π_flg1)·1ᵀπ_par`` instead of
``(1 - π_flg1)·π_flg3``. It equals 1 whenever a parent exists (so every other step is unchanged), and 0 on
the final backtrack, where the whole query vanishes and the head defaults to ``x_⊥ = 0^d`` (empty
accumulator; ``π_cur`` still becomes ``0^n``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.strahler import StrahlerState, ind
from proofs.cot_path_to_tree.algorithms.strahler_facts import VOCABULARY as TREE_VOCABULARY
from proofs.cot_path_to_tree.algorithms.strahler_facts import str_of
from proofs.cot_path_to_tree.constructions.cotdfs import CHOICES as DFS_CHOICES
from proofs.cot_path_to_tree.constructions.cotdfs import CUTS as DFS_CUTS
from proofs.cot_path_to_tree.constructions.cotdfs import ENCODING as DFS_ENCODING
from proofs.cot_path_to_tree.constructions.cotdfs import SEGMENTS as DFS_SEGMENTS
from proofs.cot_path_to_tree.constructions.cotdfs import STOP as DFS_STOP
from proofs.cot_path_to_tree.constructions.cotdfs import TOKEN as DFS_TOKEN
from proofs.cot_path_to_tree.constructions.cotdfs import (
    TOKEN_VIEWS,
    W_O_DOC,
    DfsSizes,
    backtrack_head,
    backtrack_key_layout,
    layer1,
    par_gate,
    stated,
    traverse_head,
    w1_2_assign,
    w_o_assign,
)
from proofs.cot_path_to_tree.constructions.cotdfs import Y0_SEGMENT as DFS_Y0
from proofs.cot_path_to_tree.constructions.cotdfs import layout as dfs_layout
from proofs.cot_path_to_tree.gadgets import (
    Gadget,
    fold,
    ind_pos,
    ind_pos_at,
    ind_zero,
    ind_zero_at,
    merge_units,
    traverse_gate,
)
from symcot.constructions.alln import AllNStatement, Choice, Y
from symcot.constructions.base import Construction, Expectation
from symcot.constructions.encoding import LambdaRule, StateEncoding, const, scalar
from symcot.constructions.readings import Reading, as_written, repair
from symcot.errors import InvalidInputError
from symcot.inputs.graphs import Digraph
from symcot.inputs.trees import validate_tree
from symcot.ir import Layout, Map, lam, n
from symcot.model import FFN, Attention, Decoder, Layer, value_space

#: The eleven appended scalar blocks, in the proof's order.
NEW_BLOCKS = ["M", "c", "M_buf", "c_buf", "flg4", "tmp_D-1", "tmp_D", "tmp_D+1", "tmp_cbuf-1", "tmp_cbuf",
              "tmp_cbuf+1"]
TMP_BLOCKS = NEW_BLOCKS[5:]
#: The six scalars ``W_1^{(3)}`` appends to the hidden layer of layer 3.
LAYER3_EXTRA = ["1-D", "-D", "-D-1", "1-c_u", "-c_u", "-c_u-1"]
#: d = 6n + 14, as stated in the proof.
PAPER_D = 6 * n + 14
VARIANTS = ("as-written", "repaired")
#: The variants (``symcot claims`` lists them with their verdicts).
READINGS: dict[str, Reading] = {
    "as-written": as_written("the proof's four layers; head B's query [(1 - π_flg1)·π_par ‖ (1 - π_flg1)·π_flg3]"),
    "repaired": repair("head B's query second component (1 - π_flg1)·1ᵀπ_par instead of (1 - π_flg1)·π_flg3: it "
                       "vanishes on the final backtrack"),
}


def layout() -> Layout:
    """The DFS layout with the eleven scalar blocks appended (``d = 6n + 14``)."""
    return dfs_layout("strahler_tree", [(b, 1) for b in NEW_BLOCKS])


def build_decoder(variant: str = "as-written") -> Decoder:
    """The decoder of the proof of ``thm:cottreestrahler`` (``as-written``) or its ``repaired`` variant."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    L = layout()
    x = L.vars()

    # Layer 2: head T as in DFS; head B with the timestamp key and the accumulator-moving value.
    kb = backtrack_key_layout()
    if variant == "as-written":
        q_b = Map("Q_B^{(2)}", L, kb, {"v": (1 - x.flg1) * x.par, "f": (1 - x.flg1) * x.flg3},
                  doc="(1 - π_flg1)·[π_par ‖ π_flg3] (retained from thm:cotdfs)")
    else:
        q_b = Map("Q_B^{(2)}", L, kb, {"v": (1 - x.flg1) * x.par, "f": (1 - x.flg1) * x.par.sum()},
                  doc="repaired: (1 - π_flg1)·[π_par ‖ 1ᵀπ_par]; vanishes on the final backtrack")
    k_b = Map("K_B^{(2)}", L, kb, {"v": lam * x.cur, "f": x.flg4}, max_degree=1, doc="[λ·π_cur ‖ π_flg4]")
    v_b = stated("V_B^{(2)}", L, L, {"M_buf": x.M, "c_buf": x.c}, zero=["M", "c"], max_degree=1,
                 doc="moves the accumulator into the buffers and clears the originals; identity elsewhere")
    head_t, head_b = traverse_head(L), backtrack_head(L, query=q_b, key=k_b, value=v_b)
    vs = value_space([head_t, head_b])
    o = vs.vars()
    w_o = stated("W_O^{(2)}", vs, L, {**w_o_assign(o), "M_buf": o["B.M_buf"], "c_buf": o["B.c_buf"]},
                 zero=["nbr", "buf", "flg1", "flg2", "flg3", "M", "c", "flg4", *TMP_BLOCKS], max_degree=1,
                 doc=W_O_DOC + "; the buffers receive α'_B's accumulator")
    assign, zero = w1_2_assign(x)
    w1_2 = stated("W_1^{(2)}", L, L, {**assign, "c": x.c - 1, "flg4": x.flg4 + 1, "tmp_cbuf-1": x.c_buf - 1},
                  zero=zero, max_degree=1,
                  doc="DFS W_1^{(2)}; c ← c - 1, flg4 ← flg4 + 1, tmp_{c_buf-1} ← c_buf - 1")
    d_expr = x.M + x.c - x.M_buf  # π_M(β') + π_c(β') - π_{M_buf}(β') = str(v) - M_u = D
    gate2 = par_gate(x)
    w2_2 = stated("W_2^{(2)}", L, L, {**gate2.w2(), "M": x.M + x.c, "tmp_D-1": d_expr - 1, "tmp_D": d_expr,
                                      "tmp_D+1": d_expr + 1},
                  doc="DFS parent gate; M ← M + c = str(v); tmp_{D-1}, tmp_D, tmp_{D+1} ← D - 1, D, D + 1")
    layer2 = Layer(Attention([head_t, head_b], w_o), FFN(w1_2, w2_2, gadgets=(gate2,)))

    # Layer 3: trivial attention; indicators of D and c_u through the printed ReLU identities.
    h3 = Layout("strahler_tree.hidden3", [(b.name, b.size) for b in L.blocks] + [(b, 1) for b in LAYER3_EXTRA])
    one = x.flg3  # "The 1s the indicators require are supplied by π_flg3 = 1."
    indicators = layer3_indicators(x, one)
    units = merge_units(*indicators)
    w1_3 = Map("W_1^{(3)}", L, h3, {**units, "1-D": one - x.tmp_D}, keep=[b for b in L.names if b not in units],
               max_degree=1, doc="extends y_t^{(2)} by 1-D, -D, -D-1, 1-c_u, -c_u, -c_u-1")
    h = h3.vars()
    written = {b: e for g in indicators for b, e in g.w2(h).items()}
    w2_3 = Map("W_2^{(3)}", h3, L, {"M": h.M + h["-D"], **written},  # M: max(str(v), M_u)
               keep=[b for b in L.names if b != "M" and b not in written],
               max_degree=1, doc="M ← M + ReLU(-D); indicators 1[D>0], 1[D=0], 1[D<0], 1[c_u>0], 1[c_u=0]")
    layer3 = Layer(None, FFN(w1_3, w2_3, gadgets=indicators))

    # Layer 4: trivial attention; the bilinear fold and the traverse gate eq:gatingTBstrahlertree.
    m_hat, c_hat = fold(x.M, x["tmp_D-1"], x["tmp_D"], x["tmp_D+1"], x["tmp_cbuf"], x["tmp_cbuf-1"], x.c_buf)
    gate4 = traverse_gate(x.flg1, m_hat, c_hat)
    w1_4 = stated("W_1^{(4)}", L, L, gate4.w1(), zero=["M_buf", "c_buf", *TMP_BLOCKS],
                  doc="M ← M + tmp_D tmp_{c_buf}; c ← tmp_{D-1}·1 + tmp_D tmp_{c_buf-1} + tmp_{D+1} c_buf; "
                      "resets buffers")
    w2_4 = stated("W_2^{(4)}", L, L, gate4.w2(x), zero=gate4.zero(x),
                  doc="eq:gatingTBstrahlertree: M, c ← (1 - π_flg1)·M, c; flg2 = 0, flg3 = 1")
    layer4 = Layer(None, FFN(w1_4, w2_4, gadgets=(gate4,)))
    return Decoder(f"thm:cottreestrahler/{variant}", L, [layer1(L), layer2, layer3, layer4])


def layer3_indicators(x: Any, one: Any) -> tuple[Gadget, ...]:
    """The five indicators of layer 3 (choice 4), as gadgets on the blocks of ``x`` (``one`` is ``π_flg3``).

    ``1[D=0]`` and ``1[D>0]`` read ``tmp_{D+1}, tmp_D, tmp_{D-1}`` (``D + 1, D, D - 1`` from layer 2, kept by
    ``W_1^{(3)}``); ``1[D<0] = 1[-D > 0]`` and ``1[c_u=0] = 1[-c_u = 0]`` write their shifted copies into the
    new units; ``1[c_u>0]`` reads ``c_buf`` and ``tmp_{c_buf-1}`` (``ReLU(c_u - 1)`` from layer 2).
    """
    return (
        ind_zero(x["tmp_D+1"], x.tmp_D, x["tmp_D-1"], units=("tmp_D+1", "tmp_D", "tmp_D-1"), writes={"ind": "tmp_D"}),
        ind_pos(x.tmp_D, x["tmp_D-1"], units=("tmp_D", "tmp_D-1"), writes={"ind": "tmp_D-1"}),
        ind_pos_at(-x.tmp_D, one, units=("-D", "-D-1"), writes={"ind": "tmp_D+1"}),
        ind_pos(x.c_buf, x["tmp_cbuf-1"], units=("c_buf", "tmp_cbuf-1"), writes={"ind": "tmp_cbuf"}),
        ind_zero_at(-x.c_buf, one, units=("1-c_u", "-c_u", "-c_u-1"), writes={"ind": "tmp_cbuf-1"}),
    )


def validate(g: Digraph, root: int) -> None:
    """The theorem's domain: a tree (symmetric, connected, ``n - 1`` edges) with a root vertex."""
    if not isinstance(g, Digraph):
        raise InvalidInputError(f"thm:cottreestrahler takes a tree as a Digraph, got {type(g).__name__}")
    if g.weighted and any(w != 1 for w in g.weights or ()):
        raise InvalidInputError("thm:cottreestrahler uses A ∈ {0,1}^{n×n}: weights other than 1 are outside its domain")
    validate_tree(g, root)


#: What ``y_t`` must carry (choice 7): the DFS ``enc``, the fold's ``(M, c)``, empty buffers and scratch
#: ("zero on every input and generated token"), and the timestamp ``flg4 = t``.
ENCODING = DFS_ENCODING.extended(M=scalar("acc_m"), c=scalar("acc_c"), M_buf=const(0), c_buf=const(0),
                                 flg4=scalar("t"), **{b: const(0) for b in TMP_BLOCKS})
#: "the constant λ ≥ 2n - 1 exceeds every attainable timestamp"; the proof's bound is the construction's λ.
LAMBDA_RULE = LambdaRule(2 * n - 1, "proof of thm:cottreestrahler: \"the constant λ ≥ 2n - 1 exceeds every "
                         "attainable timestamp\"", "λ = 2n - 1")


# -- the statement for every n (read by the all-n prover, symcot.prove.alln) -------------------------------

def _u(c: Any, t: Any) -> Any:
    """The parent of the current vertex (where a backtrack goes)."""
    return c.par(t, c.cur(t))


def _bt(c: Any, t: Any) -> Any:
    """A backtrack into a parent (not the final one)."""
    return c.and_(c.not_(c.tr(t)), _u(c, t) != -1)


def _m_u(c: Any, t: Any) -> Any:
    return c.ite(_bt(c, t), c.accM(c.last(t, _u(c, t))), 0)


def _c_u(c: Any, t: Any) -> Any:
    return c.ite(_bt(c, t), c.accC(c.last(t, _u(c, t))), 0)


def _d(c: Any, t: Any) -> Any:
    return str_of(c, c.accM(t), c.accC(t)) - _m_u(c, t)


#: Views of step ``τ`` (producing ``y_{τ+1}``): the parent's accumulator ``(M_u, c_u)`` as the head reads it
#: (``(0, 0)`` unless the step backtracks into a parent), ``str(v)``, ``D = str(v) - M_u`` and the indicators.
TREE_VIEWS = {
    **TOKEN_VIEWS,
    "stamp": lambda c, t: t + 1,
    "m_u": _m_u, "c_u": _c_u,
    "str_v": lambda c, t: str_of(c, c.accM(t), c.accC(t)),
    "d_minus": lambda c, t: _d(c, t) - 1, "d": _d, "d_plus": lambda c, t: _d(c, t) + 1,
    "zero": lambda c, t: 0,
    "m_max": lambda c, t: c.ite(_d(c, t) >= 0, str_of(c, c.accM(t), c.accC(t)), _m_u(c, t)),
    "ind_d_pos": lambda c, t: c.ite(_d(c, t) > 0, 1, 0), "ind_d_zero": lambda c, t: c.ite(_d(c, t) == 0, 1, 0),
    "ind_d_neg": lambda c, t: c.ite(_d(c, t) < 0, 1, 0),
    "ind_cu_pos": lambda c, t: c.ite(_c_u(c, t) > 0, 1, 0), "ind_cu_zero": lambda c, t: c.ite(_c_u(c, t) == 0, 1, 0),
}
#: Every block of ``y_τ``: the DFS token and the fold's ``(M, c)``, empty buffers and scratch, ``flg4 = τ``.
TOKEN = ENCODING.extended(**{b: t for b, t in DFS_TOKEN.blocks.items() if b not in ENCODING.blocks})
#: The proof's values inside step ``τ``: layer 1 as in thm:cotdfs; after layer 2 "π_flg4 = t", the buffers hold
#: the parent's accumulator, "π_M(y_t^(2)) = str(v)" and D - 1, D, D + 1; after layer 3 "π_M(y_t^(3)) =
#: max(str(v), M_u)" and the five indicators.
CUTS = {
    1: DFS_CUTS[1],
    2: StateEncoding({"flg4": scalar("stamp"), "M_buf": scalar("m_u"), "c_buf": scalar("c_u"), "M": scalar("str_v"),
                      "c": scalar("zero"), "tmp_D-1": scalar("d_minus"), "tmp_D": scalar("d"),
                      "tmp_D+1": scalar("d_plus"), "tmp_cbuf-1": scalar("zero")}),
    3: StateEncoding({"M": scalar("m_max"), "tmp_D-1": scalar("ind_d_pos"), "tmp_D": scalar("ind_d_zero"),
                      "tmp_D+1": scalar("ind_d_neg"), "tmp_cbuf": scalar("ind_cu_pos"),
                      "tmp_cbuf-1": scalar("ind_cu_zero")}),
}
#: Head B: x_⊥ on a traverse; on the final backtrack (the repaired query vanishes) x_⊥, φ's empty accumulator;
#: otherwise "the token of greatest timestamp among the occurrences of the parent" (x_u when that is y_0,
#: which ties with it at timestamp 0).
CHOICES = (
    DFS_CHOICES[0],
    Choice(2, "B", lambda c, t: [(c.tr(t), "x_⊥", 0), (_u(c, t) == -1, "x_⊥", 0),
                                 (c.last(t, _u(c, t)) == 0, "x", _u(c, t)), (True, Y, c.last(t, _u(c, t)))],
           "the head resolves the token of greatest timestamp among the occurrences of the parent; on the final "
           "backtrack the (repaired) query vanishes and it defaults to x_⊥"),
)
STATEMENT = AllNStatement(TREE_VOCABULARY, {n: lambda c: c.n}, DFS_SEGMENTS, DFS_Y0, TOKEN, TREE_VIEWS, CHOICES, CUTS,
                          notes=("the statement of the repaired proof: the final backtrack folds str(s) into φ's "
                                 "empty accumulator",))


class StrahlerTreeConstruction(DfsSizes, Construction):
    """The Strahler decoder with the paper's input encoding and the proof's per-layer invariants.

    Args:
        variant: ``as-written`` or ``repaired`` (see the module docstring).

    """

    encoding = ENCODING
    stop = DFS_STOP
    lam_rule = LAMBDA_RULE
    all_n = STATEMENT

    def __init__(self, variant: str = "as-written", notes: list[str] | None = None):
        default_notes = {
            "as-written": ["transcribed as written; interpretive choices in constructions/cottreestrahler.py"],
            "repaired": ["repair: Q_B's second component is (1 - π_flg1)·1ᵀπ_par instead of (1 - π_flg1)·π_flg3, "
                         "so the final backtrack selects x_⊥ (φ's empty accumulator)"],
        }
        super().__init__("thm:cottreestrahler", variant, build_decoder(variant),
                         notes if notes is not None else default_notes.get(variant, []))

    def validate(self, inp: tuple[Digraph, int]) -> None:
        """A tree with a root."""
        validate(*inp)

    def invariants(self, inp: tuple[Digraph, int], states: Sequence[StrahlerState], t: int) -> list[Expectation]:
        """The proof's claims inside step ``t``: DFS flags and heads, buffers, ``str(v)``, ``D`` and indicators."""
        g, _s = inp
        before, after = states[t - 1], states[t]
        traverse = after.dfs.move == "traverse"
        nv = g.n
        e = lambda i: [0] * nv if i is None else [1 if j == i else 0 for j in range(nv)]  # noqa: E731
        out = [
            Expectation(1, "block", "flg1", [1 if traverse else 0],
                        "π_flg1(y_t^(1)) is 1 on a traverse, 0 on a backtrack"),
            Expectation(1, "block", "buf", e(before.dfs.cur), "layer 1 copies π_cur(y_t) into the buffer"),
            Expectation(2, "head", "T", f"x_{after.dfs.cur}" if traverse else "x_⊥",
                        "the traverse head acts exactly as in thm:cotdfs"),
            Expectation(2, "block", "flg4", [t], "π_flg4(W_1^(2) β) = π_flg4(β) + 1"),
        ]
        if traverse:
            out += [Expectation(2, "head", "B", "x_⊥", "on a traverse the backtrack query vanishes"),
                    Expectation(2, "block", "M_buf", [0], "on a traverse ... the buffers stay empty"),
                    Expectation(2, "block", "c_buf", [0], "on a traverse ... the buffers stay empty")]
            return out
        u = after.dfs.cur
        if u is not None:
            last = max(k for k in range(t) if states[k].dfs.cur == u)
            # Occurrences of u: x_u (timestamp 0) and every y_k with π_cur = e_u. Timestamps order the y's; the
            # one at k = 0 (y_0) ties with x_u, and unique hard attention then takes x_u (smaller index).
            want = f"x_{u}" if last == 0 else f"y_{last}"
            out.append(Expectation(2, "head", "B", want,
                                   "the head resolves the token of greatest timestamp among the occurrences of the "
                                   "parent (x_u and y_0 share timestamp 0; the smaller index wins)"))
        assert after.parent_before is not None and after.child_str is not None
        m_u, c_u = after.parent_before
        s_v = after.child_str
        d = s_v - m_u
        src2 = ("the buffers hold the accumulator of its parent" if u is not None else
                "this final backtrack folds s under the same invariant (φ's accumulator is empty)")
        out += [
            Expectation(2, "block", "M_buf", [m_u], src2),
            Expectation(2, "block", "c_buf", [c_u], src2),
            Expectation(2, "block", "M", [s_v], "π_M(y_t^(2)) = M_v + 1[c_v ≥ 2] = str(v)"),
            Expectation(2, "block", "tmp_D-1", [d - 1], "π_{tmp_{D-1}}(y_t^(2)) = D - 1"),
            Expectation(2, "block", "tmp_D", [d], "π_{tmp_D}(y_t^(2)) = D"),
            Expectation(2, "block", "tmp_D+1", [d + 1], "π_{tmp_{D+1}}(y_t^(2)) = D + 1"),
            Expectation(3, "block", "M", [max(s_v, m_u)], "π_M(y_t^(3)) = max(str(v), M_u)"),
            Expectation(3, "block", "tmp_D-1", [ind(d > 0)], "π_{tmp_{D-1}}(y_t^(3)) = 1[D>0]"),
            Expectation(3, "block", "tmp_D", [ind(d == 0)], "π_{tmp_D}(y_t^(3)) = 1[D=0]"),
            Expectation(3, "block", "tmp_D+1", [ind(d < 0)], "π_{tmp_{D+1}}(y_t^(3)) = 1[D<0]"),
            Expectation(3, "block", "tmp_cbuf", [ind(c_u > 0)], "π_{tmp_{c_buf}}(y_t^(3)) = 1[c_u>0]"),
            Expectation(3, "block", "tmp_cbuf-1", [ind(c_u == 0)], "π_{tmp_{c_buf-1}}(y_t^(3)) = 1[c_u=0]"),
        ]
        return out


