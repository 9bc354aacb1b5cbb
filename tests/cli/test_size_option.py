"""``--n`` is the construction's size parameter on every command that takes it; vertices are named so."""

import pytest

from symcot.cli import build_parser, main
from symcot.export import load_npz


def _err(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err, err
    return err


def _help(command: str) -> str:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return " ".join(sub.choices[command].format_help().split())


@pytest.mark.parametrize("command", ["latex", "export"])
def test_help_names_the_symbols(command):
    text = _help(command)
    assert "--n N" in text and "size parameter" in text and "n = |w|" in text and "symbol its layout" in text


def test_latex_n_binds_the_layout_symbol_by_its_name(capsys):
    assert main(["latex", "thm:cotpathtotree", "--n", "3"]) == 0
    assert r"\section*{thm:cotpathtotree [as-written] at $m = 3$}" in capsys.readouterr().out
    assert main(["latex", "thm:cotwidofpath", "--n", "3"]) == 2
    assert "cannot be built at n = 3" in _err(capsys)


@pytest.mark.parametrize(("claim", "n", "sizes", "vertices", "said"), [
    ("thm:cotdfs", 4, {"n": 4}, 4, "at n = 4:"),
    ("thm:cotpathtotree", 4, {"m": 4}, 4, "at m = 4:"),
    ("thm:cotwidofpath", 6, {"n": 6}, 4, "at n = |w| = 6 (4 vertices):"),
])
def test_export_n_is_the_size_parameter(tmp_path, capsys, claim, n, sizes, vertices, said):
    out = tmp_path / "x.npz"
    assert main(["export", claim, "--n", str(n), "--format", "numpy", "-o", str(out)]) == 0
    assert said in capsys.readouterr().out
    _, meta = load_npz(out)
    assert meta["sizes"] == sizes and meta["vertices"] == vertices and "n" not in meta


def test_export_vertices_is_the_old_meaning(tmp_path, capsys):
    out = tmp_path / "x.npz"
    assert main(["export", "thm:cotwidofpath", "--vertices", "4", "--format", "numpy", "-o", str(out)]) == 0
    _, meta = load_npz(out)
    assert meta["sizes"] == {"n": 6} and meta["vertices"] == 4


@pytest.mark.parametrize(("argv", "message"), [
    (["thm:cotwidofpath", "--n", "5"], "thm:cotwidofpath [as-written] has no input with n = |w| = 5; try --n 4 or "
                                       "--n 6 (or --vertices V for an input of V vertices)"),
    (["thm:cotdfs", "--vertices", "0"], "--vertices must be at least 1, got 0"),
])
def test_export_size_errors(tmp_path, capsys, argv, message):
    assert main(["export", *argv, "--format", "numpy", "-o", str(tmp_path / "x.npz")]) == 2
    assert _err(capsys) == f"symcot: error: {message}"


def test_export_takes_n_or_vertices_not_both(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["export", "thm:cotdfs", "--n", "3", "--vertices", "3", "--format", "numpy", "-o", str(tmp_path / "x")])
    assert "not allowed with argument" in _err(capsys)


def test_replay_n_with_graph_is_the_vertices_only_where_n_counts_them(capsys):
    assert main(["replay", "thm:cotdfs", "--graph", "0->1", "--n", "3"]) == 0
    assert capsys.readouterr().out.startswith("thm:cotdfs/as-written on Digraph(n=3; 0->1), source 0")
    assert main(["replay", "thm:cotwidofpath", "--graph", "0-1,1-2", "--n", "3"]) == 2
    assert _err(capsys) == ("symcot: error: --n is thm:cotwidofpath's size parameter n = |w|, not the number of "
                            "vertices of --graph: drop --n (the vertices are 0 to the largest named)")


def test_verify_max_size_help_says_what_it_counts():
    assert "the vertices of a graph or tree (of the ordered tree of a Dyck word w)" in _help("verify")
