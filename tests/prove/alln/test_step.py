"""Base and stop obligations: proved for DFS, and not for a wrong prompt token or a wrong stop rule."""

import dataclasses

import z3

from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT, STOP, DfsConstruction, Segment
from symcot.constructions.encoding import StopRule
from symcot.prove.alln.context import Context
from symcot.prove.alln.engine import Engine
from symcot.prove.alln.ops import Symbolic, quantified
from symcot.prove.alln.step import prove_base, prove_stop
from symcot.prove.alln.sums import Summer


def _setup(stmt=STATEMENT):
    c = Symbolic(stmt.vocabulary)
    ctx = Context([(f.name, quantified(c, f)) for f in stmt.vocabulary.facts], 30)
    ctx.kinds = c.kinds
    t = z3.Int("t")
    return Engine(stmt, DfsConstruction().decoder, c, Summer(ctx), {}, t, [("0 ≤ t < T", z3.And(t >= 0, t < c.T))]), ctx


def test_base_and_stop_are_proved_for_dfs():
    eng, ctx = _setup()
    prove_base(eng, ctx)
    prove_stop(eng, ctx, STOP)
    assert ctx.log and all(o.ok for o in ctx.log)
    assert {o.phase for o in ctx.log} == {"base", "stop"}


def test_a_wrong_prompt_token_and_a_wrong_stop_rule_are_not_proved():
    from proofs.cot_path_to_tree.constructions.cotdfs import Y0_TOKEN, Y0_VIEWS
    from symcot.constructions.encoding import const

    bad_y0 = Segment("y_0", lambda c: 1, Y0_TOKEN.extended(flg3=const(0)), Y0_VIEWS, lambda i: "y_0")
    eng, ctx = _setup(dataclasses.replace(STATEMENT, y0=bad_y0))
    prove_base(eng, ctx)
    assert [o.where for o in ctx.log if not o.ok] == ["prompt y_0 = token at step 0: block flg3"]
    eng, ctx = _setup()
    prove_stop(eng, ctx, StopRule("vis", 0))  # "stop when nothing is visited": never fires at T
    assert not all(o.ok for o in ctx.log)
