"""Two evaluation kits for lemma statements: Z3 terms (for proofs) and exact numbers (for replay).

A lemma's hypotheses and target are written once, as Python functions of an input accessor ``x`` and a
kit ``K`` (``K.ite``, ``K.And``, ``K.Or``, ``K.Not``, ``K.relu``, ``K.max``, ``K.is_int``, ``K.lam``,
``K.bound``, ``K.sizes``). :class:`Z3Kit` builds Z3 terms from them; :class:`ExactKit` evaluates them on
``int`` and :class:`~fractions.Fraction` values, which is how a counterexample is re-checked. Comparison operators
(``<=``, ``==``) are Python's, which both Z3 terms and exact numbers support.

Also here: exact translation of IR coefficients (``int``, ``Fraction``, SymPy expressions in ``λ`` and
the size symbols) to Z3, and of Z3 model values back to ``int``/``Fraction``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

import sympy as sp
import z3

from symcot.errors import SymcotError


class Unsupported(SymcotError):
    """A statement the Z3 encoding cannot express exactly (the verdict is then ``unknown``)."""


class NonLocal(Unsupported):
    """A row that reads every coordinate of a block of symbolic size (a sum over all coordinates)."""


def is_z3(v: Any) -> bool:
    """Whether ``v`` is a Z3 expression."""
    return isinstance(v, z3.ExprRef)


def z3_num(v: Any) -> Any:
    """An exact Python number as a Z3 value (``int`` stays ``int``; ``Fraction`` becomes a Z3 rational)."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int) or is_z3(v):
        return v
    if isinstance(v, Fraction):
        return v.numerator if v.denominator == 1 else z3.Q(v.numerator, v.denominator)
    raise Unsupported(f"cannot translate {v!r} ({type(v).__name__}) to Z3 exactly")


def sympy_to_z3(e: Any, symbols: dict[sp.Symbol, Any]) -> Any:
    """Translate an exact SymPy expression to Z3.

    Rationals, ``+``, ``*``, natural powers, ``floor``, ``Max``, ``Min`` and ``Piecewise`` (with an
    otherwise branch, conditions made of comparisons, ``And``, ``Or`` and ``Not``) are translated exactly;
    anything else raises :class:`Unsupported`. ``symbols`` maps each free symbol (``λ``, ``H``, ``n``, …) to
    a Z3 term or an exact number.
    """
    if isinstance(e, (int, Fraction)) or is_z3(e):
        return z3_num(e)
    e = sp.sympify(e)
    if e.is_Integer:
        return int(e)
    if e.is_Rational:
        return z3.Q(int(e.p), int(e.q))
    if e.is_Symbol:
        if e not in symbols:
            raise Unsupported(f"no value for the symbol {e}")
        return z3_num(symbols[e])
    if isinstance(e, (sp.Add, sp.Mul)) or (isinstance(e, sp.Pow) and e.exp.is_Integer and int(e.exp) >= 0):
        return _z3_arithmetic(e, symbols)
    if isinstance(e, sp.floor):
        arg = sympy_to_z3(e.args[0], symbols)
        return z3.ToInt(arg) if z3.is_real(arg) else arg
    if isinstance(e, (sp.Max, sp.Min)):
        return _z3_extremum([sympy_to_z3(a, symbols) for a in e.args], isinstance(e, sp.Max))
    if isinstance(e, sp.Piecewise):
        return _z3_piecewise(e, symbols)
    raise Unsupported(f"cannot translate {e} ({type(e).__name__}) to Z3 exactly")


def _z3_extremum(values: list[Any], largest: bool) -> Any:
    """``max`` (``largest``) or ``min`` of exact numbers and Z3 terms: a chain of ``If``."""
    out = values[0]
    for v in values[1:]:
        if not is_z3(out) and not is_z3(v):
            out = max(out, v) if largest else min(out, v)
        else:
            out = z3.If(out >= v if largest else out <= v, out, v)
    return out


_RELATIONS: dict[str, Callable[[Any, Any], Any]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}


def _z3_piecewise(e: sp.Piecewise, symbols: dict[sp.Symbol, Any]) -> Any:
    """A ``Piecewise`` with an otherwise branch as a chain of ``If`` (the first true condition's value)."""
    pieces = list(e.args)
    if pieces[-1].cond is not sp.true:
        raise Unsupported(f"the piecewise expression {e} is undefined where no condition holds")
    out = sympy_to_z3(pieces[-1].expr, symbols)
    for value, cond in reversed(pieces[:-1]):
        c = _z3_condition(cond, symbols)
        v = sympy_to_z3(value, symbols)
        if isinstance(c, bool):
            out = v if c else out
        else:
            out = z3.If(c, v, out)
    return out


def _z3_condition(c: Any, symbols: dict[sp.Symbol, Any]) -> Any:
    """A SymPy condition (comparisons, ``And``, ``Or``, ``Not``, ``true``, ``false``) as a Z3 term or a bool."""
    if c is sp.true or c is sp.false:
        return bool(c)
    if isinstance(c, sp.core.relational.Relational) and c.rel_op in _RELATIONS:
        out = _RELATIONS[c.rel_op](sympy_to_z3(c.lhs, symbols), sympy_to_z3(c.rhs, symbols))
        return out if is_z3(out) else bool(out)
    if isinstance(c, (sp.And, sp.Or)):
        parts = tuple(_z3_condition(a, symbols) for a in c.args)
        return _fold(parts, absorbing=isinstance(c, sp.Or), join=z3.Or if isinstance(c, sp.Or) else z3.And)
    if isinstance(c, sp.Not):
        inner = _z3_condition(c.args[0], symbols)
        return (not inner) if isinstance(inner, bool) else z3.Not(inner)
    raise Unsupported(f"cannot translate the condition {c} ({type(c).__name__}) to Z3 exactly")


def _z3_arithmetic(e: sp.Add | sp.Mul | sp.Pow, symbols: dict[sp.Symbol, Any]) -> Any:
    """A sum, a product or a power with a natural exponent, term by term (in SymPy's order of arguments)."""
    if isinstance(e, sp.Add):
        out: Any = 0
        for a in e.args:
            out = out + sympy_to_z3(a, symbols)
        return out
    if isinstance(e, sp.Mul):
        out = 1
        for a in e.args:
            out = out * sympy_to_z3(a, symbols)
        return out
    base = sympy_to_z3(e.base, symbols)
    out = 1
    for _ in range(int(e.exp)):
        out = out * base
    return out


def z3_to_exact(v: z3.ExprRef) -> int | Fraction:
    """A Z3 numeral (from a model) as ``int`` or ``Fraction``; irrational values are refused."""
    if z3.is_int_value(v):
        return v.as_long()
    if z3.is_rational_value(v):
        f = Fraction(v.numerator_as_long(), v.denominator_as_long())
        return f.numerator if f.denominator == 1 else f
    if z3.is_true(v) or z3.is_false(v):
        return int(z3.is_true(v))
    raise Unsupported(f"model value {v} is not an exact rational")


def exact_str(v: Any) -> str:
    """``3``, ``-1/2``: an exact number as text."""
    if isinstance(v, Fraction) and v.denominator != 1:
        return f"{v.numerator}/{v.denominator}"
    return str(int(v)) if isinstance(v, Fraction) else str(v)


def _fold(cs: tuple[Any, ...], absorbing: bool, join: Callable[..., Any]) -> Any:
    """``join`` of the Z3 terms of ``cs``; a Python boolean equal to ``absorbing`` decides it, the other drops."""
    rest = []
    for c in cs:
        if isinstance(c, bool):
            if c == absorbing:
                return absorbing
            continue
        rest.append(c)
    if not rest:
        return not absorbing
    return rest[0] if len(rest) == 1 else join(*rest)


class Z3Kit:
    """Builds Z3 terms; Python numbers and booleans are folded where they appear (gates are substituted).

    ``sizes`` maps the lemma's size symbols to their values (Z3 integers in the all-dimension proof,
    ``int`` at concrete sizes), so a hypothesis can read one: ``K.sizes[n]``.
    """

    def __init__(self, lam: Any = None, bound: Any = None, sizes: dict[Any, Any] | None = None):
        self.lam = lam
        self.bound = lam if bound is None else bound
        self.sizes = dict(sizes or {})

    @staticmethod
    def ite(c: Any, a: Any, b: Any) -> Any:
        """``a`` if ``c`` else ``b``."""
        if isinstance(c, bool):
            return a if c else b
        return z3.If(c, z3_num(a) if not is_z3(a) else a, z3_num(b) if not is_z3(b) else b)

    @staticmethod
    def And(*cs: Any) -> Any:  # noqa: N802 - logic names as in Z3
        """Conjunction (folding Python booleans)."""
        return _fold(cs, absorbing=False, join=z3.And)

    @staticmethod
    def Or(*cs: Any) -> Any:  # noqa: N802
        """Disjunction (folding Python booleans)."""
        return _fold(cs, absorbing=True, join=z3.Or)

    @staticmethod
    def Not(c: Any) -> Any:  # noqa: N802
        """Negation."""
        return (not c) if isinstance(c, bool) else z3.Not(c)

    @classmethod
    def Implies(cls, a: Any, b: Any) -> Any:  # noqa: N802
        """``a → b``."""
        return cls.Or(cls.Not(a), b)

    @classmethod
    def relu(cls, a: Any) -> Any:
        """``max(0, a)``, exactly (an ``If``)."""
        return cls.max(0, a)

    @classmethod
    def max(cls, a: Any, b: Any) -> Any:
        """``max(a, b)``."""
        if not is_z3(a) and not is_z3(b):
            return a if a >= b else b
        return cls.ite(a >= b, a, b)

    @classmethod
    def min(cls, a: Any, b: Any) -> Any:
        """``min(a, b)``."""
        if not is_z3(a) and not is_z3(b):
            return a if a <= b else b
        return cls.ite(a <= b, a, b)

    @staticmethod
    def is_int(a: Any) -> Any:
        """Whether ``a`` is an integer: ``a = n`` for a fresh integer ``n``.

        (Z3's ``IsInt`` predicate on a real leaves mixed queries ``unknown`` far more often than an
        integer witness does.)
        """
        if not is_z3(a):
            return Fraction(a).denominator == 1
        if a.is_int():
            return True
        return a == z3.ToReal(z3.FreshInt("int"))

    @staticmethod
    def sum(items: Iterable[Any]) -> Any:
        """``Σ items``."""
        out: Any = 0
        for v in items:
            out = out + v
        return out


class ExactKit:
    """Evaluates the same statements on ``int``/``Fraction`` values (``sizes``: the concrete sizes)."""

    def __init__(self, lam: Any = None, bound: Any = None, sizes: dict[Any, Any] | None = None):
        self.lam = lam
        self.bound = lam if bound is None else bound
        self.sizes = dict(sizes or {})

    @staticmethod
    def ite(c: Any, a: Any, b: Any) -> Any:
        """``a`` if ``c`` else ``b``."""
        return a if c else b

    @staticmethod
    def And(*cs: Any) -> bool:  # noqa: N802
        """Conjunction."""
        return all(bool(c) for c in cs)

    @staticmethod
    def Or(*cs: Any) -> bool:  # noqa: N802
        """Disjunction."""
        return any(bool(c) for c in cs)

    @staticmethod
    def Not(c: Any) -> bool:  # noqa: N802
        """Negation."""
        return not c

    @staticmethod
    def Implies(a: Any, b: Any) -> bool:  # noqa: N802
        """``a → b``."""
        return (not a) or bool(b)

    @staticmethod
    def relu(a: Any) -> Any:
        """``max(0, a)``."""
        return a if a > 0 else 0

    @staticmethod
    def max(a: Any, b: Any) -> Any:
        """``max(a, b)``."""
        return a if a >= b else b

    @staticmethod
    def min(a: Any, b: Any) -> Any:
        """``min(a, b)``."""
        return a if a <= b else b

    @staticmethod
    def is_int(a: Any) -> bool:
        """Whether ``a`` is an integer."""
        return Fraction(a).denominator == 1

    @staticmethod
    def sum(items: Iterable[Any]) -> Any:
        """``Σ items``."""
        out: Any = 0
        for v in items:
            out = out + v
        return out
