r"""Z3 terms of an all-n obligation read as a person writes them: ``ReLU(acc(t) + bit(t) - 5)``, not Z3's print.

The engine builds a block's value as sums of products with every zero coefficient kept, integers cast to reals,
and a ReLU as ``If(a > 0, a, 0)``; :func:`show` drops the zeros, the unit coefficients and the casts, writes each
ReLU as such and the prover's own constants (``t!``, ``λ!``) as ``t`` and ``λ``. :func:`applications` lists the
uninterpreted symbols and function applications a term mentions, :func:`relus` its ReLUs' arguments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import z3

_CMP = {z3.Z3_OP_LE: "≤", z3.Z3_OP_GE: "≥", z3.Z3_OP_LT: "<", z3.Z3_OP_GT: ">", z3.Z3_OP_EQ: "=",
        z3.Z3_OP_DISTINCT: "≠"}
_CASTS = (z3.Z3_OP_TO_REAL, z3.Z3_OP_TO_INT)


def name_of(d: Any) -> str:
    """A declaration's name as the user reads it (``t!`` → ``t``)."""
    return re.sub(r"!\d*$", "", str(d.name()))


def _value(e: Any) -> Fraction | None:
    """The number ``e`` is, when it is a numeral."""
    if z3.is_int_value(e):
        return Fraction(e.as_long())
    if z3.is_rational_value(e):
        return Fraction(e.as_fraction())
    return None


def _zero(e: Any) -> bool:
    return _value(e) == 0


def _one(e: Any) -> bool:
    return _value(e) == 1


def _uncast(e: Any) -> Any:
    while z3.is_app(e) and e.decl().kind() in _CASTS:
        e = e.arg(0)
    return e


def relu_arg(e: Any) -> Any | None:
    """``a`` when ``e`` is ``If(a > 0, a, 0)`` (or ``If(a ≥ 0, a, 0)``); else ``None``."""
    if not (z3.is_app(e) and e.decl().kind() == z3.Z3_OP_ITE):
        return None
    c, a, b = e.arg(0), e.arg(1), e.arg(2)
    if not _zero(_uncast(b)) or not z3.is_app(c) or c.decl().kind() not in (z3.Z3_OP_GT, z3.Z3_OP_GE):
        return None
    return a if c.arg(0).eq(a) and _zero(_uncast(c.arg(1))) else None


def _number(e: Any) -> str:
    f = _value(e)
    return str(e) if f is None else str(f)


def _terms(e: Any) -> list[tuple[int, Any]]:
    """``e`` as signed summands (nested sums flattened, ``-1·x`` read as ``-x``, zeros dropped)."""
    e = _uncast(e)
    if z3.is_app(e) and e.decl().kind() == z3.Z3_OP_ADD:
        return [s for a in e.children() for s in _terms(a)]
    if z3.is_app(e) and e.decl().kind() == z3.Z3_OP_SUB:
        first, *rest = e.children()
        return [*_terms(first), *[(-sg, t) for a in rest for sg, t in _terms(a)]]
    if z3.is_app(e) and e.decl().kind() == z3.Z3_OP_UMINUS:
        return [(-sg, t) for sg, t in _terms(e.arg(0))]
    if _zero(e):
        return []
    if z3.is_app(e) and e.decl().kind() == z3.Z3_OP_MUL:
        factors = [_uncast(a) for a in e.children()]
        sign = 1
        kept = []
        for f in factors:
            v = _value(f)
            if v is not None and v in (1, -1):
                sign *= int(v)
            else:
                kept.append(f)
        if any(_zero(f) for f in kept):
            return []
        if not kept:
            return [(sign, z3.IntVal(1))]
        if len(kept) == 1:
            return [(sign, kept[0])] if sign == 1 else [(-1, kept[0])]
        return [(sign, z3.Product(*kept) if len(kept) > 1 else kept[0])]
    v = _value(e)
    if v is not None and v < 0:
        return [(-1, z3.RealVal(-v))]
    return [(1, e)]


def _sum(e: Any) -> str:
    parts = _terms(e)
    if not parts:
        return "0"
    out = ""
    for k, (sg, t) in enumerate(parts):
        text = _atom(t, in_product=False)
        if k == 0:
            out = text if sg > 0 else f"-{_atom(t, True)}"
        else:
            out += f" + {text}" if sg > 0 else f" - {_atom(t, True)}"
    return out


def _atom(e: Any, in_product: bool) -> str:
    """``e`` printed; parenthesised when it is a sum inside a product or after a minus."""
    e = _uncast(e)
    if z3.is_int_value(e) or z3.is_rational_value(e):
        return _number(e)
    a = relu_arg(e)
    if a is not None:
        return f"ReLU({_sum(a)})"
    if not z3.is_app(e):
        return str(e)
    k = e.decl().kind()
    if k in (z3.Z3_OP_ADD, z3.Z3_OP_SUB, z3.Z3_OP_UMINUS):
        text = _sum(e)
        return f"({text})" if in_product and len(_terms(e)) > 1 else text
    if k == z3.Z3_OP_MUL:
        return "·".join(_atom(c, True) for c in e.children() if not _one(_uncast(c)))
    if k in _CMP:
        return f" {_CMP[k]} ".join(_sum(c) for c in e.children())
    return _logic(e, k)


def _logic(e: Any, k: int) -> str:
    """A connective, a case or an uninterpreted application (else Z3's own print)."""
    if k == z3.Z3_OP_ITE:
        return f"(if {show(e.arg(0))} then {show(e.arg(1))} else {show(e.arg(2))})"
    if k == z3.Z3_OP_AND:
        return " ∧ ".join(f"({show(c)})" for c in e.children())
    if k == z3.Z3_OP_OR:
        return " ∨ ".join(f"({show(c)})" for c in e.children())
    if k == z3.Z3_OP_NOT:
        return f"¬({show(e.arg(0))})"
    if k == z3.Z3_OP_IMPLIES:
        return f"({show(e.arg(0))}) → ({show(e.arg(1))})"
    if k == z3.Z3_OP_UNINTERPRETED:
        if e.num_args() == 0:
            return name_of(e.decl())
        return f"{name_of(e.decl())}({', '.join(_sum(c) for c in e.children())})"
    return str(e)


def show(e: Any) -> str:
    """``e`` as a person writes it (see the module docstring)."""
    return _atom(e, in_product=False) if not (z3.is_app(e) and e.decl().kind() in (
        z3.Z3_OP_ADD, z3.Z3_OP_SUB, z3.Z3_OP_UMINUS)) else _sum(e)


def _walk(e: Any, seen: set[int]) -> Iterator[Any]:
    todo = [e]
    while todo:
        a = todo.pop()
        if a.get_id() in seen:
            continue
        seen.add(a.get_id())
        if z3.is_quantifier(a):
            continue
        yield a
        if z3.is_app(a):
            todo.extend(reversed(a.children()))


def applications(e: Any) -> list[Any]:
    """The uninterpreted constants and function applications in ``e``, outermost first, each once."""
    return [a for a in _walk(e, set()) if z3.is_app(a) and a.decl().kind() == z3.Z3_OP_UNINTERPRETED]


def constants(e: Any) -> list[Any]:
    """The uninterpreted constants in ``e``, each once."""
    return [a for a in applications(e) if a.num_args() == 0]


def relus(e: Any) -> list[Any]:
    """The arguments of the ReLUs in ``e``, each once, in the order they are written."""
    return [a for a in (relu_arg(x) for x in _walk(e, set())) if a is not None]
