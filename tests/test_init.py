"""The top-level import: the notebook names, loaded lazily, and ``import symcot`` imports nothing else."""

import subprocess
import sys

import symcot


def test_the_notebook_names_are_there():
    from symcot import Claim, Decoder, Family, Head, Layout, Map, Mutant, StepwiseSpec  # noqa: F401

    for name in symcot.__all__:
        assert getattr(symcot, name) is not None, name
    from symcot.ir import Layout as L2

    assert Layout is L2 and "Claim" in dir(symcot)


def test_no_exported_name_is_shadowed_by_a_subpackage():
    import pkgutil

    subpackages = {m.name for m in pkgutil.iter_modules(symcot.__path__)}
    assert not subpackages & set(symcot.__all__)


def test_an_unknown_name_is_an_attribute_error():
    import pytest

    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        symcot.Nope  # noqa: B018


def test_import_symcot_loads_no_subpackage():
    code = "import sys, symcot; print(sorted(m for m in sys.modules if m.startswith(('symcot', 'sympy', 'numpy'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['symcot']"


def test_no_package_imports_the_top_level_names():
    # the re-exports must not make a lower package import upward (symcot/__init__ is the top)
    import pathlib
    import re

    root = pathlib.Path(symcot.__file__).parent
    for path in root.rglob("*.py"):
        if path.name == "__init__.py" and path.parent == root:
            continue
        text = path.read_text()
        bad = re.findall(r"^\s*from symcot import (?!__version__)(.*)$", text, flags=re.M)
        assert not bad, (path, bad)
