"""The coefficients written in a block expression, addressed so that one of them can be changed.

A map's output block is an expression tree (:mod:`symcot.ir.expr`); the numbers a reader sees in it are
its *coefficients*: the scalar of a :class:`~symcot.ir.expr.Scale` (``-π_cur``, ``λ·π_flg4``), the value
of a :class:`~symcot.ir.expr.Const` (``1_n`` in ``1 - π_vis``, ``V_max = n``), the scalar of a scaled
matrix and the start and step of a :class:`~symcot.ir.matrices.Ramp`. A term written without a number
(``π_tmp`` in a sum, a kept block, ``S π_ht``, a product ``(1 - π_vis)ᵀπ_nbr``) has the coefficient 1,
and that 1 is a coefficient too. A factor inside a product or under a matrix has no coefficient of its
own: scaling it is scaling the product, whose coefficient is already listed.

Coefficients are symbolic (numbers or expressions in ``n``, ``m``, ``λ``), so changing one changes the
map at every size. :func:`coefficients` lists them with a path from the block's root;
:func:`with_coefficient` returns a new expression with one of them replaced (the original is untouched).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import sympy as sp

from symcot.ir.expr import Bilinear, BlockRef, Const, Expr, MatApply, Scale, Sum, exact_constant
from symcot.ir.matrices import MatProduct, MatSum, Ramp, Scaled, Transposed, Zero
from symcot.ir.text import plain

#: A step from a node to a child: an attribute (``e``, ``a``, ``b``, ``m``) or a term index of a sum.
Step = str | int

#: How a coefficient is held: ``c`` (a Scale -- nested scales ``-(2·π_b)`` are one coefficient, their product --,
#: a Const or a scaled matrix), ``start``/``step`` (a ramp column), ``const`` (a scaled constant ``c·(k·M)``,
#: one coefficient ``c·k``: ``- 1`` is ``Scale(-1, Const(1))``), or ``implicit`` (a term written without a
#: number: its coefficient is 1).
SLOTS = ("c", "start", "step", "const", "implicit")


@dataclass(frozen=True)
class Coefficient:
    """One coefficient of an expression: where it is, what it is, and the term it multiplies.

    Attributes:
        path: steps from the root to the node that holds it.
        slot: see :data:`SLOTS`.
        value: the coefficient (SymPy; may involve ``n``, ``m``, ``λ``).
        term: the term it multiplies, in plain text (``π_cur``, ``1_n``, ``S_n π_ht``).

    """

    path: tuple[Step, ...]
    slot: str
    value: sp.Expr
    term: str

    @property
    def symbolic(self) -> bool:
        """Whether the coefficient depends on a size or on ``λ``."""
        return bool(self.value.free_symbols)

    @property
    def key(self) -> str:
        """A stable address within the block: ``2.a.0:c`` (path, then slot)."""
        return ".".join(str(p) for p in self.path) + ":" + self.slot


def value_text(v: Any) -> str:
    """A coefficient as text, ``λ`` for the paper's constant: ``2*n - 1``, ``λ/2``."""
    return sp.sstr(sp.sympify(v)).replace("lambda", "λ")


def coefficients(e: Expr) -> list[Coefficient]:
    """Every coefficient of ``e`` (module docstring), in a fixed order (depth first, left to right)."""
    out: list[Coefficient] = []
    _walk(e, (), "root", out)
    return out


def _walk(e: Expr, path: tuple[Step, ...], parent: str, out: list[Coefficient]) -> None:
    free = parent in ("root", "sum")  # a term of its own: an unwritten coefficient 1 is one
    if isinstance(e, Scale):
        c, inner, depth = _chain(e)
        below = (*path, *["e"] * depth)
        if isinstance(inner, Const):  # c·(k·M) is one constant c·k·M
            out.append(Coefficient(path, "const", c * inner.c, plain(inner.m.latex())))
            _walk_mat(inner.m, (*below, "m"), False, plain(inner.latex()), out)
        else:
            out.append(Coefficient(path, "c", c, plain(inner.latex())))
            _walk(inner, below, "scale", out)
    elif isinstance(e, Const):
        out.append(Coefficient(path, "c", e.c, plain(e.m.latex())))
        _walk_mat(e.m, (*path, "m"), False, plain(e.latex()), out)
    elif isinstance(e, Sum):
        for i, t in enumerate(e.terms):
            _walk(t, (*path, i), "sum", out)
    elif isinstance(e, MatApply):
        _walk_mat(e.m, (*path, "m"), free, plain(e.latex()), out)
        _walk(e.e, (*path, "e"), "factor", out)
    elif isinstance(e, Bilinear):
        if free:
            out.append(Coefficient(path, "implicit", sp.Integer(1), plain(e.latex())))
        _walk(e.a, (*path, "a"), "factor", out)
        _walk(e.b, (*path, "b"), "factor", out)
    elif isinstance(e, BlockRef):
        if free:
            out.append(Coefficient(path, "implicit", sp.Integer(1), plain(e.latex())))
    else:  # an expression kind this module does not know: its coefficients are not addressable
        return


def _chain(e: Scale) -> tuple[sp.Expr, Expr, int]:
    """``Scale(c1, Scale(c2, … e))`` → ``(c1·c2·…, e, depth)``: nested scales are one coefficient."""
    c, depth = sp.Integer(1), 0
    node: Expr = e
    while isinstance(node, Scale):
        c, node, depth = c * node.c, node.e, depth + 1
    return c, node, depth


def _walk_mat(m: Any, path: tuple[Step, ...], free: bool, term: str, out: list[Coefficient]) -> None:
    """The coefficients of a matrix applied in ``term`` (``free``: an unscaled matrix counts as coefficient 1)."""
    if isinstance(m, Scaled):
        out.append(Coefficient(path, "c", m.c, term))
        _walk_mat(m.m, (*path, "m"), False, term, out)
    elif isinstance(m, Ramp):
        out.append(Coefficient(path, "start", m.start, term))
        out.append(Coefficient(path, "step", m.step, term))
    elif isinstance(m, MatSum):
        _walk_mat(m.a, (*path, "a"), True, term, out)
        _walk_mat(m.b, (*path, "b"), True, term, out)
    elif isinstance(m, MatProduct):
        _walk_mat(m.a, (*path, "a"), False, term, out)
        _walk_mat(m.b, (*path, "b"), False, term, out)
    elif isinstance(m, Transposed):
        _walk_mat(m.m, (*path, "m"), free, term, out)
    elif free and not isinstance(m, Zero):
        out.append(Coefficient(path, "implicit", sp.Integer(1), term))


def with_coefficient(e: Expr, coeff: Coefficient, value: Any) -> Expr:
    """A copy of ``e`` with ``coeff`` set to ``value`` (exact: int, Fraction or SymPy; never a float)."""
    v = exact_constant(value)
    return _set(e, coeff.path, coeff.slot, v)


def _child(node: Any, step: Step) -> Any:
    return node.terms[step] if isinstance(step, int) else getattr(node, step)


def _set(node: Any, path: tuple[Step, ...], slot: str, v: sp.Expr) -> Any:
    if path:
        step, rest = path[0], path[1:]
        new_child = _set(_child(node, step), rest, slot, v)
        new = copy.copy(node)
        if isinstance(step, int):
            new.terms = list(node.terms)
            new.terms[step] = new_child
        else:
            setattr(new, step, new_child)
        return new
    if slot == "implicit":
        return Scale(v, node) if isinstance(node, Expr) else Scaled(v, node)
    if slot == "const" and isinstance(node, Scale):
        _c, inner, _depth = _chain(node)
        if isinstance(inner, Const):
            return Const(inner.m, v)
    if slot == "c" and isinstance(node, Scale):
        return Scale(v, _chain(node)[1])
    new = copy.copy(node)
    if slot == "c" and isinstance(node, (Const, Scaled)):
        new.c = v
    elif slot in ("start", "step") and isinstance(node, Ramp):
        setattr(new, slot, v)
    else:
        raise ValueError(f"no coefficient {slot!r} on {type(node).__name__}")
    return new


def term_at(e: Expr, coeff: Coefficient) -> Expr:
    """The expression node ``coeff`` belongs to (for a matrix's coefficient, the matrix product it is in)."""
    node: Any = e
    for step in coeff.path:
        child = _child(node, step)
        if not isinstance(child, Expr):
            break
        node = child
    return node


def coefficient_at(e: Expr, coeff: Coefficient) -> sp.Expr:
    """The value ``e`` holds at ``coeff``'s address (1 for an implicit coefficient)."""
    node: Any = e
    for step in coeff.path:
        node = _child(node, step)
    if coeff.slot == "implicit":  # replaced: the node is now a scale of the term
        return sp.sympify(node.c) if isinstance(node, (Scale, Scaled)) else sp.Integer(1)
    if coeff.slot == "const":
        if isinstance(node, Const):  # replaced: the scaled constant is now one constant
            return sp.sympify(node.c)
        c, inner, _depth = _chain(node)
        assert isinstance(inner, Const)
        return c * inner.c
    if coeff.slot == "c" and isinstance(node, Scale):
        return _chain(node)[0]
    return sp.sympify(getattr(node, coeff.slot))
