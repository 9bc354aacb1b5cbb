"""docs/tutorial.md is a doctest: the tutorial's code must run as written, and its claim module is the file."""

import doctest
import importlib.util
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
EXAMPLE = ROOT / "docs" / "examples" / "prefix_sum" / "prefix_sum.py"


def _torch_block(text):
    """The first and last line (0-based) of the code block that exports and runs the torch module."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if '"--format", "torch"' in line)
    start = max(i for i in range(at) if lines[i].startswith("```"))
    end = next(i for i in range(at, len(lines)) if lines[i].startswith("```"))
    return start, end


def test_tutorial_runs(monkeypatch):
    # the tutorial copies docs/examples/prefix_sum/prefix_sum.py from the repository root into a claims directory
    # of its own (a temporary directory) and changes into it; monkeypatch restores the working directory
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "80")  # the tables are shown at a terminal width of 80 columns
    test = doctest.DocTestParser().get_doctest(TUTORIAL.read_text(), {}, TUTORIAL.name, str(TUTORIAL), 0)
    if importlib.util.find_spec("torch") is None:  # the torch export is shown "with PyTorch installed"
        start, end = _torch_block(TUTORIAL.read_text())
        for example in test.examples:
            if start < example.lineno < end:
                example.options[doctest.SKIP] = True
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    try:
        runner.run(test, clear_globs=False)
    finally:
        if "project" in test.globs:  # the tutorial's claims directory, made with tempfile.mkdtemp()
            monkeypatch.chdir(ROOT)
            shutil.rmtree(test.globs["project"], ignore_errors=True)
        test.globs.clear()
    result = runner.summarize(verbose=False)
    assert result.attempted > 40
    assert result.failed == 0


def test_the_tutorials_claim_module_is_the_example_file():
    blocks = re.findall(r"```python\n(\"\"\"demo:prefixsum.*?)```", TUTORIAL.read_text(), flags=re.S)
    assert blocks == [EXAMPLE.read_text()]


def test_the_example_imports_only_from_symcot():
    # a claim module needs the public names only (symcot/__init__.py), and no engine-specific code
    text = EXAMPLE.read_text()
    imports = re.findall(r"^(?:from|import) (\S+)", text, flags=re.M)
    assert set(imports) <= {"itertools", "typing", "symcot"}, imports
    assert "batch" not in text and "expected_table" not in text
