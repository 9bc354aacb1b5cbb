"""Whether the LaTeX compile tests can run: ``pdflatex`` and ``pdftoppm`` present, or skipped, or required.

On a machine without TeX the tests skip with one reason. Where ``CI=true`` (set by CI services, and by
``.ci/run``) a missing tool fails them instead, so a CI run never passes without compiling the LaTeX.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from typing import Literal

import pytest

#: The programs the LaTeX tests run.
TOOLS = ("pdflatex", "pdftoppm")
#: The one reason every LaTeX test gives when it skips.
SKIP_REASON = "pdflatex/pdftoppm not installed: the LaTeX compile tests need texlive-latex-base and poppler-utils"

Decision = Literal["run", "skip", "fail"]


def in_ci(environ: Mapping[str, str]) -> bool:
    """Whether ``environ`` is a CI run (``CI=true``, as CI services and ``.ci/run`` set it)."""
    return environ.get("CI", "").strip().lower() in ("true", "1")


def tex_decision(which: Callable[[str], str | None] | None = None,
                 environ: Mapping[str, str] | None = None) -> tuple[Decision, str]:
    """``("run", "")`` when both tools are installed; else ``("skip", why)``, or ``("fail", why)`` in CI.

    ``which`` and ``environ`` default to :func:`shutil.which` and :data:`os.environ` at call time.
    """
    which = which or shutil.which
    environ = os.environ if environ is None else environ
    missing = [t for t in TOOLS if which(t) is None]
    if not missing:
        return "run", ""
    if in_ci(environ):
        return "fail", (f"{' and '.join(missing)} not installed, and CI=true requires the LaTeX compile tests: "
                        "apt-get install texlive-latex-base poppler-utils (as .ci/run does)")
    return "skip", SKIP_REASON


def require_tex() -> dict[str, str]:
    """The path of each tool; skips the calling test without them (fails it where ``CI=true``)."""
    decision, why = tex_decision()
    if decision == "skip":
        pytest.skip(why)
    if decision == "fail":
        pytest.fail(why, pytrace=False)
    return {t: shutil.which(t) or t for t in TOOLS}
