"""Prompts of a batch from keys with row-indexed leaves: each distinct key's token once, in the right rows."""

import numpy as np
import pytest

from symcot.constructions import prompt_batch as pb
from symcot.constructions.prompt_batch import batch_prompt
from symcot.inputs.batch import RaggedArcs


def test_keys_with_integer_string_and_ragged_leaves():
    calls = []

    def token(key):
        calls.append(key)
        return [key]

    letters = np.array(["U", "D", "U", "U"])
    ints = np.array([0, 1, 0, 2])
    arcs = RaggedArcs(np.array([[0, 1], [0, 1], [0, 0], [0, 1]]))
    keys = [("x_⊥", ("⊥",)), ("x_0", ("x", 0, letters, ints)), ("x_1", ("x", 1, arcs))]
    bp = batch_prompt(keys, token, 4)
    rows = [[bp.tokens[j][0] for j in bp.index[r].tolist()] for r in range(4)]
    assert rows == [[("⊥",), ("x", 0, "U", 0), ("x", 1, ((1, 1),))], [("⊥",), ("x", 0, "D", 1), ("x", 1, ((1, 1),))],
                    [("⊥",), ("x", 0, "U", 0), ("x", 1, ())], [("⊥",), ("x", 0, "U", 2), ("x", 1, ((1, 1),))]]
    assert bp.labels == ["x_⊥", "x_0", "x_1"]
    assert len(calls) == 1 + 3 + 2  # one token per distinct key
    assert bp.index[0, 1] == bp.index[2, 1]  # equal keys, equal tokens (a shared prompt prefix in the kernel)


def test_a_cache_across_batches_builds_each_key_once():
    calls = []
    cache: dict = {}
    keys = [("x", ("x", np.array([1, 2, 1])))]
    batch_prompt(keys, lambda k: calls.append(k) or [k], 3, cache)
    batch_prompt([("x", ("x", np.array([2, 3, 3])))], lambda k: calls.append(k) or [k], 3, cache)
    assert sorted(calls) == [("x", 1), ("x", 2), ("x", 3)]  # each once


def test_leaves_that_are_not_rows_of_the_batch_are_refused():
    with pytest.raises(ValueError, match="shape"):
        batch_prompt([("x", ("x", np.array([1, 2])))], lambda k: [k], 3)
    with pytest.raises(ValueError, match="dtype"):
        batch_prompt([("x", ("x", np.array([1.5, 2.0, 3.0])))], lambda k: [k], 3)


def test_object_leaves_exact_numbers_and_a_sentinel_are_grouped_by_value():
    """A row of weights with ∞ off the arcs (an object array): rows group by equal values, each token built once."""
    from fractions import Fraction

    inf = object()
    leaf = np.array([Fraction(3, 2), inf, Fraction(3, 2), 1], dtype=object)
    calls = []
    out = batch_prompt([("x", ("x", leaf))], lambda k: calls.append(k) or [k], 4)
    assert [out.tokens[i][0] for i in out.index[:, 0].tolist()] == [("x", v) for v in leaf.tolist()]
    assert len(calls) == 3 and ("x", inf) in calls
    with pytest.raises(ValueError, match="not hashable"):
        batch_prompt([("x", ("x", np.array([{}, {}, {}], dtype=object)))], lambda k: [k], 3)


def test_key_code_that_branches_on_a_row_value_fails_loudly():
    """Code written for one input that branches on a value cannot run on a stand-in: numpy refuses, no guess."""
    letters = np.array(["U", "D"])
    with pytest.raises(ValueError, match="truth value"):
        [("x", 1 if c == "U" else -1) for c in [letters]]


def test_rows_are_grouped_exactly_even_when_their_hashes_collide(monkeypatch):
    codes = np.array([[3, 0], [0, 1], [3, 0], [2, 2]], dtype=np.int64)
    first, inverse = pb._distinct_rows(codes)
    assert (codes[first][inverse] == codes).all() and len(first) == 3
    monkeypatch.setattr(pb, "_multipliers", lambda k: np.zeros(k, dtype=np.uint64))  # every hash 0: all collide
    first, inverse = pb._distinct_rows(codes)
    assert (codes[first][inverse] == codes).all() and len(first) == 3


def test_elementwise_conditions_act_row_by_row_and_as_python_on_python_values():
    from symcot.constructions.prompt_batch import Elementwise, RowSet

    c = Elementwise({"up": np.array([True, False, True])})
    assert c.ite(c.up, 1, -1).tolist() == [1, -1, 1] and c.ite(True, 1, -1) == 1
    assert c.and_(c.up, True).tolist() == [True, False, True] and c.and_(True, False) is False
    assert c.or_(c.up, False).tolist() == [True, False, True] and c.or_(False, True) is True
    assert c.not_(c.up).tolist() == [False, True, False] and c.not_(True) is False
    assert c.implies(c.up, False).tolist() == [False, True, False] and c.implies(False, False) is True
    s = c.set(lambda j: c.up if j == 1 else j == 0, 3)
    assert isinstance(s, RowSet) and [s.value(r) for r in range(3)] == [{0, 1}, {0}, {0, 1}]
    assert c.set(lambda j: j > 0, 3) == frozenset({1, 2})
    bp = batch_prompt([("x", ("x", s))], lambda k: [sorted(k[1])], 3)  # a set over rows is a leaf
    assert [bp.tokens[j] for j in bp.index[:, 0].tolist()] == [[[0, 1]], [[0]], [[0, 1]]]


def test_a_choice_between_integers_and_a_sentinel_is_a_tagged_leaf_with_each_rows_value():
    inf = object()
    c = pb.Elementwise({})
    arc = np.array([True, False, True])
    leaf = c.ite(arc, 2, inf)
    assert isinstance(leaf, pb.Tagged)
    assert [leaf.value(r) for r in range(3)] == [2, inf, 2]
    nested = c.ite(np.array([False, False, True]), np.array([7, 8, 9]), leaf)  # a choice over a tagged leaf
    assert [nested.value(r) for r in range(3)] == [2, inf, 9]
    calls = []
    bp = batch_prompt([("x", ("x", nested))], lambda k: calls.append(k) or [k], 3)
    assert [bp.tokens[j][0] for j in bp.index[:, 0].tolist()] == [("x", 2), ("x", inf), ("x", 9)]
    assert len(calls) == 3
    assert bp.index[0, 0] != bp.index[1, 0]  # the integer 2 and the sentinel are told apart


def test_codes_of_a_tagged_leaf_are_the_same_in_every_batch():
    inf = object()
    c = pb.Elementwise({})
    cache: dict = {}
    calls = []
    for arc in (np.array([True, False]), np.array([False, True])):
        batch_prompt([("x", ("x", c.ite(arc, 1, inf)))], lambda k: calls.append(k) or [k], 2, cache)
    assert len(calls) == 2  # one token for 1 and one for the sentinel, across both batches


def test_a_tagged_leaf_against_a_value_it_cannot_hold_is_left_to_the_input_by_input_check():
    c = pb.Elementwise({})
    leaf = c.ite(np.array([True, False]), 1, object())
    with pytest.raises(NotImplementedError):
        c.ite(np.array([True, True]), leaf, np.array([0.5, 1.5]))
    plain = c.ite(np.array([True, False]), 1, 2)  # integers alone: a plain array, as before
    assert isinstance(plain, np.ndarray) and plain.tolist() == [1, 2]


def test_rows_of_zeros_and_ones_do_not_collide_under_the_hash():
    rows = np.zeros((2, 16), dtype=np.int64)
    rows[0, [0, 12]] = 1
    rows[1, [4, 8]] = 1  # with multipliers in arithmetic progression these two rows would collide
    mult = pb._multipliers(16)
    with np.errstate(over="ignore"):
        hashes = (rows.view(np.uint64) * mult).sum(axis=1, dtype=np.uint64)
    assert hashes[0] != hashes[1]
    assert (mult % 2 == 1).all() and pb._multipliers(16) is mult
    first, inverse = pb._distinct_rows(rows)
    assert len(first) == 2 and sorted(inverse.tolist()) == [0, 1]  # two classes (ordered by hash)
