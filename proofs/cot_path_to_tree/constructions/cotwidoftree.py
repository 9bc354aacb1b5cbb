r"""thm:cotwidoftree -- the three-layer, single-head width decoder of Appendix ``app:cotwid``.

Paper: proof of ``thm:cotwidoftree`` (with ``lem:widsupffn`` and ``obs:dynamicwidbfs``); reference:
BFS as ``Dkst`` with ``A = {1, ∞}`` and the ``twd``/``mwd`` augmentation
(:mod:`proofs.cot_path_to_tree.algorithms.dijkstra`).

Embedding (``d = 5n + 4``): the six blocks of thm:cotdijkstra (:mod:`proofs.cot_path_to_tree.constructions.cotdijkstra`)
followed by the scalars ``dif``, ``twd``, ``mwd``::

    x_i = [x̃_i ‖ 0 ‖ 0 ‖ 0],    y_0 = [ỹ_0 ‖ 0 ‖ 1 ‖ 1].

Layers 1–2 are the Dijkstra layers, stated once in
:func:`~proofs.cot_path_to_tree.constructions.cotdijkstra.dijkstra_layers`,
with one addition in ``W_2^{(2)}``: ``π_dif ← Σ_i π_buf(y_t^{(1)'})[i] - π_crd(y_t^{(1)'})``, the distance
of the vertex just visited minus that of the previous one. Layer 3 has trivial attention
(``W_O^{(3)}`` empty) and the FFN of ``lem:widsupffn`` on ``v = (dif, twd, mwd)``, "considering
``V_max = n``": the gadget :func:`symcot.gadgets.widsupffn` with ``λ = V_max = n`` (:func:`width_update`),
so ``dif = 0`` gives ``(twd + 1, max(mwd, twd + 1))`` and ``dif = 1`` gives ``(1, max(mwd, 1))``.

Interpretive choices and what had to be invented (the layer-3 FFN is a sketch in the paper):

1. *``A`` on a tree.* The proof says "the tree ``G_T`` is (un)weighted taking weights in ``{1, ∞}``";
   ``∞`` is encoded as ``λ``, the construction's stand-in for ``∞`` (``π_dis = λ^n``). As written
   (variant ``as-written``) every non-edge is ``∞``, the diagonal included (no self-loop), so
   ``A_{i,:} ∈ {1, λ}^n``. The repair (variant ``repaired``) is thm:cotdijkstra's: ``a_ii = 0``.
2. *Layers 1–2.* Exactly thm:cotdijkstra's maps with every map keeping ``dif``, ``twd``, ``mwd`` (the
   "dimensional extension does not affect the previous computation once the parameters are adapted");
   both ``W_O`` give those three blocks nothing. ``dif`` is written by ``W_2^{(2)}`` and overwritten at
   every step.
3. *Layer 3 (invented completion of "analogous to lem:widsupffn considering V_max = n").* The lemma's
   ``λ`` (any bound ``≥ v_2 = twd``) is instantiated as ``V_max = n``, since ``twd ≤ n - 1``. The hidden
   layer is the six Dijkstra blocks (kept by the identity; all are ``≥ 0`` on generated tokens, so the
   ReLU keeps them) followed by the lemma's four units ``h1..h4``; ``W_2^{(3)}`` writes ``dif ← h1``
   (the lemma's first output, ``v_1`` itself), ``twd ← h2 + 1``, ``mwd ← h3 + h4`` and keeps the rest.
   The paper gives no hidden width for this layer; ours is ``5n + 5``.
4. *What is compared.* Besides thm:cotdijkstra's ``enc`` (``cur``, ``vis``, ``crd``, and ``dis`` from
   step 1 on), ``dif`` (the difference of the distances ``crd`` records at consecutive steps, 0 at ``y_0``)
   and ``twd``, ``mwd`` at every step, including ``y_0``, against obs:dynamicwidbfs read as
   "the running node count at the current level" and "the global maximum width" (the theorem's
   sketch): the visited-only, inclusive reading of the Observation (its literal set-count reading is
   refuted on its own, see proofs/cot_path_to_tree/thm_cotwidoftree.py); and ``π_mwd(y_{n-1}) = wd(G_T)`` from the
   definition of width.
5. *λ* is thm:cotdijkstra's rule ``1 + (n - 1)·max weight = n`` for BFS weights; the stop rule is
   ``π_vis(y_t) = 1^n`` at ``t = n - 1``.

For every n: :data:`STATEMENT` states what every token holds for the ``repaired`` decoder (with the printed
``V_max = n``), over the vocabulary :mod:`proofs.cot_path_to_tree.algorithms.widthtree_facts` (BFS with the width fold
:data:`~proofs.cot_path_to_tree.algorithms.dijkstra.WIDTH_BFS`): thm:cotdijkstra's statement (its head choices and cuts)
with ``dif``, ``twd``, ``mwd`` of the fold in every ``y_τ``, ``π_dif`` after layer 2 and lem:widsupffn's update after
layer 3 (valued under ``dif ∈ {0, 1}`` and ``1 ≤ twd ≤ mwd ≤ n``, derived facts). :data:`STATEMENT_AS_WRITTEN`
states the same for the ``as-written`` decoder (``a_ii = λ``), over
:mod:`proofs.cot_path_to_tree.algorithms.widthtree_aswritten_facts`: every block is the repaired one's but the
source's distance, ``λ`` until an arc ``(cur^(τ'), s)`` is relaxed, then the least ``Dist[cur^(τ')] + 1`` over them
(``back``, ``bdist`` of :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.WIDTH_BFS_SOURCE`): what
thm:cotwidoftree:width proves, whose ``enc`` is every block but ``dis`` (``compared``). Every other variant states its
prompt by the same segments (:func:`prompt_statement`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from proofs.cot_path_to_tree.algorithms.dijkstra import DkstState, validate_bfs_input, width_update_rule
from proofs.cot_path_to_tree.algorithms.dijkstra_facts import infinity
from proofs.cot_path_to_tree.algorithms.widthtree_aswritten_facts import VOCABULARY as AS_WRITTEN_VOCABULARY
from proofs.cot_path_to_tree.algorithms.widthtree_facts import VOCABULARY as WIDTH_VOCABULARY
from proofs.cot_path_to_tree.constructions.cotdijkstra import AS_WRITTEN as DKST_AS_WRITTEN
from proofs.cot_path_to_tree.constructions.cotdijkstra import BLOCKS as DKST_BLOCKS
from proofs.cot_path_to_tree.constructions.cotdijkstra import CHOICES as DKST_CHOICES
from proofs.cot_path_to_tree.constructions.cotdijkstra import CUTS as DKST_CUTS
from proofs.cot_path_to_tree.constructions.cotdijkstra import ENCODING as DKST_ENCODING
from proofs.cot_path_to_tree.constructions.cotdijkstra import QUOTES as DKST_QUOTES
from proofs.cot_path_to_tree.constructions.cotdijkstra import REPAIRED as DKST_REPAIRED
from proofs.cot_path_to_tree.constructions.cotdijkstra import TOKEN as DKST_TOKEN
from proofs.cot_path_to_tree.constructions.cotdijkstra import TOKEN_VIEWS as DKST_TOKEN_VIEWS
from proofs.cot_path_to_tree.constructions.cotdijkstra import Y0_SEGMENT as DKST_Y0_SEGMENT
from proofs.cot_path_to_tree.constructions.cotdijkstra import (
    DijkstraConstruction,
    Encoding,
    Inp,
    dijkstra_invariants,
    dijkstra_layers,
)
from proofs.cot_path_to_tree.constructions.cotdijkstra import prompt_segments as dkst_prompt_segments
from proofs.cot_path_to_tree.gadgets import Gadget, widsupffn
from symcot.constructions.alln import AllNStatement, PromptStatement, Segment
from symcot.constructions.base import Construction, Expectation
from symcot.constructions.encoding import StateEncoding, W, const, scalar, vector
from symcot.constructions.readings import Reading, as_written, repair
from symcot.inputs.trees import validate_tree
from symcot.ir import Layout, Map, n
from symcot.model import FFN, Decoder, Layer

BLOCKS = [*DKST_BLOCKS, "dif", "twd", "mwd"]
#: d = 5n + 4, as stated in the proof.
PAPER_D = 5 * n + 4
#: The lemma's large constant, "considering V_max = n".
V_MAX = n

#: As written: weights in {1, ∞} with ∞ encoded as λ, on the diagonal too (choice 1; thm:cotdijkstra's reading).
AS_WRITTEN = DKST_AS_WRITTEN
#: The repair, thm:cotdijkstra's: a_ii = 0.
REPAIRED = DKST_REPAIRED
#: The variants (``symcot claims`` lists them with their verdicts).
READINGS: dict[str, Reading] = {
    "as-written": as_written("weights in {1, ∞} with ∞ encoded as λ, on the diagonal too (thm:cotdijkstra's y_0 "
                             "and reading); layer 3 is lem:widsupffn with V_max = n"),
    "repaired": repair("thm:cotdijkstra's repair: a_ii = 0 (nothing else changes)"),
}

#: thm:cotdijkstra's ``enc`` with ``dif`` (the depth difference, 0 at ``y_0``) and ``twd``, ``mwd`` of
#: obs:dynamicwidbfs (choice 4), at every step.
ENCODING = DKST_ENCODING.extended(dif=scalar("dif"), twd=scalar("twd"), mwd=scalar("mwd"))
#: The blocks of ``enc`` that carry the width computation (every block but thm:cotdijkstra's ``dis``).
WIDTH_BLOCKS = ("cur", "vis", "crd", "dif", "twd", "mwd")


def layout() -> Layout:
    """thm:cotdijkstra's layout followed by the scalars ``dif``, ``twd``, ``mwd``."""
    return Layout("wid", [("cur", n), ("crd", 1), ("vis", n), ("wei", n), ("dis", n), ("buf", n),
                          ("dif", 1), ("twd", 1), ("mwd", 1)])


def width_update(L: Layout, v_max: Any = V_MAX) -> Gadget:
    """Layer 3's FFN core: lem:widsupffn on ``v = (dif, twd, mwd)`` with ``λ = V_max`` (units ``h1 … h4``).

    ``V_max = n`` as printed; another value measures how large it must be (proofs/cot_path_to_tree/thm_cotwidoftree.py).
    """
    x = L.vars()
    return widsupffn(x.dif, x.twd, x.mwd, v_max, units=("h1", "h2", "h3", "h4"),
                     writes={"v1": "dif", "v2": "twd", "v3": "mwd"})


def build_decoder(name: str = "thm:cotwidoftree", v_max: Any = V_MAX) -> Decoder:
    """Layers 1–2 of thm:cotdijkstra (``W_2^{(2)}`` also writes ``dif``) and the layer-3 FFN of lem:widsupffn."""
    L = layout()
    layers = dijkstra_layers(L, lambda x: {"dif": x.buf.sum() - x.crd})
    upd = width_update(L, v_max)
    hid = Layout("wid.ffn3", [(b, L.size(b)) for b in DKST_BLOCKS] + upd.units())
    w1_3 = Map("W_1^{(3)}", L, hid, upd.w1(), keep=DKST_BLOCKS, max_degree=1,
               doc="lem:widsupffn's W_1 v + b_1 with λ = V_max = n; Dijkstra blocks kept")
    w2_3 = Map("W_2^{(3)}", hid, L, upd.w2(hid.vars()), keep=DKST_BLOCKS,
               max_degree=1, doc="lem:widsupffn's W_2 h + b_2; Dijkstra blocks kept")
    return Decoder(name, L, [*layers, Layer(None, FFN(w1_3, w2_3, gadgets=(upd,)))])


def validate(g: Any, root: Any) -> None:
    """The theorem's domain: a tree (a symmetric ``Digraph``), a root in it, and BFS weights (all 1)."""
    validate_tree(g, root)
    validate_bfs_input(g, root)


# -- the statement for every n (read by the all-n prover, symcot.prove.alln) -------------------------------


def prompt_segments(enc: Encoding) -> tuple[Segment, ...]:
    """``x_i = [x̃_i ‖ 0 ‖ 0 ‖ 0]``: thm:cotdijkstra's ``x̃_i`` under the reading ``enc``, ``dif = twd = mwd = 0``."""
    (x,) = dkst_prompt_segments(enc)
    return (replace(x, encoding=x.encoding.extended(dif=const(0), twd=const(0), mwd=const(0))),)


#: ``y_0 = [ỹ_0 ‖ 0 ‖ 1 ‖ 1]``: thm:cotdijkstra's ``ỹ_0``, ``dif = 0`` and "twd^(0) = mwd^(0) = 1".
Y0_SEGMENT = replace(DKST_Y0_SEGMENT, encoding=DKST_Y0_SEGMENT.encoding.extended(dif=const(0), twd=const(1),
                                                                                  mwd=const(1)))


def prompt_statement(enc: Encoding) -> PromptStatement:
    """The prompt ``[x_0, …, x_{n-1}, y_0]`` under the reading ``enc``: the variants without an all-n statement."""
    return PromptStatement(WIDTH_VOCABULARY, prompt_segments(enc), Y0_SEGMENT)


#: thm:cotdijkstra's views of step ``τ``, and the fold's state at ``τ + 1`` (what layers 2 and 3 write).
TOKEN_VIEWS = {
    **DKST_TOKEN_VIEWS,
    "next_dif": lambda c, t: c.dif(t + 1),
    "next_twd": lambda c, t: c.twd(t + 1),
    "next_mwd": lambda c, t: c.mwd(t + 1),
}
#: Every block of ``y_τ``: thm:cotdijkstra's token, and ``dif``, ``twd``, ``mwd`` of the fold at ``τ``
#: (:data:`~proofs.cot_path_to_tree.algorithms.dijkstra.WIDTH_BFS`).
TOKEN = DKST_TOKEN.extended(dif=scalar("dif"), twd=scalar("twd"), mwd=scalar("mwd"))
#: thm:cotdijkstra's cuts; after layer 2 also ``π_dif = Σ π_buf - π_crd = Dist^(τ+1)[cur^(τ+1)] - Dist^(τ)[cur^(τ)]``;
#: after layer 3 lem:widsupffn's ``f`` on ``(dif, twd, mwd)``: the fold's ``twd``, ``mwd`` at ``τ + 1``.
CUTS = {1: DKST_CUTS[1], 2: DKST_CUTS[2].extended(dif=scalar("next_dif")),
        3: StateEncoding({"twd": scalar("next_twd"), "mwd": scalar("next_mwd")})}
QUOTES = {
    **DKST_QUOTES,
    (2, "dif"): "W_2^(2) ... will set π_dif(y_t^(1)') to Σ_{i=0}^{n-1} π_buf(y_t^(1)')[i] - π_crd(y_t^(1)') ... "
                "Note that, π_crd(y_t^(1)') = π_crd(y_t)",
    (3, "twd"): "the subsequent FFN layer can be developed analogus to lem:widsupffn considering V_max = n: "
                "[0 ‖ v_2 + 1 ‖ …] if v_1 = 0, [1 ‖ 1 ‖ …] if v_1 = 1",
    (3, "mwd"): "lem:widsupffn: [… ‖ max(v_3, v_2 + 1)] if v_1 = 0, [… ‖ max(v_3, 1)] if v_1 = 1",
}
#: The statement of the repaired decoder (thm:cotdijkstra's repair, ``a_ii = 0``; λ for a missing arc) on a tree with
#: BFS weights. Layers 1–2 are thm:cotdijkstra's statement (the same head choices; layer 3 has no head), the stop
#: rule's witness is its own: ``cur^(τ+1)``, a vertex still unvisited.
STATEMENT = AllNStatement(
    WIDTH_VOCABULARY, {n: lambda c: c.n, W: lambda c: c.W}, prompt_segments(REPAIRED), Y0_SEGMENT, TOKEN,
    TOKEN_VIEWS, DKST_CHOICES, CUTS, quotes=QUOTES,
    notes=("the statement of the repaired reading (a_ii = 0, λ for a missing arc) on BFS weights; no hand fact: the "
           "definitions of the transition WIDTH_BFS (Dkst with the width fold) and the domain's unit weights",),
    stop_witness=lambda c, t: c.cur(t + 1))


def _dis_as_written(c: Any, t: Any) -> Any:
    """``π_dis(y_τ)`` as written: ``Dist^(τ)`` (``∞ ↦ λ``), but ``bdist(τ)`` at the source where ``back(τ)``, else λ.

    At ``τ = 0`` it is ``λ^n``, as ``y_0`` carries it (``back(0)`` is false, every ``v ≠ s`` is at ``∞``).
    """
    return c.vec(lambda v: c.ite(v == c.src, c.ite(c.back(t), c.bdist(t), infinity(c)),
                                 c.ite(c.fin(t, v), c.dist(t, v), infinity(c))), c.n)


#: The repaired statement's views, with ``π_dis`` and layer 1's relaxation as written (:func:`_dis_as_written`).
AS_WRITTEN_VIEWS = {
    **{k: v for k, v in TOKEN_VIEWS.items() if k not in ("dis_in", "dist_next")},
    "dis_as_written": _dis_as_written,
    "relaxed_as_written": lambda c, t: _dis_as_written(c, t + 1),
}
#: :data:`TOKEN` with ``π_dis`` as written.
TOKEN_AS_WRITTEN = TOKEN.extended(dis=vector("dis_as_written"))
#: :data:`CUTS` with layer 1's ``π_dis`` as written: ``min(π_dis[j], π_crd + a_{cur,j})`` with ``a_ss = λ`` leaves the
#: source at ``λ`` at ``τ = 0`` and lowers it only along an arc ``(cur^(τ), s)``.
CUTS_AS_WRITTEN = {**CUTS, 1: CUTS[1].extended(dis=vector("relaxed_as_written"))}
#: The statement of the as-written decoder (``a_ii = λ``, λ for a missing arc, printed ``V_max = n``) on a tree with
#: BFS weights: :data:`STATEMENT`'s head choices, cuts and stop witness, with the as-written prompt and the source's
#: distance of :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.WIDTH_BFS_SOURCE` in ``dis`` (never read by head S:
#: the source is visited from the start).
STATEMENT_AS_WRITTEN = AllNStatement(
    AS_WRITTEN_VOCABULARY, {n: lambda c: c.n, W: lambda c: c.W}, prompt_segments(AS_WRITTEN), Y0_SEGMENT,
    TOKEN_AS_WRITTEN, AS_WRITTEN_VIEWS, DKST_CHOICES, CUTS_AS_WRITTEN, quotes=QUOTES,
    notes=("the statement of the as-written reading (a_ii = λ, λ for a missing arc) on BFS weights: π_dis is Dist but "
           "at the source, λ until an arc into it is relaxed (then the least Dist[u] + 1); no hand fact: the "
           "definitions of the transition WIDTH_BFS_SOURCE (Dkst with the width fold and the source relaxed from ∞) "
           "and the domain's unit weights",),
    stop_witness=lambda c, t: c.cur(t + 1))


class WidthTreeConstruction(DijkstraConstruction):
    """The width decoder: BFS as Dijkstra plus the ``twd``/``mwd`` update of lem:widsupffn."""

    encoding = ENCODING

    def __init__(self, variant: str = "as-written", encoding: Encoding | None = None,
                 notes: list[str] | None = None, v_max: Any = V_MAX, compared: Sequence[str] | None = None):
        """The ``variant`` of the input ``encoding`` (its reading of ``A``), ``V_max``, and ``enc``'s blocks.

        ``compared``: the blocks of :data:`ENCODING` a claim's ``enc`` keeps (thm:cotwidoftree:width:
        :data:`WIDTH_BLOCKS`); all of them by default.
        """
        enc = encoding or (AS_WRITTEN if variant == "as-written" else REPAIRED)
        default_notes = [
            f"A_{{i,:}} ∈ {{1, λ}} off the diagonal, a_ii = {enc.diagonal}"
            + (" (as written: weights in {1, ∞}, ∞ encoded as λ)" if enc == AS_WRITTEN else
               " (repair of thm:cotdijkstra: a_ii = 0)" if enc == REPAIRED else ""),
            f"layer 3: lem:widsupffn with λ = V_max = {v_max} (our completion of the sketch)",
        ]
        Construction.__init__(self, "thm:cotwidoftree", variant,
                              build_decoder(f"thm:cotwidoftree/{variant}", v_max),
                              notes if notes is not None else default_notes)
        self.arcs = enc
        if compared is not None:
            self.encoding = StateEncoding({b: ENCODING.blocks[b] for b in compared})  # type: ignore[misc]
        #: The statement of the repaired decoder's proof, and of the as-written one's where ``enc`` leaves ``dis`` out
        #: (thm:cotwidoftree:width; with ``dis`` compared it departs from ``enc`` at ``y_1``, ``π_dis[s] = λ ≠ 0``,
        #: which exact replay shows without a statement), both with the printed ``V_max = n``; the other readings state
        #: their prompt by the same segments (a variant of the same class may have none, so it is the instance's).
        stated = {REPAIRED: STATEMENT}.get(enc)
        if enc == AS_WRITTEN and "dis" not in self.encoding.blocks:
            stated = STATEMENT_AS_WRITTEN
        self.all_n = stated if v_max is V_MAX else None  # type: ignore[misc]
        if self.all_n is None:
            self.prompt_segments = prompt_statement(enc)  # type: ignore[misc]

    def validate(self, inp: Inp) -> None:
        """A tree with a root and BFS weights."""
        validate(*inp)

    def invariants(self, inp: Inp, states: Sequence[DkstState], t: int) -> list[Expectation]:
        """thm:cotdijkstra's invariants, ``dif`` after layer 2, and the lemma's update after layer 3."""
        out = dijkstra_invariants(states, t, self.lam_value(inp), inp[0].n)
        last = states[-1].dist
        dif = last[states[t].cur] - last[states[t - 1].cur]  # type: ignore[operator]
        out.append(Expectation(2, "block", "dif", [dif],
                               "W_2^(2) sets π_dif to Σ π_buf - π_crd: the depth difference, in {0, 1}"))
        rule = width_update_rule(states)[t]
        out.append(Expectation(3, "block", "twd", [rule[1]], "lem:widsupffn: twd + 1 if dif = 0, else 1"))
        out.append(Expectation(3, "block", "mwd", [rule[2]], "lem:widsupffn: max(mwd, twd + 1) if dif = 0"))
        return out
