"""Sums over a symbolic size: the two lemmas proved by induction, and each used only where its premise is proved."""

import z3

from symcot.prove.alln.context import Context
from symcot.prove.alln.sums import Summer, prove_lemmas, support_points


def test_lemmas_are_proved_by_induction():
    ctx = Context([])
    obs = prove_lemmas(ctx)
    assert len(obs) == 10 and all(o.ok for o in obs)
    assert {o.where for o in obs} >= {"L2 (0/1 terms)", "L1 (finite support), 3 point(s)"}


def test_support_points_are_read_off_the_terms():
    j, c, d = z3.Ints("j c d")
    f = z3.If(j == c, 1, 0) * z3.If(d == j, 2, 0) + z3.If(j == j + 0, 0, 0)
    assert [str(p) for p in support_points(f, j)] == ["c", "d"]


def test_a_one_hot_dot_product_is_the_coordinate():
    n, c = z3.Ints("n c")
    v = z3.Function("v", z3.IntSort(), z3.RealSort())
    ctx = Context([("n ≥ 1", n >= 1)])
    s = Summer(ctx).value(n, lambda j: z3.If(j == c, z3.RealVal(1), z3.RealVal(0)) * v(j), "⟨e_c, v⟩",
                          [("c in range", z3.And(c >= 0, c < n))])
    assert ctx.log[-1].ok and "L1" in ctx.log[-1].method
    assert ctx.query(s == v(c), [("c in range", z3.And(c >= 0, c < n))])[0] == "proved"


def test_a_zero_one_sum_is_at_least_one_exactly_when_a_term_is_one():
    n, w0 = z3.Ints("n w0")
    p = z3.Function("p", z3.IntSort(), z3.BoolSort())
    ctx = Context([])
    summer = Summer(ctx)
    s = summer.value(n, lambda j: z3.If(p(j), z3.RealVal(1), z3.RealVal(0)), "Σ p")
    assert "L2" in ctx.log[-1].method and ctx.log[-1].ok
    some = [("p(w0)", z3.And(w0 >= 0, w0 < n, p(w0)))]
    assert ctx.query(s >= 1, some)[0] == "proved"
    assert ctx.query(s <= n, [])[0] == "proved"
    assert summer.value(n, lambda j: z3.If(p(j), z3.RealVal(1), z3.RealVal(0)), "Σ p again").eq(s)  # one value


def test_a_sum_of_other_terms_is_not_valued():
    n = z3.Int("n")
    v = z3.Function("v", z3.IntSort(), z3.RealSort())
    ctx = Context([])
    Summer(ctx).value(n, lambda j: v(j), "Σ v")
    assert ctx.log[-1].status in ("failed", "unknown") and "L2" in ctx.log[-1].method
