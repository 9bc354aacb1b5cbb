r"""The IR's expression trees compiled to Z3 at a symbolic index: a map's output, coordinate by coordinate.

This is the one walker of :mod:`symcot.ir.expr` and :mod:`symcot.ir.matrices` that the all-dimension lemma
proof (:mod:`symcot.lemmas.symbolic`) and the all-n prover (:mod:`symcot.prove.alln.blocks`) both read.

An index is a tuple of Z3 integers (or Python integers) following the block's index shape. The default shape
(:func:`shape_of`) gives a block of size ``n`` (or ``2m - 2``, ``m + 1``, …) one index, a block of size ``m²``
or ``n·m`` two, ``(a, b)`` in the ``vec`` order (flat coordinate ``a·cols + b``), and a scalar block the index
``(0,)``; :func:`flat_shape` gives every block one flat index whatever its size.

:class:`Walker` reads a map's expression trees, never its compiled matrices: ``BlockRef`` reads the input
through ``read(block, index)``, constants and structured matrices (every class of :mod:`symcot.ir.matrices`
but :class:`~symcot.ir.matrices.IndexMatrix`, and their sums, products, scalings and transposes) are read row
by row at the symbolic index, whatever the index shapes of their rows and columns: a row index tuple stands
for its flat coordinate, and a column's flat coordinate becomes a tuple of the column shape, by an exact
structural form where there is one (``I`` and the commutation matrix keep ``(a, b)`` and ``(b, a)``, a shift
on an ``m × m`` block carries ``b - k`` into ``a``) and by Z3's integer ``/`` and ``%`` otherwise. An
``IndexMatrix`` is read only through ``local_rows``, a row its owner states, or ``local_sum``, a row its owner
states as a sum over its columns (valued by ``summer``). Hadamard products and gates
multiply coordinates, ``vec(a bᵀ)`` at ``(i, j)`` is ``a_i b_j``. A sum over a block of symbolic size
(``1ᵀ v``, ``aᵀ b``, a row of ``J``) is handed to ``summer``, which values it; without one, such a row
raises :class:`~symcot.lemmas.kit.NonLocal`. Anything else raises :class:`Unsupported`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

import sympy as sp
import z3

from symcot.ir.expr import Bilinear, BlockRef, Const, Expr, MatApply, Scale, Sum
from symcot.ir.maps import Map
from symcot.ir.matrices import (
    Commutation,
    Explicit,
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
from symcot.lemmas.kit import NonLocal, sympy_to_z3
from symcot.lemmas.kit import Unsupported as KitUnsupported

Index = tuple[Any, ...]
#: ``read(block, index) -> term``: a coordinate of the input.
Reader = Callable[[str, Index], Any]
BlockFn = Callable[[Index], Any]
#: ``summer(size, body, what) -> term``: the value of ``Σ_{j < size} body(j)``.
Summer = Callable[[Any, Callable[[Any], Any], str], Any]
#: One entry of a matrix row: ``(coefficient, column index tuple, guard)``; the entry counts where the guard holds.
Entry = tuple[Any, Index, Any]
#: ``local_rows(matrix, index)``: the row of a matrix the walker has no form for (``None``: not one of these).
LocalRows = Callable[[Mat, Index], "list[Entry] | None"]
#: ``local_sum(matrix, index, column)``: row ``index`` of a matrix its owner states as a sum over its columns,
#: applied to ``column(col_index) -> term`` (``None``: not one of these).
LocalSum = Callable[[Mat, Index, Callable[[Index], Any]], Any]
#: ``shape(size)``: the index shape of a block of this size.
Shape = Callable[[Any], tuple[sp.Expr, ...]]
#: A unit vector ``e_i`` on an ``a × b`` block with a constant ``i`` up to this is read without ``a·b``
#: (one alternative per value of the row ``a``); a larger one by its flat coordinate.
_CARRY_LIMIT = 64


class Unsupported(KitUnsupported):
    """A construct with no coordinate at a symbolic index (a row the walker cannot state for every size)."""


@lru_cache(maxsize=1024)
def shape_of(size: Any) -> tuple[sp.Expr, ...]:
    """The index shape of a block of this (symbolic) size.

    ``(k,)`` for an integer or a size of degree one (``n``, ``2m - 2``, ``n/2 + 1``), ``(m, m)`` for ``m²`` and
    ``(x, y)`` for ``x·y`` (two size symbols, in SymPy's order of the factors). Anything else (``m² + 1``,
    ``2m²``, ``n³``, ``n·m·H``) raises :class:`Unsupported`.
    """
    s = sp.expand(sp.sympify(size))
    if not s.free_symbols:
        if s.is_Integer and int(s) >= 0:
            return (s,)
        raise Unsupported(f"a block of size {s} (not a natural number)")
    if isinstance(s, sp.Pow) and s.exp.is_Integer and int(s.exp) == 2 and s.base.is_Symbol:
        return (s.base, s.base)
    if isinstance(s, sp.Mul) and len(s.args) == 2 and all(a.is_Symbol for a in s.args):
        return tuple(s.args)
    if s.is_polynomial(*s.free_symbols) and sp.Poly(s, *sorted(s.free_symbols, key=str)).total_degree() <= 1:
        return (s,)
    raise Unsupported(f"a block of size {s} has no index shape the all-n prover knows")


def flat_shape(size: Any) -> tuple[sp.Expr, ...]:
    """One flat index for a block of any size."""
    return (sp.sympify(size),)


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


class Walker:
    """Coordinates of IR expressions at symbolic indices.

    Args:
        sizes: the size symbols as Z3 terms (``{n: n_z3}``).
        consts: other SymPy symbols in coefficients (``{λ: lam_z3}``).
        summer: how a sum over a block of symbolic size is valued (``None``: such a row is :class:`NonLocal`).
        shape: the index shape of a block of a given size (:func:`shape_of` or :func:`flat_shape`).
        local_rows: the rows of matrices the walker has no form for (an ``IndexMatrix`` that states its row).
        local_sum: the rows of matrices stated as a sum over their columns (an ``IndexMatrix`` whose row reads a
            block of symbolic size); ``None``: none.

    """

    def __init__(self, sizes: dict[sp.Symbol, Any], consts: dict[sp.Symbol, Any], summer: Summer | None,
                 shape: Shape = shape_of, local_rows: LocalRows | None = None, local_sum: LocalSum | None = None):
        self.symbols = {**sizes, **consts}
        self.summer = summer
        self.shape = shape
        self.local_rows = local_rows
        self.local_sum = local_sum
        self._sizes: dict[sp.Expr, Any] = {}

    def z(self, v: Any) -> Any:
        """A SymPy coefficient or size as a Z3 term."""
        try:
            return sympy_to_z3(v, self.symbols)
        except KitUnsupported as e:
            raise Unsupported(str(e)) from None

    def size(self, s: Any) -> Any:
        """A size as a Z3 integer term."""
        key = sp.sympify(s)
        hit = self._sizes.get(key)
        if hit is None:
            v = self.z(key)
            hit = self._sizes[key] = z3.IntVal(v) if isinstance(v, int) else v
        return hit

    def block(self, m: Map, b: str, read: Reader, idx: Index) -> Any:
        """Coordinate ``idx`` of the output block ``b`` of ``m`` over the input ``read`` (0 in a zeroed block)."""
        if b in m.zeroed:
            return z3.RealVal(0)
        _check_index(idx, self.shape(m.dst.size(b)))
        return self.expr(m.exprs[b], read, idx)

    # -- index shapes ---------------------------------------------------------------------------------
    def flat(self, idx: Index, shape: tuple[sp.Expr, ...]) -> Any:
        """The flat coordinate (``vec`` order) of an index tuple of this shape."""
        _check_index(idx, shape)
        if len(shape) == 1:
            return z_index(idx[0])
        return z_index(idx[0]) * self.size(shape[1]) + z_index(idx[1])

    def unflat(self, f: Any, shape: tuple[sp.Expr, ...]) -> Index:
        """The index tuple of this shape at flat coordinate ``f`` (``0 ≤ f < size``)."""
        if len(shape) == 1:
            return (f,)
        cols = self.size(shape[1])
        f = z_index(f)
        return (f / cols, f % cols)

    def total(self, shape: tuple[sp.Expr, ...]) -> Any:
        """The number of coordinates of a block of this shape."""
        return self.size(sp.Mul(*shape))

    # -- expressions ---------------------------------------------------------------------------------
    def expr(self, e: Expr, read: Reader, idx: Index) -> Any:
        """Coordinate ``idx`` of expression ``e`` over the input ``read``."""
        if isinstance(e, BlockRef):
            return read(e.name, idx)
        if isinstance(e, Const):
            c = self.z(e.c)
            summed = self.local_sum(e.m, idx, lambda col: 1) if self.local_sum is not None else None
            if summed is not None:
                return c * summed
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

    def _mat_apply(self, e: MatApply, read: Reader, idx: Index) -> Any:
        over = _summed_size(e.m)
        if over is not None:
            # a row of J (or Jᵀ) over a block of symbolic size: the sum of every coordinate of e (each row alike)
            if self.summer is None:
                raise NonLocal(f"{e.m.latex()} sums over {over} coordinates")
            _check_index(idx, self.shape(e.m.rows))
            shape = self.shape(e.e.size)
            if len(shape) != 1:
                raise Unsupported(f"a sum over a block of size {e.e.size} (two indices)")
            return self.summer(self.size(shape[0]), lambda j: self.expr(e.e, read, (j,)), f"1ᵀ({e.e.latex()})")
        summed = self.local_sum(e.m, idx, lambda col: self.expr(e.e, read, col)) if self.local_sum is not None else None
        if summed is not None:
            return summed
        return _sum(g_if(g, a * self.expr(e.e, read, col)) for a, col, g in self.rows(e.m, idx))

    def _bilinear(self, e: Bilinear, read: Reader, idx: Index) -> Any:
        if e.kind == "hadamard":
            return self.expr(e.a, read, idx) * self.expr(e.b, read, idx)
        if e.kind == "gate":
            return self.expr(e.a, read, (0,)) * self.expr(e.b, read, idx)
        if e.kind == "outer":
            ia, ib = self._outer_index(e, idx)
            return self.expr(e.a, read, ia) * self.expr(e.b, read, ib)
        if e.kind == "dot":
            shape = self.shape(e.a.size)
            if len(shape) != 1:
                raise Unsupported(f"an inner product over a block of size {e.a.size} (two indices)")
            if shape[0].is_Integer:
                return _sum(self.expr(e.a, read, (j,)) * self.expr(e.b, read, (j,)) for j in range(int(shape[0])))
            if self.summer is None:
                raise NonLocal(f"the {e.kind} product {e.latex()} reads every coordinate")
            return self.summer(self.size(shape[0]), lambda j: self.expr(e.a, read, (j,)) * self.expr(e.b, read, (j,)),
                               f"({e.a.latex()})ᵀ({e.b.latex()})")
        raise Unsupported(f"the {e.kind} product {e.latex()} has no symbolic coordinate")

    def _outer_index(self, e: Bilinear, idx: Index) -> tuple[Index, Index]:
        """The coordinates of ``a`` and ``b`` that coordinate ``idx`` of ``vec(a bᵀ)`` multiplies (``i·|b| + j``)."""
        out, sa, sb = self.shape(e.size), self.shape(e.a.size), self.shape(e.b.size)
        _check_index(idx, out)
        if len(out) == 2 and len(sa) == 1 and len(sb) == 1 and out == (sa[0], sb[0]):
            return (idx[0],), (idx[1],)
        if sa == (1,):
            return (0,), (idx if sb == out else self.unflat(self.flat(idx, out), sb))
        if sb == (1,):
            return (idx if sa == out else self.unflat(self.flat(idx, out), sa)), (0,)
        f, nb = self.flat(idx, out), self.size(e.b.size)
        return self.unflat(f / nb, sa), self.unflat(f % nb, sb)

    # -- structured matrices ------------------------------------------------------------------------
    def rows(self, m: Mat, idx: Index) -> list[Entry]:
        """Row ``idx`` of ``m`` (a tuple of the shape of its rows): ``[(coefficient, column index, guard)]``.

        Column indices are tuples of the shape of ``m``'s columns; every entry counts where its guard holds,
        and a column index under a true guard is in range.
        """
        _check_index(idx, self.shape(m.rows))
        out = self.local_rows(m, idx) if self.local_rows is not None else None
        if out is None:
            out = self._leaf_rows(m, idx)
        if out is None:
            out = self._composite_rows(m, idx)
        if out is None:
            raise Unsupported(f"no symbolic row for the matrix {type(m).__name__} {m.latex()}")
        return out

    def _leaf_rows(self, m: Mat, idx: Index) -> list[Entry] | None:
        if isinstance(m, Identity):
            return [(1, idx, True)]
        if isinstance(m, Zero):
            return []
        if isinstance(m, Ones):
            return self._all_columns(m.cols, lambda j: 1, m)
        if isinstance(m, Shift):
            return self._shift(idx, self.shape(m.rows), self.shape(m.cols), m.k)
        if isinstance(m, UnitVector):
            return [(1, (0,), self._is_flat(idx, self.shape(m.rows), m.i))]
        if isinstance(m, Commutation):
            return [(1, self._commute(idx, m), True)]
        if isinstance(m, Ramp):
            return [(self.z(m.start) + self.z(m.step) * self.flat(idx, self.shape(m.rows)), (0,), True)]
        if isinstance(m, Explicit):
            return self._explicit(m.values, idx)
        return None

    def _composite_rows(self, m: Mat, idx: Index) -> list[Entry] | None:
        if isinstance(m, Scaled):
            c = self.z(m.c)
            return [(c * a, col, g) for a, col, g in self.rows(m.m, idx)]
        if isinstance(m, MatSum):
            return self.rows(m.a, idx) + self.rows(m.b, idx)
        if isinstance(m, MatProduct):
            return [(ca * cb, col, _and(ga, gb)) for ca, k, ga in self.rows(m.a, idx)
                    for cb, col, gb in self.rows(m.b, k)]
        if isinstance(m, Transposed):
            return self._transposed_rows(m.m, idx)
        return None

    def _transposed_rows(self, inner: Mat, idx: Index) -> list[Entry] | None:
        """Row ``idx`` of ``innerᵀ``: column ``idx`` of ``inner``."""
        if isinstance(inner, (Identity, Commutation, Zero)):
            return self._leaf_rows(inner, idx)
        if isinstance(inner, Ones):
            return self._all_columns(inner.rows, lambda j: 1, Transposed(inner))
        if isinstance(inner, Shift):
            return self._shift(idx, self.shape(inner.cols), self.shape(inner.rows), -inner.k)
        if isinstance(inner, UnitVector):
            return self._at_flat(inner.i, self.shape(inner.rows))
        if isinstance(inner, Ramp):
            return self._all_columns(inner.rows, lambda j: self.z(inner.start + inner.step * j), Transposed(inner))
        if isinstance(inner, Explicit):
            return self._explicit([list(c) for c in zip(*inner.values)], idx)
        if isinstance(inner, Scaled):
            return self.rows(Scaled(inner.c, Transposed(inner.m)), idx)
        if isinstance(inner, MatSum):
            return self.rows(MatSum(Transposed(inner.a), Transposed(inner.b)), idx)
        if isinstance(inner, MatProduct):
            return self.rows(MatProduct(Transposed(inner.b), Transposed(inner.a)), idx)
        if isinstance(inner, Transposed):
            return self.rows(inner.m, idx)
        return None

    def _all_columns(self, cols: sp.Expr, value: Callable[[int], Any], m: Mat) -> list[Entry]:
        """Every column of a fixed number of columns, with ``value(j)`` at column ``j``."""
        c = sp.sympify(cols)
        if not c.is_Integer:
            raise Unsupported(f"a row of {m.latex()} sums over {c} coordinates")
        return [(value(j), (j,), True) for j in range(int(c))]

    def _shift(self, idx: Index, rshape: tuple[sp.Expr, ...], cshape: tuple[sp.Expr, ...], k: int) -> list[Entry]:
        """Row ``idx`` of a shift: the column at flat coordinate ``flat(idx) - k`` when it is in range."""
        if not isinstance(k, (int, sp.Integer)):
            raise Unsupported(f"a shift by {k} (not a fixed integer)")
        k = int(k)
        if len(rshape) == 1 and len(cshape) == 1:
            i = z_index(idx[0])
            col = i - k if k >= 0 else i + (-k)
            return [(1, (col,), z3.And(col >= 0, col < self.size(cshape[0])))]
        if len(rshape) == 2 and rshape == cshape:
            # (a·c + b) - k = (a + q)·c + (b - k - q·c) for the one carry q = ⌊(b - k)/c⌋, which lies in [-k, 0]
            # for k ≥ 0 and in [0, -k] for k < 0 (as 0 ≤ b < c and c ≥ 1)
            a, b = z_index(idx[0]), z_index(idx[1])
            r0, c = self.size(cshape[0]), self.size(cshape[1])
            out: list[Entry] = []
            for q in range(min(0, -k), max(0, -k) + 1):
                a2, b2 = a + q, b - k - q * c
                out.append((1, (a2, b2), z3.And(b2 >= 0, b2 < c, a2 >= 0, a2 < r0)))
            return out
        f = self.flat(idx, rshape) - k
        return [(1, self.unflat(f, cshape), z3.And(f >= 0, f < self.total(cshape)))]

    def _is_flat(self, idx: Index, shape: tuple[sp.Expr, ...], i: sp.Expr) -> Any:
        """Whether index ``idx`` of this shape is at flat coordinate ``i``."""
        if len(shape) == 2 and i.is_Integer and 0 <= int(i) <= _CARRY_LIMIT:
            # a·c + b = i with a, b ≥ 0 and c ≥ 1: a = q ≤ i and b = i - q·c (linear in c)
            a, b, c = z_index(idx[0]), z_index(idx[1]), self.size(shape[1])
            return z3.Or(*[z3.And(a == q, b == int(i) - q * c) for q in range(int(i) + 1)])
        return self.flat(idx, shape) == self.size(i)

    def _at_flat(self, i: sp.Expr, shape: tuple[sp.Expr, ...]) -> list[Entry]:
        """The one entry at flat coordinate ``i`` of a row whose columns have this shape (none if out of range)."""
        if len(shape) == 1:
            iz = self.size(i)
            return [(1, (iz,), z3.And(iz >= 0, iz < self.size(shape[0])))]
        r0, c = self.size(shape[0]), self.size(shape[1])
        if i.is_Integer and 0 <= int(i) <= _CARRY_LIMIT:
            out: list[Entry] = []
            for q in range(int(i) + 1):
                b = int(i) - q * c
                out.append((1, (z3.IntVal(q), b), z3.And(b >= 0, b < c, q < r0)))
            return out
        iz = self.size(i)
        return [(1, self.unflat(iz, shape), z3.And(iz >= 0, iz < self.total(shape)))]

    def _commute(self, idx: Index, m: Commutation) -> Index:
        """The column that row ``idx`` of ``K_k`` reads: ``(a, b) ↦ (b, a)`` (row ``a·k + b`` reads ``b·k + a``)."""
        shape = self.shape(m.rows)
        if len(shape) == 2 and shape[0] == m.k and shape[1] == m.k:
            return (idx[1], idx[0])
        k = self.size(m.k)
        f = self.flat(idx, shape)
        return self.unflat((f % k) * k + f / k, shape)

    def _explicit(self, values: list[list[Any]], idx: Index) -> list[Entry]:
        """Row ``idx`` of a matrix of fixed entries: per column, the entry chosen by the row (0 out of range)."""
        i = idx[0] if is_int_index(idx[0]) else z3.simplify(idx[0])
        if z3.is_int_value(i):
            i = i.as_long()
        out: list[Entry] = []
        for j in range(len(values[0])):
            nz = [(r, row[j]) for r, row in enumerate(values) if row[j] != 0]
            if is_int_index(i):
                out += [(self.z(v), (j,), True) for r, v in nz if r == i]
                continue
            coef: Any = z3.RealVal(0)
            for r, v in reversed(nz):
                coef = z3.If(i == r, as_real(self.z(v)), coef)
            if nz:
                out.append((coef, (j,), True))
        return out


def _summed_size(m: Mat) -> sp.Expr | None:
    """The number of coordinates a row of ``m`` sums, when ``m`` is ``J`` or ``Jᵀ`` with a symbolic one."""
    if isinstance(m, Ones) and not sp.sympify(m.cols).is_Integer:
        return sp.sympify(m.cols)
    if isinstance(m, Transposed) and isinstance(m.m, Ones) and not sp.sympify(m.m.rows).is_Integer:
        return sp.sympify(m.m.rows)
    return None


def _check_index(idx: Index, shape: tuple[sp.Expr, ...]) -> None:
    """An index tuple must have one component per dimension of the block's shape."""
    if len(idx) != len(shape):
        raise Unsupported(f"an index with {len(idx)} components read on a block of shape {shape}")


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


def _sum(terms: Iterable[Any]) -> Any:
    out: Any = None
    for t in terms:
        t = as_real(t)
        out = t if out is None else out + t
    return z3.RealVal(0) if out is None else out


def relu(v: Any) -> Any:
    """``max(0, v)``."""
    v = as_real(v)
    return z3.If(v > 0, v, z3.RealVal(0))
