"""How ``symcot verify`` shows a run in progress, without a line per row.

On a terminal (standard error a TTY) a tqdm bar counts the rows and names the one running, above the
bars of the checks themselves; it disappears when the run ends. Otherwise (a log, a pipe) each finished
row prints one letter on standard output, as pytest does: ``.`` proved or verified, ``F`` refuted (or holding where
refuted was expected), ``x`` refuted as expected, ``?``
unknown, ``E`` error; a line holds as many as the width allows and ends with ``[done/total]``.
``--no-progress`` shows neither.
"""

from __future__ import annotations

import sys
from typing import Any

from symcot.check.verdict import Verdict, outcome_of
from symcot.cli.common import silence_stdout

#: The letter of each verdict.
LETTERS = {"proved": ".", "verified": ".", "proved assuming": "a", "refuted": "F", "unknown": "?", "error": "E"}


class RowProgress:
    """Per-row progress of a run of ``total`` rows (see the module docstring); ``width`` bounds a letter line."""

    def __init__(self, total: int, enabled: bool, width: int) -> None:
        self.total = total
        self.done = 0
        self._bar: Any = None
        self._letters = enabled and not _isatty(sys.stderr)
        self._column = 0
        self._per_line = max(width - len(f" [{total}/{total}]"), 10)
        if enabled and not self._letters:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc="verify", unit="row", leave=False, dynamic_ncols=True, file=sys.stderr)

    def start(self, name: str) -> None:
        """The row ``name`` (``claim [variant]``) begins."""
        if self._bar is not None:
            self._bar.set_postfix_str(name, refresh=True)

    def finish(self, row: Verdict) -> None:
        """``row`` is done: advance the bar, or print its letter."""
        self.done += 1
        if self._bar is not None:
            self._bar.update(1)
        elif self._letters:
            letter = "x" if outcome_of(row) == "expected refuted" else "F" if row.failed and row.verdict in (
                "proved", "verified") else LETTERS.get(row.verdict, "?")
            print(letter, end="", flush=True)
            self._column += 1
            if self._column == self._per_line:
                self._end_line()

    def close(self) -> None:
        """Remove the bar, or end the current line of letters."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self._letters and self._column:
            try:
                self._end_line()
            except BrokenPipeError:
                silence_stdout()

    def _end_line(self) -> None:
        pad = " " * (self._per_line - self._column)
        print(f"{pad} [{self.done}/{self.total}]", flush=True)
        self._column = 0


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


__all__ = ["LETTERS", "RowProgress"]
