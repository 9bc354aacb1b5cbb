"""``symcot replay`` on encoder constructions: attended positions, averaged sets, softmax weights, bad strings."""

import pytest

from symcot.cli import main


def _replay(capsys, *argv):
    status = main(["replay", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def _row(out: str, label: str) -> list[str]:
    """The cells of the first row whose label is ``label``."""
    line = next(ln for ln in out.splitlines() if ln.strip().startswith(label + " ") or ln.strip() == label)
    return line.strip()[len(label):].split()


def _one_line_error(err: str) -> str:
    err = err.strip()
    assert err.startswith("symcot: error:") and "\n" not in err and "internal error" not in err, err
    return err


def test_tie_breaking_names_the_attended_position_per_layer_and_head(capsys):
    status, out, _ = _replay(capsys, "sec:tie-breaking", "--input", "0110")
    assert status == 0
    assert out.splitlines()[0] == "sec:tie-breaking [as-written] on w = 0110 (n = 4)"
    assert "layer 1" in out.splitlines()
    assert _row(out, "head t attends") == ["1", "1", "1", "1"]  # the leftmost maximal position, at every query
    assert _row(out, "p") == ["1", "1/2", "1/3", "1/4"]  # the positional encoding, in the input's blocks
    assert _row(out, "readout") == _row(out, "reference") == ["1/2"] * 4
    assert _row(out, "match") == ["ok"] * 4
    assert out.rstrip().endswith("ok: the readout matches the reference at every position")


def test_rightmost_variant_attends_to_the_last_maximal_position(capsys):
    status, out, _ = _replay(capsys, "sec:tie-breaking", "--variant", "rightmost", "--string", "0110")
    assert status == 0 and _row(out, "head t attends") == ["2", "2", "2", "2"]


def test_no_tie_break_shows_the_averaged_set_and_the_mismatch(capsys):
    status, out, _ = _replay(capsys, "sec:tie-breaking", "--variant", "no-tie-break", "--input", "0110")
    assert status == 1
    assert _row(out, "head t attends") == ["{1,2}≠"] * 4
    assert _row(out, "expected") == ["1"] * 4
    assert _row(out, "readout") == ["5/12"] * 4 and _row(out, "match") == ["DIFFERS"] * 4
    assert "{a,b}: average hard attention" in out
    text = " ".join(out.split())  # a long line is wrapped to the terminal's width
    assert "MISMATCH layer 1 head t: attends elsewhere than the check expects at positions 0, 1, 2, 3" in text
    assert "MISMATCH at position 0: readout 5/12, reference 1/2" in out


def test_future_mask_averages_over_the_prefix(capsys):
    status, out, _ = _replay(capsys, "ch5:one-over-i", "--input", "^ab")
    assert status == 0
    assert _row(out, "head u attends") == ["0", "{0,1}", "{0,1,2}"]
    assert _row(out, "readout") == ["1", "1/2", "1/3"]


def test_softmax_weights_are_intervals_and_said_so(capsys):
    status, out, _ = _replay(capsys, "ch4:quadratic-maximization", "--variant", "SMAT", "--input", "102")
    assert status == 1  # the SMAT mutant retrieves an average, not the value
    cells = _row(out, "head t: α(j=1)")
    assert len(cells) == 3 and all(c.startswith("[0.") and c.endswith("]") for c in cells), cells
    lo, hi = cells[0][1:-1].split(",")
    assert float(lo) < 0.5762 < float(hi) or float(lo) <= 0.5761  # a bound on each side of the true weight
    assert "[lo,hi]: not rational; a certified interval" in out


def test_table_fits_the_width_in_column_groups(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    status, out, _ = _replay(capsys, "sec:tie-breaking", "--input", "0110100101")
    assert status == 0
    lines = out.splitlines()
    assert max(len(ln) for ln in lines) <= 40, [ln for ln in lines if len(ln) > 40]
    groups = [ln for ln in lines if ln.startswith("positions ")]
    assert len(groups) >= 2 and groups[0].startswith("positions 0–")
    status, out, _ = _replay(capsys, "sec:tie-breaking", "--input", "0110100101", "--width", "200")
    assert not any(ln.startswith("positions ") for ln in out.splitlines())


def test_all_blocks_prints_the_unchanged_ones(capsys):
    _, out, _ = _replay(capsys, "sec:tie-breaking", "--input", "01")
    assert "unchanged: b, one, p" in out
    _, out, _ = _replay(capsys, "sec:tie-breaking", "--input", "01", "--all-blocks")
    assert "unchanged" not in out and out.count("\n  one ") == 2


@pytest.mark.parametrize(("argv", "message"), [
    (["sec:tie-breaking", "--input", "012"], "--input '012': symbol '2' at position 2 is not in the alphabet {0, 1}"),
    (["sec:tie-breaking", "--input", ""], "is the empty string, not an input: the inputs are every string over {0, 1}"),
    (["sec:tie-breaking"], "sec:tie-breaking [as-written] reads strings over {0, 1}: give one with --input, e.g."),
    (["sec:tie-breaking", "--dyck", "UD"], "--dyck does not apply to an encoder: sec:tie-breaking [as-written] reads"),
    (["sec:tie-breaking", "--input", "01", "--lam", "3"], "--lam does not apply to an encoder"),
    (["ch4:quadratic-maximization", "--input", "0125"], "not one of every a ∈ {0..n-1}^n"),
    (["ch5:one-over-i", "--input", "ab"], "not one of every ^ w, w ∈ {a, b}^{n-1}"),
    (["sec:tie-breaking", "--variant", "rightmots", "--input", "01"], "did you mean rightmost?"),
    (["sec:ffnn_minmax", "--input", "01"], "sec:ffnn_minmax is a lemma about a network gadget, with no construction: "
                                           "nothing to replay"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    status, _, err = _replay(capsys, *argv)
    assert status == 2 and message in _one_line_error(err), err
