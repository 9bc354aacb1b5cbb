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


def test_a_variable_under_an_offset_is_matched_at_the_ground_term_less_the_offset():
    """``∀τ: cur(τ + 1) = sel(τ)`` at the ground ``cur(t + 1)``: the instance at ``τ = t`` (none without offsets)."""
    cur = z3.Function("cur", z3.IntSort(), z3.IntSort())
    sel = z3.Function("sel", z3.IntSort(), z3.IntSort())
    tau, t = z3.Ints("tau t")
    step = z3.ForAll([tau], z3.Implies(tau >= 0, cur(tau + 1) == sel(tau)))
    positive = z3.ForAll([tau], sel(tau) > 0)
    goal = cur(t + 1) > 0
    plain = ground([("step", step), ("positive", positive), ("t", t >= 0)], goal)
    assert plain is not None and "sel(t)" not in str(plain[0][1])
    hyps = ground([("step", step), ("positive", positive), ("t", t >= 0)], goal, offsets=True)
    assert hyps is not None and "cur(t + 1) == sel(t)" in str(hyps[0][1])
    s = z3.Solver()
    for _, h in hyps:
        s.add(h)
    s.add(z3.Not(goal))
    assert s.check() == z3.unsat
    wrong = ground([("step", z3.ForAll([tau], cur(tau + 1) == sel(tau) - 5)), ("positive", positive)], goal,
                   offsets=True)
    s = z3.Solver()
    for _, h in wrong or []:
        s.add(h)
    s.add(z3.Not(goal))
    assert s.check() == z3.sat  # instances of a fact that does not give the goal: the ground query proves nothing


def test_more_rounds_follow_a_longer_chain_of_facts():
    """``f(a) > 0`` needs ``g`` at ``a``, then ``h`` at ``g(a)``, then ``k`` at ``h(g(a))``: three rounds."""
    f, g, h, k = (z3.Function(name, z3.IntSort(), z3.IntSort()) for name in "fghk")
    x, a = z3.Ints("x a")
    facts = [("g", z3.ForAll([x], f(x) == g(x) + 0 * h(g(x)))), ("h", z3.ForAll([x], h(x) == k(x))),
             ("k", z3.ForAll([x], k(x) > 0)), ("link", z3.ForAll([x], g(x) == h(g(x))))]
    goal = f(a) > 0

    def decides(rounds: int) -> z3.CheckSatResult:
        s = z3.Solver()
        for _, fact in ground(facts, goal, rounds=rounds) or []:
            s.add(fact)
        s.add(z3.Not(goal))
        return s.check()

    assert decides(1) == z3.sat and decides(4) == z3.unsat
