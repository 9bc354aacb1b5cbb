"""The ``tex`` fixture of the LaTeX compile tests, and one summary line when they were skipped."""

from __future__ import annotations

from typing import Any

import pytest

from tests.latex.tex import SKIP_REASON, require_tex


@pytest.fixture
def tex() -> dict[str, str]:
    """``{"pdflatex": path, "pdftoppm": path}``; the test skips without them (fails where ``CI=true``)."""
    return require_tex()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say once why the LaTeX tests were skipped (``pytest -q`` shows only a count otherwise)."""
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if isinstance(r.longrepr, tuple) and SKIP_REASON in str(r.longrepr[2])]
    if skipped:
        terminalreporter.write_line(f"{len(skipped)} LaTeX tests skipped: {SKIP_REASON}")
