"""``symcot replay``: the λ it used, --lam, and options that do not apply to the input given."""

import pytest

from symcot.cli import main


def test_replay_prints_the_lambda_of_the_rule(capsys):
    assert main(["replay", "thm:cotdijkstra", "--variant", "repaired", "--graph", "0->1:2,1->2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "thm:cotdijkstra/repaired on Digraph(n=3; 0->1:2, 1->2:1), source 0"
    assert lines[1] == ("λ = 5 (the construction's rule, λ = 1 + (n-1)·max arc weight, per input; "
                        "--lam to change it)")


def test_lam_replaces_lambda_in_weights_prompt_and_encoding(capsys):
    argv = ["replay", "thm:cotdijkstra", "--variant", "repaired", "--graph", "0->1:2,1->2"]
    assert main([*argv, "--lam", "9"]) == 0
    out = capsys.readouterr().out
    assert "λ = 9 (--lam; the construction's rule, λ = 1 + (n-1)·max arc weight, per input, gives 5)" in out
    assert "y_0  cur=e0 crd=0 vis=e0 wei=0 dis=[9, 9, 9]" in out  # λ in the prompt and in enc(∞)
    assert "MISMATCH" not in out
    # a λ below what the proof needs breaks the decoder: the heads choose wrongly
    assert main([*argv, "--lam", "1"]) == 1
    assert "head S: proof says" in capsys.readouterr().out


def test_lam_on_the_tree_side_and_fractions(capsys):
    assert main(["replay", "thm:cottreestrahler", "--variant", "repaired", "--tree", "(()())", "--lam", "15/2"]) == 0
    assert "λ = 15/2 (--lam; the construction's rule, λ = 2n - 1, gives 5)" in capsys.readouterr().out


def test_no_lambda_line_without_lambda(capsys):
    assert main(["replay", "thm:cotdfs", "--tree", "(())"]) == 0
    assert "λ" not in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["replay", "thm:cotdfs", "--dyck", "UD", "--n", "3"], "--n sets the number of vertices of --graph; it does "
                                                          "not apply to --dyck"),
    (["replay", "thm:cotdfs", "--tree", "(())", "--n", "3"], "not apply to --tree"),
    (["replay", "thm:cotdfs", "--graph", "0-1", "--undirected"], "--undirected applies to --graph-file only"),
    (["replay", "thm:cotwidofpath", "--dyck", "UD", "--source", "1"], "--source does not apply to --dyck here"),
    (["replay", "thm:cotdfs", "--tree", "(())", "--lam", "3"], "--lam: thm:cotdfs [as-written] has no λ"),
    (["replay", "thm:cotdijkstra", "--graph", "0-1", "--lam", "x"], "--lam must be an exact number"),
    (["replay", "thm:cotdfs", "--tree", "(())", "--plot", "t.txt"], "--plot writes .png, .svg or .pdf, not .txt"),
    (["replay", "thm:cotdfs", "--tree", "(())", "--plot", "/nonexistent/t.png"], "directory /nonexistent does not"),
    (["replay", "thm:cotwidofpath", "--variant", "repiared", "--dyck", "UD"], "did you mean repaired?"),
    (["replay", "thm:cotdfs", "--dyck", "UD", "--width", "60"], "--width sizes an encoder's table"),
])
def test_options_that_do_not_apply(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("symcot: error:") and "\n" not in err and message in err, err


def test_a_variant_checked_only_for_every_n_is_replayed_on_its_claims_input(capsys, tmp_path, monkeypatch):
    """The tutorial's saturating counter has only an all-n check: its input is read by the claim's parser."""
    from pathlib import Path

    monkeypatch.chdir(tmp_path)
    proofs = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "prefix_sum")
    assert main(["replay", "demo:prefixsum", "--variant", "saturating", "--input", "111111", "--proofs", proofs]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH sum: expected 6, got 5" in out
