"""The Z3 interpretation of a vocabulary (:mod:`symcot.algorithms.logic`): symbols as uninterpreted Z3 symbols.

Integer symbols are Z3 integers, boolean symbols Z3 booleans; block coordinates are Z3 reals (an integer
term is promoted where it meets a real one). ``vec``, ``set`` and ``mat`` keep the index function itself,
so a view ``c.vec(lambda j: c.adj(c.cur(τ), j), c.n)`` reads coordinate ``j`` as ``adj(cur(τ), j)``.
A fact becomes ``∀ vars: bounds → body``.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import z3

from symcot.algorithms.logic import Fact, Var, Vocabulary
from symcot.errors import SymcotError
from symcot.lemmas.walker import as_real

_fresh = itertools.count()

#: Names of the interpretation's own attributes: a vocabulary symbol of one of these names would be shadowed.
RESERVED = frozenset({"ite", "and_", "or_", "not_", "implies", "vec", "set", "mat", "bind", "vocab", "kinds",
                      "lam"})


class NameClash(SymcotError):
    """A vocabulary name that would be the same term as one of the prover's own (a clash is an error)."""


class SymbolicTruthiness(SymcotError):
    """A statement's Python code asked a symbolic term for a Python truth value (``and``, ``or``, ``if``, …)."""


#: What is being read now (a fact, a view, a choice): the innermost label names the culprit.
_READING: list[str] = []
_SAVED: dict[str, Any] = {}


def _caller() -> str:
    """``file:line`` of the innermost frame outside z3 and this module (the statement's own code)."""
    f = sys._getframe(2)
    here = os.path.abspath(__file__)
    z3dir = os.path.dirname(os.path.abspath(z3.__file__))
    while f is not None:
        path = os.path.abspath(f.f_code.co_filename)
        if path != here and not path.startswith(z3dir):
            return f"{f.f_code.co_filename}:{f.f_lineno}"
        f = f.f_back  # type: ignore[assignment]
    return "?"


def _refuse(self: Any) -> bool:
    if z3.is_true(self):
        return True
    if z3.is_false(self):
        return False
    what = _READING[-1] if _READING else "a statement"
    raise SymbolicTruthiness(
        f"{_caller()}: {what} asks the symbolic term {str(self)[:80]!r} for a Python truth value (Python's and, "
        "or, not, if, a chained comparison, max/min or == on terms pick a branch silently); use c.and_, c.or_, "
        "c.not_, c.ite, c.implies")


@contextlib.contextmanager
def reading(label: str) -> Iterator[None]:
    """While it lasts, a Z3 term's Python truth value is an error naming ``label`` (nested: the innermost)."""
    if not _READING:
        _SAVED["bool"] = z3.AstRef.__bool__
        z3.AstRef.__bool__ = _refuse
    _READING.append(label)
    try:
        yield
    finally:
        _READING.pop()
        if not _READING:
            z3.AstRef.__bool__ = _SAVED.pop("bool")


def labelled(fn: Callable[..., Any], label: str) -> Callable[..., Any]:
    """``fn`` read under :func:`reading` (``label``); a function it returns is labelled too (a view's ``vec``)."""

    def f(*args: Any) -> Any:
        with reading(label):
            out = fn(*args)
        return labelled(out, label) if callable(out) and not z3.is_expr(out) and not isinstance(
            out, z3.FuncDeclRef) else out

    return f


def check_names(vocab: Vocabulary) -> None:
    """Every symbol and variable name is an identifier that no prover name can be (else :class:`NameClash`).

    The prover's own symbols carry ``!`` (``t!``, ``λ!``, bound variables ``v!:kind``), which no identifier
    has; the interpretation's attributes (:data:`RESERVED`) would shadow a symbol of the same name.
    """
    for s in vocab.symbols:
        if not s.name.isidentifier() or s.name.startswith("_") or s.name in RESERVED:
            raise NameClash(f"vocabulary {vocab.name}: the symbol name {s.name!r} is reserved or not an identifier "
                            f"(reserved: {', '.join(sorted(RESERVED))})")
    for fact in vocab.facts:
        names = [v.name for v in fact.vars]
        for v in fact.vars:
            if not v.name or "!" in v.name or ":" in v.name or names.count(v.name) > 1:
                raise NameClash(f"vocabulary {vocab.name}, fact {fact.name}: the variable name {v.name!r} is empty, "
                                "repeated, or has '!' or ':' (kept for the prover's own names)")


def uninterpreted(terms: Sequence[Any], quantifier_bodies: bool = True, seen: set[int] | None = None) -> Iterator[Any]:
    """Every distinct application of an uninterpreted symbol in ``terms`` (constants included), once.

    A DAG walk by AST id on Z3's own term handles: only the applications yielded are wrapped as Python terms (a
    query's terms have hundreds of thousands of shared nodes; wrapping each cost more than the solver's time on many
    queries). ``quantifier_bodies``: also walk into a quantifier's body (its applications then may have bound
    variables as arguments). ``seen`` carries the ids already walked across calls: the caller keeps those terms
    alive (Z3 reuses the id of a freed term).
    """
    if not terms:
        return
    seen = set() if seen is None else seen
    ctx = terms[0].ctx
    ref = ctx.ref()
    todo = [t.as_ast() for t in terms]
    while todo:
        a = todo.pop()
        k = _ast_id(ref, a)
        if k in seen:
            continue
        seen.add(k)
        kind = _ast_kind(ref, a)
        if kind == z3.Z3_QUANTIFIER_AST:
            if quantifier_bodies:
                todo.append(_quantifier_body(ref, a))
            continue
        if kind != z3.Z3_APP_AST:
            continue
        n = _num_args(ref, a)
        todo.extend(_app_arg(ref, a, j) for j in range(n))
        if _decl_kind(ref, _app_decl(ref, a)) == z3.Z3_OP_UNINTERPRETED:
            yield z3.z3._to_expr_ref(a, ctx)  # the public wrappers are per node kind; this picks the right one


_ast_id = z3.z3core.Z3_get_ast_id
_ast_kind = z3.z3core.Z3_get_ast_kind
_quantifier_body = z3.z3core.Z3_get_quantifier_body
_num_args = z3.z3core.Z3_get_app_num_args
_app_arg = z3.z3core.Z3_get_app_arg
_app_decl = z3.z3core.Z3_get_app_decl
_decl_kind = z3.z3core.Z3_get_decl_kind


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
        check_names(vocab)
        self.vocab = vocab
        self._values: dict[str, Any] = {}
        for s in vocab.symbols:
            sort = z3.IntSort() if s.sort == "int" else z3.BoolSort()
            if s.arity == 0:
                self._values[s.name] = z3.Const(s.name, sort)
            else:
                self._values[s.name] = z3.Function(s.name, *([z3.IntSort()] * s.arity), sort)
        self._values.update(extra or {})
        #: ``{symbol: (argument kinds, value kind)}`` for :func:`symcot.prove.alln.ground.ground`.
        self.kinds = {s.name: (s.args, s.result) for s in vocab.symbols}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no symbol {name!r} in the vocabulary {self.vocab.name}") from None

    def bind(self, name: str, value: Any) -> None:
        """Add a symbol (a construction's constant such as ``λ``); a name the vocabulary has is a clash."""
        if name in self._values:
            raise NameClash(f"vocabulary {self.vocab.name}: {name!r} names one of its symbols and the prover's "
                            "constant of that name")
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
        """The index function itself (read later under the label of the view that built it)."""
        return labelled(f, _READING[-1]) if _READING else f

    @staticmethod
    def set(p: Callable[[Any], Any], size: Any) -> Callable[[Any], Any]:
        """The membership predicate itself (labelled as :meth:`vec`)."""
        return labelled(p, _READING[-1]) if _READING else p

    @staticmethod
    def mat(f: Callable[[Any, Any], Any], rows: Any, cols: Any) -> Callable[[Any, Any], Any]:
        """The entry function itself (labelled as :meth:`vec`)."""
        return labelled(f, _READING[-1]) if _READING else f


def bound_var(v: Var, suffix: str = "") -> Any:
    """The Z3 bound variable of ``v``; its name carries the kind (``τ!:step``) for instantiation.

    The ``!`` keeps it apart from every vocabulary symbol (a bound variable named like a constant would
    capture it).
    """
    return z3.Int(f"{v.name}{suffix}!:{v.kind}" if v.kind else f"{v.name}{suffix}!")


def bounds(c: Any, variables: Sequence[Var], terms: Sequence[Any]) -> list[Any]:
    """``lo ≤ v ≤ hi`` for each variable, at the given terms."""
    out = []
    for k, (v, x) in enumerate(zip(variables, terms)):
        prev = terms[:k]
        out += [as_arith(v.lo(c, *prev)) <= x, x <= as_arith(v.hi(c, *prev))]
    return out


def quantified(c: Any, fact: Fact) -> Any:
    """``∀ vars: bounds → body`` as a Z3 formula (the body alone when the fact has no variable)."""
    with reading(f"fact {fact.name}"):
        if not fact.vars:
            return as_bool(fact.body(c))
        xs = [bound_var(v) for v in fact.vars]
        body = z3.Implies(z3.And(*bounds(c, fact.vars, xs)), as_bool(fact.body(c, *xs)))
        return z3.ForAll(xs, body)


def instance(c: Any, fact: Fact, terms: Sequence[Any]) -> Any:
    """The fact at ``terms``: ``bounds(terms) → body(terms)``."""
    with reading(f"fact {fact.name}"):
        return z3.Implies(z3.And(*bounds(c, fact.vars, terms)), as_bool(fact.body(c, *terms)))
