"""An obligation not proved explains itself: the equation, the scope, a least counter-model or the timeout."""

import z3

from symcot.prove.alln.context import Obligation, Query
from symcot.prove.alln.explain import (
    FactInfo,
    counter_model,
    equation,
    explain,
    explain_failures,
    summary,
)

ACC = z3.Function("acc", z3.IntSort(), z3.IntSort())
BIT = z3.Function("bit", z3.IntSort(), z3.IntSort())
N, T, t = z3.Int("n"), z3.Int("T"), z3.Int("t!")
TAU = z3.Int("τ")
KINDS = {"n": None, "T": None}
FACTS = {"bits": FactInfo("domain", "of 0s and 1s"), "step:acc": FactInfo("definition", "one step"),
         "init:acc": FactInfo("definition")}


def _capped_query(cap=5, guard=False, bound=True):
    """``min(acc(t) + bit(t), cap) = acc(t + 1)`` under the prefix sums' facts at ``t``: false once the sum is cap."""
    a = z3.ToReal(ACC(t)) + z3.ToReal(BIT(t))
    eq = z3.If(a > 0, a, 0) - z3.If(a - cap > 0, a - cap, 0) == z3.ToReal(ACC(t + 1))
    hyps = (("bits", z3.ForAll([TAU], z3.Or(BIT(TAU) == 0, BIT(TAU) == 1))),
            ("step:acc", z3.Implies(z3.And(t >= 0, t < T), ACC(t + 1) == ACC(t) + BIT(t))),
            *((("bounds", z3.And(ACC(t) >= 0, ACC(t) <= t)),) if bound else ()),
            ("T = n", T == N),
            ("0 ≤ t < T", z3.And(t >= 0, t < T)))
    return Query(hyps, z3.Implies(t + 1 == T, eq) if guard else eq)


def _failed(q, status="failed", detail="Z3 model: n = 99"):
    return Obligation("step", "output y_{t+1}: block sum", "sum[i] as the statement says", status, query=q,
                      detail=detail, seconds=1.5)


def test_the_equation_is_the_decoders_side_and_the_statements():
    eq = equation(_capped_query().goal)
    assert eq == {"decoder": "ReLU(acc(t) + bit(t)) - ReLU(acc(t) + bit(t) - 5)", "statement": "acc(t + 1)"}
    assert equation(_capped_query(guard=True).goal)["when"] == "t + 1 = T"
    assert equation(t >= 0) is None


def test_the_counter_model_is_the_least_in_size_then_step_and_the_same_every_run():
    q = _capped_query()
    models = [counter_model(q, KINDS) for _ in range(2)]
    assert [(m.eval(N).as_long(), m.eval(t).as_long()) for m in models] == [(6, 5), (6, 5)]
    assert models[0].eval(ACC(t)).as_long() == 5


def test_a_failed_obligation_names_every_value_the_sides_and_the_unit_that_fires():
    e = explain(_failed(_capped_query()), FACTS, KINDS)
    cm = e["counter_model"]
    assert cm["values"][:3] == ["n = 6", "T = 6", "t = 5"]
    assert "acc(t) = acc(5) = 5" in cm["values"] and "bit(t) = bit(5) = 1" in cm["values"]
    assert cm["sides"] == {"decoder": "5", "statement": "6"}
    assert "ReLU(acc(t) + bit(t) - 5): argument 1, the unit fires" in cm["relus"]
    assert "bits (domain: of 0s and 1s)" in e["in_scope"]["facts"]
    assert "0 ≤ t < T: (t ≥ 0) ∧ (t < T)" in e["in_scope"]["hypotheses"]
    assert "timeout" not in e and "counter-model: n = 6" in summary(e)


def test_a_right_equation_has_no_counter_model():
    q = _capped_query(cap=10 ** 6)
    q = Query((*q.hyps, ("small", N <= 100)), q.goal)
    assert counter_model(q, KINDS) is None
    e = explain(_failed(q), FACTS, KINDS)
    assert "counter_model" not in e and "gave none" in e["counter_model_lost"]


def test_a_timeout_says_so_with_the_limit_the_causes_the_option_and_a_candidate():
    q = _capped_query(bound=False)
    e = explain(_failed(q, "unknown", "Z3: canceled (rlimit 1234)"), FACTS, KINDS, timeout_s=10)
    assert e["timeout"] == "timed out after 1.5 s (Z3's limit per obligation 10 s, resource count 1234 when stopped)"
    assert any("ReLU must keep on one side" in c for c in e["causes"]) and "timeout_s" in e["raise_limit"]
    assert "discharged" not in str(e)
    cand = e["candidate_model"]
    assert cand["sides"]["decoder"] != cand["sides"]["statement"] and "the unit is off" in cand["relus"][0]


def test_proved_obligations_are_not_explained_and_models_are_capped():
    q = _capped_query()
    obs = [Obligation("step", "w", "s", "proved"), _failed(q), _failed(q)]
    out = explain_failures(obs, None, 10, models=1)
    assert out[0] is None and "counter_model" in out[1] and "not solved again" in out[2]["counter_model_lost"]
    assert explain(Obligation("step", "w", "s", "unsupported", detail="no rule"), {})["unsupported"] == "no rule"


def test_a_goal_that_is_no_equation_shows_the_values_it_compares():
    su, st, u = z3.Int("score_u"), z3.Int("score_t"), z3.Int("x_u!3")
    goal = z3.And(su <= st, z3.Implies(u < t, su < st))
    q = Query((("case", z3.And(su == st, u >= 0, t >= 0, t < N, N <= 9)),), goal)
    e = explain(_failed(q), {}, KINDS)
    assert e["goal"] == "(score_u ≤ score_t) ∧ ((x_u < t) → (score_u < score_t))"
    cm = e["counter_model"]
    assert cm["values"] == ["n = 2", "t = 1", "score_u = 0", "score_t = 0", "x_u = 0"]  # least n, then t, then 0s
    assert cm["compared"] == ["score_u ≤ score_t: 0 ≤ 0, true", "x_u < t: 0 < 1, true",
                              "score_u < score_t: 0 < 0, false"] and "sides" not in cm
