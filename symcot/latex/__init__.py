"""LaTeX of construction weights: symbolic block matrices and explicit matrices (standalone documents)."""

from symcot.latex.render import bmatrix, decoder_explicit, decoder_symbolic, map_explicit, map_symbolic, tex_scalar

__all__ = ["bmatrix", "decoder_explicit", "decoder_symbolic", "map_explicit", "map_symbolic", "tex_scalar"]
