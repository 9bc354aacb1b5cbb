"""LaTeX of construction weights: symbolic block matrices and explicit matrices (documents or fragments)."""

from symcot.latex.page import Page, TooLargeError
from symcot.latex.render import (
    bmatrix,
    decoder_explicit,
    decoder_symbolic,
    map_explicit,
    map_symbolic,
    tex_map_name,
    tex_scalar,
)

__all__ = ["Page", "TooLargeError", "bmatrix", "decoder_explicit", "decoder_symbolic", "map_explicit",
           "map_symbolic", "tex_map_name", "tex_scalar"]
