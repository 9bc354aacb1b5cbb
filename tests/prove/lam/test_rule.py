"""The λ rule: the least a·n + b under which the obligations that used the bound still hold."""

import sympy as sp
import z3

from symcot.prove.alln.context import Context
from symcot.prove.lam.rule import derive


def _ctx_with(goal_of, hyps):
    ctx = Context(hyps)
    ctx.keep_queries = True
    return ctx


def test_least_rule_of_its_form_and_the_one_below_reported():
    n, t, lam = z3.Int("n"), z3.Int("t"), z3.Real("λ")
    hyps = [("n ≥ 2", n >= 2), ("t ≤ 2n - 3", z3.And(t >= 0, t <= 2 * n - 3)), ("λ ≥ 2*n - 1", lam >= 2 * n - 1)]
    ctx = _ctx_with(None, hyps)
    ob = ctx.check(lam >= t, "step", "head B", "λ exceeds every timestamp")
    free = ctx.check(t >= 0, "step", "block flg4", "timestamps are ≥ 0")
    assert ob.ok and "λ ≥ 2*n - 1" in ob.used and free.ok and "λ ≥ 2*n - 1" not in free.used
    res = derive(ctx, [ob, free], "λ ≥ 2*n - 1", lam, {sp.Symbol("n", integer=True, positive=True): n},
                 sp.Symbol("n", integer=True, positive=True))
    assert str(res.rule) == "2*n - 3" and res.obligations == 1
    assert res.below["rule"] == "λ ≥ 2*n - 4" and res.below["status"] == "failed"
    assert [t["status"] for t in res.tries][:2] == ["failed", "failed"]  # λ ≥ 8 and λ ≥ n + 8 do not follow
    # slope 2: the window's top first, then bisection on b; λ ≥ 2n - 4 was tried once, by the search
    assert [t["rule"] for t in res.tries][2:] == ["λ ≥ 2*n + 8", "λ ≥ 2*n", "λ ≥ 2*n - 4", "λ ≥ 2*n - 2",
                                                  "λ ≥ 2*n - 3"]
    a = res.answer()
    assert (a.value, a.scope, a.holds_at_value, a.certified) == ("λ ≥ 2*n - 3", "all n", True, True)
    assert a.certificate.at == "1 obligations proved under λ ≥ 2*n - 3" and a.certificate.below is res.below


def test_no_obligation_uses_the_bound():
    n, lam = z3.Int("n"), z3.Real("λ")
    ctx = _ctx_with(None, [("λ ≥ n", lam >= n)])
    ob = ctx.check(n == n, "step", "w", "trivial")
    res = derive(ctx, [ob], "λ ≥ n", lam, {sp.Symbol("n"): n}, sp.Symbol("n"))
    assert res.obligations == 0 and res.rule is None and res.every_lambda
    assert res.answer().value == "every λ" and res.answer().certified


def test_no_rule_in_the_window():
    n, lam = z3.Int("n"), z3.Real("λ")
    ctx = _ctx_with(None, [("n ≥ 1", n >= 1), ("λ ≥ n*n", lam >= n * n)])
    ob = ctx.check(lam >= n * n, "step", "head", "λ above n²")
    res = derive(ctx, [ob], "λ ≥ n*n", lam, {sp.Symbol("n"): n}, sp.Symbol("n"), slopes=(0, 1), window=(-2, 2))
    assert res.rule is None and res.below is None and [t["rule"] for t in res.tries] == ["λ ≥ 2", "λ ≥ n + 2"]
    assert res.answer().value is None and not res.answer().certified
