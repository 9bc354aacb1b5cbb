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


def test_a_mutant_reads_its_bases_prompt_keys_once_per_input():
    import pathlib
    import runpy

    from symcot.constructions.mutant import Mutant

    example = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "prefix_sum" / "prefix_sum.py"
    mod = runpy.run_path(str(example))
    base = mod["as_written"]()
    calls = []
    keys = type(base.all_n.prompt).keys

    class Counting(type(base.all_n.prompt)):
        def keys(self, inp):
            calls.append(inp)
            return keys(self, inp)

    base._segments = lambda: Counting(*[getattr(base.all_n.prompt, f) for f in ("vocabulary", "segments", "y0",
                                                                                 "views")])
    one = Mutant(base, layer=1, map="W_1", output=("sum", 0), monomial=[("bit", 0)], value=2)
    two = Mutant(base, layer=1, map="W_1", output=("sum", 0), monomial=[("bit", 0)], value=3)
    first = one.prompt((1, 0, 1)).tokens
    assert two.prompt((1, 0, 1)).tokens == first and base.token_keys((1, 0, 1)) == one.token_keys((1, 0, 1))
    assert calls == [(1, 0, 1)]
    assert one.token_keys((1, 0, 1)) is not one.token_keys((1, 0, 1))  # a copy each time: callers may change it
