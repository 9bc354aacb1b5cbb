r"""thm:cotpathstrahler -- the four-layer, one-head decoder computing str(ψ(w)) on a Dyck word: a completion.

Paper: *Chain-of-Thought Shows the Path to a Tree*, Appendix "Realizing str on Trees and Paths"
(``app:cotstr``): the proof sketch of ``thm:cotpathstrahler`` with ``obs:strpathtwoMc``,
``lem:shiftonehot`` (layer 1) and ``lem:mMc`` (layer 4), and, for layers 2--4, the proof of
``thm:cottreestrahler`` that it says it follows (realizing ``eq:dynamicstrdfs``). ``n = |w|``.

The text is a sketch ("we shall provide the construction up to the second layer alone and the last layer
partially. The proof thereon follows thm:cottreestrahler"). This module is the most faithful completion
found; every block and formula the text states is used as stated, and what had to be chosen or invented
is listed below.

Embedding (``d = 3n + 15``), blocks in the paper's order::

    x_τ = [e_τ ‖ τ+1 ‖ 0 ‖ q_τ ‖ 0 ‖ e_{s_τ} ‖ 0^n ‖ 0^4 ‖ 0 ‖ 0^6]
    y_0 = [e_0 ‖ 1   ‖ 0 ‖ 1   ‖ 0 ‖ e_0     ‖ 0^n ‖ 0^4 ‖ 1 ‖ 0^6]
    blocks: pos, pos_sc, tmp_pos_sc, q, tmp_q, ht, tmp_ht, (M, c, M_buf, c_buf), flg,
            (tmp_{D-1}, tmp_D, tmp_{D+1}, tmp_{c_buf-1}, tmp_{c_buf}, tmp_{c_buf+1})

The prompt is ``[x_0, …, x_{n-1}, y_0]``; ``y_t`` stands for the point ``(t, s_t)`` of the path and carries the
accumulator ``(M, c)`` of the vertex there; ``str(ψ(w)) = π_M(y_n) + 1[π_c(y_n) ≥ 2]``.

*Layer 1* (as written). Head ``read``: ``Q^{(1)} = S π_pos``, ``K = π_pos``: it selects ``x_{t+1}`` (``x_0``, by
the all-zero tie, at the last step where ``S e_{n-1} = 0``); its value is ``π_pos ← -π_pos(α')``,
``π_{tmp_pos_sc} ← π_{pos_sc}(α')``, ``π_{tmp_q} ← π_q(α')`` and 0 elsewhere; ``W_O^{(1)}`` is the identity.
``W_1^{(1)}`` negates ``pos`` (so ``ReLU`` leaves ``S π_pos(y_t)``) and is lem:shiftonehot's ``W_1`` (hidden
``ReLU(m)``, ``ReLU(-m)``, ``ReLU(h)``, ``ReLU(m/2 + S_R h - 1/2)``, ``ReLU(-m/2 + S_L h - 1/2)``) with
``h = π_ht``; ``W_2^{(1)}`` writes ``h' = S_R h`` or ``S_L h`` into ``tmp_ht`` (:func:`symcot.gadgets.shiftonehot`).

*Layer 2* (as written). Head ``par``: ``Q^{(2)} = [π_{tmp_ht} ‖ π_flg]``, ``K^{(2)} = [λ π_ht ‖ π_{pos_sc}]``
with ``λ > n + 1``; value ``π_{M_buf} ← π_M(α')``, ``π_{c_buf} ← π_c(α')``, ``π_M ← 0``, ``π_c ← 0``. FFN:
thm:cottreestrahler's ``W_1^{(2)}`` (``c ← c - 1``, ``tmp_{c_buf-1} ← c_buf - 1``) and ``W_2^{(2)}`` (``M ← M + c``,
``tmp_{D-1}, tmp_D, tmp_{D+1} ← D - 1, D, D + 1`` with ``D = M + c - M_buf``).

*Layer 3* (thm:cottreestrahler): trivial attention; ``W_1^{(3)}`` adds the six units ``1 - D, -D, -D - 1,
1 - c_u, -c_u, -c_u - 1`` (the 1s from ``π_flg``); ``W_2^{(3)}`` writes ``M ← M + ReLU(-D)``,
``tmp_{D-1} ← 1[D>0]``, ``tmp_D ← 1[D=0]``, ``tmp_{D+1} ← 1[D<0]``, ``tmp_{c_buf} ← 1[c_u>0]``,
``tmp_{c_buf-1} ← 1[c_u=0]``.

*Layer 4*: trivial attention; ``W_1^{(4)}`` is thm:cottreestrahler's bilinear fold
``M_f = M + tmp_D tmp_{c_buf}``, ``c_f = tmp_{D-1} + tmp_D tmp_{c_buf-1} + tmp_{D+1} c_buf`` composed with lem:mMc's
``W_1`` on ``[q ‖ M_f ‖ c_f]`` (units ``ReLU(±q)``, ``ReLU(M_f)``, ``ReLU(M_f + λq/2 - λ/2)``, ``ReLU(c_f)``,
``ReLU(c_f + λq/2 - λ/2)``); ``W_2^{(4)}`` is lem:mMc's ``W_2`` (``M = ReLU(M_f) - ReLU(M_f + λq/2 - λ/2)``, the same
for ``c``) -- "dissolving the gating eq:gatingTBstrahlertree in W_2^{(4)}" -- and "nullif[ies] all temporary
positions along with the buffers M_buf and c_buf". The fold is :func:`symcot.gadgets.fold` (the tree decoder's),
lem:mMc's network :func:`symcot.gadgets.mmc`.

Variants (the readings of choices 1--3 are in :data:`OPTIONS` and :data:`READINGS`):

* ``as-written`` -- the completion above.
* ``repaired`` -- the same with the layer-2 key ``K^{(2)} α = [λ π_flg(α) π_ht(α) ‖ π_{pos_sc}(α)]``: the input
  tokens ``x_τ`` carry ``π_ht = e_{s_τ}`` and ``π_{pos_sc} = τ + 1`` for *every* ``τ``, future positions included,
  so under the printed key (and the layer-4 commit of choice 3) the last input token at the parent's height
  outscores every generated token (and input tokens carry ``M = c = 0``). With the gate ``π_flg`` only generated
  tokens get the ``λ`` term.
* ``…pos-sc-layer-1`` -- each variant above and below (``pos-sc-layer-1`` for ``as-written``) with
  ``pos_sc ← tmp_pos_sc`` committed in layer 1 instead of layer 4 (choice 3).

Choices where the text admits several readings:

1. *Which letter ``q_τ`` is* (:mod:`proofs.cot_path_to_tree.constructions.pathsteps`). As written (the transcription)
   ``x_τ``
   carries the letter ``w_τ`` (``q_τ = s_{τ+1} - s_τ``, the step leaving the point ``τ``), as in
   thm:cotpathtotree. Then ``y_0`` as printed is ``x_0`` with ``flg = 1`` (``q = 1 = w_0`` for every non-empty
   word, ``π_{pos_sc} = 1``, ``π_ht = e_{s_0}``), and ``y_t`` carries the letter processed at step ``t + 1``.
   obs:strpathtwoMc writes ``q_τ = s_τ - s_{τ-1}``: the variants ``q-literal…`` take it as printed, ``x_0``
   carrying ``q_0 = 0``; then step ``t`` reads ``x_t = q_t``, the step it takes, through the printed shifted
   query, ``π_q(y_t)`` commits ``q_t``, and no input token holds the last step (step ``n`` reads ``x_0``).
2. *The lemmas' m* (``Options.m_block``). The text makes ``tmp_q`` the placeholder for lem:shiftonehot's ``m``,
   and lem:mMc's ``m`` "the block q in y_t^{(4)}", the value the step commits to ``q`` (``tmp_q``). Under the
   letter reading ``tmp_q`` holds the *next* letter ``w_{t+1}`` read from ``x_{t+1}``, and the shift that gives
   ``s_{t+1}`` is by the current letter ``π_q(y_t) = w_t``; so as written ``m = π_q`` for both lemmas, the one
   formula of the sketch not used as printed (the variant ``tmp-q`` uses it as printed). Under the printed
   ``q_τ`` it is the other way round: ``tmp_q`` holds the step being taken, and ``m = tmp_q`` is right.
3. *The commit* (``Options.pos_sc_commit``). No sentence writes ``ht ← tmp_ht``, ``q ← tmp_q`` or
   ``pos_sc ← tmp_pos_sc``: layer 1 fills the auxiliaries ("π_{tmp_pos_sc}(α'') = π_{pos_sc}(α')"), and
   ``W_2^{(4)}`` "produces y_{t+1} by nullifying all temporary positions along with the buffers", so each commit
   is invented and falls between layer 1's FFN and ``W_2^{(4)}``. ``ht`` and ``q`` are committed by ``W_2^{(4)}``:
   layer 2 needs ``π_ht(y_t^{(1)})^⊤ π_{tmp_ht}(y_t^{(1)}) = 0`` (an earlier ``ht`` commit would let the current
   token match itself), and lem:mMc reads its ``m`` in layer 4 (choice 2); lem:mMc's own ``m`` output is not
   used. ``pos_sc`` is read only by layer 1's value (on the tokens themselves) and by layer 2's key (on the
   layer-1 outputs), so a commit in the FFN of layer 2, 3 or 4 gives the same run and the one distinction is
   layer 1 against later. Two readings:

   * ``layer-4`` (the default) -- ``W_2^{(4)}`` commits ``pos_sc`` with ``ht`` and ``q``, as the sentence "with
     the exception of the block flg, all updates and value assignments within the constituent blocks of
     y_t^{(1)} are carried out in auxiliary blocks" asks. Every token's layer-1 output keeps its own
     ``π_{pos_sc}``: ``x_τ^{(1)}`` and ``y_τ^{(1)}`` both carry ``τ + 1`` at the height ``s_τ``.
   * ``layer-1`` -- ``W_2^{(1)}`` writes ``pos_sc ← tmp_pos_sc`` (``tmp_pos_sc`` kept until ``W_2^{(4)}``
     nullifies it), as the same paragraph does with the actual block ``pos`` ("the block pos will register
     S π_pos(y_t)"), against its own "auxiliary blocks" sentence. Every token passes through every layer
     causally (:mod:`symcot.model.semantics`, rule 4): an input token's layer-1 read (query ``e_{τ+1}`` over
     ``x_0 … x_τ``, every score 0) falls back to ``x_0``, so every ``x_τ^{(1)}`` carries ``π_{pos_sc} = 1``, and
     ``y_i^{(1)}`` carries ``i + 2`` (``i < n - 1``). Under the printed key a generated token at the parent's
     height then scores ``λ + i + 2 > λ + 1``, above every input token, and the last one wins (the verdicts
     of both commits under every reading: docs/errata/paths.md).
4. *Keeping blocks through ReLU* (invented). A block that a layer keeps and that can be negative (``q`` and
   ``tmp_q``, in ``{-1, 1}``) passes an FFN as ``ReLU(x) - ReLU(-x)`` (two hidden units), as lem:mMc does for
   ``m`` (:func:`symcot.gadgets.signed_pass`); non-negative kept blocks use one unit each.
5. *Value maps* carry only the blocks the text lists (0 elsewhere) and ``W_O^{(k)}`` is the identity, so
   the residual adds them to ``y_t``; layers 3 and 4 have ``W_O = 0``.
6. *Constants.* ``λ`` is one constant ``λ = n + 2`` for both the layer-2 key (``λ > n + 1``) and lem:mMc (any
   ``λ`` at least the largest ``M``, ``c``; the footnote's bound ``log2(n/2 + 3)`` is far smaller). The 1s of
   layer 3 come from ``π_flg`` ("supplied by π_flg3 = 1", with ``flg`` in place of ``flg_3``); layer 2 uses
   the constant 1 of its affine maps, as thm:cottreestrahler writes ``π_c(β) - 1``.
7. *Layer 3's indicators* (:func:`layer3_indicators`). ``1[D>0] = ReLU(D) - ReLU(D-1)`` (tmp blocks),
   ``1[D=0] = ReLU(1-D) - 2ReLU(-D) + ReLU(-D-1)`` and ``1[D<0] = ReLU(-D) - ReLU(-D-1)`` (new units),
   ``1[c_u>0] = ReLU(c_u) - ReLU(c_u - 1)``, ``1[c_u=0] = ReLU(1-c_u) - 2ReLU(-c_u) + ReLU(-c_u-1)``.
   ``tmp_{D+1}`` and ``tmp_{c_buf+1}`` end up unused (thm:cottreestrahler never reads ``tmp_{c_buf+1}``
   either).
8. *Blocks the text leaves open.* ``π_c`` after layer 2 keeps ``ReLU(c - 1)`` (nothing reads it later);
   ``M_buf`` is kept until ``W_2^{(4)}``; ``flg`` is never changed. The ``tmp_flg`` the text mentions has no
   block in the stated layout and is not used.
9. *Steps.* Exactly ``n`` steps, no stop rule. ``pos``, ``pos_sc`` and ``q`` of ``y_n`` come from ``x_0`` (the
   query ``S e_{n-1} = 0`` ties everywhere) and are not part of the claim. The empty word is outside the
   family (``e_0`` needs ``n ≥ 1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from proofs.cot_path_to_tree.algorithms.alg1_facts import height
from proofs.cot_path_to_tree.algorithms.paths import FoldState
from proofs.cot_path_to_tree.algorithms.pathstrahler_facts import VOCABULARY as FOLD_VOCABULARY
from proofs.cot_path_to_tree.algorithms.pathstrahler_facts import parent_point, str_at
from proofs.cot_path_to_tree.constructions.pathsteps import LETTER, LITERAL, LITERAL_LAST, StepReading, letter_step, x_q
from proofs.cot_path_to_tree.gadgets import (
    Gadget,
    fold,
    ind_pos,
    ind_pos_at,
    ind_zero_at,
    merge_units,
    mmc,
    shiftonehot,
    signed_pass,
)
from symcot.constructions.alln import AllNStatement, Choice, PromptStatement, Segment, Y
from symcot.constructions.base import Construction, Expectation, onehot_list
from symcot.constructions.encoding import LambdaRule, StateEncoding, const, onehot, scalar
from symcot.constructions.readings import Reading, as_written, reading, repair
from symcot.errors import InvalidInputError
from symcot.inputs.dyck import UP, validate_dyck
from symcot.ir import Layout, Map, Shift, lam, n
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space

TMPS = ["tmp_D-1", "tmp_D", "tmp_D+1", "tmp_c_buf-1", "tmp_c_buf", "tmp_c_buf+1"]
BLOCKS = ["pos", "pos_sc", "tmp_pos_sc", "q", "tmp_q", "ht", "tmp_ht", "M", "c", "M_buf", "c_buf", "flg", *TMPS]
VECTOR = {"pos", "ht", "tmp_ht"}
SIGNED = {"q", "tmp_q"}  # blocks in {-1, 1} that must cross a ReLU as ReLU(x) - ReLU(-x)
#: d = 3n + 15, as stated in the proof.
PAPER_D = 3 * n + 15


@dataclass(frozen=True)
class Options:
    """What a variant reads or repairs: the steps, the lemmas' ``m``, the layer-2 key, the ``pos_sc`` commit."""

    steps: StepReading
    m_block: Literal["q", "tmp_q"]  # lem:shiftonehot's and lem:mMc's m (choice 2)
    key_gated: bool  # K^{(2)} = [λ π_flg π_ht ‖ π_pos_sc] (the repair) instead of [λ π_ht ‖ π_pos_sc]
    pos_sc_commit: Literal["layer-4", "layer-1"] = "layer-4"  # where pos_sc ← tmp_pos_sc is written (choice 3)


#: The suffix of the variants that commit ``pos_sc ← tmp_pos_sc`` in layer 1 (choice 3).
POS_SC_LAYER_1 = "pos-sc-layer-1"

#: Each variant's choices with the layer-4 commit (choices 1 and 2, the module docstring's variants).
_LAYER_4: dict[str, Options] = {
    "as-written": Options(LETTER, "q", False),
    "repaired": Options(LETTER, "q", True),
    "tmp-q": Options(LETTER, "tmp_q", False),
    "q-literal": Options(LITERAL, "tmp_q", False),
    "q-literal-key-repaired": Options(LITERAL, "tmp_q", True),
    "q-literal-last-repaired": Options(LITERAL_LAST, "tmp_q", False),
    "q-literal-repaired": Options(LITERAL_LAST, "tmp_q", True),
    "q-literal-repaired-m-from-q": Options(LITERAL_LAST, "q", True),
}


def _layer_1_name(variant: str) -> str:
    """The layer-1-commit twin of a layer-4 variant: ``pos-sc-layer-1`` for ``as-written``, else a suffix."""
    return POS_SC_LAYER_1 if variant == "as-written" else f"{variant}-{POS_SC_LAYER_1}"


#: Each variant's choices: every layer-4 variant and its twin with ``pos_sc`` committed in layer 1 (choice 3).
OPTIONS: dict[str, Options] = {
    **_LAYER_4,
    **{_layer_1_name(v): replace(o, pos_sc_commit="layer-1") for v, o in _LAYER_4.items()},
}
VARIANTS = tuple(OPTIONS)
_LAYER_1_TEXT = ("pos_sc ← tmp_pos_sc written by W_2^{(1)}, so layer 2's key reads the committed value (input "
                 "tokens, whose causal layer-1 read falls back to x_0, then carry π_pos_sc = 1)")
#: The variants (``symcot claims`` lists them with their verdicts).
READINGS: dict[str, Reading] = {
    "as-written": as_written("the sketch completed (module docstring): x_τ carries the letter w_τ, the lemmas' m "
                             "is π_q, layer-2 key [λ π_ht ‖ π_pos_sc]"),
    "repaired": repair("layer-2 key [λ π_flg π_ht ‖ π_pos_sc]: only generated tokens get the λ term"),
    "tmp-q": reading("as-written with the printed placeholder: lem:shiftonehot's m (and lem:mMc's) read from π_tmp_q, "
                     "which holds the next letter under the letter reading"),
    "q-literal": reading("x_τ carries q_τ = s_τ - s_{τ-1} as printed (x_0: q_0 = 0), m read from π_tmp_q as printed "
                         "(it then holds the step being taken), layer-2 key as printed"),
    "q-literal-key-repaired": repair("q-literal with the layer-2 key [λ π_flg π_ht ‖ π_pos_sc]"),
    "q-literal-last-repaired": repair("q-literal with x_0 carrying the last step q_n = -1, read at the final step "
                                      "where S e_{n-1} = 0 ties every score"),
    "q-literal-repaired": repair("q-literal with both: the gated layer-2 key and x_0 carrying the last step"),
    "q-literal-repaired-m-from-q": repair("q-literal-repaired but m read from π_q (the transcription's choice), which "
                                          "holds the previous step under the printed q_τ"),
    "pos-sc-layer-1": reading(f"as-written with {_LAYER_1_TEXT}"),
    "repaired-pos-sc-layer-1": repair("repaired (the gated layer-2 key) with pos_sc committed in layer 1"),
    "tmp-q-pos-sc-layer-1": reading("tmp-q with pos_sc committed in layer 1"),
    "q-literal-pos-sc-layer-1": reading("q-literal with pos_sc committed in layer 1"),
    "q-literal-key-repaired-pos-sc-layer-1": repair("q-literal-key-repaired (the gated layer-2 key) with pos_sc "
                                                    "committed in layer 1"),
    "q-literal-last-repaired-pos-sc-layer-1": repair("q-literal-last-repaired (x_0 carrying the last step, the "
                                                     "printed layer-2 key) with pos_sc committed in layer 1"),
    "q-literal-repaired-pos-sc-layer-1": repair("q-literal-repaired (gated key, x_0 carrying the last step) with "
                                                "pos_sc committed in layer 1"),
    "q-literal-repaired-m-from-q-pos-sc-layer-1": repair("q-literal-repaired-m-from-q with pos_sc committed in "
                                                         "layer 1"),
}


def layout() -> Layout:
    """The 18 blocks of the proof sketch, in its order (``d = 3n + 15``)."""
    return Layout("strpath", [(b, n if b in VECTOR else 1) for b in BLOCKS])


def _size(b: str) -> Any:
    return n if b in VECTOR else 1


def _hidden(name: str, kept: list[str], extra: list[tuple[str, Any]]) -> Layout:
    """A hidden layout: ``extra`` units, then one unit per kept block (two, ``b+``/``b-``, for signed blocks)."""
    units: list[tuple[str, Any]] = list(extra)
    for b in kept:
        units += [(f"{b}+", 1), (f"{b}-", 1)] if b in SIGNED else [(b, _size(b))]
    return Layout(name, units)


def _carries(x: Any, kept: list[str], writes: dict[str, str] | None = None) -> list[Gadget]:
    """The signed kept blocks through the ReLU as ``ReLU(x) - ReLU(-x)`` (choice 4; lem:mMc's identity for ``m``).

    Block ``b`` gets the units ``b+``, ``b-`` and is written back to ``b`` (or to ``writes[b]``).
    """
    writes = writes or {}
    return [signed_pass(x[b], units=(f"{b}+", f"{b}-"), writes={"x": writes.get(b, b)}) for b in kept if b in SIGNED]


def _pass_in(x: Any, kept: list[str], carries: list[Gadget]) -> dict[str, Any]:
    """``W_1`` rows that carry the kept blocks into the hidden layer (the signed ones by their carries)."""
    return {**{b: x[b] for b in kept if b not in SIGNED}, **merge_units(*carries)}


def _pass_out(h: Any, kept: list[str], carries: list[Gadget]) -> dict[str, Any]:
    """``W_2`` rows that restore the kept blocks from the hidden layer."""
    out: dict[str, Any] = {b: h[b] for b in kept if b not in SIGNED}
    for g in carries:
        out.update(g.w2(h))
    return out


def layer3_indicators(x: Any) -> tuple[Gadget, ...]:
    """Choice 7's five indicators as gadgets on the blocks of ``x`` (the 1s from ``π_flg``).

    ``1[D>0]`` reads ``tmp_D, tmp_{D-1}`` (``D``, ``D - 1`` from layer 2); ``1[D=0] = 1[-D = 0]`` and
    ``1[D<0] = 1[-D > 0]`` share the new units ``1-D, -D, -D-1``; ``1[c_u>0]`` reads ``c_buf`` and
    ``tmp_{c_buf-1}`` (``ReLU(c_u - 1)`` from layer 2); ``1[c_u=0] = 1[-c_u = 0]`` has the units ``1-c_u, -c_u,
    -c_u-1``.
    """
    one = x.flg
    return (
        ind_pos(x.tmp_D, x["tmp_D-1"], units=("tmp_D", "tmp_D-1"), writes={"ind": "tmp_D-1"}),
        ind_zero_at(-x.tmp_D, one, units=("1-D", "-D", "-D-1"), writes={"ind": "tmp_D"}),
        ind_pos_at(-x.tmp_D, one, units=("-D", "-D-1"), writes={"ind": "tmp_D+1"}),
        ind_pos(x.c_buf, x["tmp_c_buf-1"], units=("c_buf", "tmp_c_buf-1"), writes={"ind": "tmp_c_buf"}),
        ind_zero_at(-x.c_buf, one, units=("1-c_u", "-c_u", "-c_u-1"), writes={"ind": "tmp_c_buf-1"}),
    )


def build_decoder(variant: str = "as-written", mmc_lambda: Any = lam) -> Decoder:
    """The completed decoder of ``variant`` (see the module docstring)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; variants are {VARIANTS}")
    opt = OPTIONS[variant]
    mb = opt.m_block
    L = layout()
    x = L.vars()
    but = lambda *bs: [b for b in BLOCKS if b not in bs]  # noqa: E731

    # -- layer 1: read the next letter, shift ht (lem:shiftonehot) --------------------------------------
    k1 = Layout("strpath.key1", [("v", n)])
    read = Head(
        "read",
        query=Map("Q_read^{(1)}", L, k1, {"v": Shift(n) @ x.pos}, max_degree=1, doc="Q^{(1)} y_t = S π_pos(y_t)"),
        key=Map("K_read^{(1)}", L, k1, {"v": x.pos}, max_degree=1, doc="K α = π_pos(α)"),
        value=Map("V_read^{(1)}", L, L, {"pos": -x.pos, "tmp_pos_sc": x.pos_sc, "tmp_q": x.q},
                  zero=but("pos", "tmp_pos_sc", "tmp_q"), max_degree=1,
                  doc="π_pos(α'') = -π_pos(α'), π_tmp_pos_sc(α'') = π_pos_sc(α'), π_tmp_q(α'') = π_q(α')"),
    )
    vs1 = value_space([read])
    o1 = vs1.vars()
    w_o1 = Map("W_O^{(1)}", vs1, L, {b: o1[f"read.{b}"] for b in BLOCKS}, max_degree=1, doc="identity")
    commit1 = opt.pos_sc_commit == "layer-1"
    kept1 = but("pos", mb, "ht", "tmp_ht", *(["pos_sc"] if commit1 else []))
    shift = shiftonehot(x[mb], x.ht, units=("m+", "m-", "h", "z+", "z-"),
                        writes={"m": mb, "h": "ht", "h_shift": "tmp_ht"})
    carries1 = _carries(x, kept1)
    h1 = _hidden("strpath.hidden1", kept1, [("pos", n), *shift.units()])
    w1_1 = Map("W_1^{(1)}", L, h1, {"pos": -x.pos, **shift.w1(), **_pass_in(x, kept1, carries1)}, max_degree=1,
               doc=f"-π_pos(α''+y_t); lem:shiftonehot's W_1 on [m ‖ h ‖ h'] = [π_{mb} ‖ π_ht ‖ π_tmp_ht]")
    h = h1.vars()
    commit_1 = {"pos_sc": h.tmp_pos_sc} if commit1 else {}  # pos_sc ← tmp_pos_sc here (choice 3, layer-1)
    w2_1 = Map("W_2^{(1)}", h1, L, {"pos": h.pos, **shift.w2(h), **_pass_out(h, kept1, carries1), **commit_1},
               max_degree=1, doc="lem:shiftonehot's W_2: [m ‖ h ‖ h'] with h' the shift of h by m into tmp_ht"
                                 + ("; commits pos_sc ← tmp_pos_sc" if commit1 else ""))
    layer1 = Layer(Attention([read], w_o1), FFN(w1_1, w2_1, gadgets=(shift, *carries1)))

    # -- layer 2: the parent's last accumulator; str(v) and D (thm:cottreestrahler's layer-2 FFN) -----------
    k2 = Layout("strpath.key2", [("v", n), ("f", 1)])
    key_v = lam * (x.flg * x.ht) if opt.key_gated else lam * x.ht
    par = Head(
        "par",
        query=Map("Q_par^{(2)}", L, k2, {"v": x.tmp_ht, "f": x.flg}, max_degree=1,
                  doc="Q^{(2)} y = [π_tmp_ht(y) ‖ π_flg(y)]"),
        key=Map("K_par^{(2)}", L, k2, {"v": key_v, "f": x.pos_sc},
                doc="[λ π_flg(α) π_ht(α) ‖ π_pos_sc(α)] (repaired)" if opt.key_gated
                else "K^{(2)} α = [λ π_ht(α) ‖ π_pos_sc(α)]"),
        value=Map("V_par^{(2)}", L, L, {"M_buf": x.M, "c_buf": x.c}, zero=but("M_buf", "c_buf"), max_degree=1,
                  doc="π_M_buf ← π_M(α'), π_c_buf ← π_c(α'), π_M ← 0, π_c ← 0"),
    )
    vs2 = value_space([par])
    o2 = vs2.vars()
    w_o2 = Map("W_O^{(2)}", vs2, L, {b: o2[f"par.{b}"] for b in BLOCKS}, max_degree=1, doc="identity")
    kept2 = but("c", "tmp_c_buf-1")
    carries2 = _carries(x, kept2)
    h2 = _hidden("strpath.hidden2", kept2, [("c", 1), ("tmp_c_buf-1", 1)])
    w1_2 = Map("W_1^{(2)}", L, h2, {"c": x.c - 1, "tmp_c_buf-1": x.c_buf - 1, **_pass_in(x, kept2, carries2)},
               max_degree=1, doc="thm:cottreestrahler W_1^{(2)}: c - 1, c_buf - 1 into tmp_{c_buf-1}; rest intact")
    g = h2.vars()
    d_expr = g.M + g.c - g.M_buf
    out2 = _pass_out(g, kept2, carries2)
    out2.update({"M": g.M + g.c, "c": g.c, "tmp_c_buf-1": g["tmp_c_buf-1"],
                 "tmp_D-1": d_expr - 1, "tmp_D": d_expr, "tmp_D+1": d_expr + 1})
    w2_2 = Map("W_2^{(2)}", h2, L, out2, max_degree=1,
               doc="M ← M_v + 1[c_v ≥ 2] = str(v); tmp_{D-1}, tmp_D, tmp_{D+1} ← D - 1, D, D + 1, D = str(v) - M_u")
    layer2 = Layer(Attention([par], w_o2), FFN(w1_2, w2_2, gadgets=tuple(carries2)))

    # -- layer 3: indicators of D and c_u (thm:cottreestrahler) -------------------------------------------
    six = [("1-D", 1), ("-D", 1), ("-D-1", 1), ("1-c_u", 1), ("-c_u", 1), ("-c_u-1", 1)]
    indicators = layer3_indicators(x)
    carries3 = _carries(x, BLOCKS)
    h3 = _hidden("strpath.hidden3", BLOCKS, six)
    w1_3 = Map("W_1^{(3)}", L, h3, {**_pass_in(x, BLOCKS, carries3), **merge_units(*indicators)},
               max_degree=1, doc="extends y^{(2)} by 1 - D, -D, -D - 1, 1 - c_u, -c_u, -c_u - 1 (the 1s from π_flg)")
    k = h3.vars()
    out3 = _pass_out(k, BLOCKS, carries3)
    out3["M"] = k.M + k["-D"]
    for ind in indicators:
        out3.update(ind.w2(k))
    w2_3 = Map("W_2^{(3)}", h3, L, out3, max_degree=1,
               doc="M ← max(str(v), M_u); tmp_{D-1}, tmp_D, tmp_{D+1} ← 1[D>0], 1[D=0], 1[D<0]; "
                   "tmp_{c_buf}, tmp_{c_buf-1} ← 1[c_u>0], 1[c_u=0]")
    layer3 = Layer(None, FFN(w1_3, w2_3, gadgets=(*indicators, *carries3)))

    # -- layer 4: the fold (eq:strahM, eq:strahc) under lem:mMc's correction; commit ----------------------
    kept4 = ["pos", "pos_sc", "tmp_q", "tmp_ht", "flg"] if commit1 else [
        "pos", "pos_sc", "tmp_pos_sc", "tmp_q", "tmp_ht", "flg"]
    m_f, c_f = fold(x.M, x["tmp_D-1"], x.tmp_D, x["tmp_D+1"], x.tmp_c_buf, x["tmp_c_buf-1"], x.c_buf)
    gate = mmc(x[mb], m_f, c_f, mmc_lambda, units=("m+", "m-", "M", "M'", "c", "c'"), writes={"M": "M", "c": "c"})
    carries4 = _carries(x, kept4, writes={"tmp_q": "q"})  # the commit q ← tmp_q (choice 3)
    h4 = _hidden("strpath.hidden4", kept4, gate.units())
    w1_4 = Map("W_1^{(4)}", L, h4, {**gate.w1(), **_pass_in(x, kept4, carries4)},
               doc="thm:cottreestrahler's W_1^{(4)} fold (M + tmp_D tmp_c_buf; tmp_{D-1} + tmp_D tmp_{c_buf-1} + "
                   f"tmp_{{D+1}} c_buf) composed with lem:mMc's W_1 on [π_{mb} ‖ M ‖ c]")
    f = h4.vars()
    out4 = _pass_out(f, ["pos", "pos_sc", "flg"] if commit1 else ["pos", "flg"], [])
    out4.update({**gate.w2(f), "ht": f.tmp_ht, **({} if commit1 else {"pos_sc": f.tmp_pos_sc})})
    for c in carries4:
        out4.update(c.w2(f))
    w2_4 = Map("W_2^{(4)}", h4, L, out4, zero=["tmp_pos_sc", "tmp_q", "tmp_ht", "M_buf", "c_buf", *TMPS],
               max_degree=1, doc="lem:mMc's W_2 (M, c kept on q = -1, reset on q = +1); commits ht, q"
                                 + ("" if commit1 else ", pos_sc") + "; nullifies the temporaries and the buffers")
    layer4 = Layer(None, FFN(w1_4, w2_4, gadgets=(gate, *carries4)))
    return Decoder(f"thm:cotpathstrahler/{variant}", L, [layer1, layer2, layer3, layer4])


#: ``y_t`` encodes the point ``(t, s_t)``: ``M``, ``c`` of the vertex there, ``ht = e_{s_t}``, ``flg = 1``, empty
#: scratch; ``pos = e_t``, ``pos_sc = t + 1`` and ``q = q_t`` (the next letter) while a letter is left (the
#: last step reads ``x_0``, choice 9).
ENCODING = StateEncoding({
    "M": scalar("m"), "c": scalar("c"), "ht": onehot("height"), "flg": const(1),
    **{b: const(0) for b in ["tmp_pos_sc", "tmp_q", "tmp_ht", "M_buf", "c_buf", *TMPS]},
    "pos": onehot("t", when="reading"), "pos_sc": scalar("t", offset=1, when="reading"),
    "q": scalar("next_q", when="reading"),
})
#: Under the printed ``q_τ = s_τ - s_{τ-1}`` the step block commits the step just taken: ``π_q(y_t) = q_t`` for
#: ``t ≥ 1`` (the letter reading's ``y_t`` carries the next letter instead).
LITERAL_ENCODING = ENCODING.extended(q=scalar("q_in", from_step=1))
#: ``λ = n + 2``: ``λ > n + 1`` for the layer-2 key (the sketch's bound), and at least every ``M``, ``c`` for
#: lem:mMc.
LAMBDA_RULE = LambdaRule(n + 2, "thm:cotpathstrahler's sketch: \"λ > n+1\" for the layer-2 key",
                         "λ = |w| + 2")


# -- the statement for every n (read by the all-n prover, symcot.prove.alln) -------------------------------

#: ``x_τ = [e_τ ‖ τ+1 ‖ 0 ‖ q_τ ‖ 0 ‖ e_{s_τ} ‖ 0 …]``: the prompt's input tokens (:func:`prompt_statement`, read
#: at ``τ``).
X_TOKEN = StateEncoding({"pos": onehot("x_tau"), "pos_sc": scalar("x_tau", offset=1), "q": scalar("x_q"),
                         "ht": onehot("x_ht")})
#: ``y_0 = [e_0 ‖ 1 ‖ 0 ‖ 1 ‖ 0 ‖ e_0 ‖ 0^n ‖ 0^4 ‖ 1 ‖ 0^6]``.
Y0_TOKEN = StateEncoding({"pos": onehot("y0_at"), "pos_sc": const(1), "q": const(1), "ht": onehot("y0_at"),
                          "flg": const(1)})


def prompt_statement(steps: StepReading) -> PromptStatement:
    """The prompt ``[x_0, …, x_{n-1}, y_0]`` under the reading ``steps`` of ``q_τ``.

    ``x_τ`` (:data:`X_TOKEN`) reads ``τ``, its step and ``s_τ``; ``y_0`` (:data:`Y0_TOKEN`) nothing. The
    construction's prompt for every variant: its all-n statement's segments where it has one, these alone for the
    readings without one.
    """
    x_views = {"x_tau": lambda c, i: i, "x_q": x_q(steps), "x_ht": lambda c, i: height(c, i)}
    return PromptStatement(
        FOLD_VOCABULARY,
        (Segment("x", lambda c: c.T, X_TOKEN, x_views, lambda i: f"x_{i}"),),
        Segment("y_0", lambda c: 1, Y0_TOKEN, {"y0_at": lambda c, i: 0}, lambda i: "y_0"))


def all_n_statement(variant: str) -> AllNStatement | None:
    """What every token holds at every step, for the variants whose proof this is (``None`` for the others).

    The statement of the proof completed as in the module docstring (the reading of ``q_τ`` and ``m`` of the
    variant): at step ``t`` (``y_t`` to ``y_{t+1}``) head ``read`` selects ``x_{t+1}`` (``x_0`` at the last step);
    after layer 1 ``tmp_ht = e_{s_{t+1}}``, ``tmp_pos_sc``, ``tmp_q`` hold what was read; head ``par`` selects
    ``y_{t'}`` with ``t' = lp(t, s_{t+1})`` the last point at the height ``s_{t+1}`` when there is one (always on a
    ``D``), else the token the key's tie-break gives on a ``U`` into a height not reached before; after layer 2 the
    buffers hold that token's accumulator ``(M_u, c_u)``, ``M = str(v)``, ``D ± 1``; after layer 3 ``max(str(v),
    M_u)`` and the five indicators; ``y_{t+1}`` is the fold's state at ``t + 1``.

    Stated for the letter reading with ``m = π_q`` and for the printed ``q_τ`` with ``x_0`` carrying the last step and
    ``m = π_tmp_q``; the layer-2 fallback depends on the key and the ``pos_sc`` commit. The printed key with the
    layer-4 commit (``as-written``, ``q-literal-last-repaired``) gets the same statement as its repair, which it
    does not satisfy (head ``par`` selects an input token: docs/errata/paths.md). The other readings (``tmp-q``,
    ``q_0 = 0``, ``m`` from the other block) have none.

    Layer 2's key reads every input token after layer 1, ``x_u^{(1)}``, so the statement also says what head
    ``read`` selects at an input token: at ``x_u`` the query ``S e_u = e_{u+1}`` meets the keys ``e_0 … e_u`` of
    ``x_0 … x_u``, every score is 0 and ``x_0`` wins (proved for every ``u`` as an obligation, and compared with the
    recorded pass over the prompt). The construction carries the statement (:attr:`StrahlerPathConstruction.all_n`)
    for every variant it is written for; the printed-key ones are not proved (their concrete phase fails).
    """
    opt = OPTIONS.get(variant)
    if opt is None:
        return None
    letter = opt.steps.convention == "letter"
    if (letter, opt.m_block) not in ((True, "q"), (False, "tmp_q")) or (not letter and opt.steps.x0 != "last"):
        return None
    commit1 = opt.pos_sc_commit == "layer-1"
    if commit1 and not opt.key_gated:
        # printed key, pos_sc committed in layer 1: x^(1) carry pos_sc = 1, so on a U into a new height the first
        # input token there, x_{t+1}, scores λ + 1 above every generated token
        def fallback(c: Any, t: Any) -> tuple[str, Any]:
            return "x", t + 1
    elif commit1:
        # gated key, layer-1 commit: no λ term anywhere; y_t carries the largest pos_sc, t + 2
        def fallback(c: Any, t: Any) -> tuple[str, Any]:
            return Y, t
    else:
        # gated key, layer-4 commit: the last input token has the largest pos_sc, n
        def fallback(c: Any, t: Any) -> tuple[str, Any]:
            return "x", c.T - 1

    def u_acc(acc: str) -> Any:
        """The accumulator of the token head ``par`` selects (0 on an input token's)."""
        def view(c: Any, t: Any) -> Any:
            cls, p = fallback(c, t)
            fb = getattr(c, acc)(p) if cls == Y else 0
            return c.ite(parent_point(c, t) >= 0, getattr(c, acc)(parent_point(c, t)), fb)
        return view

    def d(c: Any, t: Any) -> Any:
        return str_at(c, t) - u_acc("accM")(c, t)

    def par_cases(c: Any, t: Any) -> list[tuple[Any, str, Any]]:
        cls, p = fallback(c, t)
        return [(parent_point(c, t) >= 0, Y, parent_point(c, t)), (True, cls, p)]

    last_read = (lambda c, t: letter_step(c, 0)) if letter else (lambda c, t: letter_step(c, c.T - 1))
    views = {
        "pos1": lambda c, t: c.ite(t + 1 < c.T, t + 1, 0),
        "read_sc": lambda c, t: c.ite(t + 1 < c.T, t + 2, 1),
        "q_tok": (lambda c, t: letter_step(c, t)) if letter else (lambda c, t: c.ite(t >= 1, letter_step(c, t - 1), 1)),
        "q_read": lambda c, t: c.ite(t + 1 < c.T, letter_step(c, t + 1) if letter else letter_step(c, t),
                                     last_read(c, t)),
        "h_next": lambda c, t: height(c, t + 1),
        "m_u": u_acc("accM"), "c_u": u_acc("accC"),
        "str_v": str_at,
        "d_minus": lambda c, t: d(c, t) - 1, "d": d, "d_plus": lambda c, t: d(c, t) + 1,
        "zero": lambda c, t: 0,
        "m_max": lambda c, t: c.ite(d(c, t) >= 0, str_at(c, t), u_acc("accM")(c, t)),
        "ind_d_pos": lambda c, t: c.ite(d(c, t) > 0, 1, 0), "ind_d_zero": lambda c, t: c.ite(d(c, t) == 0, 1, 0),
        "ind_d_neg": lambda c, t: c.ite(d(c, t) < 0, 1, 0),
        "ind_cu_pos": lambda c, t: c.ite(u_acc("accC")(c, t) > 0, 1, 0),
        "ind_cu_zero": lambda c, t: c.ite(u_acc("accC")(c, t) == 0, 1, 0),
    }
    base = ENCODING if letter else LITERAL_ENCODING
    # every block of y_τ (τ < n: a letter is left, so pos, pos_sc and q are stated without the encoding's guard)
    token = base.extended(pos=onehot("t"), pos_sc=scalar("t", offset=1), q=scalar("q_tok"))
    cuts = {
        1: StateEncoding({"pos": onehot("pos1"), "pos_sc": scalar("read_sc") if commit1 else scalar("t", offset=1),
                          "tmp_pos_sc": scalar("read_sc"), "q": scalar("q_tok"), "tmp_q": scalar("q_read"),
                          "ht": onehot("height"), "tmp_ht": onehot("h_next"), "M": scalar("m"), "c": scalar("c"),
                          "flg": const(1)}),
        2: StateEncoding({"M_buf": scalar("m_u"), "c_buf": scalar("c_u"), "M": scalar("str_v"), "c": scalar("zero"),
                          "tmp_c_buf-1": scalar("zero"), "tmp_D-1": scalar("d_minus"), "tmp_D": scalar("d"),
                          "tmp_D+1": scalar("d_plus")}),
        3: StateEncoding({"M": scalar("m_max"), "tmp_D-1": scalar("ind_d_pos"), "tmp_D": scalar("ind_d_zero"),
                          "tmp_D+1": scalar("ind_d_neg"), "tmp_c_buf": scalar("ind_cu_pos"),
                          "tmp_c_buf-1": scalar("ind_cu_zero")}),
    }
    choices = (
        Choice(1, "read", lambda c, t: [(t + 1 < c.T, "x", t + 1), (True, "x", 0)],
               "Q^{(1)} = S π_pos(y_t) selects x_{t+1}; at the last step S e_{n-1} = 0 ties every score and x_0 wins"),
        Choice(1, "read", lambda c, u: [(True, "x", 0)],
               "at x_u, Q^{(1)} = S e_u = e_{u+1} against the keys e_0 … e_u of x_0 … x_u: every score is 0 and x_0 "
               "wins (read by layer 2's key at x_u^{(1)})", cls="x"),
        Choice(2, "par", par_cases,
               "the right-most y_i with π_ht(y_i) = π_tmp_ht(y_t^{(1)}) (obs:strpathtwoMc's t'); on a U into a height "
               "not reached before, the key's tie-break"),
    )
    prompt = prompt_statement(opt.steps)
    return AllNStatement(
        FOLD_VOCABULARY, {n: lambda c: c.T}, prompt.segments, prompt.y0, token, views, choices, cuts,
        notes=("no hand fact: the fold's definitions (Algorithm 1's input symbols, lp, eq:dynamicstrdfs case form) "
               "and the Dyck domain",),
        quotes={(2, "M"): "after the second layer the block M carries str(v)", (2, "tmp_D"): "tmp_D carries D",
                (3, "M"): "π_M(y^{(3)}) = max(str(v), M_u)"})


class StrahlerPathConstruction(Construction):
    """The completed Strahler-on-path decoder (a variant), its input encoding and the proof's invariants."""

    encoding = ENCODING
    lam_rule = LAMBDA_RULE

    def __init__(self, variant: str = "as-written", decoder: Decoder | None = None):
        notes = {"as-written": ["the sketch completed as in the module docstring; layer-2 key [λ π_ht ‖ π_pos_sc]"],
                 "repaired": ["layer-2 key [λ π_flg π_ht ‖ π_pos_sc]: only generated tokens get the λ term"]}
        default = [READINGS[variant].text] if variant in READINGS else []
        super().__init__("thm:cotpathstrahler", variant, decoder or build_decoder(variant),
                         notes.get(variant, default))
        #: The statement of this variant's proof (``None`` for the readings it is not written for): a variant of
        #: the same class may have none, so it is the instance's.
        self.all_n = all_n_statement(variant)  # type: ignore[misc]
        self.steps = OPTIONS[variant].steps if variant in OPTIONS else LETTER
        if self.all_n is None:  # the prompt of the reading, stated by the same segments as a statement's
            self.prompt_segments = prompt_statement(self.steps)  # type: ignore[misc]
        self.pos_sc_commit = OPTIONS[variant].pos_sc_commit if variant in OPTIONS else "layer-4"
        if self.steps.convention == "literal":
            self.encoding = LITERAL_ENCODING  # type: ignore[misc]

    def env(self, inp: str) -> dict:
        """``{n: |w|}``."""
        return {n: len(inp)}

    def validate(self, inp: str) -> None:
        """A non-empty Dyck word."""
        validate_dyck(inp)
        if not inp:
            raise InvalidInputError("thm:cotpathstrahler needs a non-empty Dyck word (e_0 needs n ≥ 1)")

    def invariants(self, inp: str, states: Sequence[FoldState], t: int) -> list[Expectation]:
        """Inside step ``t`` (point ``t - 1`` to ``t``): the reads, the parent, ``str(v)``, ``D``, the indicators."""
        k, st = len(inp), states[t]
        if self.steps.convention == "literal":  # x_t carries the step of CoT step t; none carries q_n unless x_0 does
            read = self.steps.carrier(t, k) or "none: no input token carries q_n"
        else:  # x_t carries the next letter; the last step's S e_{n-1} = 0 ties, x_0 wins
            read = f"x_{t}" if t < k else "x_0"
        out = [
            Expectation(1, "head", "read", read,
                        "Q^{(1)} = S π_pos(y_t) selects the lowest-indexed token with π_pos = e_{t+1}"),
            Expectation(1, "block", "tmp_ht", onehot_list(k, st.height),
                        "W_2^{(1)}: the block tmp_h stores the one-hot s_{τ+1}"),
        ]
        if self.pos_sc_commit == "layer-1":  # the value read from x_t (x_0 at the last step), committed in layer 1
            out.append(Expectation(1, "block", "pos_sc", [t + 1 if t < k else 1],
                                   "π_tmp_pos_sc(α'') = π_pos_sc(α'), committed to pos_sc by W_2^{(1)} (choice 3)"))
        if st.letter != UP:
            assert st.str_v is not None and st.d is not None and st.m_u is not None and st.c_u is not None
            d = st.d
            out += [
                Expectation(2, "head", "par", f"y_{st.parent_point}",
                            "the right-most y_i with π_ht(y_i) = π_tmp_ht(y_t^{(1)}) (obs:strpathtwoMc's t')"),
                Expectation(2, "block", "M", [st.str_v], "after the second layer the block M carries str(v)"),
                Expectation(2, "block", "tmp_D", [d], "tmp_D carries D = str(v) - M_u"),
                Expectation(3, "block", "M", [max(st.str_v, st.m_u)], "π_M(y^{(3)}) = max(str(v), M_u)"),
                Expectation(3, "block", "tmp_D-1", [int(d > 0)], "tmp_{D-1} holds 1[D>0]"),
                Expectation(3, "block", "tmp_D", [int(d == 0)], "tmp_D holds 1[D=0]"),
                Expectation(3, "block", "tmp_D+1", [int(d < 0)], "tmp_{D+1} holds 1[D<0]"),
                Expectation(3, "block", "tmp_c_buf", [int(st.c_u > 0)], "tmp_{c_buf} holds 1[c_u>0]"),
                Expectation(3, "block", "tmp_c_buf-1", [int(st.c_u == 0)], "tmp_{c_buf-1} holds 1[c_u=0]"),
            ]
        return out


