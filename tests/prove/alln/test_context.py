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
