"""Text that fits a terminal: cut a line to a width, wrap a cell, lay out a table with wrapped columns.

Widths count characters (the reports' text has no double-width characters). A width of ``None`` means
no limit.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Sequence

#: The ellipsis that ends a cut line.
ELLIPSIS = "…"
#: Narrowest width a wrapped column gets inside the table; below that the column moves under the row.
MIN_COLUMN = 16
#: Most lines a wrapped cell may take; a table whose cells would need more moves those columns under the rows.
MAX_CELL_LINES = 2
#: Indent of the lines under a row (counterexample, notes, a column moved under the row).
INDENT = "    "


def terminal_width() -> int:
    """The terminal's width in characters: ``COLUMNS`` if set, else the terminal's, else 80 (as pytest does)."""
    return max(shutil.get_terminal_size((80, 24)).columns, 20)


def cut(text: str, width: int | None) -> str:
    """``text`` on one line of at most ``width`` characters, ending in ``…`` when cut."""
    text = text.replace("\n", " ")
    if width is None or len(text) <= width:
        return text
    return text[: max(width - 1, 0)].rstrip() + ELLIPSIS


def wrap(text: str, width: int | None, indent: str = "", subsequent: str | None = None) -> list[str]:
    """``text`` wrapped to ``width`` (words kept whole unless one is longer than a line)."""
    if width is None:
        return [indent + text]
    lines = textwrap.wrap(text, width=max(width, len(indent) + 8), initial_indent=indent,
                          subsequent_indent=indent + "  " if subsequent is None else subsequent,
                          break_on_hyphens=False)
    return lines or [indent.rstrip()]


def fit_table(head: Sequence[str], data: Sequence[Sequence[str]], width: int | None,
              flexible: Sequence[int]) -> list[list[str]]:
    """The lines of a table, per data row, that fit ``width``; the first entry holds the header and the rule.

    Columns in ``flexible`` are wrapped inside their cells when the other columns leave them at least
    :data:`MIN_COLUMN` characters each and no cell needs more than :data:`MAX_CELL_LINES` lines; otherwise they
    leave the table and come under their row as ``header: text`` lines, wrapped (a block of lines per row). The
    other columns keep their full width. ``width=None``: one line
    per row, every column at its natural width.
    """
    natural = [max([len(h), *(len(d[i]) for d in data)]) for i, h in enumerate(head)]
    if width is None:
        fmt = "  ".join(f"{{:<{w}}}" for w in natural)
        return [[fmt.format(*head), fmt.format(*("-" * w for w in natural))]] + [[fmt.format(*d)] for d in data]
    fixed = [i for i in range(len(head)) if i not in flexible]
    room = width - sum(natural[i] + 2 for i in fixed)
    widths = list(natural)
    inside = list(flexible)
    if room - 2 * len(flexible) < MIN_COLUMN * len(flexible):
        inside = []
    elif sum(natural[i] + 2 for i in flexible) > room:
        _share(widths, flexible, room - 2 * len(flexible))
        if any(len(wrap(d[i], widths[i], subsequent="")) > MAX_CELL_LINES for d in data for i in flexible):
            inside, widths = [], list(natural)
    cols = [i for i in range(len(head)) if i in fixed or i in inside]
    below = [i for i in flexible if i not in inside]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(widths[i]) for i, c in zip(cols, cells)).rstrip()

    out = [[line([head[i] for i in cols]), line(["-" * widths[i] for i in cols])]]
    for d in data:
        cells = {i: (wrap(d[i], widths[i], subsequent="") if i in inside else [d[i]]) for i in cols}
        height = max(len(c) for c in cells.values())
        lines = [line([cells[i][k] if k < len(cells[i]) else "" for i in cols]) for k in range(height)]
        for i in below:
            lines += wrap(f"{head[i]}: {d[i]}", width, INDENT, INDENT + "  ")
        out.append(lines)
    return out


def _share(widths: list[int], flexible: Sequence[int], room: int) -> None:
    """Give the ``flexible`` columns ``room`` characters in all, in proportion to their natural widths."""
    total = sum(widths[i] for i in flexible)
    left = room
    for k, i in enumerate(flexible):
        share = left if k == len(flexible) - 1 else max(MIN_COLUMN, room * widths[i] // total)
        widths[i] = max(MIN_COLUMN, min(widths[i], share))
        left -= widths[i]


def shorten(text: str, width: int | None) -> str:
    """``text`` cut to ``width`` keeping its last ``; `` part whole (``all n (every…; proved (Z3, cvc5)``).

    A scope ends with what matters most on a narrow line (which solvers proved it); its start is cut first.
    """
    if width is None or len(text) <= width:
        return text
    head, sep, last = text.rpartition("; ")
    if sep and width - len(sep) - len(last) >= 8:
        return cut(head, width - len(sep) - len(last)) + sep + last
    return cut(text, width)


__all__ = ["ELLIPSIS", "INDENT", "MAX_CELL_LINES", "MIN_COLUMN", "cut", "fit_table", "shorten", "terminal_width",
           "wrap"]
