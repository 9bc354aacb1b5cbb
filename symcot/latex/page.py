"""The page the LaTeX is laid out for: A4 portrait (or landscape), its text width and height, the preamble.

Every width decision (splitting a wide block matrix into column groups, printing an explicit matrix by
blocks) is made against :attr:`Page.width`, the text width minus a safety margin, using the estimates of
:func:`symcot.latex.text.math_width`. The preamble uses only packages of Debian's ``texlive-latex-base``
(``geometry``, ``amsmath``, ``amssymb``).
"""

from __future__ import annotations

from dataclasses import dataclass

from symcot.errors import SymcotError

#: Points per millimetre (TeX points).
PT_PER_MM = 72.27 / 25.4
#: Page margins (mm).
MARGIN_MM = 20
#: Column separation of ``array``/``bmatrix`` (twice ``\arraycolsep``), in points.
COLSEP = 10.0
#: Height of one row of an array (``\baselineskip`` plus ``\arraystretch`` slack), in points.
ROW = 12.5


class TooLargeError(SymcotError):
    """A matrix that cannot be printed readably on the page (the message suggests ``--symbolic``)."""


@dataclass(frozen=True)
class Page:
    """A4 with 2 cm margins, portrait unless ``landscape``."""

    landscape: bool = False

    @property
    def text_mm(self) -> tuple[float, float]:
        """Text width and height in millimetres."""
        w, h = (297, 210) if self.landscape else (210, 297)
        return w - 2 * MARGIN_MM, h - 2 * MARGIN_MM

    @property
    def width(self) -> float:
        """The width (points) a display may use: the text width less 6 % for the estimates' error."""
        return self.text_mm[0] * PT_PER_MM * 0.94

    @property
    def rows(self) -> int:
        """How many array rows fit on one page (a display cannot break across pages)."""
        return int(self.text_mm[1] * PT_PER_MM * 0.85 / ROW)

    def preamble(self) -> str:
        r"""``\documentclass`` … ``\begin{document}``."""
        orient = ",landscape" if self.landscape else ""
        return ("\\documentclass{article}\n"
                f"\\usepackage[a4paper{orient},margin={MARGIN_MM}mm]{{geometry}}\n"
                "\\usepackage{amsmath,amssymb}\n"
                "\\allowdisplaybreaks\n"
                "\\setcounter{MaxMatrixCols}{200}\n"
                "\\setlength{\\parindent}{0pt}\n"
                "\\begin{document}\n")

    def fragment_header(self) -> str:
        """The comment that opens a ``--fragment``: what it needs and the width it was laid out for."""
        w = self.text_mm[0]
        return (f"% symcot LaTeX fragment: needs \\usepackage{{amsmath,amssymb}} (and \\allowdisplaybreaks to let\n"
                f"% long lists of terms break across pages); laid out for a text width of {w:.0f} mm.\n")

    def wrap(self, body: str) -> str:
        """A standalone document around ``body``."""
        return self.preamble() + body + "\n\\end{document}\n"
