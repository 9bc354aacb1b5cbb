r"""A concrete map's exact weights: the whole matrix when it fits the page, else one labelled piece per block.

When ``W`` (and the bias as a column) fits the page's width and height, it is printed whole as a
``bmatrix``. Otherwise it is printed by blocks, labelled ``W[\pi'_{out}, \pi_{in}]``: the blocks that
are a multiple of the identity in one line, every other non-zero block as its own small matrix (so a
long map breaks across pages between blocks). A single block too large for the page is refused with a
message suggesting ``--symbolic`` (or ``--landscape`` when it would fit there). Quadratic terms are
written as polynomials in named coordinates, with their signs, broken over lines to fit.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from symcot.ir.expr import _tex_name
from symcot.ir.maps import ConcreteMap
from symcot.latex.page import COLSEP, Page, TooLargeError
from symcot.latex.symbolic import join_terms, tex_map_name
from symcot.latex.text import math_width

#: Width (points) of the brackets of a ``bmatrix`` and the ``W = `` before it.
BRACKETS = 12.0


def tex_scalar(v: Any) -> str:
    r"""An exact scalar in LaTeX (``\\frac{p}{q}`` for rationals)."""
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        sign = "-" if v < 0 else ""
        return f"{sign}\\frac{{{abs(v.numerator)}}}{{{v.denominator}}}"
    if isinstance(v, int):
        return str(v)
    return sp.latex(sp.sympify(v))


def bmatrix(rows: list[list[Any]]) -> str:
    r"""``\\begin{bmatrix} … \\end{bmatrix}`` of exact entries."""
    inner = " \\\\\n".join(" & ".join(tex_scalar(v) for v in r) for r in rows)
    return "\\begin{bmatrix}\n" + inner + "\n\\end{bmatrix}"


def matrix_width(rows: list[list[Any]]) -> float:
    """Estimated width of ``bmatrix(rows)`` in points."""
    if not rows or not rows[0]:
        return BRACKETS
    cols = len(rows[0])
    return sum(max(math_width(tex_scalar(r[j])) for r in rows) + COLSEP for j in range(cols)) + BRACKETS


def _coord(layout: Any, i: int) -> str:
    name = layout.coordinate_name(i)
    if "[" in name:
        b, idx = name[:-1].split("[")
        return f"\\pi_{{{_tex_name(b)}}}[{idx}]"
    return f"\\pi_{{{_tex_name(name)}}}"


def _monomial(c: Any, factors: list[str]) -> str:
    body = "\\,".join(factors)
    if c == 1:
        return body
    if c == -1:
        return "-" + body
    return f"{tex_scalar(c)}\\,{body}"


def _lines(label: str, terms: list[str], budget: float) -> list[str]:
    r"""``label &\mathrel{+}= t_1 + t_2 …`` broken into align rows that fit ``budget``."""
    rows: list[list[str]] = [[]]
    used = math_width(label) + 30.0
    for t in terms:
        w = math_width(t) + 12.0
        if rows[-1] and used + w > budget:
            rows.append([])
            used = math_width(label) + 45.0
        rows[-1].append(t)
        used += w
    out = [f"  {label} &\\mathrel{{+}}= {join_terms(rows[0])}"]
    for r in rows[1:]:
        body = join_terms(r)
        out.append(f"  &\\qquad {'' if body.startswith('-') else '+ '}{body}")
    return out


def quadratic_terms(mp: ConcreteMap, page: Page) -> list[str]:
    """The degree-2 terms of ``mp`` per output coordinate, as ``align*`` rows."""
    by_out: dict[int, list[tuple[int, int, Any]]] = {}
    for o, i, j, c in mp.quad:
        if c != 0:
            by_out.setdefault(o, []).append((i, j, c))
    rows: list[str] = []
    for o in sorted(by_out):
        terms = []
        for i, j, c in sorted(by_out[o]):
            xi, xj = _coord(mp.src, i), _coord(mp.src, j)
            terms.append(_monomial(c, [f"{xi}^2"] if i == j else [xi, xj]))
        rows += _lines(_coord(mp.dst, o), terms, page.width)
    if not rows:
        return []
    return ["\\begin{align*}"] + [r + " \\\\" for r in rows] + ["\\end{align*}"]


def fits(mp: ConcreteMap, page: Page, lhs: str = "W") -> bool:
    """Whether the whole ``W`` (and the bias column) fits the page, ``lhs = `` before it."""
    _, w, _ = mp.dense()
    return mp.d_out <= page.rows - 2 and matrix_width(w) + math_width(lhs) + 25.0 <= page.width


def _block(w: list[list[Any]], rows: slice, cols: slice) -> list[list[Any]]:
    return [r[cols] for r in w[rows]]


def _scaled_identity(m: list[list[Any]]) -> Any | None:
    """``c`` when the square block ``m`` is ``c I`` (``c ≠ 0``), else ``None``."""
    if len(m) != len(m[0]) if m else True:
        return None
    c = m[0][0]
    if c == 0:
        return None
    for i, r in enumerate(m):
        for j, v in enumerate(r):
            if v != (c if i == j else 0):
                return None
    return c


#: A block too large for the page is listed entry by entry when it has at most this many non-zero entries.
SPARSE_LIST = 64


def _entries(label: str, m: list[list[Any]], column: bool = False) -> list[str]:
    """The non-zero entries of ``m`` as inline formulas ``label_{i,j} = v`` (``label_{i}`` for a vector)."""
    out = []
    for i, r in enumerate(m):
        for j, v in enumerate(r):
            if v != 0:
                idx = f"{j}" if column else f"{i},{j}"
                out.append(f"${label}_{{{idx}}} = {tex_scalar(v)}$")
    return out


def _constant_vector(part: list[Any]) -> str | None:
    r"""``c\,\mathbf{1}_{k}`` when every entry of ``part`` is the same non-zero ``c``."""
    c = part[0]
    if c == 0 or any(v != c for v in part):
        return None
    scale = "" if c == 1 else "-" if c == -1 else f"{tex_scalar(c)}\\,"
    return f"{scale}\\mathbf{{1}}_{{{len(part)}}}"


def _by_blocks(mp: ConcreteMap, w: list[list[Any]], b: list[Any], page: Page, what: str, lhs: str = "W",
               bias: str = "b") -> list[str]:
    """``W`` and ``b`` block by block: identities in one line, other non-zero blocks as small matrices.

    A block too large for the page is listed by its non-zero entries when it is sparse (at most
    :data:`SPARSE_LIST` of them), else refused (:class:`TooLargeError`).
    """
    ident: list[str] = []
    listed: list[str] = []
    blocks: list[str] = []
    for ob in mp.dst.names:
        for ib in mp.src.names:
            m = _block(w, mp.dst.slice(ob), mp.src.slice(ib))
            if any(v != 0 for r in m for v in r):
                label = f"{lhs}[\\pi'_{{{_tex_name(ob)}}}, \\pi_{{{_tex_name(ib)}}}]"
                _weight_block(m, label, page, f"{what}: its block from {ib} to {ob}", ident, listed, blocks)
    out = []
    if ident:
        out.append("{\\raggedright Blocks that are multiples of the identity: " + ", ".join(ident) + ".\\par}")
    if listed:
        out.append("{\\raggedright Non-zero entries of the larger sparse blocks (row, column within the block): "
                   + ", ".join(listed) + ".\\par}")
    out += blocks
    for ob in mp.dst.names:
        part = b[mp.dst.slice(ob)]
        if any(v != 0 for v in part):
            out += _bias_block(part, f"{bias}[\\pi'_{{{_tex_name(ob)}}}]", page, f"{what}: the bias of block {ob}")
    return out


def _weight_block(m: list[list[Any]], label: str, page: Page, what: str, ident: list[str], listed: list[str],
                  blocks: list[str]) -> None:
    """One non-zero block: into ``ident`` (a multiple of I), ``blocks`` (a matrix) or ``listed`` (its entries)."""
    c = _scaled_identity(m)
    if c is not None:
        scale = "" if c == 1 else "-" if c == -1 else f"{tex_scalar(c)}\\,"
        ident.append(f"${label} = {scale}I_{{{len(m)}}}$")
        return
    width = matrix_width(m) + math_width(label) + 20.0
    nonzero = sum(1 for r in m for v in r if v != 0)
    if width <= page.width and len(m) <= page.rows - 2:
        blocks += ["\\[", f"{label} = ", bmatrix(m), "\\]"]
    elif nonzero <= SPARSE_LIST:
        listed += _entries(label, m)
    else:
        wider = Page(landscape=True)
        hint = "; --landscape gives it room" if not page.landscape and width <= wider.width and \
            len(m) <= wider.rows - 2 else ""
        raise TooLargeError(f"{what} is {len(m)}x{len(m[0])} with {nonzero} non-zero entries, too large to print "
                            f"readably{hint}; use --symbolic (block matrices) or a smaller --n")


def _bias_block(part: list[Any], label: str, page: Page, what: str) -> list[str]:
    """The bias of one block: a number, ``c 1_k``, a transposed row, or its non-zero entries."""
    const = _constant_vector(part)
    if len(part) == 1:
        return ["\\[", f"{label} = {tex_scalar(part[0])}", "\\]"]
    if const is not None:
        return ["\\[", f"{label} = {const}", "\\]"]
    if matrix_width([part]) + math_width(label) + 30.0 <= page.width:
        return ["\\[", f"{label} = ", bmatrix([part]) + "^{\\top}", "\\]"]
    if sum(1 for v in part if v != 0) <= SPARSE_LIST:
        return ["{\\raggedright " + ", ".join(_entries(label, [part], column=True)) + ", other entries 0.\\par}"]
    raise TooLargeError(f"{what} has {len(part)} entries, too many to print readably; use --symbolic or a "
                        "smaller --n")


def map_explicit(mp: ConcreteMap, page: Page | None = None, fragment: bool = False) -> str:
    """The linear matrix, the bias and the quadratic terms of a concrete map (whole, or by blocks)."""
    page = page or Page()
    b, w, _ = mp.dense()
    name = tex_map_name(mp.name)
    # in a fragment the map's name stands on the left (there is no heading to say which map it is)
    lhs, bias = (name, f"b_{{{name}}}") if fragment else ("W", "b")
    if fragment:
        lines = [f"% {mp.name}: {mp.d_out} x {mp.d_in}"]
    else:
        lines = [f"\\paragraph{{${name}$}} ${mp.d_out}\\times {mp.d_in}$."]
    if fits(mp, page, lhs):
        lines += ["\\[", f"{lhs} = ", bmatrix(w), "\\]"]
        if any(v != 0 for v in b):
            lines += ["\\[", f"{bias} = ", bmatrix([[v] for v in b]), "\\]"]
    else:
        if not fragment:
            lines.append("By blocks (rows: output blocks $\\pi'$, columns: input blocks $\\pi$; blocks not listed "
                         "are zero).")
        lines += _by_blocks(mp, w, b, page, f"map {mp.name}", lhs, bias)
    quad = quadratic_terms(mp, page)
    if quad:
        if not fragment:
            lines.append("Quadratic terms:")
        lines += quad
    return "\n".join(lines)
