"""Statements read on concrete runs: the interpretation, facts at every assignment, views against the reference."""

import dataclasses

import pytest

from symcot.algorithms.logic import (
    Concrete,
    Direct,
    Fact,
    FactCount,
    Induction,
    Sig,
    Var,
    Vocabulary,
    assignments,
    check_facts,
    check_views,
    normalise,
    table,
)

N = Var("i", lambda c, *_: 0, lambda c, *_: c.n - 1)


def _vocab(*facts):
    return Vocabulary("toy", (Sig("n", 0), Sig("f", 1)), tuple(facts), {"val": lambda c, t: c.f(t)},
                      lambda inp, states: {"n": inp, "f": table(states)})


def test_concrete_builders():
    c = Concrete({"n": 3})
    assert c.ite(True, 1, 2) == 1 and c.and_(True, 1) and not c.or_(False, 0) and c.implies(False, False)
    assert c.vec(lambda j: j * j, 3) == [0, 1, 4] and c.set(lambda j: j > 0, 3) == frozenset({1, 2})
    assert c.mat(lambda a, b: a + b, 2, 2) == [[0, 1], [1, 2]]
    with pytest.raises(AttributeError, match="no symbol 'zz'"):
        _ = c.zz


def test_assignments_respect_dependent_bounds():
    c = Concrete({"n": 3})
    later = Var("j", lambda c, i: i, lambda c, i: c.n - 1)
    assert list(assignments(c, [N, later])) == [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]


def test_a_false_fact_is_reported_with_its_values_and_a_true_one_is_counted():
    ok = Fact("nonneg", (N,), lambda c, i: c.f(i) >= 0, "domain")
    bad = Fact("small", (N,), lambda c, i: c.f(i) < 5, "definition")
    counts = FactCount()
    c = Concrete(_vocab(ok, bad).interpret(3, [1, 7, 2]))
    fail = check_facts(_vocab(ok, bad), c, counts)
    assert fail is not None and fail.fact == "small" and fail.values == {"i": 1}
    assert counts.checked == {"nonneg": 3}
    assert check_facts(_vocab(ok), c) is None


def test_views_are_compared_with_the_reference_fields():
    @dataclasses.dataclass
    class St:
        val: int | None

    v = _vocab()
    c = Concrete(v.interpret(2, [None, 4]))
    assert check_views(v, c, [St(None), St(4)], ["val"]) is None
    assert "view 'val' at step 1" in check_views(v, c, [St(None), St(5)], ["val"])
    assert normalise(-1) is None and normalise((1, (2, 3))) == [1, [2, 3]] and normalise({1}) == frozenset({1})


def test_fact_kinds_and_proofs_are_validated():
    with pytest.raises(ValueError, match="derived fact has a proof"):
        Fact("x", (), lambda c: True, "derived")
    with pytest.raises(ValueError, match="derived fact has a proof"):
        Fact("x", (), lambda c: True, "domain", Direct())
    with pytest.raises(ValueError, match="no variable"):
        Fact("x", (N,), lambda c, i: True, "derived", Induction("k"))
    with pytest.raises(ValueError, match="kind must be"):
        Fact("x", (), lambda c: True, "axiom")
    with pytest.raises(ValueError, match="declared twice"):
        Vocabulary("v", (Sig("n", 0), Sig("n", 0)), (), {}, lambda i, s: {})
    with pytest.raises(ValueError, match="sort"):
        Sig("x", 1, "real")
