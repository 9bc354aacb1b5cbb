"""The all-n statement of a construction: its classes, choices and checks of its own shape."""

import dataclasses

import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT, DfsConstruction
from proofs.cot_path_to_tree.constructions.cotpathtotree import PathToTreeConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from proofs.cot_path_to_tree.constructions.cotwidofpath import WidthPathConstruction
from symcot.constructions.alln import Y


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
