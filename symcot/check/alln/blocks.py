r"""Symbolic-n block algebra: the IR's maps evaluated coordinate by coordinate at a symbolic index.

A token's representation is a :class:`Rep`: for every block, a function from an index tuple (Z3 integers,
``0 ≤ i < size``) to a Z3 real. A block of size ``n`` (or ``2m - 2``, ``m + 1``, …) has one index, a block
of size ``m²`` two (``(a, b)``, the ``vec`` order ``a·m + b``), a scalar block the index ``(0,)``.

:class:`MapEval` walks a map's IR expression trees (:mod:`symcot.ir.expr`), never its compiled matrices:
``BlockRef`` reads the input, constants and structured matrices (``I``, ``S``, ``e_k``, ``J``, the
commutation matrix, ``Ramp``, sums, products and scalings of them) are read row by row at the symbolic
index, Hadamard products and gates multiply coordinates, ``vec(a bᵀ)`` at ``(i, j)`` is ``a_i b_j``. A sum
over a block of symbolic size (``1ᵀ v``, ``aᵀ b``, a row of ``J``) is handed to the sum lemmas
(:mod:`symcot.check.alln.sums`) through ``summer``. Anything else raises :class:`Unsupported`, which the
prover reports as the obligation it could not state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp
import z3

from symcot.check.alln.ops import as_real
from symcot.errors import SymcotError
from symcot.ir.expr import Bilinear, BlockRef, Const, Expr, MatApply, Scale, Sum
from symcot.ir.maps import Map
from symcot.ir.matrices import (
    Commutation,
    Identity,
    Mat,
    MatProduct,
    MatSum,
    Ones,
    Ramp,
    Scaled,
    Shift,
    Transposed,
    UnitVector,
    Zero,
)
from symcot.lemmas.kit import Unsupported as KitUnsupported
from symcot.lemmas.kit import sympy_to_z3

Index = tuple[Any, ...]
BlockFn = Callable[[Index], Any]
#: ``summer(size, body, what) -> term``: the value of ``Σ_{j < size} body(j)``.
Summer = Callable[[Any, Callable[[Any], Any], str], Any]


class Unsupported(SymcotError):
    """A construct the all-n prover cannot state for every size (the verdict is then ``unknown``)."""


def shape_of(size: Any) -> tuple[sp.Expr, ...]:
    """The index shape of a block of this (symbolic) size: ``(1,)``, ``(n,)``, ``(2m - 2,)`` or ``(m, m)``."""
    s = sp.expand(sp.sympify(size))
    if isinstance(s, sp.Pow) and s.exp.is_Integer and int(s.exp) == 2 and s.base.is_Symbol:
        return (s.base, s.base)
    if isinstance(s, sp.Mul) and all(a.is_Symbol for a in s.args):
        return tuple(s.args)
    if s.is_Integer or sp.Poly(s, *sorted(s.free_symbols, key=str)).total_degree() <= 1:
        return (s,)
    raise Unsupported(f"a block of size {s} has no index shape the all-n prover knows")


def is_int_index(i: Any) -> bool:
    """A Python integer index."""
    return isinstance(i, int) and not isinstance(i, bool)


def z_index(i: Any) -> Any:
    """An index as a Z3 integer."""
    return z3.IntVal(i) if is_int_index(i) else i


def idx_key(idx: Index) -> tuple[Any, ...]:
    """A hashable key of an index tuple (Z3 terms by their AST id).

    Keep the terms alive while the key is used: Z3 reuses the id of a freed term.
    """
    return tuple(i if is_int_index(i) else ("z", i.get_id()) for i in idx)


class Rep:
    """A token's representation: block name → coordinate function, memoised per index."""

    def __init__(self, blocks: dict[str, BlockFn], label: str = ""):
        self._fns = dict(blocks)
        self._memo: dict[tuple[str, tuple[Any, ...]], tuple[Index, Any]] = {}
        self.label = label

    @property
    def names(self) -> list[str]:
        """Block names."""
        return list(self._fns)

    def __contains__(self, name: object) -> bool:
        return name in self._fns

    def fn(self, name: str) -> BlockFn:
        """The coordinate function of a block."""
        return self._fns[name]

    def read(self, name: str, idx: Index) -> Any:
        """Coordinate ``idx`` of block ``name`` (a Z3 real)."""
        key = (name, idx_key(idx))
        hit = self._memo.get(key)
        if hit is None:
            if name not in self._fns:
                raise Unsupported(f"{self.label or 'a representation'} has no block {name!r}")
            hit = self._memo[key] = (idx, as_real(self._fns[name](idx)))  # the index kept alive with its key
        return hit[1]

    def with_blocks(self, blocks: dict[str, BlockFn], label: str = "") -> Rep:
        """A copy with some blocks replaced."""
        return Rep({**self._fns, **blocks}, label or self.label)


class MapEval:
    """Evaluate IR maps at symbolic indices.

    Args:
        sizes: the size symbols as Z3 terms (``{n: n_z3}``).
        consts: other SymPy symbols in coefficients (``{λ: lam_z3}``).
        summer: how a sum over a block of symbolic size is valued.
        overlay: ``overlay(map, block, idx, read) -> extra term`` added to an output coordinate (a mutation).

    """

    def __init__(self, sizes: dict[sp.Symbol, Any], consts: dict[sp.Symbol, Any], summer: Summer,
                 overlay: Callable[[Map, str, Index, Callable[[str, Index], Any]], Any] | None = None):
        self.symbols = {**sizes, **consts}
        self.summer = summer
        self.overlay = overlay

    def z(self, v: Any) -> Any:
        """A SymPy coefficient or size as a Z3 term."""
        try:
            return sympy_to_z3(v, self.symbols)
        except KitUnsupported as e:
            raise Unsupported(str(e)) from None

    def size(self, s: Any) -> Any:
        """A size as a Z3 integer term."""
        v = self.z(s)
        return z3.IntVal(v) if isinstance(v, int) else v

    def apply(self, m: Map, rep: Rep, label: str = "") -> Rep:
        """``m`` applied to ``rep``: a representation of ``m.dst`` (lazy, coordinate by coordinate)."""
        read = rep.read
        fns: dict[str, BlockFn] = {}
        for b in m.dst.names:
            if b in m.zeroed:
                fns[b] = _zero
            else:
                fns[b] = self._block_fn(m, b, read)
        return Rep(fns, label or m.name)

    def _block_fn(self, m: Map, b: str, read: Callable[[str, Index], Any]) -> BlockFn:
        e = m.exprs[b]

        def f(idx: Index) -> Any:
            v = self.expr(e, read, idx)
            if self.overlay is not None:
                v = v + self.overlay(m, b, idx, read)
            return v

        return f

    # -- expressions ---------------------------------------------------------------------------------
    def expr(self, e: Expr, read: Callable[[str, Index], Any], idx: Index) -> Any:
        """Coordinate ``idx`` of expression ``e`` over the input ``read``."""
        if isinstance(e, BlockRef):
            return read(e.name, idx)
        if isinstance(e, Const):
            c = self.z(e.c)
            return _sum(g_if(g, c * a) for a, _col, g in self.rows(e.m, idx))
        if isinstance(e, Scale):
            return self.z(e.c) * self.expr(e.e, read, idx)
        if isinstance(e, Sum):
            return _sum(self.expr(t, read, idx) for t in e.terms)
        if isinstance(e, MatApply):
            return self._mat_apply(e, read, idx)
        if isinstance(e, Bilinear):
            return self._bilinear(e, read, idx)
        raise Unsupported(f"no symbolic coordinate for {type(e).__name__}")

    def _mat_apply(self, e: MatApply, read: Callable[[str, Index], Any], idx: Index) -> Any:
        m = e.m
        cols = sp.sympify(m.cols)
        if isinstance(m, Ones) and not cols.is_Integer:
            # a row of J: the sum of every coordinate of e (the same for each output row)
            shape = shape_of(e.e.size)
            if len(shape) != 1:
                raise Unsupported(f"a sum over a block of size {e.e.size} (two indices)")
            return self.summer(self.size(shape[0]), lambda j: self.expr(e.e, read, (j,)), f"1ᵀ({e.e.latex()})")
        return _sum(g_if(g, a * self.expr(e.e, read, col)) for a, col, g in self.rows(m, idx))

    def _bilinear(self, e: Bilinear, read: Callable[[str, Index], Any], idx: Index) -> Any:
        if e.kind == "hadamard":
            return self.expr(e.a, read, idx) * self.expr(e.b, read, idx)
        if e.kind == "gate":
            return self.expr(e.a, read, (0,)) * self.expr(e.b, read, idx)
        if e.kind == "outer":
            if len(idx) != 2:
                raise Unsupported("vec(a bᵀ) read with one index")
            return self.expr(e.a, read, (idx[0],)) * self.expr(e.b, read, (idx[1],))
        if e.kind == "dot":
            shape = shape_of(e.a.size)
            if len(shape) != 1:
                raise Unsupported(f"an inner product over a block of size {e.a.size} (two indices)")
            if shape[0].is_Integer:
                return _sum(self.expr(e.a, read, (j,)) * self.expr(e.b, read, (j,)) for j in range(int(shape[0])))
            return self.summer(self.size(shape[0]), lambda j: self.expr(e.a, read, (j,)) * self.expr(e.b, read, (j,)),
                               f"({e.a.latex()})ᵀ({e.b.latex()})")
        raise Unsupported(f"the {e.kind} product {e.latex()} has no symbolic coordinate")

    # -- structured matrices ------------------------------------------------------------------------
    def rows(self, m: Mat, idx: Index) -> list[tuple[Any, Index, Any]]:
        """Row ``idx`` of ``m``: ``[(coefficient, column index, guard)]`` (finitely many)."""
        out = self._leaf_rows(m, idx)
        if out is None:
            out = self._composite_rows(m, idx)
        if out is None:
            raise Unsupported(f"no symbolic row for the matrix {type(m).__name__} {m.latex()}")
        return out

    def _leaf_rows(self, m: Mat, idx: Index) -> list[tuple[Any, Index, Any]] | None:
        if isinstance(m, Identity):
            return [(1, idx, True)]
        if isinstance(m, Zero):
            return []
        if isinstance(m, Ones):
            c = sp.sympify(m.cols)
            if not c.is_Integer:
                raise Unsupported(f"{m.latex()} sums over {c} coordinates")
            return [(1, (j,), True) for j in range(int(c))]
        if isinstance(m, Shift):
            col = z_index(idx[0]) - m.k
            return [(1, (col,), z3.And(col >= 0, col < self.size(m.cols)))]
        if isinstance(m, UnitVector):
            return [(1, (0,), z_index(idx[0]) == self.size(m.i))]
        if isinstance(m, Commutation):
            return [(1, (idx[1], idx[0]), True)]
        if isinstance(m, Ramp):
            return [(self.z(m.start) + self.z(m.step) * z_index(idx[0]), (0,), True)]
        return None

    def _composite_rows(self, m: Mat, idx: Index) -> list[tuple[Any, Index, Any]] | None:
        if isinstance(m, Scaled):
            c = self.z(m.c)
            return [(c * a, col, g) for a, col, g in self.rows(m.m, idx)]
        if isinstance(m, MatSum):
            return self.rows(m.a, idx) + self.rows(m.b, idx)
        if isinstance(m, MatProduct):
            return [(ca * cb, col, _and(ga, gb)) for ca, k, ga in self.rows(m.a, idx)
                    for cb, col, gb in self.rows(m.b, k)]
        if isinstance(m, Transposed):
            inner = m.m
            if isinstance(inner, Identity):
                return [(1, idx, True)]
            if isinstance(inner, Shift):
                col = z_index(idx[0]) + inner.k
                return [(1, (col,), z3.And(col >= 0, col < self.size(inner.rows)))]
            if isinstance(inner, Ones) and sp.sympify(inner.rows).is_Integer:
                return [(1, (j,), True) for j in range(int(sp.sympify(inner.rows)))]
            if isinstance(inner, Commutation):
                return [(1, (idx[1], idx[0]), True)]
        return None


def _zero(idx: Index) -> Any:
    return z3.RealVal(0)


def _and(a: Any, b: Any) -> Any:
    if a is True:
        return b
    if b is True:
        return a
    return z3.And(a, b)


def g_if(guard: Any, v: Any) -> Any:
    """``v`` where ``guard`` holds, else 0."""
    if guard is True:
        return v
    g = z3.simplify(guard)
    if z3.is_true(g):
        return v
    if z3.is_false(g):
        return z3.RealVal(0)
    return z3.If(g, as_real(v), z3.RealVal(0))


def _sum(terms: Any) -> Any:
    out: Any = None
    for t in terms:
        t = as_real(t)
        out = t if out is None else out + t
    return z3.RealVal(0) if out is None else out


def relu(v: Any) -> Any:
    """``max(0, v)``."""
    v = as_real(v)
    return z3.If(v > 0, v, z3.RealVal(0))
