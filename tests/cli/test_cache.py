"""The ``.symcot_cache/`` directory and ``symcot verify --lf``."""

import json
import os
from pathlib import Path

import pytest

from symcot.check.verdict import Verdict
from symcot.cli import main
from symcot.cli.cache import CACHE_DIR, Cache, mode_of

PROOFS = str(Path(__file__).resolve().parent.parent.parent / "proofs" / "cot_path_to_tree")


def row(claim, variant, verdict):
    return Verdict(claim, variant, verdict, "m", 1, 1, 0.0, {"size": 2} if verdict == "refuted" else None)


def test_nothing_is_written_until_a_run_is_recorded(tmp_path):
    cache = Cache(tmp_path / CACHE_DIR)
    assert cache.last_failed("exhaustive") is None
    assert not (tmp_path / CACHE_DIR).exists()


def test_record_keeps_failures_updates_finished_rows_and_ignores_itself_in_git(tmp_path):
    cache = Cache(tmp_path / CACHE_DIR)
    assert cache.record("exhaustive", [row("a", "as-written", "refuted"), row("b", "as-written", "verified"),
                                       row("c", "x", "unknown"), row("d", "y", "error")]) is None
    assert cache.last_failed("exhaustive") == {"a [as-written]": "refuted", "c [x]": "unknown", "d [y]": "error"}
    assert (tmp_path / CACHE_DIR / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (tmp_path / CACHE_DIR / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    # a later run updates the rows it finished, keeps the others, and skips the unfinished ones
    cache.record("exhaustive", [row("a", "as-written", "verified"), row("b", "as-written", "refuted"),
                                row("c", "x", "unknown")], skip=["c [x]"])
    assert cache.last_failed("exhaustive") == {"b [as-written]": "refuted", "c [x]": "unknown", "d [y]": "error"}
    # each kind of run has its own failures
    assert cache.last_failed(mode_of(symbolic=True, all_n=False)) is None
    cache.record("symbolic", [row("a", "as-written", "proved")])
    assert cache.last_failed("symbolic") == {}
    assert mode_of(False, True) == "all-n" and mode_of(False, False) == "exhaustive"


def test_a_broken_or_unwritable_cache_is_no_cache(tmp_path):
    root = tmp_path / CACHE_DIR
    root.mkdir()
    (root / "lastfailed.json").write_text("{not json")
    assert Cache(root).last_failed("exhaustive") is None
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        msg = Cache(ro / CACHE_DIR).record("exhaustive", [row("a", "as-written", "refuted")])
    finally:
        ro.chmod(0o700)
    assert msg is not None and msg.startswith(f"could not write the cache {ro / CACHE_DIR}")


def test_verify_lf_reruns_the_last_failures(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["verify", "--proofs", PROOFS, "eq:depth-height", "--max-size", "3", "--no-progress"]
    assert main([*argv, "--lf"]) == 1
    out = capsys.readouterr().out
    assert "--lf: no earlier run in .symcot_cache/; running all 2 rows" in out
    assert out.rstrip().splitlines()[-1].startswith("1 verified, 1 refuted in ")
    stored = json.loads((tmp_path / CACHE_DIR / "lastfailed.json").read_text())
    assert stored == {"exhaustive": {"eq:depth-height [as-written]": "refuted"}}
    assert main([*argv, "--lf", "--json", "r.json"]) == 1
    out = capsys.readouterr().out
    assert "--lf: rerunning the 1 of 2 rows that failed last time" in out
    assert out.rstrip().splitlines()[-1].startswith("1 refuted, 1 deselected in ")
    report = json.loads((tmp_path / "r.json").read_text())
    assert [r["variant"] for r in report["claims"]] == ["as-written"]
    assert report["meta"]["last_failed"] is True and report["meta"]["deselected"] == 1
    # the failure is not among the selected rows: run them all
    assert main([*argv, "--lf", "--variant", "repaired"]) == 0
    assert "--lf: no row that failed last time is selected; running all 1 rows" in capsys.readouterr().out
