"""thm:cotdfs (Appendix "DFS") and the tree step count stated after it in Section 4.1.

Claimed:
    *thm:cotdfs* -- "A two-layer, two-head Transformer decoder can simulate the depth-first traversal
    DFS on any simple directed graph G = (V, E, A) in O(|V| + |E|) chain-of-thought steps."
    *thm:cotdfs:tree* (our id for the unlabelled sentence of Section 4.1) -- "When the underlying graph
    is a tree G_T, the number of required CoT steps is 2(n-1)."

Checked:
    The construction of the proof, transcribed as written (:mod:`proofs.cot_path_to_tree.constructions.cotdfs`), is
    replayed
    exactly; after every CoT step, ``π_cur(y_t)``, ``π_vis(y_t)`` and ``π_par(y_t)`` must encode
    ``dfs^(t)(s)``, ``vst^(t)`` and ``par^(t)(dfs^(t)(s))`` of the reference dynamic eq:dfsdynamic
    (:mod:`proofs.cot_path_to_tree.algorithms.dfs`), and the stop rule ``π_cur = 0^n`` must fire exactly when the
    dynamic ends (the backtrack from s). Size accounting must match d = 6n + 3, two layers, two heads.
    Inputs: every simple digraph with every source (exhaustive, by size, fewest arcs first) plus seeded
    random digraphs up to n = 12; for the tree sentence, every labeled tree with every root.
"""

from __future__ import annotations

import random
from typing import Any

from proofs.cot_path_to_tree.algorithms.batched.dfs import DFS_REFERENCE
from proofs.cot_path_to_tree.algorithms.dfs import DfsState
from proofs.cot_path_to_tree.algorithms.dfsstack_facts import VOCABULARY as DFS_STACK
from proofs.cot_path_to_tree.algorithms.dfstree_facts import VOCABULARY as DFS_TREE
from proofs.cot_path_to_tree.constructions.cotdfs import PAPER_D, DfsConstruction
from symcot.check.exhaustive import Family
from symcot.check.spec import Conclusion, Run, StepwiseSpec
from symcot.claims import Claim, ConstructionCheck
from symcot.inputs import Digraph, digraph_count, digraphs_with_sources, random_digraph, rooted_labeled_trees
from symcot.inputs.dyck_families import ordered_rooted_tree_family
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.conclude import Concluded

PAPER_SIZES = {"d": PAPER_D, "layers": 2, "heads": 2}


def describe(inp: tuple[Digraph, int]) -> dict[str, Any]:
    """JSON description of a (graph, source) input."""
    g, s = inp
    return {"n": g.n, "arcs": [list(a) for a in g.arcs], "source": s, "text": f"{g}, source {s}"}


def state_text(st: DfsState) -> str:
    """One line per reference state."""
    cur = "φ" if st.cur is None else f"v{st.cur}"
    par = "-" if st.cur is None else ("φ" if st.par[st.cur] is None else f"v{st.par[st.cur]}")
    return f"t={st.t} {st.move}: dfs={cur}, par(dfs)={par}, vst={sorted(st.vst)}"


#: The reference: eq:dfsdynamic, one transition read per input and per batch.
def _within_bound(run: Run, inp: tuple[Digraph, int]) -> Any:
    """Whether the run stops within ``2n - 1`` steps (every row's, on a batch)."""
    return run.steps <= 2 * inp[0].n - 1


#: The theorem's step bound: the run stops, within ``2n - 1 = O(|V|)`` steps (the exact count is
#: ``2·|reachable(s)| - 1``).
BOUND = Conclusion("the CoT stops within 2n - 1 steps, O(|V| + |E|)", read=_within_bound, answer=lambda inp: True)

SPEC = StepwiseSpec(reference=DFS_REFERENCE, state_text=state_text, conclusions=(BOUND,))


def _random_digraphs(size: int, per_size: int = 12) -> list[tuple[Digraph, int]]:
    rng = random.Random(20261125 + size)
    out = []
    for k in range(per_size):
        g = random_digraph(size, rng, p=[0.15, 0.3, 0.5][k % 3])
        out.append((g, rng.randrange(size)))
    return out


DIGRAPHS = Family("simple digraphs × every source", digraphs_with_sources,
                  lambda n: n * digraph_count(n), describe, universe=digraphs_with_sources,
                  universe_count=lambda n: n * digraph_count(n))
RANDOM = Family("seeded random digraphs (12 per size)", _random_digraphs, lambda n: 12, describe,
                min_size=5, exhaustive=False, max_size=12)
#: Its universe: every simple digraph with every source (the domain facts say which of them are the domain).
TREES = Family("labeled trees × every root", rooted_labeled_trees, lambda n: n ** (n - 1), describe,
               universe=digraphs_with_sources, universe_count=lambda n: n * digraph_count(n))
#: Part of the tree domain that scales (``symcot verify --reach 13``): every ordered tree, preorder labels, root 0.
ORDERED = ordered_rooted_tree_family(describe)


def _at_root(run: Run, inp: tuple[Digraph, int]) -> tuple[list[Any], list[Any]]:
    """``(π_cur, π_vis)`` of ``y_{2(n-1)}``."""
    k = 2 * (inp[0].n - 1)
    return run.block("cur", k), run.block("vis", k)


def _root_all_visited(inp: tuple[Digraph, int]) -> tuple[list[int], list[int]]:
    """``(e_root, 1^n)``."""
    g, root = inp
    return [1 if j == root else 0 for j in range(g.n)], [1] * g.n


#: The sentence's count: after 2(n-1) steps the traversal is back at the root with every vertex visited, and
#: the stop rule fires one step later, at step 2n - 1.
TREE_SPEC = StepwiseSpec(SPEC.reference, state_text, conclusions=(
    Conclusion("the stop rule fires at step 2(n-1) + 1", steps=lambda inp: 2 * inp[0].n - 1),
    Conclusion("y_{2(n-1)} is at the root with every vertex visited", read=_at_root, answer=_root_all_visited,
               trace=("cur", "vis")),
))

#: The step bound as facts of DFS with its stack (``bound`` is proved without the definition ``ends``: the run stops).
CONCLUDES = (
    Concluded(BOUND.text, ("bound",),
              "the stop rule fires exactly at T (the realization), and T ≤ 2n - 1; `bound` is proved without the "
              "definition `ends` (that the run stops), from `moving` (every step that moves is at most 2n - 2): no "
              "run moves 2n - 1 times, so it stops"),
)

#: The sentence's conclusions, as facts of the DFS vocabulary on a graph reachable from s (a tree from its root).
TREE_CONCLUDES = (
    Concluded("the stop rule fires at step 2(n-1) + 1", ("bound", "tree-steps"),
              "the stop rule fires exactly at T (the realization), the run stops (`bound`, proved without `ends`), and "
              "T = 2n - 1"),
    Concluded("y_{2(n-1)} is at the root with every vertex visited", ("tree-steps", "tree-root"),
              "y_{T-1} encodes cur^(T-1) and vst^(T-1) (the realization); T - 1 = 2(n - 1), cur^(T-1) = s and every "
              "vertex is visited at T - 1"),
)

CLAIMS = [
    Claim(
        id="thm:cotdfs",
        kind="theorem",
        statement="A two-layer, two-head decoder simulates DFS (eq:dfsdynamic) on any simple digraph "
                  "in O(|V|+|E|) CoT steps.",
        where="Section 4.1; proof in Appendix DFS (app:cotdfs)",
        checks=[ConstructionCheck(DfsConstruction, SPEC, [DIGRAPHS, RANDOM], PAPER_SIZES),
                AllNCheck(DfsConstruction, SPEC, [DIGRAPHS], concrete_size=4, facts_size=3,
                          vocabulary=DFS_STACK, concludes=CONCLUDES)],
        # every digraph at n = 5 is 5.2 million inputs: out of the default run, though the deepest mutant fails
        # first at n = 4 (the margin is on trees, thm:cotdfs:tree; docs/adequacy.md)
        default_max_size=4,
        notes=["The stop rule fires one step after the backtrack into s: 2·|reachable(s)| - 1 steps."],
    ),
    Claim(
        id="thm:cotdfs:tree",
        kind="sentence",
        statement="On a tree G_T the DFS decoder needs 2(n-1) CoT steps (Section 4.1, after thm:cotdfs).",
        where="Section 4.1, paragraph after thm:cotdfs (no label in the paper; id ours)",
        checks=[ConstructionCheck(DfsConstruction, TREE_SPEC, [TREES, ORDERED], PAPER_SIZES,
                                  method="exhaustive exact replay, every CoT step, step count"),
                AllNCheck(DfsConstruction, TREE_SPEC, [TREES], concrete_size=5, facts_size=4,
                          vocabulary=DFS_TREE, concludes=TREE_CONCLUDES)],
        default_max_size=6,
        notes=["Read as: the traversal completes after 2(n-1) steps (y_{2(n-1)} at the root, all visited); "
               "the stop rule π_cur = 0 then fires at step 2n-1, the count thm:cottreestrahler uses."],
    ),
]
