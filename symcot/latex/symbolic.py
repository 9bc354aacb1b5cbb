r"""A map as a block matrix over its named blocks, split into column groups when the page is too narrow.

Rows are the output blocks, columns the input blocks the map reads (and ``1`` for constants); each
cell is the structured matrix from that input block to that output block (``I_{n}``, ``-\mathbf{1}_{n}``,
``S_{n}``). The map's name sits in the corner. A matrix wider than the page is printed as several
arrays, each with every row and a group of columns (``W_2^{(3)}`` columns 1--6 of 20); one taller
than a page is split by rows the same way. Degree-2 terms are listed under it as the construction
states them.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from symcot.ir.expr import _tex_name
from symcot.ir.maps import Map
from symcot.latex.decompose import decompose, simplify_latex
from symcot.latex.page import COLSEP, Page
from symcot.latex.text import math_width, prose


def tex_map_name(name: str) -> str:
    """A map name as math: ``Q_read^{(1)}`` → ``Q_{read}^{(1)}`` (multi-letter subscripts braced)."""
    import re

    m = re.match(r"^([A-Za-z]+)_([A-Za-z0-9]{2,})(.*)$", name)
    return f"{m.group(1)}_{{{m.group(2)}}}{m.group(3)}" if m else name


def tex_size(e: Any) -> str:
    r"""A block size in LaTeX (``n``, ``\frac{n}{2} + 1``)."""
    return sp.latex(sp.sympify(e))


def join_terms(terms: list[str]) -> str:
    """``a + b - c`` from LaTeX terms (a term starting with ``-`` is subtracted, not added)."""
    out = ""
    for t in terms:
        t = t.strip()
        if not out:
            out = t
        elif t.startswith("-"):
            out += " - " + t[1:].lstrip()
        else:
            out += " + " + t
    return out or "0"


def split_columns(widths: list[float], fixed: float, budget: float) -> list[list[int]]:
    """Consecutive groups of column indices whose widths plus ``fixed`` fit in ``budget`` (at least one each)."""
    groups: list[list[int]] = [[]]
    used = fixed
    for j, w in enumerate(widths):
        if groups[-1] and used + w > budget:
            groups.append([])
            used = fixed
        groups[-1].append(j)
        used += w
    return [g for g in groups if g] or [[]]


def block_array(corner: str, head: list[str], sub: list[str], labels: list[str], cells: list[list[str]],
                page: Page) -> list[str]:
    r"""``array``\ s with a corner, one or two header rows and labelled rows; split to fit ``page``.

    Returns one ``\[ … \]`` display per piece (column groups × row groups).
    """
    ncol = len(head)
    col_w = [max([math_width(head[j]), math_width(sub[j]) * 0.7 if sub else 0.0]
                 + [math_width(r[j]) for r in cells]) + COLSEP for j in range(ncol)]
    label_w = max([math_width(corner) + 20.0] + [math_width(x) for x in labels]) + COLSEP + 1.0
    groups = split_columns(col_w, label_w, page.width)
    row_groups = [list(range(k, min(k + page.rows - 3, len(labels)))) for k in range(0, len(labels), page.rows - 3)]
    pieces = []
    total = len(groups) * len(row_groups)
    for cols in groups:
        for rows in row_groups:
            tag = ""
            if total > 1:
                parts = []
                if len(groups) > 1:
                    parts.append(f"\\text{{cols {cols[0] + 1}--{cols[-1] + 1} of {ncol}}}" if len(cols) > 1 else
                                 f"\\text{{col {cols[0] + 1} of {ncol}}}")
                if len(row_groups) > 1:
                    parts.append(f"\\text{{rows {rows[0] + 1}--{rows[-1] + 1}}}")
                tag = "\\\\[-2pt] \\scriptstyle " + ",\\ ".join(parts)
            lines = ["\\[", f"\\begin{{array}}{{l|{'c' * len(cols)}}}"]
            corner_cell = f"\\begin{{array}}{{@{{}}l@{{}}}}{corner}{tag}\\end{{array}}" if tag else corner
            lines.append(" & ".join([corner_cell] + [head[j] for j in cols]) + r" \\"
                         + ("" if sub else r" \hline"))
            if sub:
                lines.append(" & ".join([""] + [f"\\scriptstyle {sub[j]}" if sub[j] else "" for j in cols])
                             + r" \\ \hline")
            lines += [" & ".join([labels[i]] + [cells[i][j] for j in cols]) + r" \\" for i in rows]
            lines += ["\\end{array}", "\\]"]
            pieces.append("\n".join(lines))
    return pieces


def map_symbolic(mp: Map, page: Page | None = None, fragment: bool = False) -> str:
    """One map as a block matrix over named blocks (split to fit the page), plus its bilinear terms.

    ``fragment``: only the matrices and terms (no heading, no prose), for pasting into a paper.
    """
    page = page or Page()
    parts = {b: decompose(e) for b, e in mp.exprs.items()}
    used = [b for b in mp.src.names if any(b in p.linear for p in parts.values())]
    has_const = any(p.consts for p in parts.values())
    head = [f"\\pi_{{{_tex_name(b)}}}" for b in used] + (["1"] if has_const else [])
    sub = [f"({tex_size(mp.src.size(b))})" for b in used] + ([""] if has_const else [])
    labels, cells = [], []
    for b in mp.dst.names:
        labels.append(f"{_tex_name(b)}\\,({tex_size(mp.dst.size(b))})")
        p = parts.get(b)
        row = []
        for c in used:
            row.append(simplify_latex(p.linear[c]) if p is not None and c in p.linear else "0")
        if has_const:
            row.append(join_terms([x.latex() for x in p.consts]) if p is not None and p.consts else "0")
        cells.append(row)
    name = tex_map_name(mp.name)
    lines = [] if fragment else [f"\\paragraph{{${name}$}} {prose(mp.doc)}".rstrip()]
    if head:
        lines += block_array(name, head, sub, labels, cells, page)
    quads = [(b, q) for b, p in parts.items() for q in p.quads]
    if not fragment and not head:
        lines.append("No linear part." + (" Bilinear terms:" if quads else ""))
    if quads:
        if not fragment and head:
            lines.append("Bilinear terms (added to the rows above):")
        lines.append("\\begin{align*}")
        lines += [f"  \\pi'_{{{_tex_name(b)}}} &\\mathrel{{+}}= {q.latex()} \\\\" for b, q in quads]
        lines.append("\\end{align*}")
    return "\n".join(lines)
