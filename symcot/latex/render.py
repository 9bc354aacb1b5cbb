r"""LaTeX of a decoder's weights: symbolic block matrices and explicit matrices at a given ``n``.

Symbolic form: each map is a block matrix whose rows are the output blocks and whose columns are the
input blocks (plus a column for constants), with entries like ``I_{n}``, ``-I_{n}``, ``\\mathbf{1}_{n}``;
bilinear (degree-2) terms are listed under it exactly as the construction states them. Explicit form:
the linear matrix and bias at concrete sizes as ``bmatrix`` (exact rationals), with the quadratic
terms as polynomials in named coordinates. The output is a standalone LaTeX document.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from symcot.ir.expr import _tex_name
from symcot.ir.maps import ConcreteMap, Map
from symcot.latex.decompose import decompose, simplify_latex
from symcot.model.decoder import ConcreteDecoder, Decoder

PREAMBLE = r"""\documentclass{article}
\usepackage[a4paper,landscape,margin=1.5cm]{geometry}
\usepackage{amsmath,amssymb}
\setcounter{MaxMatrixCols}{200}
\begin{document}
"""


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


def tex_map_name(name: str) -> str:
    """A map name as math: ``Q_read^{(1)}`` → ``Q_{read}^{(1)}`` (multi-letter subscripts braced)."""
    import re

    m = re.match(r"^([A-Za-z]+)_([A-Za-z0-9]{2,})(.*)$", name)
    return f"{m.group(1)}_{{{m.group(2)}}}{m.group(3)}" if m else name


def _tex_size(e: Any) -> str:
    return sp.latex(sp.sympify(e))


def map_symbolic(mp: Map) -> str:
    """One map as a block matrix over named blocks, plus its bilinear terms and constants."""
    parts = {b: decompose(e) for b, e in mp.exprs.items()}
    used = [b for b in mp.src.names if any(b in p.linear for p in parts.values())]
    has_const = any(p.consts for p in parts.values())
    cols = used + (["1"] if has_const else [])
    head = " & ".join(
        [""] + [f"\\pi_{{{_tex_name(b)}}}\\,({_tex_size(mp.src.size(b))})" for b in used]
        + (["1"] if has_const else []))
    rows = []
    for b in mp.dst.names:
        label = f"{_tex_name(b)}\\,({_tex_size(mp.dst.size(b))})"
        p = parts.get(b)
        cells = []
        for c in cols:
            if p is None:
                cells.append("0")
            elif c == "1":
                cells.append(" + ".join(x.latex() for x in p.consts) if p.consts else "0")
            else:
                cells.append(simplify_latex(p.linear[c]) if c in p.linear else "0")
        rows.append(" & ".join([label] + cells))
    spec = "l|" + "c" * len(cols)
    lines = [f"\\paragraph{{${tex_map_name(mp.name)}$}} {_escape(mp.doc)}"]
    if cols:
        lines += ["\\[", f"\\begin{{array}}{{{spec}}}", head + r" \\ \hline"]
        lines += [r + r" \\" for r in rows]
        lines += ["\\end{array}", "\\]"]
    else:
        lines.append("(no linear part)")
    quads = [(b, q) for b, p in parts.items() for q in p.quads]
    if quads:
        lines.append("Bilinear terms (added to the rows above):")
        lines.append("\\begin{align*}")
        lines += [f"  \\pi'_{{{_tex_name(b)}}} &\\mathrel{{+}}= {q.latex()} \\\\" for b, q in quads]
        lines.append("\\end{align*}")
    return "\n".join(lines)


_UNICODE = {
    "γ": "$\\gamma$", "π": "$\\pi$", "λ": "$\\lambda$", "α": "$\\alpha$", "β": "$\\beta$", "φ": "$\\phi$",
    "ᵀ": "$^\\top$", "⊙": "$\\odot$", "‖": "$\\|$", "≥": "$\\geq$", "≤": "$\\leq$", "←": "$\\leftarrow$",
    "·": "$\\cdot$", "′": "'", "³": "$^3$", "²": "$^2$", "ⁿ": "$^n$", "∞": "$\\infty$", "−": "-", "⊥": "$\\bot$",
}


def _escape(text: str) -> str:
    """Plain text for LaTeX: special characters escaped, the Unicode symbols of docstrings as math."""
    out = []
    for ch in text:
        if ch in "\\&%#_{}^$~":
            out.append({"\\": "\\textbackslash{}", "^": "\\^{}", "~": "\\~{}"}.get(ch, "\\" + ch))
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif ord(ch) < 128:
            out.append(ch)
        else:
            out.append("?")
    return "".join(out)


def decoder_symbolic(dec: Decoder, title: str | None = None) -> str:
    """Every map of every layer, symbolically, as a standalone document."""
    s = dec.sizes()
    body = [f"\\section*{{{_escape(title or dec.name)}}}",
            f"Layout: ${', '.join(f'{_tex_name(b.name)}: {_tex_size(b.size)}' for b in dec.layout.blocks)}$, "
            f"$d = {_tex_size(s.d)}$; {s.layers} layers; heads per layer: {s.heads}."]
    for k in range(1, len(dec.layers) + 1):
        layer = dec.layers[k - 1]
        body.append(f"\\subsection*{{Layer {k}}}")
        if layer.attention is None:
            body.append("Trivial attention ($W_O = 0$).")
        for _label, mp in dec.maps_of(k):
            body.append(map_symbolic(mp))
    return PREAMBLE + "\n\n".join(body) + "\n\\end{document}\n"


def bmatrix(rows: list[list[Any]]) -> str:
    r"""``\\begin{bmatrix} … \\end{bmatrix}`` of exact entries."""
    inner = " \\\\\n".join(" & ".join(tex_scalar(v) for v in r) for r in rows)
    return "\\begin{bmatrix}\n" + inner + "\n\\end{bmatrix}"


def map_explicit(mp: ConcreteMap) -> str:
    """The linear matrix, the bias and the quadratic terms of a concrete map."""
    b, w, q = mp.dense()
    head = f"\\paragraph{{${tex_map_name(mp.name)}$}} ${mp.d_out}\\times {mp.d_in}$"
    lines = [head, "\\[", "W = ", bmatrix(w), "\\]"]
    if any(v != 0 for v in b):
        lines += ["\\[", "b = ", bmatrix([[v] for v in b]), "\\]"]
    if q:
        lines.append("Quadratic terms:")
        lines.append("\\begin{align*}")
        for o in sorted(q):
            terms = []
            for i, row in enumerate(q[o]):
                for j, c in enumerate(row):
                    if c != 0:
                        xi = _coord(mp.src, i)
                        xj = _coord(mp.src, j)
                        terms.append(f"{tex_scalar(c)}\\,{xi}\\,{xj}")
            lines.append(f"  {_coord(mp.dst, o)} &\\mathrel{{+}}= {' + '.join(terms)} \\\\")
        lines.append("\\end{align*}")
    return "\n".join(lines)


def _coord(layout: Any, i: int) -> str:
    name = layout.coordinate_name(i)
    if "[" in name:
        b, idx = name[:-1].split("[")
        return f"\\pi_{{{_tex_name(b)}}}[{idx}]"
    return f"\\pi_{{{_tex_name(name)}}}"


def decoder_explicit(dec: ConcreteDecoder, title: str | None = None) -> str:
    """Every map of every layer at concrete sizes, as a standalone document."""
    env = ", ".join(f"{k} = {v}" for k, v in dec.env.items())
    subs = ", ".join(f"{sp.latex(k)} = {tex_scalar(v)}" for k, v in dec.subs.items())
    body = [f"\\section*{{{_escape(title or dec.name)} at ${env}{', ' + subs if subs else ''}$}}"]
    for k, layer in enumerate(dec.layers, 1):
        body.append(f"\\subsection*{{Layer {k}}}")
        maps: list[ConcreteMap] = []
        if layer.attention is None:
            body.append("Trivial attention ($W_O = 0$).")
        else:
            for h in layer.attention.heads:
                maps += [h.query, h.key, h.value]
            maps.append(layer.attention.out)
        maps += [layer.ffn.w1, layer.ffn.w2]
        body += [map_explicit(m) for m in maps]
    return PREAMBLE + "\n\n".join(body) + "\n\\end{document}\n"
