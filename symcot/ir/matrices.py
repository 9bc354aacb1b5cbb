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
from symcot.ir.symbols import Env, same_size, size_value

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

    def __add__(self, other: Mat) -> Mat:
        return MatSum(self, other)

    def __sub__(self, other: Mat) -> Mat:
        return MatSum(self, -other)

    def __matmul__(self, other: Any) -> Any:
        # ``M @ expr`` is :meth:`symcot.ir.expr.Expr.__rmatmul__` (matrices know nothing of expressions)
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
        self.rows = self.cols = sp.sympify(k)

    def entries(self, env: Env) -> Entries:
        k = size_value(self.rows, env)
        return {(i, i): sp.Integer(1) for i in range(k)}

    def latex(self) -> str:
        return f"I_{{{_latex_size(self.rows)}}}"


class Zero(Mat):
    """``0_{r x c}``."""

    def __init__(self, rows: Any, cols: Any):
        self.rows, self.cols = sp.sympify(rows), sp.sympify(cols)

    def entries(self, env: Env) -> Entries:
        return {}

    def latex(self) -> str:
        return f"\\mathbf{{0}}_{{{_latex_size(self.rows)}\\times {_latex_size(self.cols)}}}"


class Ones(Mat):
    """The all-ones matrix ``J_{r x c}`` (a column ``1_r`` when ``c = 1``, a row ``1_c^T`` when ``r = 1``)."""

    def __init__(self, rows: Any, cols: Any = 1):
        self.rows, self.cols = sp.sympify(rows), sp.sympify(cols)

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
        self.rows = sp.sympify(size)
        self.cols = self.rows if cols is None else sp.sympify(cols)
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
        self.rows, self.cols = sp.sympify(rows), sp.Integer(1)
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
        self.rows, self.cols = sp.sympify(k), sp.Integer(1)
        self.i = sp.sympify(i)

    def entries(self, env: Env) -> Entries:
        k, i = size_value(self.rows, env), size_value(self.i, env)
        if i >= k:
            raise DimensionError(f"unit vector e_{i} does not exist in dimension {k}")
        return {(i, 0): sp.Integer(1)}

    def latex(self) -> str:
        return f"e_{{{_latex_size(self.i)}}}"


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
        self.rows, self.cols = sp.sympify(rows), sp.sympify(cols)
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


class Scaled(Mat):
    """``c M`` for a scalar ``c`` (a number or an expression in ``λ``)."""

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
