"""``symcot replay`` and ``symcot latex`` on chapter 8's grid and network claims: the point, the attended positions
per layer and head, the state bits, and one error line for a bad ``--at`` or a claim checked as formulas."""

import pytest

from symcot.cli import main
from tests.cli.test_replay_encoder import _one_line_error, _replay, _row

POINTS = "k=1,D=1; k=1,D=2; k=1,D=3; k=2,D=1; k=2,D=2; k=2,D=3; k=3,D=1; k=3,D=2; k=3,D=3"


def _layer(out: str, k: int) -> str:
    """The lines of layer ``k`` of a replay table."""
    lines = out.splitlines()
    start = lines.index(f"layer {k}")
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    return "\n".join(lines[start:end])


def test_dyck_uhat_without_at_picks_the_smallest_point_and_says_so(capsys):
    status, out, _ = _replay(capsys, "ch8:dyck-uhat", "--input", "[]", "--width", "120")
    assert status == 1  # as written, ^[]$ is rejected (BOS and EOS stay unmatched at D = 1)
    first, second = out.splitlines()[:2]
    assert first.startswith("at k = 1, D = 1: the smallest point of the grid whose inputs include the string")
    assert POINTS in first
    assert second == "ch8:dyck-uhat [as-written] at k = 1, D = 1 on w = ^[]$ (n = 4)"
    layer1 = _layer(out, 1)
    assert _row(layer1, "head l attends") == ["—", "0", "1", "2"]  # the nearest unmatched j < i
    assert _row(layer1, "head r attends") == ["1", "2", "3", "—"]  # the nearest unmatched j > i
    assert _row(layer1, "m") == ["0", "1", "1", "0"]  # the state bit: [ and ] matched, the sentinels not
    assert _row(_layer(out, 2), "head f attends") == ["0", "0", "0", "0"]
    assert _row(out, "readout") == ["reject"] and _row(out, "reference") == ["accept"]


def test_dyck_uhat_with_at_and_the_repair(capsys):
    status, out, _ = _replay(capsys, "ch8:dyck-uhat", "--variant", "repaired", "--input", "[(])", "--at", "k=2,D=2",
                             "--width", "120")
    assert status == 0 and out.splitlines()[0] == "at k = 2, D = 2 (--at)"
    assert out.splitlines()[1] == "ch8:dyck-uhat [repaired] at k = 2, D = 2 on w = ^[(])$ (n = 6)"
    layer1 = _layer(out, 1)
    assert _row(layer1, "head l attends") == ["—", "0", "1", "2", "3", "4"]
    assert _row(layer1, "e") == ["0", "0", "1", "1", "0", "0"]  # ( meets ] and ] meets (: errors
    assert "head f attends" in _layer(out, 3)
    assert _row(out, "readout") == _row(out, "reference") == ["reject"]


def test_a_deeper_string_picks_a_larger_depth(capsys):
    status, out, _ = _replay(capsys, "ch8:dyck-ahat", "--input", "[[", "--width", "120")
    assert status == 0 and out.startswith("at k = 1, D = 2: the smallest point")
    assert _row(out, "head d attends") == ["0", "{0,1}", "{0,1,2}"]  # layer 1: the uniform average over j ≤ i
    assert _row(out, "head match attends") == ["0", "1", "2"]  # the rightmost open at the same depth
    assert _row(out, "readout") == _row(out, "reference") == ["[1,0,1]", "[1,1,0]", "[0,1,0]"]


def test_the_ahat_mutant_shows_the_averaged_set(capsys):
    status, out, _ = _replay(capsys, "ch8:dyck-ahat", "--variant", "no-offset", "--input", "[](", "--width", "140")
    assert status == 1 and out.startswith("at k = 2, D = 1: ")  # ( needs k = 2
    assert _row(out, "head match attends") == ["0", "1", "0", "{1,3}"]  # [ and ( at depth 1 tie without the offset
    assert _row(out, "readout")[-1] == "[0,0,1/2,1/2,0]" and _row(out, "reference")[-1] == "[0,0,0,1,0]"


@pytest.mark.parametrize(("argv", "why"), [
    (("--at", "k=4,D=1"), "is not a point of the grid"), (("--at", "k=2"), "give D too"),
    (("--at", "q=1,D=1"), "no parameter 'q'"), (("--at", "k2"), "write name=value pairs")])
def test_a_bad_at_is_one_error_line_listing_the_valid_points(capsys, argv, why):
    status, _, err = _replay(capsys, "ch8:dyck-uhat", "--input", "[]", *argv)
    line = _one_line_error(err)
    assert status == 2 and why in line and f"valid points: {POINTS}" in line


def test_a_string_outside_every_alphabet_or_outside_the_point(capsys):
    status, _, err = _replay(capsys, "ch8:dyck-uhat", "--input", "[x]")
    assert status == 2 and "at no point of the grid" in _one_line_error(err)
    status, _, err = _replay(capsys, "ch8:dyck-uhat", "--input", "[(", "--at", "k=1,D=1")
    assert status == 2 and "symbol '(' is not in the alphabet {[, ]}" in _one_line_error(err)
    status, _, err = _replay(capsys, "ch8:dyck-ahat", "--input", "[[", "--at", "k=1,D=1")
    assert status == 2 and "not one of every ^ w, w a prefix of a Dyck-(1, 1) string" in _one_line_error(err)
    status, _, err = _replay(capsys, "ch8:dyck-uhat", "--input", "^[]$")
    assert status == 2 and "type w alone, the input is ^w$" in _one_line_error(err)
    status, _, err = _replay(capsys, "ch8:dyck-uhat")
    assert status == 2 and "give one with --input, e.g. --input []" in _one_line_error(err)


def test_at_on_a_claim_without_parameters_is_one_line(capsys):
    status, _, err = _replay(capsys, "sec:tie-breaking", "--input", "0110", "--at", "k=1")
    assert status == 2 and "has no parameters" in _one_line_error(err)


def test_multihead_shows_each_single_head_layer_against_the_original(capsys):
    status, out, _ = _replay(capsys, "sec:multihead", "--input", "abca", "--at", "H=3", "--width", "140")
    assert status == 0 and out.splitlines()[1] == "sec:multihead [as-written] at H = 3 on w = abca (n = 4)"
    assert _row(_layer(out, 1), "head h1 attends") == ["0", "0", "1", "2"]
    assert _row(_layer(out, 2), "head h2 attends") == ["2", "1", "2", "2"]  # mask none: later positions too
    assert _row(_layer(out, 3), "head h3 attends") == ["—", "0", "0", "2"]  # strict-future: none at 0
    assert _row(out, "readout") == _row(out, "reference") and _row(out, "match") == ["ok"] * 4


def test_multihead_mutant_differs_from_the_original(capsys):
    status, out, _ = _replay(capsys, "sec:multihead", "--variant", "mlp-identity", "--input", "ab", "--at", "H=2",
                             "--width", "140")
    assert status == 1 and "DIFFERS" in _row(out, "match")


def test_ngram_shows_the_heads_and_the_history_and_names_the_lm_head_formula(capsys):
    status, out, _ = _replay(capsys, "ch8:n-gram", "--variant", "attend-t-minus-h", "--input", "abb", "--at", "n=3",
                             "--width", "160")
    assert status == 0 and "the LM head softmax(E u), E = log p, is applied as a formula" in out.splitlines()[1]
    assert _row(out, "head h1 attends") == ["0", "1", "2", "3"]  # t - 1 = p: the current symbol
    assert _row(out, "head h2 attends") == ["0", "0", "1", "2"]  # t - 2 = p - 1, the BOS padding at p = 0
    status, out, _ = _replay(capsys, "ch8:n-gram", "--input", "ab", "--width", "160")
    assert status == 1 and out.startswith("at n = 2: the smallest point")  # as written: one position too far back
    assert _row(out, "head h1 attends") == ["0", "0", "1"]


@pytest.mark.parametrize(("claim", "part"), [
    ("ch8:mod", "layer 2's hash head and the last FFN are formulas over the model's layer norm and AHAT selection"),
    ("sec:assembly_comparison", "the FFN reads the residual stream"),
    ("eq:hard-attention-scores", "symcot replay ch8:n-gram")])
def test_formula_claims_say_which_part_and_why(capsys, claim, part):
    for command in ("replay", "latex"):
        assert main([command, claim, *(("--input", "ab") if command == "replay" else ())]) == 2
        line = _one_line_error(capsys.readouterr().err)
        assert "is checked as formulas, not run as a transformer" in line and part in line
        assert "no construction" not in line


def test_the_block_algebra_variant_says_it_is_symbolic(capsys):
    status, _, err = _replay(capsys, "sec:multihead", "--variant", "block-algebra", "--input", "ab")
    line = _one_line_error(err)
    assert status == 2 and "[block-algebra] is checked as formulas" in line and "symbolically (SymPy)" in line


@pytest.mark.parametrize(("claim", "argv", "title"), [
    ("ch8:dyck-uhat", (), "ch8:dyck-uhat [as-written] at k = 1, D = 1"),
    ("ch8:dyck-uhat", ("--at", "k=2,D=3"), "ch8:dyck-uhat [as-written] at k = 2, D = 3"),
    ("ch8:dyck-ahat", ("--at", "k=3,D=1"), "ch8:dyck-ahat [as-written] at k = 3, D = 1"),
    ("sec:multihead", ("--at", "H=2"), "sec:multihead [as-written] at H = 2"),
    ("ch8:n-gram", ("--at", "n=3"), "ch8:n-gram [as-written] at n = 3")])
def test_latex_prints_the_matrices_at_a_point(capsys, claim, argv, title):
    assert main(["latex", claim, *argv]) == 0
    out = capsys.readouterr().out
    assert f"\\section*{{{title}}}" in out and "\\subsection*{Layer 1}" in out and "\\paragraph{$Q$}" in out


def test_latex_bad_at_is_one_line(capsys):
    assert main(["latex", "ch8:dyck-ahat", "--at", "k=9,D=1"]) == 2
    assert "valid points" in _one_line_error(capsys.readouterr().err)
    assert main(["latex", "sec:tie-breaking", "--at", "k=1"]) == 2
    assert "has no parameters" in _one_line_error(capsys.readouterr().err)
