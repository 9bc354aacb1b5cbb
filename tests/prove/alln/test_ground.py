"""Ground instantiation: only weaker hypotheses, instances at the terms of the query."""

import z3

from symcot.prove.alln.ground import ground, instantiate


def test_instances_at_the_argument_positions_prove_what_the_quantified_fact_proves():
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    x, a = z3.Ints("x a")
    fact = z3.ForAll([x], f(x) >= x)
    hyps = ground([("fact", fact)], f(a + 1) >= a)
    assert hyps is not None and not any(z3.is_quantifier(h) for _, h in hyps)
    s = z3.Solver()
    for _, h in hyps:
        s.add(h)
    s.add(z3.Not(f(a + 1) >= a))
    assert s.check() == z3.unsat


def test_a_quantifier_in_a_negative_position_is_dropped_and_a_quantified_goal_is_left_alone():
    g = z3.Function("g", z3.IntSort(), z3.BoolSort())
    x, b = z3.Ints("x b")
    neg = z3.Implies(z3.ForAll([x], g(x)), g(b))
    assert z3.is_true(instantiate(neg, {}))
    assert ground([], z3.ForAll([x], g(x))) is None


def test_nested_positive_quantifiers_are_instantiated():
    g = z3.Function("g", z3.IntSort(), z3.BoolSort())
    x, b = z3.Ints("x b")
    p = z3.Bool("p")
    hyps = ground([("h", z3.Implies(p, z3.ForAll([x], g(x))))], g(b))
    assert "g(b)" in str(hyps[0][1])


def test_kinds_and_hints_give_the_candidates():
    cur = z3.Function("cur", z3.IntSort(), z3.IntSort())
    vis = z3.Function("vis", z3.IntSort(), z3.IntSort(), z3.BoolSort())
    t = z3.Int("t")
    v = z3.Int("v:vertex")
    fact = z3.ForAll([v], vis(t, v))
    kinds = {"cur": (("step",), "vertex"), "vis": (("step", "vertex"), "")}
    hyps = ground([("f", fact)], cur(t) >= 0, kinds)  # cur(t) is a vertex: vis(t, cur(t)) is instantiated
    assert "vis(t, cur(t))" in str(hyps[0][1])
    hyps = ground([("f", fact)], t >= 0, kinds, hints=[t + 5])
    assert "vis(t, t + 5)" in str(hyps[0][1])
