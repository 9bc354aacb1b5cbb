"""The prover's query cache: a query asked twice is solved once, and only the same query is answered from it."""

import z3

from symcot.prove.alln.cache import Answer, QueryCache
from symcot.prove.alln.context import _solve
from symcot.prove.alln.ops import fresh_int


def test_a_query_asked_again_is_answered_from_the_cache():
    from symcot.prove.alln.cache import CACHE

    x = fresh_int("x")
    hyps = [("pos", x >= 1)]
    before = CACHE.hits
    first = _solve(hyps, x >= 0, 5)
    second = _solve(hyps, x >= 0, 5)
    assert first == second and first[0] == "proved" and first[1] == ["pos"]
    assert CACHE.hits == before + 1


def test_fresh_constants_are_renamed_and_other_symbols_are_not():
    cache = QueryCache()
    a, b = fresh_int("x"), fresh_int("x")
    assert cache.key([("h", a >= 1)], a >= 0) == cache.key([("h", b >= 1)], b >= 0)
    y = z3.Int("y")  # a symbol of the vocabulary, not fresh: another query
    assert cache.key([("h", a >= 1)], a >= 0) != cache.key([("h", y >= 1)], y >= 0)
    # consistent renaming only: x!1 ≥ x!2 is not x!1 ≥ x!1
    c = fresh_int("x")
    assert cache.key([], a >= c) != cache.key([], a >= a)
    assert cache.key([("h", a >= 1)], a >= 0) != cache.key([("g", a >= 1)], a >= 0)


def test_symbols_of_one_name_and_another_sort_are_other_queries():
    # f = g ∨ f = h ∨ g = h holds for booleans and not for integers: the same text must not share an answer
    x = z3.Int("x")
    outs = []
    for sort in (z3.BoolSort(), z3.IntSort()):
        f, g, h = (z3.Function(name, z3.IntSort(), sort) for name in "fgh")
        goal = z3.Or(f(x) == g(x), f(x) == h(x), g(x) == h(x))
        outs.append(_solve([], goal, 5)[0])
    assert outs == ["proved", "failed"]


def test_an_unknown_answer_is_not_reused_with_more_time():
    cache = QueryCache()
    key = cache.key([], z3.BoolVal(True))
    cache.put(key, Answer("unknown", (), "Z3: timeout", (), 1.0))
    assert cache.get(key, 0.5) is not None and cache.get(key, 2.0) is None
    cache.put(key, Answer("proved", (), "", (), 2.0))
    assert cache.get(key, 60.0).status == "proved"
    cache.put(key, Answer("unknown", (), "Z3: timeout", (), 1.0))  # a decided answer stays
    assert cache.get(key, 60.0).status == "proved"


def test_the_ground_try_is_keyed_by_the_query_with_its_hints_and_the_kinds():
    """Queries alike up to renaming share the ground try's key; another hint's constant or other kinds: not."""
    from symcot.prove.alln.cache import CACHE
    from symcot.prove.alln.context import ground_key

    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    v = z3.Int("v")
    kinds = {"f": (("vertex",), "vertex")}

    def key(hint_first, kinds=kinds):
        a, b = fresh_int("x"), fresh_int("x")
        hyps = [("f grows", z3.ForAll([v], f(v) > v)), ("a below b", a < b)]
        goal = f(f(a)) > b
        return CACHE.key(hyps, goal), ground_key(CACHE.key(hyps, goal), hyps, goal, kinds, [a if hint_first else b])

    (q1, g1), (q2, g2), (q3, g3) = key(True), key(True), key(False)
    assert q1 == q2 == q3  # the quantified query: the same up to renaming
    assert g1 == g2 and g1 != g3 and g1 != q1
    assert key(True, {})[1] != g1
