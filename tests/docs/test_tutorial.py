"""docs/tutorial.md is a doctest: the tutorial's code must run as written, and its claim module is the file."""

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_tutorial_runs(monkeypatch):
    monkeypatch.chdir(ROOT)  # the tutorial runs `symcot verify --proofs docs/examples/prefix_sum`
    result = doctest.testfile(str(ROOT / "docs" / "tutorial.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20
    assert result.failed == 0


def test_the_tutorials_claim_module_is_the_example_file():
    text = (ROOT / "docs" / "tutorial.md").read_text()
    blocks = re.findall(r"```python\n(\"\"\"demo:prefixsum.*?)```", text, flags=re.S)
    assert blocks == [(ROOT / "docs" / "examples" / "prefix_sum" / "prefix_sum.py").read_text()]
