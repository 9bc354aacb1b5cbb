"""The Z3 interpretation of a vocabulary: symbols, condition builders, quantified facts with kinds."""

import z3

from proofs.cot_path_to_tree.algorithms.dfs_facts import VOCABULARY
from symcot.lemmas.walker import as_real
from symcot.prove.alln.ops import Symbolic, bound_var, fresh_int, instance, ite, quantified


def test_symbols_and_builders():
    c = Symbolic(VOCABULARY)
    assert c.cur(0).sort() == z3.IntSort() and c.vis(0, 1).sort() == z3.BoolSort()
    assert c.kinds["cur"] == (("step",), "vertex")
    assert z3.is_true(z3.simplify(c.and_(True, c.n == c.n))) and z3.is_false(z3.simplify(c.or_(False, False)))
    assert ite(True, 1, 2) == 1 and ite(z3.BoolVal(False), 1, 2) == 2
    x = z3.Int("x")
    assert ite(x > 0, 1, z3.RealVal(2)).sort() == z3.RealSort() and as_real(True).eq(z3.RealVal(1))
    assert str(fresh_int("a")) != str(fresh_int("a"))


def test_facts_become_bounded_quantified_formulas():
    c = Symbolic(VOCABULARY)
    fact = next(f for f in VOCABULARY.facts if f.name == "simple")
    q = quantified(c, fact)
    assert z3.is_quantifier(q) and q.var_name(0) == "v!:vertex" and bound_var(fact.vars[0]).eq(z3.Int("v!:vertex"))
    s = z3.Solver()
    s.add(q, c.n == 3, c.adj(1, 1))
    assert s.check() == z3.unsat
    inst = instance(c, fact, [z3.IntVal(5)])
    s2 = z3.Solver()
    s2.add(inst, c.n == 3, c.adj(5, 5))  # 5 is outside the range: the instance says nothing there
    assert s2.check() == z3.sat


def test_uninterpreted_applications_each_once_inside_quantifiers_or_not():
    from symcot.prove.alln.ops import uninterpreted

    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    g = z3.Function("g", z3.IntSort(), z3.IntSort(), z3.BoolSort())
    c, x = z3.Int("c"), z3.Int("x")
    body = z3.ForAll([x], g(f(x), c))
    shared = f(c) + 1
    terms = [z3.And(body, shared > 2, shared < 5, g(3, f(c)))]
    outside = sorted(str(e) for e in uninterpreted(terms, quantifier_bodies=False))
    assert outside == ["c", "f(c)", "g(3, f(c))"]  # each once, the numeral and the arithmetic not at all
    inside = sorted(str(e) for e in uninterpreted(terms))
    assert inside == ["c", "f(Var(0))", "f(c)", "g(3, f(c))", "g(f(Var(0)), c)"]
    assert all(isinstance(e, z3.ExprRef) for e in uninterpreted(terms))
    assert isinstance(next(e for e in uninterpreted(terms) if str(e) == "c"), z3.ArithRef)
    seen: set[int] = set()
    assert len(list(uninterpreted([shared], seen=seen))) == 2
    assert list(uninterpreted([f(c) > 0], seen=seen)) == []  # walked before: f(c) and c are in seen
    assert list(uninterpreted([])) == []
