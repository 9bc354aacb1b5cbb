"""What ``symcot verify`` prints: a line per paper label at the terminal's width, ``-v``, ``-x``, the count line."""

import json
import re
from pathlib import Path

import pytest

from symcot.cli import main

PROOFS = str(Path(__file__).resolve().parent.parent.parent / "proofs" / "cot_path_to_tree")
COUNT = re.compile(r"^(\d+ (proved|verified|refuted|unknown|error|deselected|not run \(-x\))(, |(?= in )))+ in "
                   r"\d+(\.\d)? s$")


@pytest.fixture
def verify(tmp_path, monkeypatch, capsys):
    """``symcot verify ARGS`` at ``COLUMNS`` columns in a scratch directory: (exit status, output lines).

    The header (the ``proofs:`` line and its ``subject:``) names a path and wraps, never cut, to the width; it is
    left out of the lines returned.
    """
    monkeypatch.chdir(tmp_path)

    def run(*args, columns=80):
        monkeypatch.setenv("COLUMNS", str(columns))
        rc = main(["verify", "--proofs", PROOFS, *args])
        lines = capsys.readouterr().out.rstrip("\n").splitlines()
        k = 1
        while lines[k].startswith("  "):
            k += 1
        header = " ".join(line.strip() for line in lines[:k])
        assert lines[0].startswith("proofs:") and "subject: Chain-of-Thought" in header
        assert all(len(line) <= columns for line in lines[:k])
        return rc, lines[k:]

    return run


def test_default_output_folds_rows_per_label_fits_the_width_and_ends_with_the_count(verify, tmp_path):
    rc, out = verify("thm:cotwidofpath", "eq:depth-height", "--max-size", "3", "--no-progress", "--json", "r.json",
                     columns=90)
    assert rc == 1
    rows = json.loads((tmp_path / "r.json").read_text())["claims"]
    assert len(rows) > 6  # the report keeps every row
    assert all(len(line) <= 90 for line in out)
    labels = [line.split()[0] for line in out if line.startswith(("thm:", "eq:"))]
    assert labels == ["thm:cotwidofpath", "eq:depth-height"]
    line = next(x for x in out if x.startswith("eq:depth-height "))
    assert "refuted; a repaired variant holds (repaired)" in line and "(+1 sub-check: 1 verified)" in line
    k = out.index(line)  # the counterexample wraps under the line, whole
    assert out[k + 1] + " " + out[k + 2].strip() == ("    counterexample: w = UD (|w| = 2, 2 vertices): step 2, "
                                                     "s_i - s_{i-1}: expected 1, got -1")
    assert out[-4:-1] == [f"(-v lists every row, all {len(rows)})", "", "JSON report written to r.json"]
    assert COUNT.match(out[-1]) and out[-1].startswith(f"{sum(r['verdict'] == 'verified' for r in rows)} verified, ")


def test_verbose_lists_every_row_at_the_width(verify):
    rc, out = verify("eq:depth-height", "lem:addwidplus1", "--max-size", "3", "--no-progress", "-v", columns=100)
    assert rc == 1
    assert all(len(line) <= 100 for line in out)
    table = [line for line in out if line.startswith(("eq:", "lem:"))]
    assert [line.split()[:3] for line in table] == [
        ["eq:depth-height", "as-written", "refuted"], ["eq:depth-height", "repaired", "verified"],
        ["lem:addwidplus1", "as-written", "refuted"], ["lem:addwidplus1", "repaired", "verified"],
        ["lem:addwidplus1", "in:thm:cotwidofpath", "verified"],
        ["lem:addwidplus1", "in:thm:cotwidofpath/read-repaired", "verified"],
        ["lem:addwidplus1", "in:thm:cotwidofpath/repaired", "verified"],
        ["lem:addwidplus1", "in:thm:cotwidofpath/q-literal-pulse-last-repaired", "verified"]][:len(table)]
    assert len(table) >= 7 and any(line.startswith("    method: ") for line in out)
    assert COUNT.match(out[-1])


def test_exitfirst_stops_at_the_first_refuted_row(verify, tmp_path):
    rc, out = verify("eq:depth-height", "thm:cotdfs", "--max-size", "2", "-x", "--no-progress", "--json", "r.json")
    assert rc == 1
    report = json.loads((tmp_path / "r.json").read_text())
    assert [(r["id"], r["variant"], r["verdict"]) for r in report["claims"]] == [
        ("eq:depth-height", "as-written", "refuted")]
    assert report["meta"]["not_run"] == 2
    assert re.match(r"^1 refuted, 2 not run \(-x\) in \d+\.\d s$", out[-1])


def test_progress_off_a_terminal_is_a_letter_per_row(verify):
    rc, out = verify("eq:depth-height", "--max-size", "3", columns=40)
    assert rc == 1
    assert out[0] == "F." + " " * (40 - len(" [2/2]") - 2) + " [2/2]"
    assert not any("[as-written]:" in line for line in out)  # no line per row


def test_every_report_names_the_papers_subject(tmp_path, monkeypatch, capsys):
    """The Cookbook's rows are about a draft at one commit: the header, the JSON and the Markdown say so."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "120")
    cookbook = str(Path(PROOFS).parent / "transformer_cookbook")
    rc = main(["verify", "--proofs", cookbook, "sec:ffnn_minmax", "--no-progress", "--json", "r.json",
               "--markdown", "r.md"])
    assert rc == 0
    out = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 120 for line in out)  # the subject line (169 characters) wraps
    assert out[1].startswith("  subject: a draft of The Transformer Cookbook") and "582e0e1" in out[1]
    assert out[2].startswith("    ") and "chapter 3 (feed-forward networks)" in out[2]
    papers = json.loads((tmp_path / "r.json").read_text())["meta"]["papers"]
    from symcot.registry import load_claims

    count = len(load_claims(cookbook))
    assert [(p["package"], p["claims"]) for p in papers] == [("proofs.transformer_cookbook", count)]
    assert "582e0e1" in papers[0]["subject"]
    assert "Subject: a draft of The Transformer Cookbook" in (tmp_path / "r.md").read_text()
