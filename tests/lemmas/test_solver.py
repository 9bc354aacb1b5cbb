

def test_polish_breaks_ties_between_equally_small_models_the_same_way():
    import z3

    from symcot.lemmas.solver import _polish

    x0, x1 = z3.Reals("x0 x1")
    for hard in ([x0 + x1 == 2, x0 >= 0, x1 >= 0], [x1 + x0 == 2, x1 >= 0, x0 >= 0]):
        m = _polish(hard, {"x": [x0, x1]}, [], 2000)
        assert m is not None
        assert [m.eval(v).as_long() for v in (x0, x1)] == [0, 2]
    m = _polish([z3.Or(x0 == 1, x0 == -1)], {"x": [x0]}, [], 2000)
    assert m is not None and m.eval(x0).as_long() == -1  # |x| ties, then the smaller x


def test_a_query_is_limited_by_resources_not_by_the_clock():
    import z3

    from symcot.lemmas.solver import BACKSTOP, RLIMIT_PER_MS, new_solver, tactic_check

    x, y = z3.Ints("x y")
    pell = [x * x - 61 * y * y == 1, x >= 2]  # least solution x = 1766319049: out of reach of a small budget
    before = z3.Solver()
    before.check()
    base = before.statistics().get_key_value("rlimit count")  # the count is the process's, cumulative
    s = new_solver(20)
    assert s.check(*pell) == z3.unknown
    assert "canceled" in s.reason_unknown() or "resource" in s.reason_unknown()
    used = s.statistics().get_key_value("rlimit count") - base
    assert 20 * RLIMIT_PER_MS <= used <= 2 * 20 * RLIMIT_PER_MS  # the resource limit stopped it
    assert BACKSTOP > 1
    assert tactic_check(pell, 20)[0] == z3.unknown
    assert tactic_check([x * x == 4, x >= 0, x != 2], 20)[0] == z3.unsat
