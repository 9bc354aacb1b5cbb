"""The Dijkstra dynamic and BFS with twd/mwd on batches equal the per-input references."""

import numpy as np
import pytest

from proofs.cot_path_to_tree.algorithms.batched.dijkstra import bfs_width_dynamic_batch, dijkstra_dynamic_batch
from proofs.cot_path_to_tree.algorithms.dijkstra import bfs_width_dynamic, dijkstra_dynamic
from symcot.errors import InvalidInputError
from symcot.inputs import Digraph
from symcot.inputs.batch import tree_batch
from symcot.inputs.weighted import weighted_digraphs_with_sources
from tests.fixtures.fields import field_mismatches

DKST_FIELDS = {"t": "int", "cur": "int", "vst": "set", "dist": "array", "dist_cur": "int"}
READINGS = ["as-written", "repaired", "twd-repaired", "mwd-repaired"]


@pytest.mark.parametrize("size", range(1, 10))
def test_every_ordered_tree_up_to_9_vertices(size):
    b = tree_batch(size, 0, 10**9)
    items = [b.item(i) for i in range(b.count)]
    assert field_mismatches(dijkstra_dynamic_batch(b.adjacency, b.roots), [dijkstra_dynamic(*x) for x in items],
                            DKST_FIELDS) == []
    for reading in READINGS:
        assert field_mismatches(bfs_width_dynamic_batch(b.adjacency, b.roots, reading),
                                [bfs_width_dynamic(*x, reading=reading) for x in items],
                                {**DKST_FIELDS, "twd": "int", "mwd": "int", "dif": "int"}) == [], reading


@pytest.mark.parametrize("size", [2, 3])
def test_weighted_connected_digraphs(size):
    items = list(weighted_digraphs_with_sources(size))
    w = np.array([g.adjacency() for g, _ in items], dtype=np.int64)
    assert field_mismatches(dijkstra_dynamic_batch(w, np.array([s for _, s in items])),
                            [dijkstra_dynamic(*x) for x in items], DKST_FIELDS) == []


def test_the_domain_and_the_readings():
    g = Digraph.from_arcs(3, [(0, 1)])
    with pytest.raises(InvalidInputError, match="unreachable"):
        dijkstra_dynamic_batch(np.array([g.adjacency()]), np.array([0]))
    b = tree_batch(3, 0, 2)
    with pytest.raises(ValueError, match="reading"):
        bfs_width_dynamic_batch(b.adjacency, b.roots, "other")


def test_a_wrong_reading_is_told_apart():
    """Negative: the as-written reading's twd/mwd differ from the repaired reference on some tree."""
    b = tree_batch(6, 0, 10**9)
    items = [b.item(i) for i in range(b.count)]
    assert field_mismatches(bfs_width_dynamic_batch(b.adjacency, b.roots, "as-written"),
                            [bfs_width_dynamic(*x, reading="repaired") for x in items], {"twd": "int", "mwd": "int"})
