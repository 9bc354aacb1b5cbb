"""The λ rule: the least a·n + b under which the obligations that used the bound still hold."""

import sympy as sp
import z3

from symcot.prove.alln.context import Context, rlimit
from symcot.prove.lam.rule import derive


def _ctx_with(goal_of, hyps):
    ctx = Context(hyps)
    ctx.keep_queries = True
    return ctx


def test_least_rule_of_its_form_and_the_one_below_reported():
    ctx, ob, lam, n = _lambda_exceeds_timestamps()
    free = ctx.check(z3.Int("t") >= 0, "step", "block flg4", "timestamps are ≥ 0")
    assert ob.ok and "λ ≥ 2*n - 1" in ob.used and free.ok and "λ ≥ 2*n - 1" not in free.used
    res = derive(ctx, [ob, free], "λ ≥ 2*n - 1", lam, {sp.Symbol("n", integer=True, positive=True): n},
                 sp.Symbol("n", integer=True, positive=True))
    assert str(res.rule) == "2*n - 3" and res.obligations == 1
    assert res.below["rule"] == "λ ≥ 2*n - 4" and res.below["status"] == "failed"
    assert [t["status"] for t in res.tries][:2] == ["failed", "failed"]  # λ ≥ 8 and λ ≥ n + 8 do not follow
    # slope 2: the window's top first, then bisection on b, each b that holds followed by b - 1; λ ≥ 2n - 4 was
    # tried once, by the search
    assert [t["rule"] for t in res.tries][2:] == ["λ ≥ 2*n + 8", "λ ≥ 2*n", "λ ≥ 2*n - 1", "λ ≥ 2*n - 5",
                                                  "λ ≥ 2*n - 3", "λ ≥ 2*n - 4"]
    assert all(t["rlimit"] == rlimit(t["limit_s"]) for t in res.tries)  # each try's limit: a resource count
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


def _undecided_under(quick_s, real):
    """``_holds`` answering ``unknown`` under a limit of ``quick_s`` or less, else as Z3 does."""
    def holds(ctx, obs, bound_name, hyp, timeout_s):
        return ("unknown", "(Z3: canceled)") if timeout_s <= quick_s else real(ctx, obs, bound_name, hyp, timeout_s)
    return holds


def _lambda_exceeds_timestamps():
    n, t, lam = z3.Int("n"), z3.Int("t"), z3.Real("λ")
    hyps = [("n ≥ 2", n >= 2), ("t ≤ 2n - 3", z3.And(t >= 0, t <= 2 * n - 3)), ("λ ≥ 2*n - 1", lam >= 2 * n - 1)]
    ctx = _ctx_with(None, hyps)
    ob = ctx.check(lam >= t, "step", "head B", "λ exceeds every timestamp")
    return ctx, ob, lam, n


def test_tries_undecided_under_the_quick_limit_are_asked_again_under_the_full_one(monkeypatch):
    import symcot.prove.lam.rule as rule

    ctx, ob, lam, n = _lambda_exceeds_timestamps()
    monkeypatch.setattr(rule, "_holds", _undecided_under(2, rule._holds))
    size = sp.Symbol("n", integer=True, positive=True)
    res = derive(ctx, [ob], "λ ≥ 2*n - 1", lam, {size: n}, size, timeout_s=7, quick_s=2)
    assert str(res.rule) == "2*n - 3" and res.below["status"] == "failed" and res.below["limit_s"] == 7
    quick = [t for t in res.tries if t["limit_s"] == 2]
    assert [t["status"] for t in quick] == ["unknown"] * 4  # one per slope: nothing is found under the quick limit
    assert all(t["limit_s"] == 7 for t in res.tries[4:]) and all("seconds" in t for t in res.tries)


def test_an_undecided_next_smaller_intercept_is_asked_again_under_the_full_limit(monkeypatch):
    import symcot.prove.lam.rule as rule

    ctx, ob, lam, n = _lambda_exceeds_timestamps()
    real = rule._holds

    def holds(ctx, obs, bound_name, hyp, timeout_s):
        status, why = real(ctx, obs, bound_name, hyp, timeout_s)
        return ("unknown", "(Z3: canceled)") if status == "failed" and timeout_s <= 2 else (status, why)

    monkeypatch.setattr(rule, "_holds", holds)
    size = sp.Symbol("n", integer=True, positive=True)
    res = derive(ctx, [ob], "λ ≥ 2*n - 1", lam, {size: n}, size, timeout_s=7, quick_s=2)
    assert str(res.rule) == "2*n - 3"
    assert res.below == res.tries[-1] and res.below["rule"] == "λ ≥ 2*n - 4" and res.below["status"] == "failed"
    assert res.below["limit_s"] == 7 and res.answer().certified


def test_a_smaller_intercept_proved_only_under_the_full_limit_is_the_rule(monkeypatch):
    """``λ ≥ 2n − 3`` holds, but the quick limit leaves every rule below ``2n − 2`` undecided: the search finds
    ``2n − 2``, the full limit proves ``2n − 3``, so that is the rule, and ``2n − 4`` (refuted) is the one below."""
    import symcot.prove.lam.rule as rule

    ctx, ob, lam, n = _lambda_exceeds_timestamps()
    real = rule._holds

    def holds(ctx, obs, bound_name, hyp, timeout_s):
        status, why = real(ctx, obs, bound_name, hyp, timeout_s)
        hard = "(-3 + 2*n)" in str(hyp)  # λ ≥ 2n − 3
        return ("unknown", "(Z3: canceled)") if hard and timeout_s <= 2 else (status, why)

    monkeypatch.setattr(rule, "_holds", holds)
    size = sp.Symbol("n", integer=True, positive=True)
    res = derive(ctx, [ob], "λ ≥ 2*n - 1", lam, {size: n}, size, timeout_s=7, quick_s=2)
    assert str(res.rule) == "2*n - 3", res.tries
    assert res.below["rule"] == "λ ≥ 2*n - 4" and res.below["status"] == "failed" and res.below["limit_s"] == 7
    assert any(t["rule"] == "λ ≥ 2*n - 3" and t["status"] == "unknown" and t["limit_s"] == 2 for t in res.tries)
    assert res.answer().certified


def test_an_obligation_proved_from_ground_instances_is_rechecked_from_them_first(monkeypatch):
    """The swapped ground query decides the tries where it is unsat; the core's facts are asked only where not."""
    from symcot.prove.alln.context import Obligation, Query

    n, t, lam = z3.Int("n"), z3.Int("t"), z3.Real("λ")
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    x = z3.Int("x")
    bound, fact = ("λ ≥ 2*n - 1", lam >= 2 * n - 1), ("f below", z3.ForAll([x], f(x) <= x))
    ctx = _ctx_with(None, [("n ≥ 2", n >= 2), ("t ≤ 2n - 3", z3.And(t >= 0, t <= 2 * n - 3)), fact, bound])
    goal = lam >= f(t)
    instance = ("f below", f(t) <= t)
    query = Query((("n ≥ 2", n >= 2), ("t ≤ 2n - 3", z3.And(t >= 0, t <= 2 * n - 3)), instance, bound), goal,
                  ground=True, core=True)
    ob = Obligation("step", "head B", "λ exceeds f of every timestamp", "proved", 1, "Z3",
                    ["n ≥ 2", "t ≤ 2n - 3", "f below", "λ ≥ 2*n - 1"], 0.1, query=query)
    ctx.queries[id(ob)] = (goal, [h for h in ctx.facts])
    asked = []
    real = ctx.query

    def counting(*a, **k):
        asked.append(a[0])
        return real(*a, **k)

    monkeypatch.setattr(ctx, "query", counting)
    size = sp.Symbol("n", integer=True, positive=True)
    res = derive(ctx, [ob], "λ ≥ 2*n - 1", lam, {size: n}, size)
    assert str(res.rule) == "2*n - 3" and res.below["status"] == "failed"
    proved = [tr for tr in res.tries if tr["status"] == "proved"]
    assert proved and len(asked) == len(res.tries) - len(proved)  # only the tries the ground query left open


def test_an_obligation_refuted_under_one_rule_is_asked_first_under_the_next(monkeypatch):
    import symcot.prove.lam.rule as rule

    answers = {"undecided": "unknown", "refuted": "failed", "fine": "proved"}
    asked = []

    def one(ctx, ob, bound_name, hyp, timeout_s):
        asked.append(ob)
        return answers[ob], f"{ob} (Z3)"

    monkeypatch.setattr(rule, "_holds_one", one)
    obs = ["fine", "refuted", "fine"]
    assert rule._holds(None, obs, "λ ≥ n", None, 20) == ("failed", "refuted (Z3)")
    assert asked == ["fine", "refuted"] and obs == ["refuted", "fine", "fine"]
    obs = ["fine", "undecided", "refuted"]
    assert rule._holds(None, obs, "λ ≥ n", None, 20) == ("unknown", "undecided (Z3)")
    assert obs == ["fine", "undecided", "refuted"]  # only a refuted one moves
    assert rule._holds(None, ["fine", "fine"], "λ ≥ n", None, 20) == ("proved", "")
