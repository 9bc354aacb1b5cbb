"""Structured matrices with symbolic sizes: ``I_n``, ``0``, ``J`` (all ones), shifts, index-defined.

A :class:`Mat` knows its symbolic shape, its sparse entries at concrete sizes (exact SymPy numbers, or
expressions in ``λ``), and how to print itself in LaTeX. Constructions apply them to blocks; nothing here
knows about constructions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import sympy as sp

from symcot.errors import DimensionError
from symcot.ir.symbols import Env, same_size, size_expr, size_value

Entries = dict[tuple[int, int], sp.Expr]


def _latex_size(e: sp.Expr) -> str:
    return sp.latex(sp.sympify(e))


class Mat:
    """A matrix of symbolic shape ``rows x cols``."""

    rows: sp.Expr
    cols: sp.Expr

    def entries(self, env: Env) -> Entries:
        """Non-zero entries at concrete sizes, ``{(i, j): value}``."""
        raise NotImplementedError

    def latex(self) -> str:
        """LaTeX of the matrix in symbolic form."""
        raise NotImplementedError

    # -- algebra ------------------------------------------------------------------------------
    def __neg__(self) -> Mat:
        return Scaled(sp.Integer(-1), self)

    def __mul__(self, c: Any) -> Mat:
        return Scaled(sp.sympify(c), self)

    __rmul__ = __mul__

    def __rmatmul__(self, other: Any) -> Any:
        m = as_mat(other)
        return MatProduct(m, self) if m is not None else NotImplemented

    def __add__(self, other: Mat) -> Mat:
        return MatSum(self, as_mat(other) or other)

    def __radd__(self, other: Any) -> Mat:
        m = as_mat(other)
        return MatSum(m, self) if m is not None else NotImplemented

    def __sub__(self, other: Mat) -> Mat:
        return MatSum(self, -(as_mat(other) or other))

    __array_ufunc__ = None  # numpy defers to these operators (np.eye(3) @ M)

    def __matmul__(self, other: Any) -> Any:
        # ``M @ expr`` is :meth:`symcot.ir.expr.Expr.__rmatmul__` (matrices know nothing of expressions)
        other = as_mat(other) or other
        if isinstance(other, Mat):
            return MatProduct(self, other)
        return NotImplemented

    @property
    def T(self) -> Mat:  # noqa: N802 - the usual transpose name
        """Transpose."""
        return Transposed(self)

    def dense(self, env: Env) -> sp.Matrix:
        """Explicit SymPy matrix at concrete sizes."""
        r, c = size_value(self.rows, env), size_value(self.cols, env)
        out = sp.zeros(r, c)
        for (i, j), v in self.entries(env).items():
            out[i, j] = v
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}<{self.rows}x{self.cols}>"


class Identity(Mat):
    """``I_k``."""

    def __init__(self, k: Any):
        self.rows = self.cols = size_expr(k)

    def entries(self, env: Env) -> Entries:
        k = size_value(self.rows, env)
        return {(i, i): sp.Integer(1) for i in range(k)}

    def latex(self) -> str:
        return f"I_{{{_latex_size(self.rows)}}}"


class Zero(Mat):
    """``0_{r x c}``."""

    def __init__(self, rows: Any, cols: Any):
        self.rows, self.cols = size_expr(rows), size_expr(cols)

    def entries(self, env: Env) -> Entries:
        return {}

    def latex(self) -> str:
        return f"\\mathbf{{0}}_{{{_latex_size(self.rows)}\\times {_latex_size(self.cols)}}}"


class Ones(Mat):
    """The all-ones matrix ``J_{r x c}`` (a column ``1_r`` when ``c = 1``, a row ``1_c^T`` when ``r = 1``)."""

    def __init__(self, rows: Any, cols: Any = 1):
        self.rows, self.cols = size_expr(rows), size_expr(cols)

    def entries(self, env: Env) -> Entries:
        r, c = size_value(self.rows, env), size_value(self.cols, env)
        return {(i, j): sp.Integer(1) for i in range(r) for j in range(c)}

    def latex(self) -> str:
        if self.cols == 1:
            return f"\\mathbf{{1}}_{{{_latex_size(self.rows)}}}"
        if self.rows == 1:
            return f"\\mathbf{{1}}_{{{_latex_size(self.cols)}}}^\\top"
        return f"J_{{{_latex_size(self.rows)}\\times {_latex_size(self.cols)}}}"


class Shift(Mat):
    """Shift ``S`` with ``S e_j = e_{j+k}`` (zero when ``j+k`` falls outside); ``k=1`` is the paper's ``S``.

    Square by default; ``cols`` makes it ``size x cols``: the embedding of ``cols`` coordinates into
    ``size`` starting at ``k`` (lem:addonetospecificheight routes pulse ``k`` to ``p_{k+1}`` that way).
    """

    def __init__(self, size: Any, k: int = 1, name: str = "S", cols: Any = None):
        self.rows = size_expr(size)
        self.cols = self.rows if cols is None else size_expr(cols)
        self.k = k
        self.name = name

    def entries(self, env: Env) -> Entries:
        r, c = size_value(self.rows, env), size_value(self.cols, env)
        return {(j + self.k, j): sp.Integer(1) for j in range(c) if 0 <= j + self.k < r}

    def latex(self) -> str:
        name = f"{{{self.name}}}" if "_" in self.name or "^" in self.name else self.name  # S_R: no double subscript
        if self.cols == self.rows:
            return f"{name}_{{{_latex_size(self.rows)}}}"
        return f"{name}_{{{_latex_size(self.rows)}\\times {_latex_size(self.cols)}}}"


class Ramp(Mat):
    """The column ``(start, start + step, start + 2 step, …)`` of length ``rows``: entry ``i`` is ``start + step·i``.

    ``start`` and ``step`` are exact constants (numbers or expressions in ``λ``); ``tex`` is the symbol
    printed in LaTeX. lem:addonetospecificheight's pulse rows ``h - (k - 1 + s)m`` have such a column on ``m``.
    """

    def __init__(self, rows: Any, start: Any, step: Any, tex: str):
        self.rows, self.cols = size_expr(rows), sp.Integer(1)
        self.start, self.step, self.tex = sp.sympify(start), sp.sympify(step), tex

    def entries(self, env: Env) -> Entries:
        r = size_value(self.rows, env)
        out: Entries = {}
        for i in range(r):
            v = self.start + self.step * i
            if v != 0:
                out[(i, 0)] = v
        return out

    def latex(self) -> str:
        return self.tex


class UnitVector(Mat):
    """Column ``e_i`` of length ``k`` (``i`` may be an expression in the size symbols)."""

    def __init__(self, k: Any, i: Any):
        self.rows, self.cols = size_expr(k), sp.Integer(1)
        self.i = size_expr(i)

    def entries(self, env: Env) -> Entries:
        k, i = size_value(self.rows, env), size_value(self.i, env)
        if i >= k:
            raise DimensionError(f"unit vector e_{i} does not exist in dimension {k}")
        return {(i, 0): sp.Integer(1)}

    def latex(self) -> str:
        return f"e_{{{_latex_size(self.i)}}}"


class Commutation(Mat):
    """The commutation matrix ``K_k`` of size ``k² × k²``: ``K vec(X) = vec(Xᵀ)``, row ``a·k + b`` reads ``b·k + a``.

    The ``vec`` order is row-major (index ``a·k + b`` holds ``X[a, b]``); ``tex`` is the symbol printed in LaTeX.
    """

    def __init__(self, k: Any, tex: str = "K"):
        self.k = sp.sympify(k)
        self.rows = self.cols = sp.expand(self.k**2)
        self.tex = tex

    def entries(self, env: Env) -> Entries:
        k = size_value(self.k, env)
        return {(a * k + b, b * k + a): sp.Integer(1) for a in range(k) for b in range(k)}

    def latex(self) -> str:
        return self.tex


class IndexMatrix(Mat):
    """A matrix defined entry-wise by a function of the indices (and the concrete sizes).

    ``fn(i, j, env)`` returns the entry (0 for none); ``nonzeros(env)`` may list candidate ``(i, j)``
    to avoid a full scan. ``tex`` is the symbol printed in LaTeX (define it in the construction's docs).
    """

    def __init__(
        self,
        rows: Any,
        cols: Any,
        fn: Callable[[int, int, Env], Any],
        tex: str,
        nonzeros: Callable[[Env], Iterator[tuple[int, int]]] | None = None,
    ):
        self.rows, self.cols = size_expr(rows), size_expr(cols)
        self.fn, self.tex, self.nonzeros = fn, tex, nonzeros

    def entries(self, env: Env) -> Entries:
        r, c = size_value(self.rows, env), size_value(self.cols, env)
        cand = self.nonzeros(env) if self.nonzeros else ((i, j) for i in range(r) for j in range(c))
        out: Entries = {}
        for i, j in cand:
            if not (0 <= i < r and 0 <= j < c):
                raise DimensionError(f"{self.tex}: entry ({i}, {j}) outside {r}x{c}")
            v = sp.sympify(self.fn(i, j, env))
            if v != 0:
                out[(i, j)] = v
        return out

    def latex(self) -> str:
        return self.tex


class Explicit(Mat):
    """A matrix given by its entries: a SymPy ``Matrix`` or a numpy integer array (``sp.eye(3) @ x.pos``).

    Entries must be exact (integers, rationals, SymPy expressions such as ``λ``); floats are refused.
    """

    def __init__(self, values: Any, name: str | None = None):
        rows = _rows_of(values)
        if not rows or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
            raise DimensionError(f"an explicit matrix needs equal, non-empty rows; got shape {_shape(values)}")
        self.rows, self.cols = sp.Integer(len(rows)), sp.Integer(len(rows[0]))
        self.values = [[_exact_entry(v) for v in r] for r in rows]
        self.name = name

    def entries(self, env: Env) -> Entries:
        return {(i, j): v for i, r in enumerate(self.values) for j, v in enumerate(r) if v != 0}

    def latex(self) -> str:
        if self.name:
            return self.name
        body = r" \\ ".join(" & ".join(sp.latex(v) for v in r) for r in self.values)
        return f"\\left[\\begin{{smallmatrix}}{body}\\end{{smallmatrix}}\\right]"


def _shape(values: Any) -> str:
    shape = getattr(values, "shape", None)
    return "x".join(map(str, shape)) if shape is not None else type(values).__name__


def _rows_of(values: Any) -> list[list[Any]]:
    """Rows of a SymPy matrix, a 2-D numpy array, or a list of lists."""
    if isinstance(values, sp.MatrixBase):
        return [list(values.row(i)) for i in range(values.rows)]
    if hasattr(values, "tolist") and hasattr(values, "dtype"):  # numpy
        if values.dtype.kind == "f" or values.dtype.kind == "c":
            raise TypeError(f"a float matrix ({values.dtype}) in a construction; symcot is exact: use an integer "
                            "array or a SymPy Matrix of Rationals")
        if values.ndim != 2:
            raise DimensionError(f"an explicit matrix must be 2-D, got shape {values.shape}")
        return [list(r) for r in values.tolist()]
    return [list(r) for r in values]


def _exact_entry(v: Any) -> sp.Expr:
    import operator

    if isinstance(v, float) or (hasattr(v, "dtype") and getattr(v.dtype, "kind", "") == "f"):
        raise TypeError(f"float {v!r} in a matrix; symcot is exact: use int, Fraction or a SymPy Rational")
    if hasattr(v, "dtype") and not isinstance(v, sp.Basic):
        return sp.Integer(operator.index(v))
    e = sp.sympify(v)
    if e.atoms(sp.Float):
        raise TypeError(f"float in the entry {e}; use int, Fraction or a SymPy Rational")
    return e


def as_mat(value: Any) -> Mat | None:
    """``value`` as a :class:`Mat` when it is one, a SymPy matrix or a 2-D numpy array; else ``None``."""
    if isinstance(value, Mat):
        return value
    if isinstance(value, sp.MatrixBase) or (hasattr(value, "dtype") and getattr(value, "ndim", 0) == 2):
        return Explicit(value)
    return None


class Scaled(Mat):
    """``c M`` for a scalar ``c`` (a number or an expression in ``λ``)."""

    c: sp.Expr
    m: Mat

    def __init__(self, c: sp.Expr, m: Mat):
        if isinstance(m, Scaled):
            c, m = c * m.c, m.m
        self.c, self.m = sp.sympify(c), m
        self.rows, self.cols = m.rows, m.cols

    def entries(self, env: Env) -> Entries:
        if self.c == 0:
            return {}
        return {k: self.c * v for k, v in self.m.entries(env).items()}

    def latex(self) -> str:
        if self.c == -1:
            return f"-{self.m.latex()}"
        if self.c == 1:
            return self.m.latex()
        return f"{sp.latex(self.c)}\\,{self.m.latex()}"


class MatSum(Mat):
    """``A + B`` (shapes must agree)."""

    def __init__(self, a: Mat, b: Mat):
        if not (same_size(a.rows, b.rows) and same_size(a.cols, b.cols)):
            raise DimensionError(f"cannot add {a.rows}x{a.cols} and {b.rows}x{b.cols} matrices")
        self.a, self.b = a, b
        self.rows, self.cols = a.rows, a.cols

    def entries(self, env: Env) -> Entries:
        out = dict(self.a.entries(env))
        for k, v in self.b.entries(env).items():
            s = out.get(k, 0) + v
            if s == 0:
                out.pop(k, None)
            else:
                out[k] = s
        return out

    def latex(self) -> str:
        bt = self.b.latex()
        return f"{self.a.latex()} {'' if bt.startswith('-') else '+ '}{bt}"


class MatProduct(Mat):
    """``A B`` (inner sizes must agree)."""

    def __init__(self, a: Mat, b: Mat):
        if not same_size(a.cols, b.rows):
            raise DimensionError(f"cannot multiply {a.rows}x{a.cols} by {b.rows}x{b.cols}")
        self.a, self.b = a, b
        self.rows, self.cols = a.rows, b.cols

    def entries(self, env: Env) -> Entries:
        bcols: dict[int, list[tuple[int, sp.Expr]]] = {}
        for (k, j), v in self.b.entries(env).items():
            bcols.setdefault(k, []).append((j, v))
        out: Entries = {}
        for (i, k), va in self.a.entries(env).items():
            for j, vb in bcols.get(k, []):
                out[(i, j)] = out.get((i, j), 0) + va * vb
        return {k: v for k, v in out.items() if v != 0}

    def latex(self) -> str:
        return f"{self.a.latex()}\\,{self.b.latex()}"


class Transposed(Mat):
    """``M^T``."""

    def __init__(self, m: Mat):
        self.m = m
        self.rows, self.cols = m.cols, m.rows

    def entries(self, env: Env) -> Entries:
        return {(j, i): v for (i, j), v in self.m.entries(env).items()}

    def latex(self) -> str:
        return f"{self.m.latex()}^\\top"
