r"""Quantifier instantiation by the prover: a query's universal hypotheses replaced by ground instances.

Z3 decides quantified queries by E-matching and model-based instantiation, which may loop on the facts of
a run (a transition from ``τ`` to ``τ + 1`` matches its own conclusion). Before asking Z3 the quantified
query, the prover tries a ground one: every universally quantified hypothesis (also one nested in a
positive position: under ``∧`` or the conclusion of ``→``) is replaced by its instances at the ground
terms that occur, in the query, at the argument positions where the bound variable occurs in the body
(``∀τ: … cur(τ) …`` is instantiated at every ``x`` with ``cur(x)`` in the query), for two rounds.

This only ever *weakens* the hypotheses (an instance follows from the universal statement; a hypothesis
with a quantifier in a negative position is dropped), so ``unsat`` of the ground query implies ``unsat``
of the quantified one: a proof. A ground query that is not ``unsat`` proves nothing, and the prover
falls back to the quantified query.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import z3

from symcot.prove.alln.ops import uninterpreted

#: Most instances one quantifier may produce per round (beyond it, the hypothesis is dropped).
MAX_INSTANCES = 4000

#: A position ``(function, argument)``, or a kind ``("", kind)``.
Key = tuple[str, Any]
#: ``{symbol: (argument kinds, value kind)}``.
Kinds = dict[str, tuple[tuple[str, ...], str]]


def _universe(terms: Sequence[Any], out: dict[Key, dict[int, Any]], kinds: Kinds, seen: set[int]) -> None:
    """Ground terms by the (function, argument) positions and the kinds they occur at (not inside quantifiers).

    ``seen``: the terms walked before (their terms are in ``out`` already).
    """
    for e in uninterpreted(terms, quantifier_bodies=False, seen=seen):
        name = e.decl().name()
        args, result = kinds.get(name, ((), ""))
        if result:  # outside quantifier bodies every term is ground
            out.setdefault(("", result), {})[e.get_id()] = e
        for k, a in enumerate(e.children()):
            out.setdefault((name, k), {})[a.get_id()] = a
            if k < len(args) and args[k]:
                out.setdefault(("", args[k]), {})[a.get_id()] = a


def _offset(a: Any, nv: int) -> tuple[int, int] | None:
    """``(variable index, c)`` where the argument ``a`` is ``v + c`` or ``c + v`` (bound ``v``, numeral ``c``)."""
    if not (z3.is_app(a) and a.decl().kind() == z3.Z3_OP_ADD and a.num_args() == 2):
        return None
    for v, c in ((a.arg(0), a.arg(1)), (a.arg(1), a.arg(0))):
        if z3.is_var(v) and z3.is_int_value(c) and z3.get_var_index(v) < nv:
            return nv - 1 - z3.get_var_index(v), c.as_long()
    return None


def _positions(q: Any) -> list[set[tuple[Key, int]]]:
    """Per bound variable of ``q`` (in binding order), the (function, argument) positions it occurs at directly.

    Each with the offset ``c`` it occurs there with: ``0`` for ``f(v)``, ``c`` for ``f(v + c)`` (a numeral ``c``).
    """
    nv = q.num_vars()
    pos: list[set[tuple[Key, int]]] = [set() for _ in range(nv)]
    seen: set[int] = set()
    todo = [q.body()]
    while todo:
        e = todo.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_quantifier(e):
            continue  # nested binders shift indices: not used for positions
        if z3.is_app(e):
            d = e.decl()
            if d.kind() == z3.Z3_OP_UNINTERPRETED:
                for k in range(e.num_args()):
                    a = e.arg(k)
                    if z3.is_var(a):
                        idx = z3.get_var_index(a)
                        if idx < nv:
                            pos[nv - 1 - idx].add(((d.name(), k), 0))
                    else:
                        off = _offset(a, nv)
                        if off is not None:
                            pos[off[0]].add(((d.name(), k), off[1]))
            todo.extend(e.children())
    return pos


def _at_positions(ps: set[tuple[Key, int]], universe: dict[Key, dict[int, Any]], offsets: bool) -> dict[int, Any]:
    """The ground terms at the positions ``ps`` (by id); at ``s - c`` for a ground ``f(s)`` and ``f(v + c)``."""
    terms: dict[int, Any] = {}
    for p, c in ps:
        if c == 0:
            terms.update(universe.get(p, {}))
        elif offsets:
            for t in universe.get(p, {}).values():
                if t.sort() == z3.IntSort():
                    u = z3.simplify(t - c)
                    terms[u.get_id()] = u
    return terms


def _instances(q: Any, universe: dict[Key, dict[int, Any]], offsets: bool) -> list[Any] | None:
    """The instances of a universal quantifier over the universe (``None``: a variable has no candidate).

    ``offsets``: also at ``s - c`` for a ground ``f(s)`` where the variable occurs as ``f(v + c)``.
    """
    pos = _positions(q)
    cands = []
    for k, ps in enumerate(pos):
        terms = _at_positions(ps, universe, offsets)
        name = q.var_name(k)
        kind = name.rsplit(":", 1)[1] if ":" in name else ""
        terms.update(universe.get(("", "hint"), {}))
        if kind:
            terms.update(universe.get(("", f"hint:{kind}"), {}))
        sort = q.var_sort(k)
        if not terms and ":" in name:  # no term at its positions: the terms of its kind
            terms.update(universe.get(("", name.rsplit(":", 1)[1]), {}))
        vals = [t for t in terms.values() if t.sort() == sort]
        if not vals:
            if sort != z3.IntSort():
                return None
            vals = [z3.IntVal(0)]  # any value instantiates a universal statement; 0 is in every range [0, …]
        cands.append(vals)
    total = 1
    for c in cands:
        total *= len(c)
    if total > MAX_INSTANCES:
        return None
    out = []
    for combo in itertools.product(*cands):
        # substitute_vars: Var(0) is the last bound variable
        out.append(z3.substitute_vars(q.body(), *reversed(combo)))
    return out


def instantiate(f: Any, universe: dict[Key, dict[int, Any]], offsets: bool = False) -> Any:
    """``f`` with its positive universal quantifiers replaced by instances (weaker than ``f``; may be ``True``)."""
    if z3.is_quantifier(f):
        if not f.is_forall():
            return z3.BoolVal(True)
        inst = _instances(f, universe, offsets)
        if inst is None:
            return z3.BoolVal(True)
        if not inst:
            return z3.BoolVal(True)
        if not _has_quantifier(f.body()):  # instances of a quantifier-free body are quantifier-free
            return z3.And(*inst)
        return z3.And(*[instantiate(b, universe, offsets) for b in inst])
    if not _has_quantifier(f):
        return f
    if z3.is_and(f):
        return z3.And(*[instantiate(ch, universe, offsets) for ch in f.children()])
    if z3.is_implies(f):
        a, b = f.children()
        if _has_quantifier(a):
            return z3.BoolVal(True)
        return z3.Implies(a, instantiate(b, universe, offsets))
    return z3.BoolVal(True)


def _has_quantifier(e: Any, memo: dict[int, bool] | None = None) -> bool:
    memo = {} if memo is None else memo
    key = e.get_id()
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = z3.is_quantifier(e) or any(_has_quantifier(ch, memo) for ch in e.children())
    return hit


def ground(hyps: Sequence[tuple[str, Any]], goal: Any, kinds: Kinds | None = None,
           rounds: int = 2, hints: Sequence[Any] = (), offsets: bool = False) -> list[tuple[str, Any]] | None:
    """Quantifier-free hypotheses (same names) that the quantified ones imply; ``None`` if the goal has a quantifier.

    ``kinds`` gives the kinds of the vocabulary's symbols: a bound variable named ``name:kind`` is instantiated
    with every ground term of that kind when no term occurs at its argument positions. ``hints`` are terms
    every variable is also instantiated with (a proof's hint: ``v := i(τ)``). ``offsets``: a variable that occurs
    as ``f(v + c)`` is also instantiated at ``s - c`` for every ground ``f(s)`` (``∀τ: cur(τ + 1) = sel(τ)`` at
    ``τ = t`` for ``cur(t + 1)``; more instances, so the prover's own ground try goes without).
    """
    if _has_quantifier(goal):
        return None
    kinds = kinds or {}
    universe: dict[Key, dict[int, Any]] = {}
    for h in hints:  # a hint of a kind (the value kind of its function) goes to the variables of that kind
        kind = kinds.get(h.decl().name(), ((), ""))[1] if z3.is_app(h) and h.num_args() else ""
        universe.setdefault(("", f"hint:{kind}" if kind else "hint"), {})[h.get_id()] = h
    seen: set[int] = set()
    walked = [goal, *[f for _, f in hyps]]  # alive until the end: ``seen`` holds their ids
    _universe(walked, universe, kinds, seen)
    out: list[tuple[str, Any]] = []
    for _ in range(rounds):
        out = [(name, instantiate(f, universe, offsets) if _has_quantifier(f) else f) for name, f in hyps]
        before = sum(len(v) for v in universe.values())
        walked.extend(f for _, f in out)
        _universe([f for _, f in out], universe, kinds, seen)
        if sum(len(v) for v in universe.values()) == before:
            break
    return out
