"""The all-n statement of a construction: its classes, choices and checks of its own shape."""

import dataclasses

import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT, DfsConstruction
from proofs.cot_path_to_tree.constructions.cotpathtotree import PathToTreeConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from proofs.cot_path_to_tree.constructions.cotwidofpath import WidthPathConstruction
from symcot.constructions.alln import Y
from symcot.constructions.base import Construction


def test_statements_of_the_proved_constructions():
    assert STATEMENT.classes() == ["x_⊥", "x", Y] and STATEMENT.choice(2, "T") is not None
    assert STATEMENT.choice(1, "T") is None and STATEMENT.segment("x").label(3) == "x_3"
    assert set(STATEMENT.token.blocks) == set(DfsConstruction().decoder.layout.names)
    assert PathToTreeConstruction.all_n.last_token == "all"
    for cls in (DfsConstruction, PathToTreeConstruction, StrahlerTreeConstruction):
        enc = cls.encoding.blocks
        assert all(cls.all_n.token.blocks[b] == term for b, term in enc.items())  # the token extends enc
    assert WidthPathConstruction.all_n is None


def test_shape_errors():
    with pytest.raises(ValueError, match="last_token"):
        dataclasses.replace(STATEMENT, last_token="some")
    with pytest.raises(ValueError, match="distinct"):
        dataclasses.replace(STATEMENT, segments=STATEMENT.segments + STATEMENT.segments[:1])


def test_a_choice_is_stated_for_a_token_class():
    from symcot.constructions.alln import Choice

    at_x = Choice(2, "T", lambda c, i: [(True, "x_⊥", 0)], cls="x")
    stmt = dataclasses.replace(STATEMENT, choices=(*STATEMENT.choices, at_x))
    assert stmt.choice(2, "T", "x") is at_x and stmt.choice(2, "T") is STATEMENT.choice(2, "T")
    assert STATEMENT.choice(2, "T", "x") is None and all(ch.cls == Y for ch in STATEMENT.choices)
    with pytest.raises(ValueError, match="stated twice"):
        dataclasses.replace(stmt, choices=(*stmt.choices, at_x))
    with pytest.raises(ValueError, match="neither a segment's"):
        dataclasses.replace(STATEMENT, choices=(*STATEMENT.choices, dataclasses.replace(at_x, cls="y_0")))


def test_the_per_step_claims_a_failure_is_located_by_are_the_statements_cuts_and_choices():
    """One statement of the per-step claims: ``Construction.invariants`` reads the all-n cuts and choices."""
    from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic
    from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT, DfsConstruction
    from symcot.inputs.graphs import Digraph

    g = Digraph(3, [(0, 1), (1, 0), (1, 2), (2, 1)])
    cons, states = DfsConstruction(), dfs_dynamic(g, 0)
    assert type(cons).invariants is Construction.invariants  # no hand-written copy in the construction
    step1 = {(e.layer, e.kind, e.name): e.expected for e in cons.invariants((g, 0), states, 1)}
    assert step1 == {(1, "block", "flg1"): [1], (1, "block", "buf"): [1, 0, 0], (2, "head", "T"): "x_1",
                     (2, "head", "B"): "x_⊥"}  # step 1 traverses 0 → 1
    last = {(e.layer, e.kind, e.name): e.expected for e in cons.invariants((g, 0), states, len(states) - 1)}
    assert last[(2, "head", "T")] == "x_⊥" and last[(1, "block", "flg1")] == [0]
    quotes = {e.name: e.source for e in cons.invariants((g, 0), states, 1)}
    assert quotes["flg1"] == STATEMENT.quotes[(1, "flg1")] and "x_⊥" in quotes["T"]
