r"""Polynomials in positive symbols (λ, arc weights) with exact coefficients, atoms over them, and Z3 terms.

Part of symbolic replay (:mod:`symcot.replay.symbolic`): a :class:`Poly` is what a token coordinate becomes
when ``λ`` or a weight is a symbol; an :class:`Atom` is one constraint of a path condition; ``z3_term`` and
``z3_formula`` translate them (cached, over ``Real`` symbols of the same names). Every symbol is positive on
every domain symbolic replay uses, which lets :meth:`Poly.sign` decide a polynomial whose coefficients
share one sign without a solver.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp
import z3

from symcot.errors import SymcotError
from symcot.ir.maps import ConcreteMap
from symcot.ir.symbols import lam
from symcot.model.decoder import ConcreteAttention, ConcreteDecoder, ConcreteFFN, ConcreteHead, ConcreteLayer

#: The name of the symbol ``λ`` (``symcot.ir.lam``).
LAMBDA = "lambda"

Number = int | Fraction
Mono = tuple[str, ...]


class UndecidedComparison(SymcotError):
    """Python code compared a symbolic value in a way the symbols' signs alone do not decide."""


class SolverUnknown(SymcotError):
    """Z3 answered ``unknown`` (a timeout, or a nonlinear query it gave up on)."""


def _norm(c: Number) -> Number:
    if isinstance(c, Fraction) and c.denominator == 1:
        return c.numerator
    return c


class Poly:
    """A polynomial in named positive symbols with exact rational coefficients.

    Construct through :meth:`var` and arithmetic; results that are constant come back as ``int`` or
    :class:`~fractions.Fraction`, so a :class:`Poly` is never constant. Ordering comparisons with
    numbers are allowed only when the signs of the coefficients decide them (every symbol is
    positive); otherwise they raise :class:`UndecidedComparison`. ``==`` between two polynomials is
    identity of polynomials; ``==`` with a number raises (it would depend on the symbols' values).
    """

    __slots__ = ("terms", "_key")

    def __init__(self, terms: dict[Mono, Number]):
        self.terms = terms
        self._key: tuple[tuple[Mono, Number], ...] | None = None

    # -- construction -------------------------------------------------------------------------------
    @staticmethod
    def var(name: str) -> Poly:
        """The symbol ``name``."""
        return Poly({(name,): 1})

    @staticmethod
    def make(terms: dict[Mono, Number]) -> Value:
        """Normalize: drop zero coefficients; a constant comes back as a number."""
        out = {m: _norm(c) for m, c in terms.items() if c != 0}
        if not out:
            return 0
        if len(out) == 1 and () in out:
            return out[()]
        return Poly(out)

    @property
    def key(self) -> tuple[tuple[Mono, Number], ...]:
        """A hashable identity of the polynomial."""
        if self._key is None:
            self._key = tuple(sorted(self.terms.items()))
        return self._key

    def __hash__(self) -> int:
        return hash(self.key)

    # -- arithmetic ----------------------------------------------------------------------------------
    def __add__(self, other: Any) -> Value:
        if isinstance(other, Poly):
            t = dict(self.terms)
            for m, c in other.terms.items():
                t[m] = t.get(m, 0) + c
            return Poly.make(t)
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            if other == 0:
                return self
            t = dict(self.terms)
            t[()] = t.get((), 0) + other
            return Poly.make(t)
        return NotImplemented

    __radd__ = __add__

    def __neg__(self) -> Poly:
        return Poly({m: -c for m, c in self.terms.items()})

    def __pos__(self) -> Poly:
        return self

    def __sub__(self, other: Any) -> Value:
        if isinstance(other, (Poly, int, Fraction)) and not isinstance(other, bool):
            return self + (-other)
        return NotImplemented

    def __rsub__(self, other: Any) -> Value:
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            return (-self) + other
        return NotImplemented

    def __mul__(self, other: Any) -> Value:
        if isinstance(other, Poly):
            t: dict[Mono, Number] = {}
            for m1, c1 in self.terms.items():
                for m2, c2 in other.terms.items():
                    m = tuple(sorted(m1 + m2))
                    t[m] = t.get(m, 0) + c1 * c2
            return Poly.make(t)
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            if other == 0:
                return 0
            if other == 1:
                return self
            return Poly.make({m: c * other for m, c in self.terms.items()})
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Value:
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool) and other != 0:
            return Poly.make({m: Fraction(c) / other for m, c in self.terms.items()})
        return NotImplemented

    # -- comparisons ---------------------------------------------------------------------------------
    def sign(self) -> int:
        """``1`` (``> 0`` everywhere), ``-1`` (``< 0``) or ``0`` (not decided by the coefficients' signs)."""
        cs = list(self.terms.values())
        if all(c >= 0 for c in cs):
            return 1  # a non-constant polynomial with non-negative coefficients in positive symbols
        if all(c <= 0 for c in cs):
            return -1
        return 0

    def _cmp(self, other: Any, op: str) -> bool:
        if not isinstance(other, (Poly, int, Fraction)) or isinstance(other, bool):
            return NotImplemented
        d = self - other
        s = d.sign() if isinstance(d, Poly) else (d > 0) - (d < 0)
        if s == 0:
            raise UndecidedComparison(f"{self} {op} {other}: the sign of {d} depends on the symbols' values")
        return {"<": s < 0, "<=": s < 0, ">": s > 0, ">=": s > 0}[op]

    def __lt__(self, other: Any) -> bool:
        return self._cmp(other, "<")

    def __le__(self, other: Any) -> bool:
        return self._cmp(other, "<=")

    def __gt__(self, other: Any) -> bool:
        return self._cmp(other, ">")

    def __ge__(self, other: Any) -> bool:
        return self._cmp(other, ">=")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Poly):
            return self.key == other.key
        if isinstance(other, (int, Fraction)):
            raise UndecidedComparison(f"{self} == {other} depends on the symbols' values")
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __bool__(self) -> bool:
        raise UndecidedComparison(f"the truth value of {self} depends on the symbols' values")

    # -- queries ----------------------------------------------------------------------------------
    def variables(self) -> set[str]:
        """The symbols it mentions."""
        return {v for m in self.terms for v in m}

    def degree(self) -> int:
        """Total degree."""
        return max(len(m) for m in self.terms)

    def evaluate(self, values: dict[str, Number]) -> Number:
        """The exact value at ``values`` (a ``Fraction`` or ``int``)."""
        total: Number = 0
        for m, c in self.terms.items():
            v: Number = c
            for s in m:
                v = v * values[s]
            total += v
        return _norm(total)

    def __repr__(self) -> str:
        return f"Poly({self})"

    def __str__(self) -> str:
        parts = []
        for m, c in sorted(self.terms.items(), key=lambda mc: (-len(mc[0]), mc[0])):
            name = "·".join(_display(s) for s in m)
            if not m:
                parts.append(str(c))
            elif c == 1:
                parts.append(name)
            elif c == -1:
                parts.append("-" + name)
            else:
                parts.append(f"{c}·{name}")
        return " + ".join(parts).replace("+ -", "- ")


Value = int | Fraction | Poly


def _display(name: str) -> str:
    return "λ" if name == LAMBDA else name


def is_symbolic(v: Any) -> bool:
    """Whether ``v`` is a (non-constant) polynomial."""
    return isinstance(v, Poly)


def evaluate(v: Any, values: dict[str, Number]) -> Any:
    """``v`` at the point ``values`` (numbers pass through)."""
    return v.evaluate(values) if isinstance(v, Poly) else v


def from_sympy(e: Any) -> Value:
    """An exact coefficient of a compiled map (``int``, ``Fraction`` or SymPy in ``λ``) as a :class:`Poly`."""
    if isinstance(e, (int, Fraction)) and not isinstance(e, bool):
        return _norm(e)
    e = sp.sympify(e)
    extra = e.free_symbols - {lam}
    if extra:
        raise SymcotError(f"coefficient {e} has symbols other than λ: {sorted(map(str, extra))}")
    poly = sp.Poly(sp.expand(e), lam)
    terms: dict[Mono, Number] = {}
    for (k,), c in poly.terms():
        c = sp.Rational(c)
        terms[(LAMBDA,) * k] = _norm(Fraction(int(c.p), int(c.q)))
    return Poly.make(terms)


def _convert_map(m: ConcreteMap) -> ConcreteMap:
    return ConcreteMap(m.name, m.src, m.dst, [(o, from_sympy(c)) for o, c in m.const],
                       [(o, i, from_sympy(c)) for o, i, c in m.lin],
                       [(o, i, j, from_sympy(c)) for o, i, j, c in m.quad])


def symbolic_decoder(dec: ConcreteDecoder) -> ConcreteDecoder:
    """A decoder compiled without ``subs`` (``λ`` still SymPy) with every coefficient as a :class:`Poly`."""
    layers = []
    for layer in dec.layers:
        att = None
        if layer.attention is not None:
            att = ConcreteAttention([ConcreteHead(h.name, _convert_map(h.query), _convert_map(h.key),
                                                  _convert_map(h.value)) for h in layer.attention.heads],
                                    _convert_map(layer.attention.out))
        layers.append(ConcreteLayer(att, ConcreteFFN(_convert_map(layer.ffn.w1), _convert_map(layer.ffn.w2))))
    return ConcreteDecoder(dec.name, dec.layout, layers, dict(dec.env), {})


# -- atoms, facts and the path solver --------------------------------------------------------------------


@dataclass(frozen=True)
class Atom:
    """``p > 0``, ``p >= 0`` or ``p == 0`` (``rel``) for a polynomial or number ``p``."""

    p: Any
    rel: str

    def negate(self) -> list[list[Atom]]:
        """``¬atom`` as a disjunction of conjunctions."""
        if self.rel == ">":
            return [[Atom(-self.p, ">=")]]
        if self.rel == ">=":
            return [[Atom(-self.p, ">")]]
        return [[Atom(self.p, ">")], [Atom(-self.p, ">")]]

    def holds(self, values: dict[str, Number]) -> bool:
        """Whether the atom holds at ``values``."""
        v = evaluate(self.p, values)
        return v > 0 if self.rel == ">" else v >= 0 if self.rel == ">=" else v == 0

    def closure(self) -> Atom:
        """The non-strict relaxation (``>`` becomes ``>=``)."""
        return Atom(self.p, ">=") if self.rel == ">" else self

    def __str__(self) -> str:
        return f"{self.p} {self.rel} 0"


def gt(a: Any, b: Any) -> Atom:
    """``a > b``."""
    return Atom(a - b, ">")


def ge(a: Any, b: Any) -> Atom:
    """``a >= b``."""
    return Atom(a - b, ">=")


def _canon(p: Poly) -> tuple[tuple[tuple[Mono, Number], ...], Number]:
    """``p = lc · c`` with ``c`` monic in its largest monomial; returns ``(key of c, lc)``."""
    lead = max(p.terms)
    lc = p.terms[lead]
    c = {m: _norm(Fraction(v) / lc) for m, v in p.terms.items()}
    return tuple(sorted(c.items())), lc



_Z3_TERMS: dict[Any, Any] = {}
_Z3_FORMULAS: dict[Any, Any] = {}


def _z3_const(c: Number) -> Any:
    hit = _Z3_TERMS.get(("const", c))
    if hit is None:
        f = Fraction(c)
        hit = _Z3_TERMS[("const", c)] = z3.Q(f.numerator, f.denominator)
    return hit


def z3_term(p: Any) -> Any:
    """The Z3 term of a polynomial or number over ``Real`` symbols of the same names (cached)."""
    if not isinstance(p, Poly):
        return _z3_const(p)
    hit = _Z3_TERMS.get(p.key)
    if hit is not None:
        return hit
    parts = []
    for m, c in p.terms.items():
        if not m:
            parts.append(_z3_const(c))
            continue
        prod = z3.Real(m[0])
        for s in m[1:]:
            prod = prod * z3.Real(s)
        parts.append(prod if c == 1 else _z3_const(c) * prod)
    t = z3.Sum(parts) if len(parts) > 1 else parts[0]
    _Z3_TERMS[p.key] = t
    return t


def z3_formula(a: Atom) -> Any:
    """The Z3 formula of an atom (cached)."""
    key = (a.p.key if isinstance(a.p, Poly) else ("const", a.p), a.rel)
    hit = _Z3_FORMULAS.get(key)
    if hit is None:
        t = z3_term(a.p)
        hit = _Z3_FORMULAS[key] = t > 0 if a.rel == ">" else t >= 0 if a.rel == ">=" else t == 0
    return hit


def rational_model(m: Any, variables: dict[str, Any]) -> dict[str, Number]:
    """The model's value of every variable as an exact rational (0 for a variable it leaves free)."""
    out: dict[str, Number] = {}
    for name, v in variables.items():
        val = m.eval(v, model_completion=True)
        if not z3.is_rational_value(val):
            raise SolverUnknown(f"Z3's model gives {name} the irrational value {val}")
        out[name] = _norm(Fraction(val.numerator_as_long(), val.denominator_as_long()))
    return out
