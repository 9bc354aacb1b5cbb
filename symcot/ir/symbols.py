"""The symbols a construction is stated in: sizes (``n``, ``m``, ``H``) and the large constant ``λ``."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Union

import sympy as sp

#: Number of vertices (or, for path inputs, the word length), as the paper writes it.
n = sp.Symbol("n", integer=True, positive=True)
#: A second size (e.g. the number of tree nodes, where a paper writes ``m``).
m = sp.Symbol("m", integer=True, positive=True)
#: A generic dimension of a lemma (``H`` in lem:addonetospecificheight, ``d`` in lem:shiftonehot).
H = sp.Symbol("H", integer=True, positive=True)
#: The paper's "sufficiently large" constant.
lam = sp.Symbol("lambda", positive=True)

#: An exact scalar: Python ``int``, :class:`~fractions.Fraction`, or a SymPy expression (symbolic λ).
Scalar = Union[int, Fraction, sp.Expr]  # noqa: UP007 - a runtime alias, kept 3.10-safe
#: Concrete values for size symbols, e.g. ``{n: 4}``.
Env = dict[sp.Symbol, int]


def to_exact(value: object) -> Scalar:
    """Turn a SymPy number into ``int``/``Fraction``; keep expressions with free symbols as SymPy.

    Raises:
        TypeError: for floats, which would silently round.

    """
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else value
    if isinstance(value, float):
        raise TypeError(f"float {value!r} in an exact computation; use int, Fraction or a SymPy Rational")
    e = sp.sympify(value)
    if e.free_symbols:
        return e
    if e.is_Integer:
        return int(e)
    if e.is_Rational:
        return Fraction(int(e.p), int(e.q))
    if isinstance(e, sp.Float):
        raise TypeError(f"float {e} in an exact computation; use a SymPy Rational")
    raise TypeError(f"{e} is not an exact rational")


#: The symbols a size or constant may be named by in a string or a plain SymPy symbol.
KNOWN: dict[str, sp.Symbol] = {"n": n, "m": m, "H": H, "lambda": lam, "lam": lam, "λ": lam}


def canonical_symbol(name: str) -> sp.Symbol:
    """The symbol called ``name``: symcot's own (``n``, ``m``, ``H``, ``λ``), else a positive integer size."""
    return KNOWN.get(name) or sp.Symbol(name, integer=True, positive=True)


def size_expr(value: object) -> sp.Expr:
    """A size (or constant) as a SymPy expression in symcot's symbols.

    Accepts what a notebook has: an ``int`` (numpy integers too), a string (``"n"``, ``"n/2 + 1"``), a
    SymPy expression. A plain ``sp.Symbol("n")`` (no assumptions) or any other symbol named like one of
    :data:`KNOWN` becomes that symbol, so ``{"n": 3}`` and ``{sp.Symbol("n"): 3}`` bind the same size.
    """
    import operator

    if isinstance(value, str):
        import re

        text = re.sub(r"\blambda\b", "lam", value.replace("λ", "lam"))  # `lambda` is a Python keyword
        try:
            e = sp.sympify(text, locals=dict(KNOWN))
        except (sp.SympifyError, SyntaxError, TypeError):
            from symcot.errors import DimensionError

            raise DimensionError(f"cannot read the size {value!r} (write e.g. 'n', '2*n + 1', 'n/2')") from None
    elif hasattr(value, "dtype") and not isinstance(value, sp.Basic):  # a numpy scalar
        e = sp.Integer(operator.index(value))  # type: ignore[arg-type]
    else:
        e = sp.sympify(value)
    repl = {s: canonical_symbol(s.name) for s in e.free_symbols if isinstance(s, sp.Symbol)}
    repl = {a: b for a, b in repl.items() if a is not b}
    return e.xreplace(repl) if repl else e


def normalize_env(env: Mapping[Any, Any] | None) -> dict[sp.Symbol, Any]:
    """``env`` (or ``subs``) with keys as symcot's symbols and integer values as Python ``int``.

    ``{"n": 3}``, ``{sp.Symbol("n"): np.int64(3)}`` and ``{n: 3}`` all give ``{n: 3}``; ``"lambda"`` and
    ``"λ"`` name ``λ``. Other values (a ``Fraction`` for λ) are kept.
    """
    import operator

    out: dict[sp.Symbol, Any] = {}
    for k, v in (env or {}).items():
        key = canonical_symbol(k) if isinstance(k, str) else (
            canonical_symbol(k.name) if isinstance(k, sp.Symbol) and k not in KNOWN.values() else k)
        if hasattr(v, "dtype") and not isinstance(v, sp.Basic):  # numpy scalar: exact int or refused
            v = operator.index(v)
        elif isinstance(v, sp.Integer):
            v = int(v)
        out[key] = v
    return out


def size_value(expr: sp.Expr | int, env: Env) -> int:
    """Evaluate a size expression at concrete sizes; it must be a non-negative integer."""
    e = sp.sympify(expr).subs(env)
    if e.free_symbols:
        missing = ", ".join(sorted(str(s) for s in e.free_symbols))
        raise ValueError(f"size {expr} needs a value for {missing}")
    if not e.is_Integer or int(e) < 0:
        raise ValueError(f"size {expr} is {e} at {env}, not a non-negative integer")
    return int(e)


def same_size(a: sp.Expr | int, b: sp.Expr | int) -> bool:
    """Whether two size expressions are identical as polynomials in the size symbols."""
    return sp.expand(sp.sympify(a) - sp.sympify(b)) == 0
