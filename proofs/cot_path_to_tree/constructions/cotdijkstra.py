r"""thm:cotdijkstra -- the two-layer, single-head Dijkstra decoder of Appendix "Dijkstra Algorithm".

Paper: *Chain-of-Thought Shows the Path to a Tree*, Appendix ``app:cotdij``, proof of
``thm:cotdijkstra``; it realises the dynamic ``Dkst^(t) = (Dist^(t), cur^(t), vst^(t))`` of Section 2.1
(reference: :mod:`proofs.cot_path_to_tree.algorithms.dijkstra`).

Embedding (``d = 5n + 1``), blocks in the paper's order ``cur crd vis wei dis buf``::

    x_i = [e_i ‖ -λ ‖ 0^n ‖ A_{i,:} ‖ λ^n ‖ 0^n]
    y_0 = [e_p ‖ 0  ‖ e_p ‖ 0^n     ‖ λ^n ‖ 0^n]

Layer 1, head R (our name): ``Q^{(1)} = K^{(1)} = π_cur``, ``V^{(1)}`` the identity; ``W_O^{(1)}`` keeps
only ``π_wei``, so the residual carries ``A_{i,:}`` of ``cur^(t) = v_i``. ``W_1^{(1)}`` writes
``π_dis[i] - π_crd - π_wei[i]`` into ``wei``; after the ReLU ``W_2^{(1)}`` sets ``dis ← dis - wei`` and
``wei ← 0``. Layer 2, head S (our name): ``Q^{(2)} = (1 - π_vis) ⊙ (λ - π_dis)``, ``K^{(2)} = π_cur``,
``W_O^{(2)}`` gives ``α'' = [-π_cur(α') ‖ 0 ‖ π_cur(α') ‖ 0^n ‖ 0^n ‖ π_cur(α')]``; ``W_1^{(2)}`` negates
``cur`` and sets ``buf ← γ = π_dis + λ π_buf - λ Σ_j π_buf[j]``; after the ReLU ``W_2^{(2)}`` sets
``crd ← Σ_i π_buf[i]`` and ``buf ← 0``. Halting: ``π_vis(y_{n-1}) = 1^n``.

Interpretive choices (the most literal reading; each is a place a reader could differ):

1. *Absent arcs in ``A_{i,:}``.* The text types the matrix ``A ∈ ℝ_{>0}^{n×n}`` (0 is not an allowed
   entry) and applies the theorem to "any simple connected directed graph", which has missing arcs and no
   self-loops; the only value the paper ever gives a missing arc is ``∞`` (the BFS paragraph: "∞ implies
   that it does not"), which the construction writes as ``λ`` (``π_dis = λ^n``). So as written (variant
   ``as-written``) a missing arc *and the diagonal* are ``λ``. The source's own distance then stays
   ``λ`` at step 1 (``λ - ReLU(λ - 0 - λ) = λ``): refuted on a single arc at step 1, block ``dis``.
   The other reading (variant ``missing-arc-0``): ``A_{i,:}`` is "the i-th row of the adjacency
   matrix", the object that holds 0 for a non-arc in the DFS proof (``A ∈ {0,1}``); the relaxation
   ``π_dis - π_crd - π_wei`` then treats every non-neighbour as a weight-0 arc: refuted too (see
   docs/errata/dijkstra-width.md).
2. *Repair (variant ``repaired``).* ``A_{i,:}`` is the shortest-path weight matrix: ``a_ij`` for an arc,
   ``λ`` (the construction's stand-in for ``∞``, as in ``π_dis = λ^n``; Section 2.1's BFS case writes
   ``∞`` for "no edge") for a non-arc ``j ≠ i``, and ``a_ii = 0``. Nothing else changes. ``a_ii = 0`` is
   what sets ``π_dis(y_1)[p]`` to ``Dist[p] = 0``: ``y_0`` carries ``λ`` there as written (choice 5).
3. *Blocks a map does not mention are kept* ("with all other positions intact", "leaving all others
   intact"); the ReLU is harmless for them on generated tokens (all are ``≥ 0``). Each FFN's hidden
   layer is the model layout (width ``d``): the text writes the hidden values into ``wei``/``buf``.
4. *Values.* ``V^{(1)}``, ``V^{(2)}`` are the identity ("Taking V^(1) as identity"); ``W_O`` routes.
5. *What is compared.* By ``def:algorelationbycot`` a realization must satisfy ``π(y_t) = enc(s_t)``
   for ``t ∈ [T] = {1..n-1}``; ``enc`` puts ``e_{cur}`` in ``cur``, the indicator of ``vst`` in ``vis``,
   ``Dist`` in ``dis`` with ``∞ ↦ λ``, and ``Dist[cur]`` in ``crd`` (the text: "π_crd(y_{t+1}) records
   Dist^(t+1)[j']"). ``y_0`` is compared on ``cur``, ``vis`` and ``crd`` only: its ``dis`` block is
   ``λ^n`` as written, so ``π_dis(y_0)[p] = λ`` although ``Dist^(0)[p] = 0`` (an inconsistency of the
   text, listed in the errata; not a failure under ``def:algorelationbycot``).
6. *λ.* "a sufficiently large constant": per input ``λ = 1 + (n - 1)·max_e a_e`` (:data:`LAMBDA_RULE`):
   every tentative distance written into an unreached coordinate is ``Dist[u] + a_uv`` for a path of
   at most ``n - 1`` arcs, and the proof needs ``λ`` strictly above it (``λ - π_dis[j] > 0`` in the
   selection, ``γ[i] = π_dis[i] - λ < 0``). The smallest working λ is measured separately (proofs).
7. *Stop rule.* ``π_vis(y_t) = 1^n`` ("serves as the halting criterion"), which must fire at
   ``t = n - 1`` exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from proofs.cot_path_to_tree.algorithms.dijkstra import INF, DkstState, validate_dijkstra_input
from proofs.cot_path_to_tree.algorithms.dijkstra_facts import VOCABULARY as DKST_VOCABULARY
from proofs.cot_path_to_tree.algorithms.dijkstra_facts import infinity
from symcot.constructions.alln import AllNStatement, Choice, PromptStatement, Segment
from symcot.constructions.base import Construction, Expectation
from symcot.constructions.encoding import (
    LambdaRule,
    StateEncoding,
    StopRule,
    Term,
    W,
    const,
    indicator,
    onehot,
    scalar,
    vector,
)
from symcot.constructions.readings import Reading, as_written, reading, repair
from symcot.inputs.graphs import Digraph
from symcot.ir import Layout, Map, bcast, hadamard, lam, n, ones
from symcot.ir.expr import Expr
from symcot.ir.layout import BlockVars
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space

#: The proof's six blocks, in order.
BLOCKS = ["cur", "crd", "vis", "wei", "dis", "buf"]
#: d = 5n + 1, as stated in the proof.
PAPER_D = 5 * n + 1

Number = int | Fraction
Inp = tuple[Digraph, int]


def layout() -> Layout:
    """The embedding layout ``[cur: n ‖ crd: 1 ‖ vis: n ‖ wei: n ‖ dis: n ‖ buf: n]``."""
    return Layout("dkst", [("cur", n), ("crd", 1), ("vis", n), ("wei", n), ("dis", n), ("buf", n)])


def dijkstra_layers(L: Layout, w2_2_extra: Callable[[BlockVars], dict[str, Expr]] | None = None) -> list[Layer]:
    """The two layers of the proof, stated on any layout ``L`` that contains the six blocks.

    Blocks of ``L`` outside the six are kept by every FFN map and receive nothing from attention;
    ``w2_2_extra(x)`` adds assignments to ``W_2^{(2)}`` (thm:cotwidoftree writes ``dif`` there).
    """
    x = L.vars()
    names = list(L.names)

    def but(*bs: str) -> list[str]:
        return [b for b in names if b not in bs]

    # Layer 1: fetch A_{i,:} of the current vertex, relax every coordinate.
    k1 = Layout(f"{L.name}.key1", [("v", n)])
    head_r = Head(
        "R",
        query=Map("Q^{(1)}", L, k1, {"v": x.cur}, max_degree=1, doc="π_cur(y_t): the current vertex"),
        key=Map("K^{(1)}", L, k1, {"v": x.cur}, max_degree=1, doc="π_cur(α) for every token"),
        value=Map("V^{(1)}", L, L, keep=names, max_degree=1, doc="Taking V^(1) as identity"),
    )
    o1 = value_space([head_r]).vars()
    w_o1 = Map("W_O^{(1)}", value_space([head_r]), L, {"wei": o1["R.wei"]}, zero=but("wei"), max_degree=1,
               doc="zeroes out all blocks except π_wei")
    w1_1 = Map("W_1^{(1)}", L, L, {"wei": x.dis - bcast(x.crd, n) - x.wei}, keep=but("wei"), max_degree=1,
               doc="π_dis[i] - π_crd - π_wei[i] for each i, all other positions intact")
    w2_1 = Map("W_2^{(1)}", L, L, {"dis": x.dis - x.wei}, zero=["wei"], keep=but("dis", "wei"), max_degree=1,
               doc="replaces π_dis with π_dis - π_wei and resets π_wei to 0^n")
    layer1 = Layer(Attention([head_r], w_o1), FFN(w1_1, w2_1))

    # Layer 2: select the unvisited vertex of least tentative distance, record its distance.
    k2 = Layout(f"{L.name}.key2", [("v", n)])
    head_s = Head(
        "S",
        query=Map("Q^{(2)}", L, k2, {"v": hadamard(ones(n) - x.vis, lam - x.dis)},
                  doc="(1 - π_vis) ⊙ (λ - π_dis)"),
        key=Map("K^{(2)}", L, k2, {"v": x.cur}, max_degree=1, doc="π_cur(α)"),
        value=Map("V^{(2)}", L, L, keep=names, max_degree=1, doc="identity; W_O routes blocks"),
    )
    o2 = value_space([head_s]).vars()
    w_o2 = Map("W_O^{(2)}", value_space([head_s]), L,
               {"cur": -o2["S.cur"], "vis": o2["S.cur"], "buf": o2["S.cur"]}, zero=but("cur", "vis", "buf"),
               max_degree=1, doc="α'' = [-π_cur(α') ‖ 0 ‖ π_cur(α') ‖ 0^n ‖ 0^n ‖ π_cur(α')]")
    gamma = x.dis + x.buf * lam - bcast(x.buf.sum(), n) * lam
    w1_2 = Map("W_1^{(2)}", L, L, {"cur": -x.cur, "buf": gamma}, keep=but("cur", "buf"), max_degree=1,
               doc="negates the current block; buffer ← γ = π_dis + λ π_buf - λ Σ_j π_buf[j]")
    extra = dict(w2_2_extra(x)) if w2_2_extra else {}
    w2_2 = Map("W_2^{(2)}", L, L, {"crd": x.buf.sum(), **extra}, zero=["buf"],
               keep=but("crd", "buf", *extra), max_degree=1,
               doc="π_crd ← Σ_i π_buf[i]; π_buf ← 0^n" + (f"; also {', '.join(extra)}" if extra else ""))
    layer2 = Layer(Attention([head_s], w_o2), FFN(w1_2, w2_2))
    return [layer1, layer2]


def build_decoder(name: str = "thm:cotdijkstra") -> Decoder:
    """The decoder of the proof of ``thm:cotdijkstra`` (the weights do not depend on the variant)."""
    L = layout()
    return Decoder(name, L, dijkstra_layers(L))


# -- input encoding --------------------------------------------------------------------------------------

Absent = Literal["0", "λ"]


@dataclass(frozen=True)
class Encoding:
    """What ``A_{i,:}`` holds where there is no arc: off the diagonal (``absent``) and at ``a_ii``."""

    absent: Absent
    diagonal: Absent

    def matrix(self, g: Digraph, lam_value: Number) -> list[list[Number]]:
        """``A`` row by row: exact weights (1 for an unweighted arc) and the chosen non-arc values."""
        off: Number = 0 if self.absent == "0" else lam_value
        diag: Number = 0 if self.diagonal == "0" else lam_value
        a = [[diag if i == j else off for j in range(g.n)] for i in range(g.n)]
        ws = g.weights if g.weights is not None else (1,) * len(g.arcs)
        for (u, v), w in zip(g.arcs, ws):
            a[u][v] = w
        return a

    def row(self, n_vertices: int, i: int, out_arcs: Sequence[tuple[int, Number]], lam_value: Number) -> list[Number]:
        """Row ``i`` of :meth:`matrix` from the arcs ``(j, a_ij)`` out of ``v_i`` alone."""
        off: Number = 0 if self.absent == "0" else lam_value
        diag: Number = 0 if self.diagonal == "0" else lam_value
        out = [off] * n_vertices
        out[i] = diag
        for j, w in out_arcs:
            out[j] = w
        return out


#: As written: ``A ∈ ℝ_{>0}^{n×n}`` has no 0 entry, the only value the paper gives a missing arc is ∞ (the BFS
#: paragraph: "∞ implies that it does not"), and a simple graph has no self-loop: ∞ off the arcs and on the
#: diagonal, encoded as λ (choice 1).
AS_WRITTEN = Encoding(absent="λ", diagonal="λ")
#: The other reading: ``A_{i,:}`` as the adjacency-matrix row of the DFS proof, 0 for a missing arc and on the
#: diagonal (choice 1).
MISSING_ARC_ZERO = Encoding(absent="0", diagonal="0")
#: The repair: λ (= ∞) for a missing arc, 0 on the diagonal (choice 2).
REPAIRED = Encoding(absent="λ", diagonal="0")
#: The named readings and the repair, by variant name.
VARIANT_ENCODINGS = {"as-written": AS_WRITTEN, "missing-arc-0": MISSING_ARC_ZERO, "repaired": REPAIRED}
#: What each variant reads ``A_{i,:}`` as (``symcot claims`` lists them with their verdicts).
READINGS: dict[str, Reading] = {
    "as-written": as_written("A ∈ ℝ_{>0}^{n×n}: a missing arc and the diagonal are ∞, encoded as λ"),
    "missing-arc-0": reading("A_{i,:} is the adjacency-matrix row of the DFS proof: 0 for a missing arc and on "
                             "the diagonal"),
    "repaired": repair("the shortest-path weight matrix: λ (= ∞) for a missing arc, a_ii = 0; no weight changes"),
}

#: "λ is a sufficiently large constant": ``λ = 1 + (n - 1)·max_e a_e``, strictly above every tentative
#: distance (choice 6).
#: The all-n prover derives the least ``λ ≥ a·(n - 1)·W + b`` (``scale``): a multiple of the longest possible
#: shortest path, as the proof's "λ exceeds every finite distance" asks.
LAMBDA_RULE = LambdaRule(1 + (n - 1) * W, "app:cotdij: \"λ is a sufficiently large constant\"",
                         "λ = 1 + (n-1)·max arc weight, per input", scale=(n - 1) * W)


def encode_dist(dist: Sequence[Any], lam_value: Number) -> list[Number]:
    """``enc(Dist)``: exact distances, ``∞ ↦ λ``."""
    return [lam_value if d is INF else d for d in dist]


#: ``enc(Dkst^(t))`` (choice 5): ``e_{cur}`` in ``cur``, the indicator of ``vst`` in ``vis``, ``Dist[cur]`` in
#: ``crd`` ("π_crd(y_{t+1}) records Dist^(t+1)[j']"), and ``Dist`` with ``∞ ↦ λ`` in ``dis`` for ``t ∈ [T]``.
ENCODING = StateEncoding({"cur": onehot("cur"), "vis": indicator("vst"), "crd": scalar("dist_cur"),
                          "dis": vector("dist", from_step=1)})
#: "After exactly n - 1 transitions the visited indicator satisfies π_vis(y_{n-1}) = 1^n, which serves as the
#: halting criterion" (choice 7).
STOP = StopRule("vis", 1, "π_vis(y_{n-1}) = 1^n ... serves as the halting criterion")


def dijkstra_invariants(states: Sequence[DkstState], t: int, lam_value: Number, n_vertices: int
                        ) -> list[Expectation]:
    """What the proof says happens inside step ``t`` (producing ``y_t`` from ``y_{t-1}``)."""
    before, after = states[t - 1], states[t]
    zero = [0] * n_vertices
    e = [1 if j == after.cur else 0 for j in range(n_vertices)]
    return [
        Expectation(1, "head", "R", f"x_{before.cur}",
                    "the UHA selects the lowest-indexed match, necessarily the input embedding x_i of cur = v_i"),
        Expectation(1, "block", "dis", encode_dist(after.dist, lam_value),
                    "the first layer updates the distance vector from Dist^(t) to Dist^(t+1)"),
        Expectation(1, "block", "wei", zero, "W_2^(1) resets π_wei to 0^n"),
        Expectation(2, "head", "S", f"x_{after.cur}",
                    "UHA selects the lowest-indexed x token at which -π_dis is maximized over unvisited vertices"),
        Expectation(2, "block", "cur", e, "π_cur(α') is the sole survivor in the current block"),
        Expectation(2, "block", "crd", [after.dist[after.cur]], "W_2^(2) sets π_crd(y_{t+1}) = Dist^(t+1)[j']"),
        Expectation(2, "block", "buf", zero, "W_2^(2) resets π_buf(y_{t+1}) = 0^n"),
    ]


# -- the statement for every n (read by the all-n prover, symcot.prove.alln) -------------------------------

class _MinusLambda(Term):
    """``[-λ]`` from a field that is ``∞`` (``π_crd(x_i) = -λ``): a scalar term, negated, with ``∞ ↦ λ``."""

    def values(self, state: Any, size: int, lam: Any) -> list[Any]:
        """``-λ`` where the field is ``∞``, else the field negated."""
        v = getattr(state, self.field or "")
        return [-lam if v is INF else -v]


def _row_view(enc: Encoding) -> Callable[[Any, Any], Any]:
    """``A_{i,:}`` under the reading ``enc``: ``a_ij`` on an arc, ``absent`` off the arcs, ``diagonal`` at ``a_ii``."""

    def row(c: Any, i: Any) -> Any:
        off = 0 if enc.absent == "0" else infinity(c)
        diag = 0 if enc.diagonal == "0" else infinity(c)
        return c.vec(lambda j: c.ite(i == j, diag, c.ite(c.arc(i, j), c.w(i, j), off)), c.n)

    return row


def _lam_row(c: Any, _p: Any) -> Any:
    """``λ^n`` (``∞`` in every coordinate)."""
    return c.vec(lambda j: infinity(c), c.n)


#: ``x_i = [e_i ‖ -λ ‖ 0^n ‖ A_{i,:} ‖ λ^n ‖ 0^n]`` (unlisted blocks are 0).
X_TOKEN = StateEncoding({"cur": onehot("i"), "crd": _MinusLambda("scalar", "inf", scale=-1), "wei": vector("row"),
                         "dis": vector("lam_row")})
#: ``y_0 = [e_p ‖ 0 ‖ e_p ‖ 0^n ‖ λ^n ‖ 0^n]``.
Y0_TOKEN = StateEncoding({"cur": onehot("src_at"), "vis": onehot("src_at"), "dis": vector("lam_row")})
#: ``y_0`` read at the source.
Y0_SEGMENT = Segment("y_0", lambda c: 1, Y0_TOKEN, {"src_at": lambda c, i: c.src, "lam_row": _lam_row},
                     lambda i: "y_0")


def prompt_segments(enc: Encoding) -> tuple[Segment, ...]:
    """``x_0 … x_{n-1}`` under the reading ``enc`` of ``A_{i,:}`` (no sentinel in this proof)."""
    views = {"i": lambda c, i: i, "inf": lambda c, i: infinity(c), "row": _row_view(enc), "lam_row": _lam_row}
    return (Segment("x", lambda c: c.n, X_TOKEN, views, lambda i: f"x_{i}"),)


def prompt_statement(enc: Encoding) -> PromptStatement:
    """The prompt ``[x_0, …, x_{n-1}, y_0]`` under the reading ``enc``: the variants without an all-n statement."""
    return PromptStatement(DKST_VOCABULARY, prompt_segments(enc), Y0_SEGMENT)


def _dist(c: Any, t: Any) -> Any:
    """``Dist^(τ)`` with ``∞ ↦ λ``."""
    return DKST_VOCABULARY.views["dist"](c, t)


#: Views of ``y_τ`` and of step ``τ``: ``π_dis(y_τ)`` (``λ^n`` at ``τ = 0``, as ``y_0`` carries it; ``Dist^(τ)``
#: after), ``Dist^(τ+1)`` (layer 1's relaxation), ``cur^(τ+1)`` and its distance (layer 2's selection).
TOKEN_VIEWS = {
    "dis_in": lambda c, t: c.vec(lambda v: c.ite(t == 0, infinity(c),
                                                  c.ite(c.fin(t, v), c.dist(t, v), infinity(c))), c.n),
    "dist_next": lambda c, t: _dist(c, t + 1),
    "next_cur": lambda c, t: c.cur(t + 1),
    "next_dist_cur": lambda c, t: c.dist(t + 1, c.cur(t + 1)),
}
#: Every block of ``y_τ``: ``enc`` (``dis`` from ``τ = 0`` on, ``λ^n`` there), ``wei = 0^n``, ``buf = 0^n``.
TOKEN = ENCODING.extended(dis=vector("dis_in"), wei=const(0), buf=const(0))
#: Layer 1 at step ``τ``: "the first layer updates the distance vector from Dist^(t) to Dist^(t+1)" and resets
#: ``wei``; layer 2: the selected vertex in ``cur``, its distance in ``crd``, ``buf`` reset.
CUTS = {1: StateEncoding({"dis": vector("dist_next"), "wei": const(0)}),
        2: StateEncoding({"cur": onehot("next_cur"), "crd": scalar("next_dist_cur"), "buf": const(0)})}
QUOTES = {(1, "dis"): "the first layer updates the distance vector from Dist^(t) to Dist^(t+1)",
          (1, "wei"): "W_2^(1) resets π_wei to 0^n",
          (2, "cur"): "π_cur(α') is the sole survivor in the current block",
          (2, "crd"): "W_2^(2) sets π_crd(y_{t+1}) = Dist^(t+1)[j']",
          (2, "buf"): "W_2^(2) resets π_buf(y_{t+1}) = 0^n"}
#: Head R: ``x_{cur^(τ)}`` (the first token whose ``π_cur`` is ``e_{cur}``); head S: by the score ``(1 - vis)·(λ -
#: dis)``, positive exactly at the unvisited vertices of finite ``Dist^(τ+1)`` (``λ`` is above every one), ``0`` at
#: every ``y``: ``x_{cur^(τ+1)}``, the least ``Dist`` among them and the lowest index among ties.
CHOICES = (
    Choice(1, "R", lambda c, t: [(True, "x", c.cur(t))],
           "the UHA selects the lowest-indexed match, necessarily the input embedding x_i of cur = v_i"),
    Choice(1, "R", lambda c, i: [(True, "x", i)], "at x_i the query e_i meets the key e_i of x_i first", cls="x"),
    Choice(2, "S", lambda c, t: [(True, "x", c.cur(t + 1))],
           "UHA selects the lowest-indexed x token at which -π_dis is maximized over unvisited vertices"),
)
#: The statement of the repaired decoder (``a_ii = 0``, ``λ`` for a missing arc), at ``λ ≥ 1 + (n - 1)·W``. The
#: halting criterion ``π_vis = 1^n`` fails on ``y_τ``, ``τ < T``, at ``cur^(τ+1)``, a vertex still unvisited (the
#: vocabulary's ``unvisited``): the stop obligation's witness.
STATEMENT = AllNStatement(DKST_VOCABULARY, {n: lambda c: c.n, W: lambda c: c.W}, prompt_segments(REPAIRED),
                          Y0_SEGMENT, TOKEN, TOKEN_VIEWS, CHOICES, CUTS, quotes=QUOTES,
                          notes=("the statement of the repaired reading: λ for a missing arc, a_ii = 0",),
                          stop_witness=lambda c, t: c.cur(t + 1))


class DijkstraConstruction(Construction):
    """The Dijkstra decoder with an input reading (``as-written``, ``missing-arc-0``) or the ``repaired`` one."""

    encoding = ENCODING
    stop = STOP
    lam_rule = LAMBDA_RULE

    def __init__(self, variant: str = "as-written", encoding: Encoding | None = None,
                 decoder: Decoder | None = None, notes: list[str] | None = None):
        enc = encoding or VARIANT_ENCODINGS.get(variant, REPAIRED)
        default_notes = [
            f"A_{{i,:}} holds {enc.absent} for a non-arc and {enc.diagonal} on the diagonal"
            + {AS_WRITTEN: " (as written: A ∈ ℝ_{>0}^{n×n}, a missing arc and the diagonal are ∞, encoded as λ)",
               MISSING_ARC_ZERO: " (reading: the adjacency-matrix row, 0 off the arcs)",
               REPAIRED: " (repair: the shortest-path weight matrix, λ playing ∞, a_ii = 0)"}.get(enc, ""),
            "λ = 1 + (n-1)·max weight per input",
        ]
        super().__init__("thm:cotdijkstra", variant, decoder or build_decoder(f"thm:cotdijkstra/{variant}"),
                         notes if notes is not None else default_notes)
        self.arcs = enc
        #: The statement of the repaired reading's proof; the other readings state their prompt by the same
        #: segments (a variant of the same class may have none, so it is the instance's).
        self.all_n = STATEMENT if enc == REPAIRED else None  # type: ignore[misc]
        if self.all_n is None:
            self.prompt_segments = prompt_statement(enc)  # type: ignore[misc]

    def env(self, inp: Inp) -> dict:
        """``{n: |V|}``."""
        return {n: inp[0].n}

    def max_weight(self, inp: Inp) -> Number:
        """The largest arc weight (``W`` of the λ rule; 0 without arcs)."""
        g = inp[0]
        return max(g.weights if g.weights is not None else (1,) * len(g.arcs), default=0)

    def validate(self, inp: Inp) -> None:
        """A simple digraph with exact positive weights, every vertex reachable from the source."""
        validate_dijkstra_input(*inp)

    def invariants(self, inp: Inp, states: Sequence[DkstState], t: int) -> list[Expectation]:
        """Head choices and block values the proof states for step ``t``."""
        return dijkstra_invariants(states, t, self.lam_value(inp), inp[0].n)
