"""Block expressions: polynomials of degree at most two in the blocks of one layout.

A map is stated by assigning such an expression to each output block (see :mod:`symcot.ir.maps`).
Expressions check sizes symbolically when they are built, so a block-size mismatch is an error at
construction time, and they compile to exact sparse polynomials at concrete sizes.

Constants (``1``, ``λ``, ``ones(n)``), linear maps (``M @ x.cur``), sums, scalar multiples, and the
bilinear products the paper uses -- Hadamard ``a ⊙ b``, inner product ``aᵀb``, scalar gate ``s·v``,
outer product, and a general index-defined bilinear map -- are supported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import sympy as sp

from symcot.errors import DegreeError, DimensionError
from symcot.ir.matrices import Identity, Mat, Ones, UnitVector, as_mat
from symcot.ir.symbols import Env, Scalar, same_size, size_value, to_exact
from symcot.ir.text import text

Mono = tuple[int, ...]  # (), (i,), or (i, j) with i <= j
RowPoly = dict[Mono, Scalar]
VecPoly = dict[int, RowPoly]


@dataclass
class CompileCtx:
    """What compiling needs: input-block offsets, concrete sizes and values for constants like ``λ``."""

    offsets: dict[str, int]
    sizes: dict[str, int]
    env: Env
    subs: dict[sp.Symbol, Any]

    def coeff(self, v: Any) -> Scalar:
        """An exact coefficient: ``λ`` (and sizes) substituted; SymPy kept only if symbols remain."""
        e = sp.sympify(v)
        if e.free_symbols:
            e = e.subs(self.env).subs(self.subs)
        return to_exact(e)


def _add_into(dst: RowPoly, src: RowPoly, c: Scalar = 1) -> None:
    for mono, v in src.items():
        s = dst.get(mono, 0) + c * v
        if s == 0:
            dst.pop(mono, None)
        else:
            dst[mono] = s


def _mul_rows(a: RowPoly, b: RowPoly) -> RowPoly:
    out: RowPoly = {}
    for ma, va in a.items():
        for mb, vb in b.items():
            mono = tuple(sorted(ma + mb))
            if len(mono) > 2:
                raise DegreeError("product of degree > 2")
            s = out.get(mono, 0) + va * vb
            if s == 0:
                out.pop(mono, None)
            else:
                out[mono] = s
    return out


class Expr:
    """A vector-valued polynomial expression in the blocks of one layout."""

    size: sp.Expr
    degree: int

    # -- to implement -------------------------------------------------------------------------
    def compile(self, ctx: CompileCtx) -> VecPoly:
        """Exact sparse polynomial per output row at concrete sizes."""
        raise NotImplementedError

    def latex(self) -> str:
        """LaTeX in the paper's ``π_name`` notation."""
        raise NotImplementedError

    def blocks(self) -> set[tuple[Any, str]]:
        """``(layout, block)`` pairs this expression reads."""
        raise NotImplementedError

    # -- algebra ------------------------------------------------------------------------------
    def __add__(self, other: Any) -> Expr:
        return Sum([self, as_expr(other, self.size)])

    def __radd__(self, other: Any) -> Expr:
        return Sum([as_expr(other, self.size), self])

    def __sub__(self, other: Any) -> Expr:
        return Sum([self, Scale(-1, as_expr(other, self.size))])

    def __rsub__(self, other: Any) -> Expr:
        return Sum([as_expr(other, self.size), Scale(-1, self)])

    def __neg__(self) -> Expr:
        return Scale(-1, self)

    def __mul__(self, other: Any) -> Expr:
        if isinstance(other, Expr):
            return gate(self, other)
        return Scale(other, self)

    def __rmul__(self, other: Any) -> Expr:
        if isinstance(other, Expr):
            return gate(other, self)
        return Scale(other, self)

    __array_ufunc__ = None  # numpy defers to these operators: np.eye(3) @ x.pos, np.int64(2) * x.pos

    def __rmatmul__(self, other: Any) -> Expr:
        """``M @ self`` for a matrix ``M``: a :class:`Mat`, a SymPy ``Matrix`` or a numpy integer array (exact)."""
        m = as_mat(other)
        if m is None:
            return NotImplemented
        return MatApply(m, self)

    def apply(self, m: Mat) -> Expr:
        """``M @ self``."""
        return MatApply(m, self)

    def sum(self) -> Expr:
        """``1ᵀ self`` (sum of the coordinates), a scalar."""
        return MatApply(Ones(1, self.size), self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} size={self.size} deg={self.degree}: {self.latex()}>"


def exact_constant(c: Any) -> sp.Expr:
    """A constant coefficient as SymPy, refusing floats (they would round silently)."""
    if isinstance(c, float):
        raise TypeError(f"float {c!r} in a construction; use int, Fraction or a SymPy Rational")
    e = sp.sympify(c)
    if e.atoms(sp.Float):
        raise TypeError(f"float in the constant {e}; use int, Fraction or a SymPy Rational")
    return e


def as_expr(v: Any, size: Any = 1) -> Expr:
    """Coerce numbers (including ``λ``) to constants broadcast to ``size``; expressions pass through."""
    if isinstance(v, Expr):
        return v
    return Const(Ones(size, 1), exact_constant(v))


class BlockRef(Expr):
    """The block ``π_name(x)`` of the map's input."""

    degree = 1

    def __init__(self, layout: Any, name: str):
        self.layout = layout
        self.name = name
        self.size = layout.size(name)

    def compile(self, ctx: CompileCtx) -> VecPoly:
        o, s = ctx.offsets[self.name], ctx.sizes[self.name]
        return {r: {(o + r,): 1} for r in range(s)}

    def latex(self) -> str:
        return f"\\pi_{{{_tex_name(self.name)}}}"

    def blocks(self) -> set[tuple[Any, str]]:
        return {(self.layout, self.name)}


class Const(Expr):
    """A constant vector ``c · M`` with ``M`` a column (``ones(k)``, ``e_i``, …)."""

    degree = 0

    def __init__(self, m: Mat, c: Any = 1):
        if not same_size(m.cols, 1):
            raise DimensionError(f"a constant vector needs a column matrix, got {m.rows}x{m.cols}")
        self.m, self.c = m, exact_constant(c)
        self.size = m.rows

    def compile(self, ctx: CompileCtx) -> VecPoly:
        out: VecPoly = {}
        for (i, _j), v in self.m.entries(ctx.env).items():
            c = ctx.coeff(self.c * v)
            if c != 0:
                out[i] = {(): c}
        return out

    def latex(self) -> str:
        if self.c == 1:
            return self.m.latex() if self.size != 1 else "1"
        if self.size == 1 and isinstance(self.m, Ones):
            return sp.latex(self.c)
        return f"{sp.latex(self.c)}\\,{self.m.latex()}"

    def blocks(self) -> set[tuple[Any, str]]:
        return set()


class Scale(Expr):
    """``c · e`` for a constant scalar ``c`` (number or expression in ``λ``)."""

    def __init__(self, c: Any, e: Expr):
        self.c, self.e = exact_constant(c), e
        self.size, self.degree = e.size, e.degree

    def compile(self, ctx: CompileCtx) -> VecPoly:
        c = ctx.coeff(self.c)
        if c == 0:
            return {}
        return {r: {mo: c * v for mo, v in row.items()} for r, row in self.e.compile(ctx).items()}

    def latex(self) -> str:
        inner = self.e.latex()
        if isinstance(self.e, Sum):
            inner = f"\\left({inner}\\right)"
        if self.c == -1:
            return f"-{inner}"
        return f"{sp.latex(self.c)}\\,{inner}"

    def blocks(self) -> set[tuple[Any, str]]:
        return self.e.blocks()


class Sum(Expr):
    """``e_1 + … + e_k`` (sizes must agree)."""

    terms: list[Expr]

    def __init__(self, terms: list[Expr]):
        flat: list[Expr] = []
        for t in terms:
            flat.extend(t.terms if isinstance(t, Sum) else [t])
        for t in flat[1:]:
            if not same_size(t.size, flat[0].size):
                raise DimensionError(
                    f"cannot add a block expression of size {flat[0].size} ({text(flat[0])}) "
                    f"and one of size {t.size} ({text(t)})"
                )
        self.terms = flat
        self.size = flat[0].size
        self.degree = max(t.degree for t in flat)

    def compile(self, ctx: CompileCtx) -> VecPoly:
        out: VecPoly = {}
        for t in self.terms:
            for r, row in t.compile(ctx).items():
                _add_into(out.setdefault(r, {}), row)
        return {r: row for r, row in out.items() if row}

    def latex(self) -> str:
        parts = [self.terms[0].latex()]
        for t in self.terms[1:]:
            s = t.latex()
            parts.append(s if s.startswith("-") else f"+ {s}")
        return " ".join(parts)

    def blocks(self) -> set[tuple[Any, str]]:
        return set().union(*(t.blocks() for t in self.terms))


class MatApply(Expr):
    """``M e`` for a structured matrix ``M``."""

    def __init__(self, m: Mat, e: Expr):
        if not same_size(m.cols, e.size):
            raise DimensionError(
                f"matrix {text(m)} has {m.cols} columns but is applied to {text(e)} of size {e.size}"
            )
        self.m, self.e = m, e
        self.size, self.degree = m.rows, e.degree

    def compile(self, ctx: CompileCtx) -> VecPoly:
        inner = self.e.compile(ctx)
        out: VecPoly = {}
        for (i, j), v in self.m.entries(ctx.env).items():
            if j in inner:
                _add_into(out.setdefault(i, {}), inner[j], ctx.coeff(v))
        return {r: row for r, row in out.items() if row}

    def latex(self) -> str:
        inner = self.e.latex()
        if isinstance(self.e, Sum):
            inner = f"\\left({inner}\\right)"
        if isinstance(self.m, Ones) and same_size(self.m.rows, 1):
            return f"\\mathbf{{1}}^\\top {inner}"
        return f"{self.m.latex()}\\,{inner}"

    def blocks(self) -> set[tuple[Any, str]]:
        return self.e.blocks()


class Bilinear(Expr):
    """A degree-two product of two expressions of degree at most one.

    ``kind`` is one of ``hadamard`` (``a ⊙ b``), ``dot`` (``aᵀ b``), ``gate`` (scalar ``a`` times vector
    ``b``), ``outer`` (``vec(a bᵀ)``, row ``i·|b| + j``) or ``tensor`` (``out_k = Σ T[k,i,j] a_i b_j``).
    """

    def __init__(
        self,
        kind: str,
        a: Expr,
        b: Expr,
        tensor: Callable[[Env], Iterator[tuple[int, int, int, Any]]] | None = None,
        out_size: Any = None,
        tex: str | None = None,
    ):
        if a.degree + b.degree > 2:
            raise DegreeError(
                f"product of degree {a.degree} and {b.degree} exceeds two: {text(a)} and {text(b)}"
            )
        self.kind, self.a, self.b, self.tensor, self.tex = kind, a, b, tensor, tex
        self.degree = a.degree + b.degree
        if kind == "hadamard":
            if not same_size(a.size, b.size):
                raise DimensionError(f"Hadamard product of sizes {a.size} and {b.size}")
            self.size = a.size
        elif kind == "dot":
            if not same_size(a.size, b.size):
                raise DimensionError(f"inner product of sizes {a.size} and {b.size}")
            self.size = sp.Integer(1)
        elif kind == "gate":
            if not same_size(a.size, 1):
                raise DimensionError(f"a gate needs a scalar first factor, got size {a.size}")
            self.size = b.size
        elif kind == "outer":
            self.size = sp.expand(a.size * b.size)
        elif kind == "tensor":
            if tensor is None or out_size is None:
                raise DimensionError("a tensor bilinear map needs tensor= and out_size=")
            self.size = sp.sympify(out_size)
        else:
            raise ValueError(f"unknown bilinear kind {kind!r}")

    def compile(self, ctx: CompileCtx) -> VecPoly:
        pa, pb = self.a.compile(ctx), self.b.compile(ctx)
        out: VecPoly = {}
        for r, x, y, c in self._products(ctx, pa, pb):
            if x and y:
                _add_into(out.setdefault(r, {}), _mul_rows(x, y), c)
        return {r: row for r, row in out.items() if row}

    def _products(self, ctx: CompileCtx, pa: VecPoly, pb: VecPoly) -> Iterator[tuple[int, RowPoly, RowPoly, Scalar]]:
        """``(output row, row of a, row of b, coefficient)`` for every product of coordinates this map forms."""
        if self.kind == "hadamard":
            yield from ((r, pa[r], pb.get(r, {}), 1) for r in pa)
        elif self.kind == "dot":
            yield from ((0, pa[r], pb.get(r, {}), 1) for r in pa)
        elif self.kind == "gate":
            yield from ((r, pa.get(0, {}), pb[r], 1) for r in pb)
        elif self.kind == "outer":
            nb = size_value(self.b.size, ctx.env)
            yield from ((i * nb + j, pa[i], pb[j], 1) for i in pa for j in pb)
        else:
            assert self.tensor is not None
            yield from ((k, pa.get(i, {}), pb.get(j, {}), ctx.coeff(c)) for k, i, j, c in self.tensor(ctx.env))

    def latex(self) -> str:
        def par(e: Expr) -> str:
            s = e.latex()
            return f"\\left({s}\\right)" if isinstance(e, Sum) else s

        a, b = par(self.a), par(self.b)
        if self.kind == "hadamard":
            return f"{a} \\odot {b}"
        if self.kind == "dot":
            return f"{a}^\\top {b}"
        if self.kind == "gate":
            return f"{a}\\,{b}"
        if self.kind == "outer":
            return f"\\operatorname{{vec}}\\left({a}\\,{b}^\\top\\right)"
        return f"{self.tex or 'T'}\\left({a}, {b}\\right)"

    def blocks(self) -> set[tuple[Any, str]]:
        return self.a.blocks() | self.b.blocks()


# -- public constructors (the vocabulary constructions use) -----------------------------------
def ones(k: Any) -> Expr:
    """The constant ``1_k``."""
    return Const(Ones(k, 1))


def const(value: Any, k: Any = 1) -> Expr:
    """The constant ``value · 1_k`` (``value`` may involve ``λ``)."""
    return Const(Ones(k, 1), value)


def unit(k: Any, i: Any) -> Expr:
    """The constant basis vector ``e_i`` in dimension ``k``."""
    return Const(UnitVector(k, i))


def zeros(k: Any) -> Expr:
    """The constant ``0_k``."""
    return Const(Ones(k, 1), 0)


def hadamard(a: Any, b: Any) -> Expr:
    """``a ⊙ b``."""
    a, b = as_expr(a), as_expr(b)
    return Bilinear("hadamard", a, b)


def dot(a: Any, b: Any) -> Expr:
    """``aᵀ b`` (a scalar)."""
    return Bilinear("dot", as_expr(a), as_expr(b))


def gate(s: Any, v: Any) -> Expr:
    """``s · v`` for a scalar expression ``s`` (degree two when both depend on the input)."""
    s, v = as_expr(s), as_expr(v)
    if not same_size(s.size, 1) and same_size(v.size, 1):
        s, v = v, s
    if s.degree == 0 or v.degree == 0:  # a constant factor: keep it linear
        if s.degree == 0 and isinstance(s, Const) and isinstance(s.m, Ones):
            return Scale(s.c, v)
    return Bilinear("gate", s, v)


def outer(a: Any, b: Any) -> Expr:
    """``vec(a bᵀ)``: row ``i·|b| + j`` holds ``a_i b_j``."""
    return Bilinear("outer", as_expr(a), as_expr(b))


def bilinear(
    a: Any,
    b: Any,
    out_size: Any,
    tensor: Callable[[Env], Iterator[tuple[int, int, int, Any]]],
    tex: str,
) -> Expr:
    """General bilinear map ``out_k = Σ T[k, i, j] a_i b_j``; ``tensor(env)`` yields ``(k, i, j, T)``."""
    return Bilinear("tensor", as_expr(a), as_expr(b), tensor=tensor, out_size=out_size, tex=tex)


def bcast(s: Expr, k: Any) -> Expr:
    """Broadcast a scalar expression to ``k`` coordinates (``s · 1_k``)."""
    if not same_size(s.size, 1):
        raise DimensionError(f"only a scalar can be broadcast, got size {s.size}")
    return MatApply(Ones(k, 1), s)


def copy_of(e: Expr) -> Expr:
    """``I e``: the identity applied to ``e`` (to state a copy explicitly)."""
    return MatApply(Identity(e.size), e)


_TEX_SUB = {"flg1": "flg_1", "flg2": "flg_2", "flg3": "flg_3", "flg4": "flg_4"}


def _tex_name(name: str) -> str:
    if name in _TEX_SUB:
        return _TEX_SUB[name]
    if "." in name:
        head, tail = name.split(".", 1)
        return f"{_tex_name(tail)}^{{({head})}}"
    return name.replace("_", "\\_")
