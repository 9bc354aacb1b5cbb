"""Obligations: proved only on unsat, with the facts of the core; side facts only where their constant occurs."""

import pytest
import z3

from symcot.prove.alln.context import Context, EarlyStop, Obligation


def test_proved_failed_and_the_core():
    x, y = z3.Ints("x y")
    ctx = Context([("x positive", x > 0), ("unrelated", y == 3)])
    ob = ctx.check(x + 1 > 1, "step", "block b", "x + 1 > 1")
    assert ob.ok and ob.used == ["x positive"]
    bad = ctx.check(x > 5, "step", "block b", "x > 5")
    assert bad.status == "failed" and "x = " in bad.detail
    assert ctx.first_failure() is bad and "[failed]" in bad.line()


def test_side_facts_are_used_only_for_their_constant():
    s, t = z3.Ints("s t")
    ctx = Context([])
    ctx.add_side("about s", s == 1, s)
    assert ctx.query(s == 1)[0] == "proved"
    assert ctx.query(t == 1)[0] == "failed"  # the side fact on s is not a hypothesis about t


def test_stop_early_and_unsupported():
    ctx = Context([])
    ctx.stop_early = True
    with pytest.raises(EarlyStop):
        ctx.check(z3.BoolVal(False), "step", "w", "false")
    with pytest.raises(ValueError):
        Obligation("step", "w", "s", "maybe")


def _pigeonhole(n):
    """``n`` pigeons in ``n - 1`` holes, as one hypothesis."""
    p = [[z3.Bool(f"p{i}_{j}") for j in range(n - 1)] for i in range(n)]
    pigeons = [z3.Or(*p[i]) for i in range(n)]
    holes = [z3.Not(z3.And(p[i][j], p[k][j])) for j in range(n - 1) for i in range(n) for k in range(i + 1, n)]
    return [("pigeons and holes", z3.And(*pigeons, *holes))], z3.BoolVal(False)


def _statuses(hyps, goal, limits):
    from symcot.prove.alln.context import _solve_now

    return [_solve_now(hyps, goal, s)[0] for s in limits]


def test_a_query_is_decided_by_its_resource_limit_whatever_the_load():
    """Eight pigeons in seven holes: under 0.01 nominal seconds (25,000 resource units) Z3 leaves it undecided, under
    0.2 (500,000) it proves it, on an idle machine and with every core busy alike (the clock is only a backstop, at
    least :data:`~symcot.prove.alln.context.BACKSTOP_MIN_S`)."""
    import subprocess
    import sys

    hyps, goal = _pigeonhole(8)
    limits = (0.01, 0.2, 0.01, 0.2)
    idle = _statuses(hyps, goal, limits)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(6)]
    try:
        loaded = _statuses(hyps, goal, limits)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert idle == loaded == ["unknown", "proved", "unknown", "proved"]


def test_the_limits_are_resource_counts_with_the_clock_a_backstop():
    from symcot.prove.alln.context import BACKSTOP, RLIMIT_PER_S, budget, rlimit

    s = z3.Solver()
    budget(s, 2.0)
    assert rlimit(2.0) == 2 * RLIMIT_PER_S and BACKSTOP >= 5
    hyps, goal = _pigeonhole(8)
    assert _statuses(hyps, goal, (1e-9,)) == ["unknown"]  # one resource unit


def test_an_answer_the_clock_backstop_gave_says_so_and_is_not_cached(monkeypatch):
    import symcot.prove.alln.context as context
    from symcot.prove.alln.cache import QueryCache

    cache = QueryCache()
    monkeypatch.setattr(context, "CACHE", cache)
    monkeypatch.setattr(context, "BACKSTOP", 0.1)
    monkeypatch.setattr(context, "BACKSTOP_MIN_S", 0.1)
    hyps, goal = _pigeonhole(10)  # far more than 0.1 s of any core, far less than the resource limit's units
    status, _, detail, _ = context._solve(hyps, goal, 5.0)
    assert status == "unknown" and detail.startswith(context.CLOCK_BACKSTOP)
    assert cache.hits == 0 and not cache._answers
