"""The Z3 interpretation of a vocabulary (:mod:`symcot.algorithms.logic`): symbols as uninterpreted Z3 symbols.

Integer symbols are Z3 integers, boolean symbols Z3 booleans; block coordinates are Z3 reals (an integer
term is promoted where it meets a real one). ``vec``, ``set`` and ``mat`` keep the index function itself,
so a view ``c.vec(lambda j: c.adj(c.cur(τ), j), c.n)`` reads coordinate ``j`` as ``adj(cur(τ), j)``.
A fact becomes ``∀ vars: bounds → body``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import z3

from symcot.algorithms.logic import Fact, Var, Vocabulary

_fresh = itertools.count()


def fresh_int(prefix: str) -> z3.ArithRef:
    """A new integer constant (names are unique per process)."""
    return z3.Int(f"{prefix}!{next(_fresh)}")


def as_bool(x: Any) -> Any:
    """A Python or Z3 boolean as a Z3 boolean."""
    if isinstance(x, bool):
        return z3.BoolVal(x)
    return x


def as_arith(x: Any) -> Any:
    """A number, Z3 boolean (``1[b]``) or arithmetic term as an arithmetic term."""
    if isinstance(x, bool):
        return z3.IntVal(int(x))
    if isinstance(x, int):
        return z3.IntVal(x)
    if z3.is_bool(x):
        return z3.If(x, z3.IntVal(1), z3.IntVal(0))
    return x


def as_real(x: Any) -> Any:
    """An arithmetic value as a Z3 real (``ToReal`` for integers)."""
    if isinstance(x, bool):
        return z3.RealVal(int(x))
    if isinstance(x, int):
        return z3.RealVal(x)
    if z3.is_bool(x):
        return z3.If(x, z3.RealVal(1), z3.RealVal(0))
    if z3.is_int(x):
        return z3.ToReal(x)
    return x


def ite(cond: Any, a: Any, b: Any) -> Any:
    """``If(cond, a, b)`` with Python constants folded and the branches' sorts reconciled."""
    if isinstance(cond, bool):
        return a if cond else b
    if z3.is_true(cond):
        return a
    if z3.is_false(cond):
        return b
    if (isinstance(a, bool) or (z3.is_expr(a) and z3.is_bool(a))) and (
            isinstance(b, bool) or (z3.is_expr(b) and z3.is_bool(b))):
        return z3.If(cond, as_bool(a), as_bool(b))
    a, b = as_arith(a), as_arith(b)
    if z3.is_real(a) or z3.is_real(b):
        a, b = as_real(a), as_real(b)
    return z3.If(cond, a, b)


class Symbolic:
    """A vocabulary's symbols as Z3 constants and uninterpreted functions, plus the condition builders."""

    def __init__(self, vocab: Vocabulary, extra: dict[str, Any] | None = None):
        self.vocab = vocab
        self._values: dict[str, Any] = {}
        for s in vocab.symbols:
            sort = z3.IntSort() if s.sort == "int" else z3.BoolSort()
            if s.arity == 0:
                self._values[s.name] = z3.Const(s.name, sort)
            else:
                self._values[s.name] = z3.Function(s.name, *([z3.IntSort()] * s.arity), sort)
        self._values.update(extra or {})
        #: ``{symbol: (argument kinds, value kind)}`` for :func:`symcot.check.alln.ground.ground`.
        self.kinds = {s.name: (s.args, s.result) for s in vocab.symbols}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no symbol {name!r} in the vocabulary {self.vocab.name}") from None

    def bind(self, name: str, value: Any) -> None:
        """Add a symbol (a construction's constant such as ``λ``)."""
        self._values[name] = value

    ite = staticmethod(ite)

    @staticmethod
    def and_(*xs: Any) -> Any:
        """Conjunction (Python booleans folded)."""
        ys = [as_bool(x) for x in xs if x is not True]
        if any(x is False for x in xs):
            return z3.BoolVal(False)
        return z3.And(*ys) if ys else z3.BoolVal(True)

    @staticmethod
    def or_(*xs: Any) -> Any:
        """Disjunction (Python booleans folded)."""
        if any(x is True for x in xs):
            return z3.BoolVal(True)
        ys = [as_bool(x) for x in xs if x is not False]
        return z3.Or(*ys) if ys else z3.BoolVal(False)

    @staticmethod
    def not_(x: Any) -> Any:
        """Negation."""
        return z3.Not(as_bool(x)) if not isinstance(x, bool) else z3.BoolVal(not x)

    @staticmethod
    def implies(a: Any, b: Any) -> Any:
        """``a → b``."""
        return z3.Implies(as_bool(a), as_bool(b))

    @staticmethod
    def vec(f: Callable[[Any], Any], size: Any) -> Callable[[Any], Any]:
        """The index function itself."""
        return f

    @staticmethod
    def set(p: Callable[[Any], Any], size: Any) -> Callable[[Any], Any]:
        """The membership predicate itself."""
        return p

    @staticmethod
    def mat(f: Callable[[Any, Any], Any], rows: Any, cols: Any) -> Callable[[Any, Any], Any]:
        """The entry function itself."""
        return f


def bound_var(v: Var, suffix: str = "") -> Any:
    """The Z3 bound variable of ``v``; its name carries the kind (``τ:step``) for instantiation."""
    return z3.Int(f"{v.name}{suffix}:{v.kind}" if v.kind else f"{v.name}{suffix}")


def bounds(c: Any, variables: Sequence[Var], terms: Sequence[Any]) -> list[Any]:
    """``lo ≤ v ≤ hi`` for each variable, at the given terms."""
    out = []
    for k, (v, x) in enumerate(zip(variables, terms)):
        prev = terms[:k]
        out += [as_arith(v.lo(c, *prev)) <= x, x <= as_arith(v.hi(c, *prev))]
    return out


def quantified(c: Any, fact: Fact) -> Any:
    """``∀ vars: bounds → body`` as a Z3 formula (the body alone when the fact has no variable)."""
    if not fact.vars:
        return as_bool(fact.body(c))
    xs = [bound_var(v) for v in fact.vars]
    body = z3.Implies(z3.And(*bounds(c, fact.vars, xs)), as_bool(fact.body(c, *xs)))
    return z3.ForAll(xs, body)


def instance(c: Any, fact: Fact, terms: Sequence[Any]) -> Any:
    """The fact at ``terms``: ``bounds(terms) → body(terms)``."""
    return z3.Implies(z3.And(*bounds(c, fact.vars, terms)), as_bool(fact.body(c, *terms)))
