"""thm:cotdijkstra (Appendix "Dijkstra Algorithm"), and the smallest λ that makes it work.

Claimed:
    *thm:cotdijkstra* -- "A two-layer, single-head Transformer decoder can simulate the Dijkstra
    algorithm Dkst on any simple connected directed graph G = (V, E, A) with A = R_{>0} in exactly
    |V| - 1 chain-of-thought steps."

Checked:
    The proof's construction (:mod:`proofs.cot_path_to_tree.constructions.cotdijkstra`) is replayed exactly. After every
    CoT step ``t = 1 .. n-1`` the blocks ``cur``, ``vis``, ``dis`` and ``crd`` of ``y_t`` must equal
    ``enc(Dkst^(t))`` (``∞ ↦ λ``) of the reference dynamic of Section 2.1
    (:mod:`proofs.cot_path_to_tree.algorithms.dijkstra`); ``y_0`` is compared on ``cur``, ``vis``, ``crd``; the halting
    criterion ``π_vis = 1^n`` must fire at ``t = n - 1`` exactly. Size accounting: ``d = 5n + 1``, two
    layers, one head. Variants: ``as-written`` (``A ∈ ℝ_{>0}^{n×n}``: a missing arc and the diagonal are
    ``∞``, encoded as λ), ``missing-arc-0`` (a non-arc is 0 in ``A_{i,:}``, the adjacency row of the DFS
    proof) and ``repaired`` (a non-arc is λ, ``a_ii = 0``), each at the rule ``λ = 1 + (n-1)·max weight``.

    Each row's ``details`` then reports the smallest integer λ that works for every input of each
    (family, size) group: λ = 1, 2, … is tried on the whole group (inputs that failed at a smaller λ
    first), and the first λ that passes must also pass at the next ``CONFIRM`` values. It is compared
    with ``⌊D*⌋ + 1``, ``D*`` the largest finite tentative distance of the group, and for the
    exhaustive weight families with ``(n - 1)·W + 1``.

Inputs (connected = every vertex reachable from the source): every such digraph with every weight
assignment from {1, 2, 3} and every source (n ≤ 3: 62,816,256 inputs at n = 4 are out of reach); every
such digraph with BFS weights and every source (n ≤ 4); every labeled tree with every root, BFS
weights (n ≤ 6); 12 seeded random digraphs with exact rational weights at each n = 4..10.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from proofs.cot_path_to_tree.algorithms.batched.dijkstra import DIJKSTRA_REFERENCE
from proofs.cot_path_to_tree.algorithms.dijkstra import INF, dijkstra_dynamic, state_text
from proofs.cot_path_to_tree.algorithms.dijkstra_symbolic import DijkstraReference
from proofs.cot_path_to_tree.constructions.cotdijkstra import PAPER_D, READINGS, DijkstraConstruction, Inp, Number
from symcot.check.exhaustive import Family
from symcot.check.spec import StepwiseSpec
from symcot.claims import Claim
from symcot.inputs import Digraph, digraph_count, digraphs_with_sources, rooted_labeled_trees
from symcot.inputs.dyck_families import ordered_rooted_tree_family
from symcot.inputs.weighted import (
    connected_count,
    connected_digraphs_with_sources,
    describe,
    random_weighted_digraph,
    weighted_digraphs_with_sources,
    weighted_universe,
    weighted_universe_count,
)
from symcot.prove.alln.check import AllNCheck
from symcot.prove.lam.scan import LambdaScanCheck
from symcot.prove.symbolic_check import SymbolicCheck
from symcot.prove.symbolic_target import SymbolicTarget

PAPER_SIZES = {"d": PAPER_D, "layers": 2, "heads": 1}

#: Compare ``y_t`` with ``enc(Dkst^(t))`` of the reference dynamic of Section 2.1.
SPEC = StepwiseSpec(reference=DIJKSTRA_REFERENCE, state_text=state_text)


def _random_inputs(size: int, per_size: int = 12) -> list[Inp]:
    rng = random.Random(20261126 + size)
    return [random_weighted_digraph(size, rng, p=[0.15, 0.3, 0.5][k % 3]) for k in range(per_size)]


def describe_topology(inp: tuple[Digraph, int]) -> dict[str, Any]:
    """A (digraph, source) input without its weights (symbolic replay makes every weight a symbol)."""
    g, s = inp
    return {"n": g.n, "arcs": [list(a) for a in g.arcs], "source": s,
            "text": f"Digraph(n={g.n}; {', '.join(f'{u}->{v}' for u, v in g.arcs)}), source {s}"}


#: The domain has every positive weight: each exhaustive family's universe is every digraph and source with the
#: family's weights only (``restricted``), so the all-n rows are proved assuming the other weights behave alike.
WEIGHTED = Family("connected digraphs × weights {1,2,3} × every source", weighted_digraphs_with_sources,
                  lambda k: connected_count(k, 3), describe, max_size=3, universe=weighted_universe,
                  universe_count=weighted_universe_count, restricted="arc weights in {1, 2, 3}")
UNIT = Family("connected digraphs × every source, BFS weights", connected_digraphs_with_sources,
              lambda k: connected_count(k, 1), describe, max_size=4, universe=digraphs_with_sources,
              universe_count=lambda k: k * digraph_count(k), restricted="unit arc weights")
TREES = Family("labeled trees × every root, BFS weights", rooted_labeled_trees, lambda k: k ** (k - 1), describe,
               max_size=6, universe=digraphs_with_sources, universe_count=lambda k: k * digraph_count(k),
               restricted="unit arc weights")
RANDOM = Family("seeded random digraphs, rational weights (12 per size)", _random_inputs, lambda k: 12, describe,
                min_size=4, exhaustive=False, max_size=10)
#: Scanned for λ only (the growth in the weight bound W): weights {1, 2}.
WEIGHTS12 = Family("connected digraphs × weights {1,2} × every source",
                   lambda k: weighted_digraphs_with_sources(k, (1, 2)), lambda k: connected_count(k, 2), describe,
                   max_size=3)
#: The topologies of symbolic replay: every connected digraph with every source, each weight a symbol.
TOPOLOGIES = Family("connected digraphs × every source", connected_digraphs_with_sources,
                    lambda k: connected_count(k, 1), describe_topology)

#: Part of the tree domain that scales (``symcot verify --reach 13``): every ordered tree, preorder labels, root 0.
ORDERED = ordered_rooted_tree_family(describe, ", BFS weights")

FAMILY_W = {WEIGHTED.name: 3, UNIT.name: 1, TREES.name: 1, WEIGHTS12.name: 2, ORDERED.name: 1}


def largest_finite_distance(inputs: Iterable[Inp]) -> Number:
    """``D*``: the largest finite entry of any ``Dist^(t)`` over the inputs (0 if none)."""
    best: Number = 0
    for g, s in inputs:
        for st in dijkstra_dynamic(g, s):
            for d in st.dist:
                if d is not INF and d > best:
                    best = d
    return best


def _variant(name: str) -> Any:
    return lambda: DijkstraConstruction(name)


def _scan(name: str) -> LambdaScanCheck:
    return LambdaScanCheck(name, _variant(name), SPEC, FAMILIES, largest_finite_distance, [WEIGHTS12],
                           dict(PAPER_SIZES), FAMILY_W)


def _symbolic(name: str) -> SymbolicCheck:
    target = SymbolicTarget("thm:cotdijkstra", _variant(name), SPEC, TOPOLOGIES, weighted=DijkstraReference())
    return SymbolicCheck(name, target,
                         default_size=3)


FAMILIES = [WEIGHTED, UNIT, TREES, ORDERED, RANDOM]

CLAIMS = [
    Claim(
        id="thm:cotdijkstra",
        kind="theorem",
        statement="A two-layer, single-head decoder simulates Dkst on any simple connected digraph with "
                  "A = R_{>0} in exactly |V| - 1 CoT steps.",
        where="Section 4.1; proof in Appendix Dijkstra Algorithm (app:cotdij)",
        checks=[_scan("as-written"), _scan("missing-arc-0"), _scan("repaired"),
                _symbolic("as-written"), _symbolic("missing-arc-0"), _symbolic("repaired"),
                *[AllNCheck(_variant(v), SPEC, FAMILIES, concrete_size=4, facts_size=3, reading_size=2)
                  for v in ("as-written", "missing-arc-0", "repaired")]],
        default_max_size=6,
        notes=["Connected = every vertex reachable from the source. Family caps: weights {1,2,3} to n = 3, "
               "BFS weights to n = 4, trees to n = 6; max_size is the largest size every exhaustive family "
               "reached, so the {1,2,3} cap bounds it."],
        readings=READINGS,
    ),
]
