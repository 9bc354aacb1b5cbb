r"""thm:cotdfs -- the two-layer, two-head DFS decoder of the paper's appendix "DFS", as written.

Paper: *Chain-of-Thought Shows the Path to a Tree*, Appendix "DFS", proof of ``thm:cotdfs``; it realises
the dynamic of eq. ``eq:dfsdynamic`` (Section 2.1).

Embedding (``d = 6n + 3``), blocks in the paper's order::

    x_i = [e_i ‖ 0^n ‖ 0^n ‖ A_{i,:} ‖ 0^n ‖ 0^n ‖ -1 ‖ -1 ‖ 0]      (cur par vis nbr tmp buf flg1 flg2 flg3)
    y_0 = [e_p ‖ 0^n ‖ e_p ‖ A_{p,:} ‖ 0^n ‖ 0^n ‖ -1 ‖ -1 ‖ 1]
    x_⊥ = 0^d, placed before x_0.

Layer 1 (trivial attention, ``W_O^{(1)} = 0``): ``W_1^{(1)}`` puts ``γ = (1 - π_vis)ᵀ π_nbr`` and
``γ - 1`` into the ``flg1``/``flg2`` positions; ``W_2^{(1)}`` writes ``flg1 = ReLU(γ) - ReLU(γ-1)``,
``flg2 = 0`` and copies ``π_cur`` into ``buf``.

Layer 2, head T (traverse): ``Q_T = (1 - π_vis) ⊙ π_nbr``, ``K_T = π_cur``. Head B (backtrack):
``Q_B = (1 - π_flg1)·[π_par ‖ π_flg3]``, ``K_B = [π_cur ‖ π_flg3]``. ``W_O^{(2)}`` forms
``α''_T = [-π_cur ‖ -π_par ‖ π_cur ‖ 0 ‖ π_nbr ‖ 0 ‖ 0³]`` and
``α''_B = [-π_cur ‖ -π_par ‖ 0^{2n} ‖ π_nbr ‖ 0 ‖ 0³]`` of the selected tokens and adds them.
``W_1^{(2)}`` negates ``cur`` and ``par``, resets ``tmp`` and copies ``tmp`` into ``nbr``;
``W_2^{(2)}`` sets ``par ← flg1·buf + (1 - flg1)·par``. Termination: ``π_cur(y_{t+1}) = 0^n``.

Interpretive choices (the most literal reading; each is a place a reader could differ):

1. *Unstated blocks are kept.* Where the text says a map "writes" some blocks (``W_2^{(1)}``) or leaves
   "all other positions intact" (``W_1^{(2)}``), every block it does not mention is the identity. The
   ReLU between ``W_1`` and ``W_2`` is harmless for them: they are non-negative whenever they matter.
2. *"Copies X into Y" overwrites Y.* ``W_2^{(1)}``: ``buf ← cur`` (not ``buf + cur``); ``W_1^{(2)}``:
   ``nbr ← tmp`` (not ``nbr + tmp``).
3. *Values.* ``W_O^{(2)} ∈ {-1,0,1}^{d×2d}`` acts on the two selected tokens directly, so both value maps
   are the identity and ``W_O`` does the block routing shown above; ``vis``, ``nbr``, ``buf`` and the flags
   receive nothing from attention.
4. *FFN widths.* The paper places ``γ``/``γ-1`` "into the flg1 and flg2 positions", so each hidden layer
   uses the model layout itself (width ``d``).
5. *Bilinear maps with constants.* ``(1 - π_vis)`` and ``(1 - π_flg1)`` use the constant 1, so ``W_1^{(1)}``,
   ``Q_T``, ``Q_B`` and ``W_2^{(2)}`` are degree-2 polynomial maps with affine factors.
6. *Termination.* The CoT stops at the first ``y_t`` with ``π_cur(y_t) = 0^n``: the step that backtracks
   from the source, ``dfs^{(t)}(s) = par(s) = φ`` in ``eq:dfsdynamic`` (step ``2r - 1`` for ``r`` vertices
   reachable from ``s``, one step after the last backtrack into ``s``).

The layers are stated by small builders (:func:`layer1`, :func:`traverse_head`, :func:`backtrack_head`,
:func:`w_o_assign`, :func:`w1_2_assign`, :func:`par_gate`, and :func:`stated`, which keeps every block
a map does not mention), parameterised by the layout, so that constructions extending this embedding with
further blocks (``thm:cottreestrahler`` in :mod:`proofs.cot_path_to_tree.constructions.cottreestrahler`, the φ component
in
:mod:`proofs.cot_path_to_tree.constructions.cotdfs_phi`) reuse them instead of copying them; :func:`build_decoder`
composes
them into the decoder described above.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.dfs_facts import VOCABULARY as DFS_VOCABULARY
from proofs.cot_path_to_tree.gadgets import Gadget, ind_pos_at, parent_gate
from symcot.constructions.alln import AllNStatement, Choice, Segment, Y
from symcot.constructions.base import Construction
from symcot.constructions.encoding import StateEncoding, StopRule, const, indicator, onehot, scalar, vector
from symcot.errors import InvalidInputError
from symcot.inputs.graphs import Digraph
from symcot.ir import Layout, Map, dot, hadamard, n, ones
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space

BLOCKS = ["cur", "par", "vis", "nbr", "tmp", "buf", "flg1", "flg2", "flg3"]
#: d = 6n + 3, as stated in the proof.
PAPER_D = 6 * n + 3


def layout(name: str = "dfs", extra: Sequence[tuple[str, Any]] = ()) -> Layout:
    """The embedding layout: six ``n``-blocks and three scalar flags, then any ``extra`` blocks.

    ``extra`` (``(name, size)`` pairs, appended after ``flg3``) is how the constructions that extend this
    embedding (``thm:cottreestrahler``, the φ component after ``thm:cotdfs``) reuse the layers below.
    """
    return Layout(name, [(b, n) for b in BLOCKS[:6]] + [(b, 1) for b in BLOCKS[6:]] + list(extra))


def stated(name: str, src: Layout, dst: Layout, assign: dict[str, Any], zero: Sequence[str] = (),
           max_degree: int = 2, doc: str = "") -> Map:
    """A map that assigns ``assign``, zeroes ``zero`` and keeps every other block of ``dst`` (choice 1)."""
    keep = [b for b in dst.names if b not in assign and b not in zero]
    return Map(name, src, dst, assign, keep=keep, zero=list(zero), max_degree=max_degree, doc=doc)


def traverse_flag(L: Layout) -> Gadget:
    """``π_flg1 = ReLU(γ_t) - ReLU(γ_t - 1) = 1[γ_t > 0]`` with ``γ_t = (1 - π_vis)ᵀ π_nbr``, in the flag positions."""
    x = L.vars()
    gamma = dot(ones(n) - x.vis, x.nbr)  # γ_t = (1 - π_vis)ᵀ π_nbr: unvisited neighbours of cur
    return ind_pos_at(gamma, units={"v": "flg1", "vm1": "flg2"}, writes={"ind": "flg1"})


def layer1(L: Layout) -> Layer:
    """Layer 1: trivial attention; the FFN decides traverse vs backtrack (blocks beyond the flags kept)."""
    x = L.vars()
    flag = traverse_flag(L)
    w1_1 = stated("W_1^{(1)}", L, L, flag.w1(),
                  doc="computes γ_t = (1 - π_vis)ᵀπ_nbr and γ_t - 1 into the flg1 and flg2 positions")
    w2_1 = stated("W_2^{(1)}", L, L, {**flag.w2(x), "buf": x.cur}, zero=["flg2"],
                  doc="flg1 = ReLU(γ) - ReLU(γ-1), flg2 = 0, copies π_cur into the buffer register")
    return Layer(None, FFN(w1_1, w2_1, gadgets=(flag,)))


def identity_value(label: str, L: Layout) -> Map:
    """A value map that is the identity (choice 3: ``W_O`` does the routing)."""
    return Map(label, L, L, keep=L.names, max_degree=1, doc="identity; W_O routes blocks")


def traverse_head(L: Layout) -> Head:
    """Head T of layer 2: ``Q_T = (1 - π_vis) ⊙ π_nbr``, ``K_T = π_cur``, identity value."""
    x = L.vars()
    kt = Layout("dfs.key_T", [("v", n)])
    return Head(
        "T",
        query=Map("Q_T^{(2)}", L, kt, {"v": hadamard(ones(n) - x.vis, x.nbr)},
                  doc="(1 - π_vis) ⊙ π_nbr: unvisited neighbours"),
        key=Map("K_T^{(2)}", L, kt, {"v": x.cur}, max_degree=1, doc="π_cur"),
        value=identity_value("V_T^{(2)}", L),
    )


def backtrack_key_layout() -> Layout:
    """The key space of head B: an ``n``-block and one scalar."""
    return Layout("dfs.key_B", [("v", n), ("f", 1)])


def backtrack_query(L: Layout) -> Map:
    """``Q_B = (1 - π_flg1)·[π_par ‖ π_flg3]``."""
    x = L.vars()
    return Map("Q_B^{(2)}", L, backtrack_key_layout(),
               {"v": (1 - x.flg1) * x.par, "f": (1 - x.flg1) * x.flg3}, doc="(1 - π_flg1)·[π_par ‖ π_flg3]")


def backtrack_head(L: Layout, query: Map | None = None, key: Map | None = None, value: Map | None = None) -> Head:
    """Head B of layer 2; by default ``Q_B`` as above, ``K_B = [π_cur ‖ π_flg3]`` and the identity value."""
    x = L.vars()
    return Head(
        "B",
        query=query or backtrack_query(L),
        key=key or Map("K_B^{(2)}", L, backtrack_key_layout(), {"v": x.cur, "f": x.flg3}, max_degree=1,
                       doc="[π_cur ‖ π_flg3]"),
        value=value or identity_value("V_B^{(2)}", L),
    )


#: The DFS part of ``W_O^{(2)}``: ``α''_T + α''_B`` on the blocks the proof routes.
W_O_DOC = ("α'' = α''_T + α''_B with α''_T = [-cur ‖ -par ‖ cur ‖ 0 ‖ nbr ‖ 0 ‖ 0³], "
           "α''_B = [-cur ‖ -par ‖ 0^{2n} ‖ nbr ‖ 0 ‖ 0³]")


def w_o_assign(o: Any) -> dict[str, Any]:
    """The blocks ``W_O^{(2)}`` writes, from the value space ``o`` of heads T and B."""
    return {
        "cur": -o["T.cur"] - o["B.cur"],
        "par": -o["T.par"] - o["B.par"],
        "vis": o["T.cur"],
        "tmp": o["T.nbr"] + o["B.nbr"],
    }


def w1_2_assign(x: Any) -> tuple[dict[str, Any], list[str]]:
    """``W_1^{(2)}``: negate cur and par, copy the previous tmp into nbr (assignments), reset tmp (zeroed)."""
    return {"cur": -x.cur, "par": -x.par, "nbr": x.tmp}, ["tmp"]


def par_gate(x: Any) -> Gadget:
    """``W_2^{(2)}``: ``π_par ← π_flg1 π_buf + (1 - π_flg1) π_par`` (thm:cotdfs:pargate) on the hidden vector ``x``."""
    return parent_gate(x.flg1, x.buf, x.par)


def build_decoder(name: str = "thm:cotdfs/as-written") -> Decoder:
    """The decoder exactly as the proof of ``thm:cotdfs`` states it (see the module docstring)."""
    L = layout()
    x = L.vars()
    head_t, head_b = traverse_head(L), backtrack_head(L)
    o = value_space([head_t, head_b]).vars()
    w_o = stated("W_O^{(2)}", value_space([head_t, head_b]), L, w_o_assign(o),
                 zero=["nbr", "buf", "flg1", "flg2", "flg3"], max_degree=1, doc=W_O_DOC)
    assign, zero = w1_2_assign(x)
    w1_2 = stated("W_1^{(2)}", L, L, assign, zero=zero, max_degree=1,
                  doc="negates cur and par, resets tmp, copies the previous tmp into nbr")
    gate = par_gate(x)
    w2_2 = stated("W_2^{(2)}", L, L, gate.w2(), doc="π_par ← π_flg1 π_buf + (1 - π_flg1) π_par")
    layer2 = Layer(Attention([head_t, head_b], w_o), FFN(w1_2, w2_2, gadgets=(gate,)))
    return Decoder(name, L, [layer1(L), layer2])


def validate(g: Digraph, source: int) -> None:
    """The theorem's domain: a simple digraph (``Digraph`` enforces it) and a source vertex."""
    if not isinstance(g, Digraph):
        raise InvalidInputError(f"thm:cotdfs takes a Digraph, got {type(g).__name__}")
    if g.weighted and any(w != 1 for w in g.weights or ()):
        raise InvalidInputError("thm:cotdfs uses A ∈ {0,1}^{n×n}: weights other than 1 are outside its domain")
    if not isinstance(source, int) or not 0 <= source < g.n:
        raise InvalidInputError(f"source {source!r} is not a vertex of a graph on 0..{g.n - 1}")


#: ``x_i = [e_i ‖ 0^n ‖ 0^n ‖ A_{i,:} ‖ 0^n ‖ 0^n ‖ -1 ‖ -1 ‖ 0]`` (unlisted blocks are 0).
X_TOKEN = StateEncoding({"cur": onehot("i"), "nbr": vector("row"), "flg1": const(-1), "flg2": const(-1),
                         "flg3": const(0)})
#: ``y_0 = [e_p ‖ 0^n ‖ e_p ‖ A_{p,:} ‖ 0^n ‖ 0^n ‖ -1 ‖ -1 ‖ 1]``.
Y0_TOKEN = StateEncoding({"cur": onehot("i"), "vis": onehot("i"), "nbr": vector("row"), "flg1": const(-1),
                          "flg2": const(-1), "flg3": const(1)})


#: ``enc`` of the DFS state ``(dfs^(t)(s), par^(t), vst^(t))``: ``cur = e_{dfs^(t)(s)}`` (``0^n`` for φ),
#: ``vis`` the indicator of ``vst^(t)``, ``par = e_{par^(t)(dfs^(t)(s))}`` while ``dfs^(t)(s) ≠ φ`` (where the
#: paper defines it).
ENCODING = StateEncoding({"cur": onehot("cur"), "vis": indicator("vst"), "par": onehot("par_cur", when="has_cur")})
#: "The chain-of-thought terminates when π_cur(y_{t+1}) = 0^n" (choice 6).
STOP = StopRule("cur", 0, "The chain-of-thought terminates when π_cur(y_{t+1}) = 0^n")


# -- the statement for every n (read by the all-n prover, symcot.prove.alln) -------------------------------

#: ``x_i`` read at its index ``i``: ``e_i`` and the row ``A_{i,:}``.
X_VIEWS = {"i": lambda c, i: i, "row": lambda c, i: c.vec(lambda j: c.adj(i, j), c.n)}
#: ``y_0`` read at the source: ``e_p`` and ``A_{p,:}``.
Y0_VIEWS = {"i": lambda c, i: c.src, "row": lambda c, i: c.vec(lambda j: c.adj(c.src, j), c.n)}
#: Every block of ``y_τ``: ``enc`` plus ``nbr = A_{cur,:}``, ``tmp = 0``, ``buf = e_{cur(τ-1)}`` (copied in
#: layer 1 of the step that produced ``y_τ``), ``flg1 = 1[traverse into τ]``, ``flg2 = 0``, ``flg3 = 1``;
#: at ``τ = 0`` the prompt's values (``buf = 0``, ``flg1 = flg2 = -1``).
TOKEN = ENCODING.extended(nbr=vector("nbr_row"), tmp=const(0), buf=onehot("prev_cur"), flg1=scalar("flg1_in"),
                          flg2=scalar("flg2_in"), flg3=const(1))
TOKEN_VIEWS = {
    "nbr_row": lambda c, t: c.vec(lambda j: c.adj(c.cur(t), j), c.n),
    "prev_cur": lambda c, t: c.ite(t == 0, -1, c.cur(t - 1)),
    "flg1_in": lambda c, t: c.ite(t == 0, -1, c.ite(c.tr(t - 1), 1, 0)),
    "flg2_in": lambda c, t: c.ite(t == 0, -1, 0),
    "traverse": lambda c, t: c.ite(c.tr(t), 1, 0),
}
#: Layer 1 at step ``τ``: "π_flg1(y_t^(1)) is 1 precisely when γ_t ≥ 1" and "copies π_cur(y_t) into the buffer".
CUTS = {1: StateEncoding({"flg1": scalar("traverse"), "buf": onehot("cur")})}
#: Head T: "resolves the lowest-indexed token ... whose current-node encoding corresponds to dfs^(t+1)(s)", else
#: x_⊥; head B: x_⊥ on a traverse, else the first y whose π_cur is the parent (y_0 when the query is [0 ‖ 1],
#: the backtrack from s).
CHOICES = (
    Choice(2, "T", lambda c, t: [(c.tr(t), "x", c.nxt(t)), (True, "x_⊥", 0)],
           "head T resolves the lowest-indexed unvisited neighbour, else defaults to x_⊥"),
    Choice(2, "B", lambda c, t: [(c.tr(t), "x_⊥", 0), (c.par(t, c.cur(t)) == -1, Y, 0),
                                 (True, Y, c.first(c.par(t, c.cur(t))))],
           "head B resolves the first y token whose π_cur is the parent; the query vanishes on a traverse"),
)
SEGMENTS = (Segment("x_⊥", lambda c: 1, StateEncoding({}), {}, lambda i: "x_⊥"),
            Segment("x", lambda c: c.n, X_TOKEN, X_VIEWS, lambda i: f"x_{i}"))
Y0_SEGMENT = Segment("y_0", lambda c: 1, Y0_TOKEN, Y0_VIEWS, lambda i: "y_0")
#: Where the proof states the cuts (the diagnosis of a failure quotes them).
QUOTES = {(1, "flg1"): "π_flg1(y_t^(1)) is 1 precisely when γ_t ≥ 1",
          (1, "buf"): "W_2^(1) copies π_cur(y_t) into the buffer"}
STATEMENT = AllNStatement(DFS_VOCABULARY, {n: lambda c: c.n}, SEGMENTS, Y0_SEGMENT, TOKEN, TOKEN_VIEWS, CHOICES,
                          CUTS, quotes=QUOTES)


class DfsSizes:
    """The size ``n = |V|`` of a graph and a source, for every construction that reads them as the DFS does.

    The prompt ``[x_⊥, x_0, …, x_{n-1}, y_0]`` is the statement's segments (:data:`SEGMENTS`, :data:`Y0_SEGMENT`).
    """

    def env(self, inp: tuple[Digraph, int]) -> dict:
        """``{n: |V|}``."""
        return {n: inp[0].n}


class DfsConstruction(DfsSizes, Construction):
    """The paper's DFS decoder with its input encoding and the proof's per-layer invariants."""

    encoding = ENCODING
    stop = STOP
    all_n = STATEMENT

    def __init__(self, decoder: Decoder | None = None, variant: str = "as-written", notes: list[str] | None = None):
        super().__init__("thm:cotdfs", variant, decoder or build_decoder(f"thm:cotdfs/{variant}"),
                         notes or [])

    def validate(self, inp: tuple[Digraph, int]) -> None:
        """A simple digraph and a source vertex."""
        validate(*inp)
