"""The code on docs/export.md runs and prints what the page says it prints."""

import re
from pathlib import Path

import pytest

from symcot.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "export.md"


def test_export_page_runs(tmp_path, monkeypatch, capsys):
    pytest.importorskip("torch")
    monkeypatch.chdir(tmp_path)
    assert main(["export", "thm:cotdfs", "--n", "5", "--format", "torch", "-o", "dfs.pt"]) == 0
    assert main(["export", "thm:cotdfs", "--n", "5", "--format", "numpy", "-o", "dfs.npz"]) == 0
    capsys.readouterr()
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 4
    ns: dict = {}
    for code in blocks:
        exec(compile(code, str(DOC), "exec"), ns)  # noqa: S102 - our own documentation
    printed = capsys.readouterr().out.splitlines()
    assert printed == ["[1, 2, 3, 4, 3, 2, 1, 0, 0]", "False", "[1, 0, 2, 3, 2, 4, 2, 0, 0]",
                       "True", "['T', 'B'] [2, 3, 4, 5, 0, 0, 0, 0, 0]", "[0, 0, 0, 0, 9, 8, 7, 6, 6]",
                       "[1, 2, 3, 4, 3, 2, 1, 0, 0]", "[1, 2, 3]"]
