"""Maps between layouts, stated by their action on named blocks, and their exact concrete form.

A :class:`Map` assigns an expression (degree ≤ 2, see :mod:`symcot.ir.expr`) to every output block, or
keeps it (identity from the input block of the same name), or zeroes it -- all explicitly, so a block
forgotten in a transcription is an error rather than a silent zero. ``instantiate`` compiles it at
concrete sizes into a :class:`ConcreteMap`: exact sparse constant, linear and quadratic terms, the one
statement every engine (exact replay, symbolic replay, Z3, LaTeX) reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from symcot.errors import DegreeError, DimensionError
from symcot.ir.expr import BlockRef, CompileCtx, Expr, as_expr
from symcot.ir.layout import ConcreteLayout, Layout, V
from symcot.ir.symbols import Env, Scalar, normalize_env, same_size
from symcot.ir.text import text


class Map:
    """A polynomial map of degree ≤ 2 from ``src`` to ``dst``, stated block by block.

    Args:
        name: where the map sits, e.g. ``"W_1^{(2)}"`` (used in traces, LaTeX and errors).
        src: input layout.
        dst: output layout.
        assign: ``{output block: expression in src's blocks}``.
        keep: output blocks copied from the input block of the same name (sizes must agree).
        zero: output blocks set to zero.
        max_degree: 1 for a map the paper calls linear/affine, 2 for bilinear.
        doc: the paper's words or equation this map realises (shown in LaTeX output).

    """

    def __init__(
        self,
        name: str,
        src: Layout,
        dst: Layout,
        assign: dict[str, Any] | None = None,
        keep: Iterable[str] = (),
        zero: Iterable[str] = (),
        max_degree: int = 2,
        doc: str = "",
    ):
        self.name, self.src, self.dst, self.doc = name, src, dst, doc
        self.max_degree = max_degree
        assign = dict(assign or {})
        keep, zero = list(keep), list(zero)
        seen: dict[str, str] = {}
        for kind, names in (("assign", list(assign)), ("keep", keep), ("zero", zero)):
            for b in names:
                dst.block(b)
                if b in seen:
                    raise DimensionError(f"{name}: output block {b!r} is both in {seen[b]} and {kind}")
                seen[b] = kind
        missing = [b for b in dst.names if b not in seen]
        if missing:
            raise DimensionError(
                f"{name}: output block(s) {missing} not stated; assign, keep or zero every block of {dst.name!r}"
            )
        exprs: dict[str, Expr] = {}
        for b, e in assign.items():
            ex = as_expr(e, dst.size(b))
            self._check(b, ex)
            exprs[b] = ex
        for b in keep:
            src.block(b)
            ex = BlockRef(src, b)
            self._check(b, ex)
            exprs[b] = ex
        self.exprs = exprs
        self.kept = tuple(keep)
        self.zeroed = tuple(zero)

    def _check(self, block: str, e: Expr) -> None:
        want = self.dst.size(block)
        if not same_size(e.size, want):
            raise DimensionError(
                f"{self.name}: block {block!r} has size {want} but is assigned an expression of size "
                f"{e.size}: {text(e)}"
            )
        if e.degree > self.max_degree:
            raise DegreeError(f"{self.name}: block {block!r} has degree {e.degree} > {self.max_degree}")
        for lay, b in e.blocks():
            if lay is not self.src and not (lay.names == self.src.names and lay.name == self.src.name):
                raise DimensionError(
                    f"{self.name}: block {block!r} reads {b!r} of layout {lay.name!r}, "
                    f"but the map's input layout is {self.src.name!r}"
                )

    @property
    def degree(self) -> int:
        """Largest degree among the output blocks."""
        return max((e.degree for e in self.exprs.values()), default=0)

    def instantiate(self, env: Env, subs: dict[sp.Symbol, Any] | None = None) -> ConcreteMap:
        """Compile at concrete sizes; ``subs`` gives constants such as ``{lam: 10}`` (omit to keep λ)."""
        env, subs = normalize_env(env), normalize_env(subs)
        cin, cout = ConcreteLayout(self.src, env), ConcreteLayout(self.dst, env)
        ctx = CompileCtx(cin.offsets, cin.sizes, dict(env), dict(subs or {}))
        const: list[tuple[int, Scalar]] = []
        lin: list[tuple[int, int, Scalar]] = []
        quad: list[tuple[int, int, int, Scalar]] = []
        for b, e in self.exprs.items():
            o = cout.offsets[b]
            for r, row in sorted(e.compile(ctx).items()):
                for mono, c in sorted(row.items()):
                    if c == 0:
                        continue
                    if len(mono) == 0:
                        const.append((o + r, c))
                    elif len(mono) == 1:
                        lin.append((o + r, mono[0], c))
                    else:
                        quad.append((o + r, mono[0], mono[1], c))
        return ConcreteMap(self.name, cin, cout, const, lin, quad)

    def __repr__(self) -> str:
        return f"Map({self.name}: {self.src.name} -> {self.dst.name}, degree {self.degree})"


@dataclass
class ConcreteMap:
    """A map at concrete sizes: ``out[o] = Σ const + Σ c·x[i] + Σ c·x[i]·x[j]`` with exact coefficients.

    Calling it evaluates with whatever arithmetic the inputs carry (``int``/``Fraction`` for exact
    replay, SymPy or Z3 terms for symbolic engines); no floats are introduced.
    """

    name: str
    src: ConcreteLayout
    dst: ConcreteLayout
    const: list[tuple[int, Scalar]]
    lin: list[tuple[int, int, Scalar]]
    quad: list[tuple[int, int, int, Scalar]]
    _fn: Any = field(default=None, repr=False)

    @property
    def d_in(self) -> int:
        """Input dimension."""
        return self.src.dim

    @property
    def d_out(self) -> int:
        """Output dimension."""
        return self.dst.dim

    def __call__(self, x: Sequence[V]) -> list[V]:
        if len(x) != self.d_in:
            raise DimensionError(f"{self.name}: input of length {len(x)}, expected {self.d_in}")
        if self._fn is None:
            self._fn = _compile_python(self)
        return self._fn(x)

    def coefficient(self, out: int, *ins: int) -> Scalar:
        """The coefficient of monomial ``ins`` (``()``, ``(i,)`` or ``(i, j)``) in output ``out``."""
        ins = tuple(sorted(ins))
        total: Scalar = 0
        if len(ins) == 0:
            total = sum((c for o, c in self.const if o == out), 0)
        elif len(ins) == 1:
            total = sum((c for o, i, c in self.lin if o == out and i == ins[0]), 0)
        else:
            total = sum((c for o, i, j, c in self.quad if o == out and (i, j) == ins), 0)
        return total

    def with_coefficient(self, out: int, ins: tuple[int, ...], value: Scalar) -> ConcreteMap:
        """A copy with one coefficient replaced (for mutation tests of checkers)."""
        ins = tuple(sorted(ins))
        const = [(o, c) for o, c in self.const if not (len(ins) == 0 and o == out)]
        lin = [(o, i, c) for o, i, c in self.lin if not (len(ins) == 1 and (o, i) == (out, ins[0]))]
        quad = [(o, i, j, c) for o, i, j, c in self.quad if not (len(ins) == 2 and (o, i, j) == (out, *ins))]
        if value != 0:
            if len(ins) == 0:
                const.append((out, value))
            elif len(ins) == 1:
                lin.append((out, ins[0], value))
            elif len(ins) == 2:
                quad.append((out, ins[0], ins[1], value))
            else:
                raise DegreeError("a monomial has at most two factors")
        return ConcreteMap(self.name + "*", self.src, self.dst, const, lin, quad)

    def is_linear(self) -> bool:
        """No quadratic terms."""
        return not self.quad

    def dense(self) -> tuple[list[Scalar], list[list[Scalar]], dict[int, list[list[Scalar]]]]:
        """Explicit ``(b, W, Q)``: bias, linear matrix and quadratic forms.

        ``Q[o]`` (only for outputs with quadratic terms) is upper-triangular with
        ``out[o] += Σ_{i≤j} Q[o][i][j] x_i x_j``.
        """
        b: list[Scalar] = [0] * self.d_out
        w: list[list[Scalar]] = [[0] * self.d_in for _ in range(self.d_out)]
        q: dict[int, list[list[Scalar]]] = {}
        for o, c in self.const:
            b[o] += c
        for o, i, c in self.lin:
            w[o][i] += c
        for o, i, j, c in self.quad:
            q.setdefault(o, [[0] * self.d_in for _ in range(self.d_in)])[i][j] += c
        return b, w, q


def _literal(c: Scalar, consts: list[Any]) -> str:
    if isinstance(c, int):
        return repr(c)
    consts.append(c)
    return f"_C[{len(consts) - 1}]"


def _compile_python(m: ConcreteMap) -> Any:
    """Straight-line Python for the polynomial (fast exact evaluation; any arithmetic type works)."""
    rows: dict[int, list[str]] = {}
    consts: list[Any] = []
    for o, c in m.const:
        rows.setdefault(o, []).append(_literal(c, consts))
    for o, i, c in m.lin:
        lit = _literal(c, consts)
        rows.setdefault(o, []).append(f"x[{i}]" if lit == "1" else f"{lit}*x[{i}]")
    for o, i, j, c in m.quad:
        lit = _literal(c, consts)
        rows.setdefault(o, []).append(f"x[{i}]*x[{j}]" if lit == "1" else f"{lit}*x[{i}]*x[{j}]")
    body = ", ".join(" + ".join(rows[o]) if o in rows else "0" for o in range(m.d_out))
    src = f"def _f(x):\n    return [{body}]\n"
    ns: dict[str, Any] = {"_C": consts, "Fraction": Fraction}
    exec(compile(src, f"<symcot map {m.name}>", "exec"), ns)  # noqa: S102 - generated from our own terms
    return ns["_f"]
