"""Digraph families (symcot.inputs.digraphs): counts, order, random digraphs, reachability."""

from __future__ import annotations

import random

import pytest

from symcot.errors import InvalidInputError
from symcot.inputs import (
    Digraph,
    digraph_count,
    digraphs_with_sources,
    random_digraph,
    simple_digraphs,
    validate_connected_from,
)

# -- simple digraphs -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3])
def test_simple_digraphs_count_distinct_order(n: int) -> None:
    gs = list(simple_digraphs(n))
    assert digraph_count(n) == 2 ** (n * (n - 1))
    assert len(gs) == 2 ** (n * (n - 1))
    assert len(set(gs)) == len(gs)
    assert all(g.n == n and g.weights is None for g in gs)
    keys = [(len(g.arcs), g.arcs) for g in gs]
    assert keys == sorted(keys)
    assert gs[0].arcs == ()
    assert len(gs[-1].arcs) == n * (n - 1)
    pairs = list(digraphs_with_sources(n))
    assert len(pairs) == n * 2 ** (n * (n - 1))
    assert pairs == [(g, s) for g in gs for s in range(n)]


def test_simple_digraphs_n4_count() -> None:
    assert sum(1 for _ in simple_digraphs(4)) == 4096


def test_random_digraph() -> None:
    rng = random.Random(3)
    assert random_digraph(5, rng, 0.0).arcs == ()
    assert len(random_digraph(5, rng, 1.0).arcs) == 20
    arcs = sum(len(random_digraph(8, rng, 0.3).arcs) for _ in range(200))
    assert 0.25 * 56 * 200 < arcs < 0.35 * 56 * 200
    with pytest.raises(InvalidInputError, match="probability"):
        random_digraph(3, rng, 1.5)


def test_validate_connected_from() -> None:
    g = Digraph(4, ((0, 1), (1, 2), (3, 0)))
    validate_connected_from(g, 3)
    with pytest.raises(InvalidInputError, match=r"source 0: vertices \{3\} are unreachable"):
        validate_connected_from(g, 0)
    with pytest.raises(InvalidInputError, match=r"vertices \{0, 1, 3\}"):
        validate_connected_from(g, 2)
    with pytest.raises(InvalidInputError, match="source 4 is not a vertex"):
        validate_connected_from(g, 4)
