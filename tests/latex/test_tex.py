"""The LaTeX tests run with TeX, skip without it (one reason), and are required where ``CI=true``."""

import pytest

from tests.latex import tex
from tests.latex.tex import SKIP_REASON, tex_decision


def _which(installed):
    return lambda name: f"/usr/bin/{name}" if name in installed else None


def test_both_tools_installed_runs_everywhere():
    for env in ({}, {"CI": "true"}):
        assert tex_decision(_which({"pdflatex", "pdftoppm"}), env) == ("run", "")


@pytest.mark.parametrize("installed", [set(), {"pdflatex"}, {"pdftoppm"}])
def test_a_missing_tool_skips_with_one_reason(installed):
    assert tex_decision(_which(installed), {}) == ("skip", SKIP_REASON)
    assert tex_decision(_which(installed), {"CI": "false"}) == ("skip", SKIP_REASON)


@pytest.mark.parametrize("value", ["true", "TRUE", "1"])
def test_ci_requires_the_tools(value):
    decision, why = tex_decision(_which({"pdftoppm"}), {"CI": value})
    assert decision == "fail" and why.startswith("pdflatex not installed, and CI=true requires")


def test_require_tex_skips_or_fails_through_shutil_which(monkeypatch):
    monkeypatch.setattr(tex.shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="pdflatex/pdftoppm not installed"):
        tex.require_tex()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true requires"):
        tex.require_tex()
    monkeypatch.setattr(tex.shutil, "which", lambda name: f"/opt/tex/{name}")
    assert tex.require_tex() == {"pdflatex": "/opt/tex/pdflatex", "pdftoppm": "/opt/tex/pdftoppm"}


def test_the_old_opt_out_variable_is_gone():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for rel in ("README.md", ".ci/run", "tests/latex/test_compile.py", "tests/latex/test_text.py"):
        assert "SYMCOT_ALLOW_NO_TEX" not in (root / rel).read_text(), rel
