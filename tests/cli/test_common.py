"""Shared command-line helpers: output paths checked before a run, plurals."""

import pytest

from symcot.cli.common import check_distinct, check_output_path, plural
from symcot.errors import SymcotError


def test_a_writable_path_passes_and_nothing_is_created(tmp_path):
    p = tmp_path / "r.json"
    assert check_output_path(str(p), "--json") == p and not p.exists()
    assert check_output_path(str(tmp_path / "t.PNG"), "--plot", (".png", ".svg", ".pdf")).suffix == ".PNG"


@pytest.mark.parametrize(("name", "suffixes", "message"), [
    ("missing/r.json", None, "directory {d}/missing does not exist"),
    ("", None, "empty file name"),
    (".", None, "is a directory"),
    ("t.txt", (".png", ".svg", ".pdf"), "--opt writes .png, .svg or .pdf, not .txt"),
    ("t", (".tex",), "--opt writes .tex, not a file without extension"),
    ("file.txt/r.json", None, "is not a directory"),
])
def test_unusable_paths_are_one_clear_error(tmp_path, name, suffixes, message):
    (tmp_path / "file.txt").write_text("x")
    path = "" if name == "" else str(tmp_path / name) if name != "." else str(tmp_path)
    with pytest.raises(SymcotError) as e:
        check_output_path(path, "--opt", suffixes)
    assert message.format(d=tmp_path) in str(e.value) and str(e.value).startswith("--opt")


def test_same_file_twice(tmp_path):
    check_distinct({"--json": str(tmp_path / "a"), "--markdown": str(tmp_path / "b"), "--x": None})
    with pytest.raises(SymcotError, match="--json and --markdown name the same file"):
        check_distinct({"--json": str(tmp_path / "a"), "--markdown": str(tmp_path / "." / "a")})


def test_plural():
    assert plural(1, "layer") == "1 layer" and plural(2, "layer") == "2 layers" and plural(0, "head") == "0 heads"
    assert plural(3, "matrix", "matrices") == "3 matrices"
