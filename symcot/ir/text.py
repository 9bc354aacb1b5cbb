"""LaTeX of an expression or a matrix as plain text, for messages read on a terminal."""

from __future__ import annotations

import re
from typing import Any


def _matrix(m: re.Match[str]) -> str:
    rows = [r.strip() for r in m.group(1).split("\\\\") if r.strip()]
    return "[" + ", ".join("[" + ", ".join(c.strip() for c in r.split("&")) + "]" for r in rows) + "]"


def plain(latex: str) -> str:
    """An expression's LaTeX as plain text: ``π_cur``, ``π_T.cur``, ``1_n``, ``(1_n - π_vis)ᵀ π_nbr``."""
    s = re.sub(r"\\left\[\\begin\{(?:small)?matrix\}(.*?)\\end\{(?:small)?matrix\}\\right\]", _matrix, latex)
    s = re.sub(r"\\pi_\{([^{}]*)\^\{\(([^{}]*)\)\}\}", r"π_\2.\1", s)  # a head's value block
    s = re.sub(r"\\pi_\{([^{}]*)\}", r"π_\1", s)
    for a, b in (("\\,", " "), ("\\left(", "("), ("\\right)", ")"), ("\\_", "_"), ("\\odot", "⊙"),
                 ("^\\top", "ᵀ"), ("\\mathbf{1}", "1"), ("\\lambda", "λ"), ("\\operatorname{vec}", "vec"),
                 ("\\frac", "frac")):
        s = s.replace(a, b)
    s = re.sub(r"_\{([^{}]*)\}", r"_\1", s)
    s = re.sub(r"flg_(\d)", r"flg\1", s)
    s = re.sub(r"(?<![\w.])1_1(?!\w)", "1", s)
    return re.sub(r" -(?=\S)", " - ", s)


def text(e: Any) -> str:
    """``plain(e.latex())``: an expression or a matrix as it is read in a one-line message."""
    return plain(e.latex())
