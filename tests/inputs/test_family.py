"""Families with keyword arguments, a readable default description, and clear errors."""

import itertools

import pytest

from symcot.inputs.family import Family, describe_input
from symcot.inputs.graphs import Digraph


def test_keywords_and_default_description():
    f = Family(name="bit strings", inputs=lambda k: itertools.product((0, 1), repeat=k), count=lambda k: 2 ** k)
    assert f.describe((1, 0, 1)) == {"text": "101"}
    assert describe_input((Digraph.from_arcs(2, [(0, 1)]), 0)) == {"text": "Digraph(n=2; 0->1), source 0"}
    assert describe_input("UUDD") == {"text": "UUDD"}


def test_a_family_without_functions_is_a_clear_error():
    with pytest.raises(TypeError, match="Family 'x': inputs must be a function"):
        Family("x", [1, 2], lambda k: 2)
    with pytest.raises(ValueError, match="min_size must be a non-negative integer"):
        Family("x", lambda k: [], lambda k: 0, min_size=-1)


def test_a_universe_must_be_a_function_and_is_optional():
    f = Family("x", lambda k: [], lambda k: 0)
    assert f.universe is None and f.universe_count is None and f.restricted == ""
    with pytest.raises(TypeError, match="Family 'x': universe must be a function"):
        Family("x", lambda k: [], lambda k: 0, universe=[(0,)])
    with pytest.raises(TypeError, match="universe_count must be a function"):
        Family("x", lambda k: [], lambda k: 0, universe=lambda k: [], universe_count=3)
