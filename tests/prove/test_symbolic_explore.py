"""Symbolic exploration of topologies (symcot.prove.symbolic_explore): tallies, the first departure, workers."""

from __future__ import annotations

import proofs.cot_path_to_tree.thm_cottreestrahler as strahler_proof
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from symcot.prove import symbolic_explore
from symcot.prove.symbolic_explore import Tally, explore, refute_all
from symcot.prove.symbolic_target import Domain, SymbolicTarget


def _target(variant: str) -> SymbolicTarget:
    return SymbolicTarget("thm:cottreestrahler", lambda: StrahlerTreeConstruction(variant), strahler_proof.SPEC,
                          strahler_proof.TREES)


def test_the_tally_counts_every_topology_and_merges_by_sum():
    t = _target("repaired")
    trees = list(t.topologies(3))
    tally, first = refute_all(t, trees, Domain("bound", 3, strict=False))
    assert first is None and tally.topologies == len(trees) and tally.branches >= tally.topologies
    twice = Tally()
    twice.merge(tally)
    twice.merge(tally)
    assert twice.topologies == 2 * tally.topologies and twice.queries == 2 * tally.queries


def test_the_first_departure_is_the_smallest_index_and_is_found_alike_by_workers(monkeypatch):
    t = _target("repaired")
    trees = list(t.topologies(4))
    dom = Domain("bound", 2, strict=False)
    _, one = refute_all(t, trees, dom, jobs=1)
    assert one is not None
    k = one[0]
    assert all(not explore(t, trees[i], dom).bad for i in range(k)) and explore(t, trees[k], dom).bad
    monkeypatch.setattr(symbolic_explore, "PARALLEL_MIN", 2)
    _, two = refute_all(t, trees, dom, jobs=2)
    assert two is not None and two[0] == k
