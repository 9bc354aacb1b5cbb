r"""LaTeX of a decoder's weights: symbolic block matrices, or explicit matrices at a given ``n``.

Symbolic form (:func:`decoder_symbolic`): each map is a block matrix whose rows are the output blocks
and whose columns are the input blocks (plus a column for constants), with entries like ``I_{n}``,
``-I_{n}``, ``\mathbf{1}_{n}``; bilinear (degree-2) terms are listed under it exactly as the
construction states them (:mod:`symcot.latex.symbolic`). Explicit form (:func:`decoder_explicit`):
the linear matrix and bias at concrete sizes (exact rationals), whole or by blocks, with the quadratic
terms as polynomials in named coordinates (:mod:`symcot.latex.explicit`).

The output is a standalone document for A4 paper, portrait unless ``Page(landscape=True)``; with
``fragment=True`` only the matrices and terms, for pasting into a paper. Every text fragment is escaped
and every formula in a docstring typeset as math (:mod:`symcot.latex.text`).
"""

from __future__ import annotations

from typing import Any

from symcot.ir.expr import _tex_name
from symcot.latex.explicit import bmatrix, map_explicit, tex_scalar
from symcot.latex.page import Page
from symcot.latex.rules import positional_blocks, rules_tex
from symcot.latex.symbolic import map_symbolic, tex_map_name, tex_size
from symcot.latex.text import escape_text, plural
from symcot.model.decoder import ConcreteDecoder, Decoder

__all__ = ["bmatrix", "decoder_explicit", "decoder_symbolic", "map_explicit", "map_symbolic", "tex_map_name",
           "tex_scalar"]


def _layout_line(dec: Decoder) -> str:
    """``Layout: cur: n, par: n, …; d = 6n + 3; 2 layers; heads per layer: 0, 2.`` (breakable between blocks)."""
    s = dec.sizes()
    blocks = ", ".join(f"${_tex_name(b.name)}\\colon {tex_size(b.size)}$" for b in dec.layout.blocks)
    heads = ", ".join(str(h) for h in s.heads)
    return (f"Layout: {blocks}; $d = {tex_size(s.d)}$; {plural(s.layers, 'layer')}; "
            f"heads per layer: {heads}.")


def _rules(dec: Decoder | ConcreteDecoder) -> list[str]:
    """The model description's rules, for a decoder not stated for Section 3's (:mod:`symcot.latex.rules`)."""
    desc = dec.description
    if desc.section3:
        return []
    layers: list[Any] = list(dec.layers)
    heads = [(k, h.name) for k, lay in enumerate(layers, 1) if lay.attention is not None
             for h in lay.attention.heads]
    layout = dec.layout if isinstance(dec, Decoder) else dec.layout.layout
    return rules_tex(desc, heads, positional_blocks(layout, desc.positional))


def decoder_symbolic(dec: Decoder, title: str | None = None, page: Page | None = None,
                     fragment: bool = False) -> str:
    """Every map of every layer, symbolically: a standalone document, or only the matrices (``fragment``)."""
    page = page or Page()
    name = title or dec.name
    body: list[str] = []
    if not fragment:
        body += [f"\\section*{{{escape_text(name)}}}", _layout_line(dec)]
    body += _rules(dec)
    for k in range(1, len(dec.layers) + 1):
        layer = dec.layers[k - 1]
        if fragment:
            body.append(f"% {name}: layer {k}")
        else:
            body.append(f"\\subsection*{{Layer {k}}}")
            if layer.attention is None:
                body.append("Trivial attention ($W_O = 0$).")
        maps = [mp for _label, mp in dec.maps_of(k)]
        if layer.norm_map is not None:
            maps.insert(0, layer.norm_map)
        body += [map_symbolic(mp, page, fragment) for mp in maps]
    if fragment:
        return page.fragment_header() + "\n\n".join(body) + "\n"
    return page.wrap("\n\n".join(body))


def decoder_explicit(dec: ConcreteDecoder, title: str | None = None, page: Page | None = None,
                     fragment: bool = False) -> str:
    """Every map of every layer at concrete sizes: a standalone document, or only the matrices (``fragment``)."""
    import sympy as sp

    page = page or Page()
    name = title or dec.name
    env = ", ".join(f"{sp.latex(k)} = {v}" for k, v in dec.env.items())
    subs = ", ".join(f"{sp.latex(k)} = {tex_scalar(v)}" for k, v in dec.subs.items())
    body: list[str] = []
    if not fragment:
        at = f" at ${env}{', ' + subs if subs else ''}$" if env or subs else ""
        body.append(f"\\section*{{{escape_text(name)}{at}}}")
    body += _rules(dec)
    for k, layer in enumerate(dec.layers, 1):
        maps = [] if layer.norm_map is None else [layer.norm_map]
        if layer.attention is not None:
            for h in layer.attention.heads:
                maps += [h.query, h.key, h.value]
            maps.append(layer.attention.out)
        maps += [layer.ffn.w1, layer.ffn.w2]
        if fragment:
            body.append(f"% {name} at {env}: layer {k}")
        else:
            body.append(f"\\subsection*{{Layer {k}}}")
            if layer.attention is None:
                body.append("Trivial attention ($W_O = 0$).")
        body += [map_explicit(m, page, fragment) for m in maps]
    if fragment:
        return page.fragment_header() + "\n\n".join(body) + "\n"
    return page.wrap("\n\n".join(body))
