"""docs/tutorial.md is a doctest: the tutorial's code must run as written."""

import doctest
from pathlib import Path


def test_tutorial_runs():
    path = Path(__file__).resolve().parent.parent.parent / "docs" / "tutorial.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0
