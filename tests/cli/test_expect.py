"""A variant declared ``expect="refuted"`` passes when refuted and fails when it holds (the tutorial's example)."""

import json
import pathlib

from symcot.cli import main

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "prefix_sum" / "prefix_sum.py"


def _claims(tmp_path, old="", new=""):
    text = EXAMPLE.read_text()
    if old:
        assert text.count(old) == 1
        text = text.replace(old, new)
    d = tmp_path / "claims"
    d.mkdir()
    (d / "prefix_sum.py").write_text(text)
    return d


def test_the_tutorials_wrong_variant_is_refuted_as_expected(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    d = _claims(tmp_path)
    out = tmp_path / "r.json"
    assert main(["verify", "--proofs", str(d), "--jobs", "1", "--no-progress", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "(+1 sub-check: 1 expected refuted)" in printed
    assert printed.rstrip().splitlines()[-1].startswith("1 verified, 1 expected refuted in ")
    rows = {r["variant"]: r for r in json.loads(out.read_text())["claims"]}
    assert rows["saturating"]["verdict"] == "refuted" and rows["saturating"]["expect"] == "refuted"
    assert rows["saturating"]["outcome"] == "expected refuted" and "expect" not in rows["as-written"]
    assert main(["verify", "--proofs", str(d), "--jobs", "1", "--no-progress", "-v"]) == 0
    assert "refuted (expected)" in capsys.readouterr().out


def test_a_variant_expected_refuted_that_holds_fails_the_run(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    d = _claims(tmp_path, '"as-written": Reading("as-written", "the decoder as stated"),',
                '"as-written": Reading("as-written", "the decoder as stated", expect="refuted"),')
    assert main(["verify", "--proofs", str(d), "--jobs", "1", "--no-progress"]) == 1
    printed = capsys.readouterr().out
    assert printed.rstrip().splitlines()[-1].startswith("1 expected refuted, 1 unexpectedly verified in ")
    assert "holds as written, expected refuted (verified: every input, n ≤ 8)" in printed
    assert main(["verify", "--proofs", str(d), "--jobs", "1", "--no-progress", "-v"]) == 1
    assert "verified (expected refuted)" in capsys.readouterr().out
