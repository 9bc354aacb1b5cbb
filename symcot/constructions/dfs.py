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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symcot.algorithms.dfs import DfsState
from symcot.constructions.base import Construction, Expectation, Prompt
from symcot.errors import InvalidInputError
from symcot.inputs.graphs import Digraph
from symcot.ir import Layout, Map, dot, hadamard, n, ones
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space

BLOCKS = ["cur", "par", "vis", "nbr", "tmp", "buf", "flg1", "flg2", "flg3"]
#: d = 6n + 3, as stated in the proof.
PAPER_D = 6 * n + 3


def layout() -> Layout:
    """The embedding layout: six ``n``-blocks and three scalar flags."""
    return Layout("dfs", [(b, n) for b in BLOCKS[:6]] + [(b, 1) for b in BLOCKS[6:]])


def build_decoder(name: str = "thm:cotdfs/as-written") -> Decoder:
    """The decoder exactly as the proof of ``thm:cotdfs`` states it (see the module docstring)."""
    L = layout()
    x = L.vars()
    everything_but = lambda *bs: [b for b in BLOCKS if b not in bs]  # noqa: E731

    # Layer 1: trivial attention; FFN decides traverse vs backtrack.
    gamma = dot(ones(n) - x.vis, x.nbr)  # γ_t = (1 - π_vis)ᵀ π_nbr: unvisited neighbours of cur
    w1_1 = Map("W_1^{(1)}", L, L, {"flg1": gamma, "flg2": gamma - 1},
               keep=everything_but("flg1", "flg2"),
               doc="computes γ_t = (1 - π_vis)ᵀπ_nbr and γ_t - 1 into the flg1 and flg2 positions")
    w2_1 = Map("W_2^{(1)}", L, L, {"flg1": x.flg1 - x.flg2, "buf": x.cur}, zero=["flg2"],
               keep=everything_but("flg1", "flg2", "buf"),
               doc="flg1 = ReLU(γ) - ReLU(γ-1), flg2 = 0, copies π_cur into the buffer register")
    layer1 = Layer(None, FFN(w1_1, w2_1))

    # Layer 2: two mutually exclusive heads.
    kt = Layout("dfs.key_T", [("v", n)])
    head_t = Head(
        "T",
        query=Map("Q_T^{(2)}", L, kt, {"v": hadamard(ones(n) - x.vis, x.nbr)},
                  doc="(1 - π_vis) ⊙ π_nbr: unvisited neighbours"),
        key=Map("K_T^{(2)}", L, kt, {"v": x.cur}, max_degree=1, doc="π_cur"),
        value=Map("V_T^{(2)}", L, L, keep=BLOCKS, max_degree=1, doc="identity; W_O routes blocks"),
    )
    kb = Layout("dfs.key_B", [("v", n), ("f", 1)])
    head_b = Head(
        "B",
        query=Map("Q_B^{(2)}", L, kb, {"v": (1 - x.flg1) * x.par, "f": (1 - x.flg1) * x.flg3},
                  doc="(1 - π_flg1)·[π_par ‖ π_flg3]"),
        key=Map("K_B^{(2)}", L, kb, {"v": x.cur, "f": x.flg3}, max_degree=1, doc="[π_cur ‖ π_flg3]"),
        value=Map("V_B^{(2)}", L, L, keep=BLOCKS, max_degree=1, doc="identity; W_O routes blocks"),
    )
    vs = value_space([head_t, head_b])
    o = vs.vars()
    w_o = Map("W_O^{(2)}", vs, L, {
        "cur": -o["T.cur"] - o["B.cur"],
        "par": -o["T.par"] - o["B.par"],
        "vis": o["T.cur"],
        "tmp": o["T.nbr"] + o["B.nbr"],
    }, zero=["nbr", "buf", "flg1", "flg2", "flg3"], max_degree=1,
        doc="α'' = α''_T + α''_B with α''_T = [-cur ‖ -par ‖ cur ‖ 0 ‖ nbr ‖ 0 ‖ 0³], "
            "α''_B = [-cur ‖ -par ‖ 0^{2n} ‖ nbr ‖ 0 ‖ 0³]")
    w1_2 = Map("W_1^{(2)}", L, L, {"cur": -x.cur, "par": -x.par, "nbr": x.tmp}, zero=["tmp"],
               keep=everything_but("cur", "par", "nbr", "tmp"), max_degree=1,
               doc="negates cur and par, resets tmp, copies the previous tmp into nbr")
    w2_2 = Map("W_2^{(2)}", L, L, {"par": x.flg1 * x.buf + (1 - x.flg1) * x.par},
               keep=everything_but("par"),
               doc="π_par ← π_flg1 π_buf + (1 - π_flg1) π_par")
    layer2 = Layer(Attention([head_t, head_b], w_o), FFN(w1_2, w2_2))
    return Decoder(name, L, [layer1, layer2])


def validate(g: Digraph, source: int) -> None:
    """The theorem's domain: a simple digraph (``Digraph`` enforces it) and a source vertex."""
    if not isinstance(g, Digraph):
        raise InvalidInputError(f"thm:cotdfs takes a Digraph, got {type(g).__name__}")
    if g.weighted and any(w != 1 for w in g.weights or ()):
        raise InvalidInputError("thm:cotdfs uses A ∈ {0,1}^{n×n}: weights other than 1 are outside its domain")
    if not isinstance(source, int) or not 0 <= source < g.n:
        raise InvalidInputError(f"source {source!r} is not a vertex of a graph on 0..{g.n - 1}")


class DfsConstruction(Construction):
    """The paper's DFS decoder with its input encoding and the proof's per-layer invariants."""

    def __init__(self, decoder: Decoder | None = None, variant: str = "as-written", notes: list[str] | None = None):
        super().__init__("thm:cotdfs", variant, decoder or build_decoder(f"thm:cotdfs/{variant}"),
                         notes or [])

    def env(self, inp: tuple[Digraph, int]) -> dict:
        """``{n: |V|}``."""
        return {n: inp[0].n}

    def prompt(self, inp: tuple[Digraph, int]) -> Prompt:
        """``[x_⊥, x_0, …, x_{n-1}, y_0]`` as in the proof."""
        g, s = inp
        validate(g, s)
        cl = self.concrete(inp).layout
        a = g.adjacency()
        e = lambda i: [1 if j == i else 0 for j in range(g.n)]  # noqa: E731
        toks = [cl.assemble({})]
        labels = ["x_⊥"]
        for i in range(g.n):
            toks.append(cl.assemble({"cur": e(i), "nbr": a[i], "flg1": -1, "flg2": -1, "flg3": 0}))
            labels.append(f"x_{i}")
        toks.append(cl.assemble({"cur": e(s), "vis": e(s), "nbr": a[s], "flg1": -1, "flg2": -1, "flg3": 1}))
        labels.append("y_0")
        return Prompt(toks, labels)

    def invariants(self, inp: tuple[Digraph, int], states: Sequence[DfsState], t: int) -> list[Expectation]:
        """The proof's claims inside step ``t``: layer-1 flags and buffer, and each head's selection."""
        g, s = inp
        before, after = states[t - 1], states[t]
        traverse = after.move == "traverse"
        nv = g.n
        e = lambda i: [0] * nv if i is None else [1 if j == i else 0 for j in range(nv)]  # noqa: E731
        out = [
            Expectation(1, "block", "flg1", [1 if traverse else 0],
                        "π_flg1(y_t^(1)) is 1 precisely when γ_t ≥ 1"),
            Expectation(1, "block", "buf", e(before.cur), "W_2^(1) copies π_cur(y_t) into the buffer"),
            Expectation(2, "head", "T", f"x_{after.cur}" if traverse else "x_⊥",
                        "head T resolves the lowest-indexed unvisited neighbour, else defaults to x_⊥"),
        ]
        if traverse:
            out.append(Expectation(2, "head", "B", "x_⊥", "when π_flg1 = 1 the backtrack query vanishes"))
        elif after.cur is not None:
            first = next(k for k, st in enumerate(states) if st.cur == after.cur)
            out.append(Expectation(2, "head", "B", f"y_{first}",
                                   "head B resolves the first y token whose π_cur is the parent"))
        return out


def expected_blocks(g: Digraph, state: DfsState) -> dict[str, Any]:
    """The encoding of the DFS state ``(dfs^(t)(s), par^(t), vst^(t))`` in ``y_t``.

    ``cur`` is ``e_{dfs^(t)(s)}`` (``0^n`` for φ); ``vis`` the indicator of ``vst^(t)``; ``par`` is
    ``e_{par^(t)(dfs^(t)(s))}`` (``0^n`` for φ) and is compared only while ``dfs^(t)(s) ≠ φ``, where
    the paper defines it.
    """
    nv = g.n
    e = lambda i: [0] * nv if i is None else [1 if j == i else 0 for j in range(nv)]  # noqa: E731
    out: dict[str, Any] = {"cur": e(state.cur), "vis": [1 if v in state.vst else 0 for v in range(nv)]}
    if state.cur is not None:
        out["par"] = e(state.par[state.cur])
    return out


def is_terminal(layout_c: Any, y: list[Any]) -> bool:
    """The paper's stop rule: ``π_cur(y_t) = 0^n``."""
    return all(v == 0 for v in layout_c.pi("cur", y))
