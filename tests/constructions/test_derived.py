"""A derived construction is its base in everything but the weights (symcot.constructions.derived)."""

from __future__ import annotations

from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic
from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from symcot.constructions.derived import Derived
from symcot.inputs import Digraph


def test_a_derived_construction_reads_the_base_statement_and_runs_its_own_decoder():
    base = DfsConstruction()
    other = DfsConstruction(variant="other")
    d = Derived(base, "derived", other.decoder, ["a derived variant"])
    inp = (Digraph.from_arcs(3, [(0, 1), (1, 2)]), 0)
    assert d.encoding is base.encoding and d.stop is base.stop and d.lam_rule is base.lam_rule
    assert d.env(inp) == base.env(inp) and d.token_keys(inp) == base.token_keys(inp)
    assert d.decoder is other.decoder and d.variant == "derived" and d.claim == base.claim
    states = dfs_dynamic(*inp)
    assert d.invariants(inp, states, 1) == base.invariants(inp, states, 1) != []
