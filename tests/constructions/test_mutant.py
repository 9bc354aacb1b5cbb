"""Mutant with readable keyword arguments, the same as the positional form."""

import pytest

from symcot.constructions.cotdfs import DfsConstruction
from symcot.constructions.mutant import Mutant
from symcot.inputs import Digraph


def test_keywords_give_the_same_mutant_as_positions():
    a = Mutant(DfsConstruction(), 2, "W_2", ("par", 0), [("flg1", 0), ("buf", 0)], 0)
    b = Mutant(DfsConstruction(), layer=2, map="W_2", output=("par", 0), monomial=[("flg1", 0), ("buf", 0)], value=0)
    inp = (Digraph.from_arcs(2, [(0, 1)]), 0)
    assert a.notes == b.notes
    wa, wb = a.concrete(inp).get_map(2, "W_2"), b.concrete(inp).get_map(2, "W_2")
    assert wa.dense() == wb.dense() and wa.dense() != DfsConstruction().concrete(inp).get_map(2, "W_2").dense()


def test_a_missing_argument_says_what_is_needed():
    with pytest.raises(TypeError, match="Mutant needs output, monomial, value"):
        Mutant(DfsConstruction(), layer=2, map="W_2")
