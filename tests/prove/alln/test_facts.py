"""Derived facts proved by Z3 induction from the facts before them; a false one is not proved."""

import re

import pytest
import z3

from proofs.cot_path_to_tree.algorithms.dfs_facts import MOVE, VERTEX
from proofs.cot_path_to_tree.algorithms.dfs_facts import VOCABULARY as DFS
from symcot.algorithms.logic import Fact, Induction, Vocabulary
from symcot.prove.alln.context import Context
from symcot.prove.alln.facts import conjuncts, hypotheses_for, prove_fact, prove_facts, prove_vocabulary
from symcot.prove.alln.ops import Symbolic


@pytest.mark.slow
def test_dfs_facts_are_proved():
    obs = prove_vocabulary(DFS, 60)
    assert obs and all(o.ok for o in obs), [o.line() for o in obs if not o.ok]
    assert {o.where for o in obs} == {"starts", "run", "monotone", "seen", "parent-seen"}
    assert any("induction hypothesis" in o.used for o in obs)


def test_a_false_fact_is_not_proved_and_a_fact_never_assumes_itself_or_a_later_one():
    shrink = Fact("shrinks", (MOVE, VERTEX), lambda c, t, v: c.implies(c.vis(t + 1, v), c.vis(t, v)), "derived",
                  Induction("τ"))
    vocab = Vocabulary("dfs+false", DFS.symbols, (*DFS.facts, shrink), DFS.views, DFS.interpret)
    c = Symbolic(vocab)
    ctx = Context([], 5)
    obs = prove_fact(ctx, vocab, c, shrink)
    assert not all(o.ok for o in obs)
    names = [n for n, _ in hypotheses_for(vocab, c, shrink)]
    assert "shrinks" not in names and "monotone" in names
    first = next(f for f in vocab.facts if f.name == "run")
    assert "monotone" not in [n for n, _ in hypotheses_for(vocab, c, first)]


def test_conjuncts_split_under_an_implication():
    a, b, d = z3.Bools("a b d")
    assert [str(x) for x in conjuncts(z3.Implies(a, z3.And(b, d)))] == ["Implies(a, b)", "Implies(a, d)"]


def test_an_induction_over_its_only_variable_has_no_empty_conjunction():
    """``∀τ: acc(τ) ≥ 0`` by induction on τ: no bound is left, and the goal is SMT-LIB that cvc5 reads."""
    from symcot.algorithms.logic import Sig, Var

    step = Var("τ", lambda c, *_: 0, lambda c, *_: c.T, "step")
    move = Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step")
    vocab = Vocabulary("acc", (Sig("T", 0, result="step"), Sig("b", 1, "int", "", ("step",)),
                               Sig("acc", 1, "int", "", ("step",))),
                       (Fact("bits", (move,), lambda c, t: c.or_(c.b(t) == 0, c.b(t) == 1), "domain"),
                        Fact("init", (), lambda c: c.acc(0) == 0, "definition"),
                        Fact("add", (move,), lambda c, t: c.acc(t + 1) == c.acc(t) + c.b(t), "definition"),
                        Fact("nonneg", (step,), lambda c, t: c.acc(t) >= 0, "derived", Induction("τ"))),
                       {}, lambda inp, states: {})
    c = Symbolic(vocab)
    ctx = Context([], 10)
    ctx.kinds = c.kinds
    ctx.keep_queries = True
    obs = prove_facts(ctx, vocab, c)
    assert obs and all(o.ok for o in obs), [o.line() for o in obs]
    from symcot.prove.alln.smt2 import text

    scripts = [text(o.query) for o in obs if o.query is not None]
    assert scripts and not any(re.search(r"[(\s]and[\s)]", s.replace("(and ", "")) for s in scripts), scripts


def test_a_fact_proved_without_a_definition_never_reads_it_or_a_fact_that_did():
    """``T = 3`` follows from the definition ``ends`` (the run stops where ``acc`` reaches 3), and not without it; a
    fact proved with ``ends`` is left out of the hypotheses of a fact proved without it, one proved without is not."""
    from symcot.algorithms.logic import Direct, Sig, Var

    step = Var("τ", lambda c, *_: 0, lambda c, *_: c.T, "step")
    move = Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step")
    last = Fact("last", (), lambda c: c.T == 3, "derived", Direct())
    free = Fact("free", (), lambda c: c.T == 3, "derived", Direct(without=("ends",)))
    vocab = Vocabulary("acc", (Sig("T", 0, result="step"), Sig("acc", 1, "int", "", ("step",))),
                       (Fact("init", (), lambda c: c.acc(0) == 0, "definition"),
                        Fact("add", (move,), lambda c, t: c.acc(t + 1) == c.acc(t) + 1, "definition"),
                        Fact("ends", (), lambda c: c.and_(c.T >= 0, c.acc(c.T) == 3), "definition"),
                        Fact("count", (step,), lambda c, t: c.acc(t) == t, "derived",
                             Induction("τ", without=("ends",))),
                        last, free),
                       {}, lambda inp, states: {})
    c = Symbolic(vocab)
    ctx = Context([], 10)
    ctx.kinds = c.kinds
    assert [o.status for o in prove_fact(ctx, vocab, c, vocab.facts[3])] == ["proved", "proved"]
    assert [o.status for o in prove_fact(ctx, vocab, c, last)] == ["proved"]
    assert [n for n, _ in hypotheses_for(vocab, c, free)] == ["init", "add", "count"]  # no ends, no last
    assert [o.status for o in prove_fact(ctx, vocab, c, free)] != ["proved"]
