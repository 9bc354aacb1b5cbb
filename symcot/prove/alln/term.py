r"""The term evaluator: a Z3 term of a traced statement evaluated on a concrete run, with Z3's semantics.

A traced statement (:mod:`symcot.prove.alln.trace`) is a set of Z3 terms over the vocabulary's symbols (Z3
constants and uninterpreted functions) and the trace's parameters. The prover reads those terms; the concrete
phase evaluates the *same* terms on a reference run, through :func:`compile_term`: the term becomes one Python
function of the run's values (the vocabulary's interpretation, attribute access: ``V.adj(i, j)``, ``V.n``) and
of the parameters. Each operator is given Z3's meaning: integer ``div`` and ``mod`` are SMT-LIB's (Euclidean:
the remainder is never negative), ``/`` is exact rational division, ``ite``, ``and``, ``or`` and ``=>`` read
only the branch they need. What Z3 leaves unspecified (a division by zero) or what this module does not know (an
operator outside the list) is an error, never a guess: :class:`TermError`.

The evaluator is part of every all-n proof's trusted base. It is checked against Z3's own evaluation of the same
terms on real runs (:mod:`symcot.prove.alln.pinned`) and by tests on random terms (tests/prove/alln/test_term.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import z3

from symcot.errors import SymcotError

#: The prover's λ constant (the weights' λ, :data:`symcot.prove.alln.prover.LAMBDA_NAME`); a term reads it as ``lam``.
LAMBDA = "λ!"


class TermError(SymcotError):
    """A term that cannot be evaluated exactly on a run (an unknown operator, a division by zero, a free name)."""


def _ediv(a: int, b: int) -> int:
    """SMT-LIB's integer ``div``: ``a = b·q + r`` with ``0 ≤ r < |b|``."""
    if b == 0:
        raise TermError("integer division by zero: Z3 leaves its value unspecified")
    return (a - a % abs(b)) // b


def _emod(a: int, b: int) -> int:
    """SMT-LIB's ``mod``: the remainder ``0 ≤ r < |b|``."""
    if b == 0:
        raise TermError("mod by zero: Z3 leaves its value unspecified")
    return a % abs(b)


def _rdiv(a: Any, b: Any) -> Any:
    """Exact division of two rationals (``Fraction``; an integral result stays a ``Fraction`` only if not whole)."""
    if b == 0:
        raise TermError("division by zero: Z3 leaves its value unspecified")
    q = Fraction(a) / Fraction(b)
    return q.numerator if q.denominator == 1 else q


def _to_int(a: Any) -> int:
    return math.floor(a)


def _is_int(a: Any) -> bool:
    return Fraction(a).denominator == 1


def _distinct(*xs: Any) -> bool:
    return len(set(xs)) == len(xs)


def _xor(a: Any, b: Any) -> bool:
    return bool(a) != bool(b)


#: Helpers the generated code calls, by name.
_HELPERS: dict[str, Any] = {"_ediv": _ediv, "_emod": _emod, "_rdiv": _rdiv, "_to_int": _to_int, "_is_int": _is_int,
                            "_distinct": _distinct, "_xor": _xor, "Fraction": Fraction}

#: Binary and n-ary operators written as Python infix operators.
_INFIX = {z3.Z3_OP_ADD: "+", z3.Z3_OP_SUB: "-", z3.Z3_OP_MUL: "*", z3.Z3_OP_LE: "<=", z3.Z3_OP_LT: "<",
          z3.Z3_OP_GE: ">=", z3.Z3_OP_GT: ">", z3.Z3_OP_EQ: "==", z3.Z3_OP_AND: " and ", z3.Z3_OP_OR: " or "}
#: Operators written as a call of a helper.
_CALLS = {z3.Z3_OP_IDIV: "_ediv", z3.Z3_OP_MOD: "_emod", z3.Z3_OP_DIV: "_rdiv", z3.Z3_OP_TO_INT: "_to_int",
          z3.Z3_OP_IS_INT: "_is_int", z3.Z3_OP_DISTINCT: "_distinct", z3.Z3_OP_XOR: "_xor"}


class _Source:
    """Python source of a term, node by node (a node shared in the term is written where it occurs)."""

    def __init__(self, params: dict[str, str]):
        self.params = params
        self.symbols: set[str] = set()
        self.size = 0

    def expr(self, e: z3.ExprRef) -> str:
        self.size += 1
        if self.size > 200_000:
            raise TermError("the term is too large to evaluate (more than 200,000 nodes written out)")
        if z3.is_int_value(e):
            return f"({e.as_long()})"
        if z3.is_rational_value(e):
            return f"Fraction({e.numerator_as_long()}, {e.denominator_as_long()})"
        if z3.is_true(e):
            return "True"
        if z3.is_false(e):
            return "False"
        if z3.is_quantifier(e) or z3.is_var(e):
            raise TermError(f"a quantifier or bound variable in a traced term: {str(e)[:80]}")
        if not z3.is_app(e):
            raise TermError(f"cannot evaluate {str(e)[:80]}")
        return self._app(e)

    def _app(self, e: z3.ExprRef) -> str:
        k = e.decl().kind()
        args = [self.expr(a) for a in e.children()]
        if k == z3.Z3_OP_UNINTERPRETED:
            return self._symbol(e, args)
        if k in _INFIX and args:
            if k == z3.Z3_OP_SUB and len(args) == 1:
                return f"(-{args[0]})"
            return "(" + _INFIX[k].join(f"{a}" if k not in (z3.Z3_OP_AND, z3.Z3_OP_OR) else f"bool({a})"
                                        for a in args) + ")"
        if k in _CALLS:
            return f"{_CALLS[k]}({', '.join(args)})"
        if k == z3.Z3_OP_UMINUS:
            return f"(-{args[0]})"
        if k == z3.Z3_OP_NOT:
            return f"(not {args[0]})"
        if k == z3.Z3_OP_IMPLIES:
            return f"((not {args[0]}) or bool({args[1]}))"
        if k == z3.Z3_OP_ITE:
            return f"({args[1]} if {args[0]} else {args[2]})"
        if k == z3.Z3_OP_TO_REAL:
            return args[0]
        if k == z3.Z3_OP_POWER and z3.is_int_value(e.arg(1)) and e.arg(1).as_long() >= 0:
            return f"({args[0]} ** {args[1]})"
        if k in (z3.Z3_OP_AND, z3.Z3_OP_OR) and not args:
            return "True" if k == z3.Z3_OP_AND else "False"
        raise TermError(f"the operator {e.decl().name()!r} of {str(e)[:80]} has no exact evaluation here")

    def _symbol(self, e: z3.ExprRef, args: list[str]) -> str:
        name = e.decl().name()
        if not args and name in self.params:
            return self.params[name]
        if name == LAMBDA:
            self.symbols.add("lam")
            return "V.lam"
        if not name.isidentifier():
            raise TermError(f"the term reads {name!r}, which is neither a symbol of the vocabulary nor a parameter "
                            "of the trace (a term made outside the statement's interpretation)")
        self.symbols.add(name)
        return f"V.{name}({', '.join(args)})" if args else f"V.{name}"


def compile_term(term: Any, params: tuple[Any, ...] = ()) -> Callable[..., Any]:
    """``term`` as a Python function ``f(V, *args)`` of a run's values ``V`` and the parameters' values.

    ``V`` gives each symbol of the vocabulary as an attribute (a number, or a function of numbers): the
    interpretation of a reference run. Python constants (a traced view that gave ``0``) are returned as they are.
    """
    if not isinstance(term, z3.ExprRef):
        value = term
        return lambda V, *args: value
    names = {p.decl().name(): f"p{k}" for k, p in enumerate(params)}
    src = _Source(names)
    body = src.expr(term)
    code = f"def _f(V, {', '.join(names.values())}):\n    return {body}\n" if names else \
        f"def _f(V):\n    return {body}\n"
    scope: dict[str, Any] = dict(_HELPERS)
    exec(compile(code, "<symcot traced term>", "exec"), scope)  # noqa: S102 - source generated from a Z3 term above
    fn = scope["_f"]

    def run(V: Any, *args: Any) -> Any:
        try:
            return fn(V, *args)
        except TermError:
            raise
        except (AttributeError, TypeError, IndexError, KeyError, ValueError, ZeroDivisionError) as e:
            raise TermError(f"the term {str(term)[:80]} cannot be evaluated on the run: {type(e).__name__}: {e}") \
                from e

    return run
