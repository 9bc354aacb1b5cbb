"""Algorithm 1, the width counts and the Strahler fold along words, on batches, equal the per-input references."""

import numpy as np
import pytest

from proofs.cot_path_to_tree.algorithms.batched.paths import (
    algorithm1_batch,
    heights_batch,
    strahler_fold_batch,
    width_states_batch,
)
from proofs.cot_path_to_tree.algorithms.paths import algorithm1_states, strahler_fold, width_states
from symcot.errors import InvalidInputError
from symcot.inputs.batch import word_batch
from symcot.inputs.dyck import heights
from tests.fixtures.fields import field_mismatches


@pytest.mark.parametrize("size", range(1, 10))
def test_every_dyck_word_up_to_9_vertices(size):
    b = word_batch(size, 0, 10**9)
    words = [b.item(i) for i in range(b.count)]
    assert heights_batch(b.words).tolist() == [heights(w) for w in words]
    assert field_mismatches(algorithm1_batch(b.words), [algorithm1_states(w) for w in words],
                            {"t": "int", "i": "int", "nl": "int", "a": "array", "par": "int", "cursor": "int"}) == []
    assert field_mismatches(width_states_batch(b.words, size), [width_states(w, size) for w in words],
                            {"t": "int", "ht": "int", "p": "array", "wd": "int"}) == []
    assert field_mismatches(strahler_fold_batch(b.words), [strahler_fold(w) for w in words],
                            {"t": "int", "height": "int", "m": "int", "c": "int", "reading": "bool",
                             "next_q": "int", "q_in": "int"}) == []


def test_algorithm1s_invariant_and_the_width_levels_are_checked():
    with pytest.raises(RuntimeError, match="Algorithm 1"):
        algorithm1_batch(np.array([[-1, 1]], dtype=np.int8))  # a D first: no j < i = 0
    with pytest.raises(InvalidInputError, match="levels"):
        width_states_batch(np.array([[1, 1, -1, -1]], dtype=np.int8), 1)


def test_a_wrong_word_is_told_apart():
    """Negative: the fold of the next word in rank order differs somewhere."""
    b = word_batch(6, 0, 10**9)
    words = [b.item(i) for i in range(b.count)]
    shifted = [strahler_fold(w) for w in words[1:] + words[:1]]
    assert field_mismatches(strahler_fold_batch(b.words), shifted, {"m": "int", "c": "int", "height": "int"})
