"""Command-line graph input with named vertices (--graph a->b, an edge-list file of names)."""

import pytest

from symcot.cli import main
from symcot.errors import InvalidInputError
from symcot.inputs.parse import parse_graph, read_graph_file


def test_named_vertices_in_graph_text():
    g = parse_graph("b->c, a->b")
    assert g.labels == ("a", "b", "c") and g.arcs == ((0, 1), (1, 2))
    assert parse_graph("x-y").arcs == ((0, 1), (1, 0))
    with pytest.raises(InvalidInputError, match="does not apply to named vertices"):
        parse_graph("a->b", n=3)


def test_edge_list_file_of_names(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("# people\nalice bob\nbob carol 2\n")
    g = read_graph_file(str(f), directed=False)
    assert g.labels == ("alice", "bob", "carol") and g.weight(1, 2) == 2
    f.write_text("0 1\n1 3\n")  # numbered files keep their numbers, missing vertices included
    g = read_graph_file(str(f))
    assert g.labels is None and g.n == 4


def test_replay_reports_the_mapping_and_takes_a_named_source(tmp_path, capsys):
    assert main(["replay", "thm:cotdfs", "--graph", "a->b,b->c,a->c", "--source", "b"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "thm:cotdfs/as-written on Digraph(n=3; 0->1, 0->2, 1->2; 0=a, 1=b, 2=c), source 1"
    assert main(["replay", "thm:cotdfs", "--graph", "a->b", "--source", "z"]) == 2
    assert "--source z: not a vertex; the vertices are a, b" in capsys.readouterr().err
