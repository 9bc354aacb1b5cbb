r"""Proofs of the derived facts of a vocabulary (:mod:`symcot.algorithms.logic`), by Z3.

A derived fact ``∀ v_1 … v_k: bounds → body`` with :class:`~symcot.algorithms.logic.Induction` on ``v_i``
is proved in two obligations, with ``v_1 … v_{i-1}`` fixed (fresh constants):

* base: the statement at ``v_i = lo``, for every ``v_{i+1} … v_k``;
* step: from the statement at ``v_i = x`` for every ``v_{i+1} … v_k`` (the induction hypothesis, quantified)
  and ``lo ≤ x < hi``, the statement at ``x + 1``.

A :class:`~symcot.algorithms.logic.Direct` fact is one obligation. The hypotheses are the domain and
definition facts and the derived and hand facts stated before it (never itself or a later one), so the
facts form a well-founded chain.
"""

from __future__ import annotations

from typing import Any

import z3

from symcot.algorithms.logic import Direct, Fact, Induction, Vocabulary
from symcot.prove.alln.context import Context, Obligation
from symcot.prove.alln.ops import Symbolic, as_arith, as_bool, bound_var, fresh_int, quantified, reading


def without(fact: Fact) -> frozenset[str]:
    """The facts ``fact``'s proof may not use (none for a fact without a proof)."""
    return frozenset(fact.proof.without) if fact.proof is not None else frozenset()


def hypotheses_for(vocab: Vocabulary, c: Symbolic, fact: Fact) -> list[tuple[str, Any]]:
    """Domain and definition facts, and the derived/hand facts before ``fact`` and its joint group.

    Less the facts its proof is ``without``, and every derived or hand fact not proved without them too.
    """
    group = {fact.name, *(fact.proof.joint if isinstance(fact.proof, Induction) else ())}
    first = min(k for k, f in enumerate(vocab.facts) if f.name in group)
    skip = without(fact)
    odd = sorted(f.name for f in vocab.facts if f.name in group and without(f) != skip)
    if odd:
        raise ValueError(f"joint induction of {fact.name}: {odd} are proved without other facts than it")
    out = []
    for k, f in enumerate(vocab.facts):
        if f.name in group or f.name in skip:
            continue
        if f.kind in ("derived", "hand") and not skip <= without(f):
            continue
        if f.kind in ("domain", "definition") or k < first:
            out.append((f.name, quantified(c, f)))
    return out


def _ih(c: Symbolic, fact: Fact, prefix: list[Any], x: Any, i: int) -> Any:
    """The statement at ``v_i = x`` for every later variable (the induction hypothesis)."""
    bound = [bound_var(v, "'") for v in fact.vars[i + 1:]]
    terms = [*prefix, x, *bound]
    body = z3.Implies(_all(_bounds(c, fact, terms, i + 1)), as_bool(fact.body(c, *terms)))
    return z3.ForAll(bound, body) if bound else body


def _all(fs: list[Any]) -> Any:
    """The conjunction of ``fs``; ``true`` when there is none (a bare ``(and)`` is not SMT-LIB)."""
    return z3.And(*fs) if fs else z3.BoolVal(True)


def _bounds(c: Symbolic, fact: Fact, terms: list[Any], start: int = 0) -> list[Any]:
    out = []
    for k in range(start, len(terms)):
        v = fact.vars[k]
        prev = terms[:k]
        out += [as_arith(v.lo(c, *prev)) <= terms[k], terms[k] <= as_arith(v.hi(c, *prev))]
    return out


def conjuncts(f: Any) -> list[Any]:
    """``f`` as a list of formulas whose conjunction it is (``a → (b ∧ c)`` gives ``a → b``, ``a → c``)."""
    if z3.is_and(f):
        return [g for ch in f.children() for g in conjuncts(ch)]
    if z3.is_implies(f):
        a, b = f.children()
        parts = conjuncts(b)
        if len(parts) > 1:
            return [z3.Implies(a, p) for p in parts]
    return [f]


def _check_parts(ctx: Context, goal: Any, fact: Fact, what: str, local: list[tuple[str, Any]],
                 hyps: list[tuple[str, Any]], method: str, hints: Any = ()) -> list[Obligation]:
    parts = conjuncts(goal)
    out = []
    for k, g in enumerate(parts):
        tag = f" (part {k + 1} of {len(parts)})" if len(parts) > 1 else ""
        out.append(ctx.check(g, "fact", fact.name, what + tag, local, facts=hyps, method=method, hints=hints))
    return out


def prove_fact(ctx: Context, vocab: Vocabulary, c: Symbolic, fact: Fact) -> list[Obligation]:
    """The obligations of one derived fact (none for the other kinds)."""
    if fact.kind != "derived":
        return []
    hyps = hypotheses_for(vocab, c, fact)
    if isinstance(fact.proof, Direct):
        xs = [fresh_int(v.name) for v in fact.vars]
        goal = z3.Implies(_all(_bounds(c, fact, xs)), as_bool(fact.body(c, *xs)))
        hints = [as_arith(h) for h in fact.proof.hints(c, *xs)] if fact.proof.hints else []
        return _check_parts(ctx, goal, fact, fact.source or "as stated", [], hyps, "Z3 from the facts before it",
                            hints)
    assert isinstance(fact.proof, Induction)
    i = [v.name for v in fact.vars].index(fact.proof.var)
    var = fact.vars[i]
    prefix = [fresh_int(v.name) for v in fact.vars[:i]]
    pre = _bounds(c, fact, prefix)
    lo = as_arith(var.lo(c, *prefix))
    hi = as_arith(var.hi(c, *prefix))
    out = []
    # base: v_i = lo, every later variable
    rest = [fresh_int(v.name) for v in fact.vars[i + 1:]]
    terms = [*prefix, lo, *rest]
    goal = z3.Implies(_all([*pre, lo <= hi, *_bounds(c, fact, terms, i + 1)]), as_bool(fact.body(c, *terms)))
    out += _check_parts(ctx, goal, fact, f"induction on {var.name}: base {var.name} = {lo}", [], hyps,
                        "Z3 induction (base)")
    # step: v_i = x → x + 1
    x = fresh_int(var.name)
    ihs = [("induction hypothesis", _ih(c, fact, prefix, x, i))]
    for name in fact.proof.joint:
        other = next(f for f in vocab.facts if f.name == name)
        if i != 0 or other.vars[0].name != var.name:
            raise ValueError(f"joint induction of {fact.name} and {name}: both must induct on their first variable")
        ihs.append((f"induction hypothesis ({name})", _ih(c, other, [], x, 0)))
    rest = [fresh_int(v.name) for v in fact.vars[i + 1:]]
    terms = [*prefix, x + 1, *rest]
    goal = z3.Implies(_all(_bounds(c, fact, terms, i + 1)), as_bool(fact.body(c, *terms)))
    local = [("prefix bounds", z3.And(*pre)) if pre else ("no prefix", z3.BoolVal(True)),
             (f"{lo} ≤ {var.name} < {hi}", z3.And(lo <= x, x + 1 <= hi)), *ihs]
    what = f"induction on {var.name}: step {var.name} → {var.name} + 1"
    split = fact.proof.split
    hints = [as_arith(h) for h in fact.proof.hints(c, x)] if fact.proof.hints else []
    if split is None:
        return out + _check_parts(ctx, goal, fact, what, local, hyps, "Z3 induction (step)", hints)
    cases = [as_bool(x) for x in split(c, x)]
    out.append(ctx.check(z3.Or(*cases), "fact", fact.name, f"{what}: the cases cover every step", local, facts=hyps,
                         method="Z3 induction (step cases)"))
    for k, case in enumerate(cases):
        out += _check_parts(ctx, goal, fact, f"{what}, case {k + 1}", [*local, (f"case {k + 1}", case)], hyps,
                            "Z3 induction (step)", hints)
    return out


def prove_facts(ctx: Context, vocab: Vocabulary, c: Symbolic) -> list[Obligation]:
    """Every derived fact's obligations, in order."""
    out: list[Obligation] = []
    for f in vocab.facts:
        with reading(f"fact {f.name}"):
            out += prove_fact(ctx, vocab, c, f)
    return out


def prove_vocabulary(vocab: Vocabulary, timeout_s: float = 60) -> list[Obligation]:
    """Every derived fact of ``vocab`` proved on its own (the prover does the same before a statement's step)."""
    c = Symbolic(vocab)
    ctx = Context([], timeout_s)
    ctx.kinds = c.kinds
    return prove_facts(ctx, vocab, c)
