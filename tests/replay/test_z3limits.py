"""Z3's limits are resource counts: a solver or an optimiser limited by ``budget`` stops on resources, not the clock."""

import z3

from symcot.replay.z3limits import BACKSTOP, RLIMIT_PER_MS, budget


def _pigeonhole(n):
    p = [[z3.Bool(f"p{i}_{j}") for j in range(n - 1)] for i in range(n)]
    return [z3.Or(*p[i]) for i in range(n)] + [z3.Not(z3.And(p[i][j], p[k][j])) for j in range(n - 1)
                                               for i in range(n) for k in range(i + 1, n)]


def test_a_solver_stops_on_its_resource_count_the_clock_only_a_backstop():
    x, y, z = z3.Ints("x y z")
    s = z3.Solver()
    budget(s, 200)  # about 0.4 s of an idle core on this query (it counts resources fast); the backstop 2 s
    assert s.check() == z3.sat
    before = s.statistics().get_key_value("rlimit count")  # the context's count: earlier queries' included
    s.add(x > 0, y > 0, z > 0, x * x * x + y * y * y == z * z * z)  # Fermat at 3: Z3 searches, never decides
    assert s.check() == z3.unknown and s.reason_unknown() == "canceled"  # the clock's backstop says "timeout"
    used = s.statistics().get_key_value("rlimit count") - before
    assert 200 * RLIMIT_PER_MS <= used <= 3 * 200 * RLIMIT_PER_MS  # the resource limit stopped it, not the clock
    assert BACKSTOP > 1


def test_an_optimiser_takes_the_same_limit():
    x = z3.Int("x")
    hard, easy = z3.Optimize(), z3.Optimize()
    budget(hard, 5)
    budget(easy, 1000)
    hard.add(*_pigeonhole(12))
    for o in (hard, easy):
        o.add(x * x < 300, x > 0)
        o.maximize(x)
    assert hard.check() == z3.unknown
    assert easy.check() == z3.sat and easy.model()[x].as_long() == 17
