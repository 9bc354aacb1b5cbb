"""thm:cotdfs:phi -- the DFS decoder, extended by one component, emits the Dyck word φ(G_T) (Section 4.1).

Claimed (the paragraph after thm:cotdfs; no label in the paper, id ours):
    "The mapping φ coincides exactly with the execution of the procedure DFS on the tree G_T. To obtain
    the associated Dyck path (or Dyck word), it suffices to extend the token embedding by one additional
    component that records +1 (or U) and -1 (or D) exclusively, in accordance with the traverse and
    backtrack operations, in the final layer."

Checked:
    The extended decoder (:mod:`proofs.cot_path_to_tree.constructions.cotdfs_phi`; d = 6n + 4, two layers, two heads) is
    replayed exactly on every labeled tree with every root. After every CoT step the DFS blocks must match
    eq:dfsdynamic (as for thm:cotdfs) and ``π_q(y_t)`` must be +1 after a traverse and -1 after a
    backtrack; the stop rule must fire at step 2n - 1; and ``π_q(y_1) … π_q(y_{2(n-1)})`` read as U/D must
    equal ``φ(G_T)`` as computed by :func:`symcot.algorithms.phi`.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

import numpy as np

from proofs.cot_path_to_tree.algorithms import phi
from proofs.cot_path_to_tree.algorithms.batched.dfs import DFS_REFERENCE
from proofs.cot_path_to_tree.algorithms.batched.trees import phi_of
from proofs.cot_path_to_tree.algorithms.dfs import DfsState
from proofs.cot_path_to_tree.algorithms.dfstree_facts import VOCABULARY as DFS_TREE
from proofs.cot_path_to_tree.constructions.cotdfs_phi import PAPER_D, DfsPhiConstruction
from symcot.check.exhaustive import Family
from symcot.check.spec import Conclusion, Run, StepwiseSpec
from symcot.claims import Claim, ConstructionCheck
from symcot.inputs import Digraph, digraph_count, digraphs_with_sources, rooted_labeled_trees
from symcot.inputs.dyck import DOWN, UP
from symcot.inputs.dyck_families import ordered_rooted_tree_family
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.conclude import Concluded

PAPER_SIZES = {"d": PAPER_D, "layers": 2, "heads": 2}


def describe(inp: tuple[Digraph, int]) -> dict[str, Any]:
    """JSON description of a (tree, root) input, with its word φ(G_T)."""
    g, s = inp
    return {"n": g.n, "arcs": [list(a) for a in g.arcs], "root": s, "phi": phi(g, s), "text": f"{g}, root {s}"}


def state_text(st: DfsState) -> str:
    """One line per reference state."""
    cur = "φ" if st.cur is None else f"v{st.cur}"
    return f"t={st.t} {st.move}: dfs={cur}, vst={sorted(st.vst)}"


def _spelled(run: Run, inp: tuple[Digraph, int]) -> Any:
    """``U``/``D`` for ``π_q(y_1) … π_q(y_{2(n-1)})`` (``?`` for any other value); on a batch, every row's word."""
    qs = (run.block("q", k)[0] for k in range(1, 2 * (inp[0].n - 1) + 1))
    return reduce(np.char.add, (np.where(q == 1, UP, np.where(q == -1, DOWN, "?")) for q in qs), np.str_(""))


SPEC = StepwiseSpec(
    reference=DFS_REFERENCE,
    state_text=state_text,
    conclusions=(
        Conclusion("the CoT stops at step 2n - 1", steps=lambda inp: 2 * inp[0].n - 1),
        Conclusion("π_q over steps 1..2(n-1) spells φ(G_T)", read=_spelled, answer=lambda inp: phi_of(*inp),
                   trace=("q",)),
    ),
)

TREES = Family("labeled trees × every root", rooted_labeled_trees, lambda k: k ** (k - 1), describe,
               universe=digraphs_with_sources, universe_count=lambda k: k * digraph_count(k))
#: Part of the tree domain that scales (``symcot verify --reach 13``): every ordered tree, preorder labels, root 0.
ORDERED = ordered_rooted_tree_family(describe)

#: Both conclusions, as facts of the DFS vocabulary on a graph reachable from s (thm:cotdfs:tree's).
CONCLUDES = (
    Concluded("the CoT stops at step 2n - 1", ("bound", "tree-steps"),
              "the stop rule fires exactly at T (the realization), the run stops (`bound`, proved without `ends`), and "
              "T = 2n - 1"),
    Concluded("π_q over steps 1..2(n-1) spells φ(G_T)", ("tree-steps",),
              "the realization gives π_q(y_τ) = step_sign(τ) for τ ≤ T: +1 after a traverse, -1 after a backtrack; "
              "φ(G_T) is by its definition (algorithms.bijection.phi) the word of eq:dfsdynamic's moves on G_T but "
              "the last, the backtrack from s at T = 2n - 1: so the moves of steps 1 … 2(n - 1)"),
)

CLAIMS = [
    Claim(
        id="thm:cotdfs:phi",
        kind="sentence",
        statement="Extending the DFS embedding by one component set to +1 on traverse and -1 on backtrack in the "
                  "final layer makes the decoder emit φ(G_T) (Section 4.1, after thm:cotdfs).",
        where="Section 4.1, paragraph after thm:cotdfs, item i (no label in the paper; id ours)",
        checks=[ConstructionCheck(DfsPhiConstruction, SPEC, [TREES, ORDERED], PAPER_SIZES,
                                  method="exhaustive exact replay, every CoT step, word = φ(G_T)"),
                AllNCheck(DfsPhiConstruction, SPEC, [TREES], concrete_size=5, facts_size=4, vocabulary=DFS_TREE,
                          concludes=CONCLUDES)],
        default_max_size=6,
        notes=["q ← 2π_flg1 - 1 in W_2^(2); the word is read over steps 1..2(n-1); y_{2n-1} (the stop) is excluded."],
    ),
]
