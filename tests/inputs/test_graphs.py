"""Digraphs (symcot.inputs.graphs): what a Digraph refuses, with the message naming the problem."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symcot.errors import InvalidInputError
from symcot.inputs import (
    Digraph,
    digraphs_with_sources,
    labeled_trees,
    ordered_trees,
    rooted_labeled_trees,
    simple_digraphs,
)

# -- Digraph validation (symcot.inputs.graphs) -----------------------------------------------


def test_digraph_validation_errors() -> None:
    with pytest.raises(InvalidInputError, match="self-loop at vertex 1"):
        Digraph(3, ((1, 1),))
    with pytest.raises(InvalidInputError, match=r"arc \(0, 1\) appears twice"):
        Digraph(3, ((0, 1), (0, 1)))
    with pytest.raises(InvalidInputError, match=r"weight of arc \(0, 1\) is 0; weights must be positive"):
        Digraph.from_weighted_arcs(2, {(0, 1): 0})
    with pytest.raises(InvalidInputError, match=r"weight of arc \(1, 0\) is -1/2"):
        Digraph.from_weighted_arcs(2, {(0, 1): 1, (1, 0): Fraction(-1, 2)})
    with pytest.raises(InvalidInputError, match="float 0.5.*exact"):
        Digraph.from_weighted_arcs(2, {(0, 1): 0.5})
    with pytest.raises(InvalidInputError, match=r"n >= 1\), got n = 0"):
        Digraph(0, ())
    for make in (labeled_trees, ordered_trees, simple_digraphs, digraphs_with_sources, rooted_labeled_trees):
        with pytest.raises(InvalidInputError, match="at least one vertex"):
            make(0)
