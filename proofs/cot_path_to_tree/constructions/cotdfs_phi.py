r"""thm:cotdfs:phi -- the DFS decoder extended by one component that spells the Dyck word φ(G_T), as written.

Paper: *Chain-of-Thought Shows the Path to a Tree*, Section 4.1, the paragraph after ``thm:cotdfs``:

    "The mapping φ coincides exactly with the execution of the procedure DFS on the tree G_T. To obtain
    the associated Dyck path (or Dyck word), it suffices to extend the token embedding by one additional
    component that records +1 (or U) and -1 (or D) exclusively, in accordance with the traverse and
    backtrack operations, in the final layer."

The decoder is the one of ``thm:cotdfs`` (:mod:`proofs.cot_path_to_tree.constructions.cotdfs`, its layers reused through
the
builders there) on the layout ``[cur ‖ par ‖ vis ‖ nbr ‖ tmp ‖ buf ‖ flg1 ‖ flg2 ‖ flg3 ‖ q]``, so
``d = 6n + 4``, two layers, two heads. The new scalar ``q`` (the paper's name for the signed step,
``q_j ∈ {+1, -1}``, Section 2.2) is written by the final map only: ``W_2^{(2)}`` sets
``π_q ← π_flg1 - (1 - π_flg1) = 2π_flg1 - 1``, i.e. ``+1`` on a traverse (``π_flg1 = 1``) and ``-1`` on a
backtrack (``π_flg1 = 0``). Reading ``π_q(y_1) … π_q(y_{2(n-1)})`` as ``U``/``D`` gives ``φ(G_T)``; the
last step ``y_{2n-1}``, the backtrack from the root that stops the CoT, records ``-1`` too and is not part
of the word (``φ`` leaves out the final backtrack, ``|φ(G_T)| = 2(n-1)``).

Interpretive choices (beyond the DFS ones, choices 1-6 of :mod:`proofs.cot_path_to_tree.constructions.cotdfs`):

1. *Where ``q`` is written.* "in the final layer": only ``W_2^{(2)}`` assigns ``q``, from ``π_flg1(β)`` (the
   traverse/backtrack flag of layer 1, which layer 2 keeps). ``W_O^{(2)}`` writes nothing into ``q``;
   ``W_1^{(1)}, W_2^{(1)}, W_1^{(2)}`` keep it (unstated blocks are kept).
2. *Encoding.* ``x_i``, ``y_0`` and ``x_⊥`` carry ``q = 0`` (no step yet).
3. *Which steps spell φ.* Steps ``1 .. 2(n-1)``; ``y_{2n-1}`` (``π_cur = 0^n``, the stop) is excluded.
"""

from __future__ import annotations

from dataclasses import replace

from proofs.cot_path_to_tree.constructions.cotdfs import ENCODING as DFS_ENCODING
from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT as DFS_STATEMENT
from proofs.cot_path_to_tree.constructions.cotdfs import TOKEN as DFS_TOKEN
from proofs.cot_path_to_tree.constructions.cotdfs import (
    W_O_DOC,
    DfsConstruction,
    backtrack_head,
    layer1,
    par_gate,
    stated,
    traverse_head,
    w1_2_assign,
    w_o_assign,
)
from proofs.cot_path_to_tree.constructions.cotdfs import layout as dfs_layout
from symcot.constructions.base import Construction
from symcot.constructions.encoding import scalar
from symcot.ir import Layout, n
from symcot.model import FFN, Attention, Decoder, Layer, value_space

#: d = 6n + 4: the DFS embedding (6n + 3) and one component.
PAPER_D = 6 * n + 4


def layout() -> Layout:
    """The DFS layout with the scalar ``q`` appended."""
    return dfs_layout("dfs_phi", [("q", 1)])


def build_decoder(name: str = "thm:cotdfs:phi/as-written") -> Decoder:
    """The DFS decoder whose final map also writes ``π_q = 2π_flg1 - 1``."""
    L = layout()
    x = L.vars()
    head_t, head_b = traverse_head(L), backtrack_head(L)
    vs = value_space([head_t, head_b])
    w_o = stated("W_O^{(2)}", vs, L, w_o_assign(vs.vars()), zero=["nbr", "buf", "flg1", "flg2", "flg3", "q"],
                 max_degree=1, doc=W_O_DOC)
    assign, zero = w1_2_assign(x)
    w1_2 = stated("W_1^{(2)}", L, L, assign, zero=zero, max_degree=1,
                  doc="negates cur and par, resets tmp, copies the previous tmp into nbr")
    gate = par_gate(x)
    w2_2 = stated("W_2^{(2)}", L, L, {**gate.w2(), "q": x.flg1 - (1 - x.flg1)},
                  doc="π_par ← π_flg1 π_buf + (1 - π_flg1) π_par; π_q ← +1 on traverse, -1 on backtrack")
    layer2 = Layer(Attention([head_t, head_b], w_o), FFN(w1_2, w2_2, gadgets=(gate,)))
    return Decoder(name, L, [layer1(L), layer2])


#: The DFS ``enc`` and ``q``: ``+1`` after a traverse, ``-1`` after a backtrack, ``0`` at ``t = 0`` (choice 2).
ENCODING = DFS_ENCODING.extended(q=scalar("step_sign"))

#: For every n: the DFS statement (:data:`proofs.cot_path_to_tree.constructions.cotdfs.STATEMENT`) with ``π_q(y_τ)`` the
#: sign of
#: the move into ``τ`` (0 at ``τ = 0``, as in the prompt, whose tokens carry ``q = 0``: unlisted blocks are 0).
STATEMENT = replace(DFS_STATEMENT, token=DFS_TOKEN.extended(q=scalar("step_sign")))


class DfsPhiConstruction(DfsConstruction):
    """The DFS construction (same prompt, same invariants) on the layout with ``q``; ``q = 0`` in the prompt."""

    encoding = ENCODING
    all_n = STATEMENT

    def __init__(self, variant: str = "as-written", notes: list[str] | None = None):
        Construction.__init__(self, "thm:cotdfs:phi", variant, build_decoder(f"thm:cotdfs:phi/{variant}"),
                              notes or ["DFS decoder with q ← 2π_flg1 - 1 in W_2^(2); choices in "
                                        "proofs/cot_path_to_tree/constructions/cotdfs_phi.py"])
