"""The domain of thm:cotdijkstra (symcot.inputs.weighted.validate_weighted), stated once for inputs and references."""

from fractions import Fraction

import pytest

from proofs.cot_path_to_tree.algorithms.dijkstra import validate_dijkstra_input
from symcot.errors import InvalidInputError
from symcot.inputs.graphs import Digraph
from symcot.inputs.weighted import (
    validate_weighted,
    weighted_digraphs_with_sources,
    weighted_universe,
    weighted_universe_count,
)


def test_a_connected_weighted_digraph_is_accepted_with_its_source():
    g = Digraph.from_weighted_arcs(3, {(0, 1): Fraction(1, 2), (1, 2): 3, (2, 0): 1})
    assert validate_weighted(g, 1) == 1 == validate_dijkstra_input(g, 1)


@pytest.mark.parametrize("g, source, message", [
    (Digraph.from_weighted_arcs(3, {(0, 1): 1, (1, 2): 1}), 1, r"not connected from source 1: vertices \{0\}"),
    (Digraph.from_weighted_arcs(2, {(0, 1): 1}), 2, "source 2 is not a vertex"),
    (Digraph.from_weighted_arcs(2, {(0, 1): 1}), True, "source True is not a vertex"),
    ([(0, 1)], 0, "a weighted input is a symcot Digraph, got list"),
])
def test_what_is_outside_the_domain_is_named(g, source, message):
    for check in (validate_weighted, validate_dijkstra_input):
        with pytest.raises(InvalidInputError, match=message):
            check(g, source)


def test_the_weighted_universe_holds_every_digraph_weighting_and_source():
    for n in (1, 2, 3):
        got = list(weighted_universe(n, (1, 2)))
        assert len(got) == weighted_universe_count(n, 2) == n * 3 ** (n * (n - 1))
        assert {(str(g), s) for g, s in weighted_digraphs_with_sources(n, (1, 2))} <= {(str(g), s) for g, s in got}
