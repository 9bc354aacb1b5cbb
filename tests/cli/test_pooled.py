"""``verify --all-n --jobs N``: rows grouped by paper label, run in worker processes, reported in plan order with the
same verdicts as one process gives; an interruption keeps the finished rows."""

import json
from types import SimpleNamespace

from symcot.cli import main
from symcot.cli.pooled import groups, label_of


def _plan(*ids):
    return [(SimpleNamespace(id=i), None) for i in ids]


def test_rows_are_grouped_by_paper_label_most_rows_first():
    assert label_of("thm:cotdfs:tree") == "thm:cotdfs" and label_of("thm:cotdfs") == "thm:cotdfs"
    plan = _plan("thm:cotdfs", "thm:cotdijkstra", "thm:cotdfs:tree", "thm:cotdijkstra", "thm:cotdfs:phi", "lem:x")
    assert groups(plan) == [[0, 2, 4], [1, 3], [5]]


def _rows(tmp_path, name, jobs):
    out = tmp_path / name
    rc = main(["verify", "--all-n", "thm:cotwidofpath", "thm:cotdijkstra", "-k", "as-written", "--jobs", str(jobs),
               "--json", str(out), "--no-progress"])
    return rc, json.loads(out.read_text())["claims"]


def test_workers_give_the_rows_one_process_gives_in_plan_order(tmp_path):
    rc1, one = _rows(tmp_path, "one.json", 1)
    rc2, two = _rows(tmp_path, "two.json", 2)
    assert rc1 == rc2 == 1
    assert [(r["id"], r["variant"]) for r in two] == [(r["id"], r["variant"]) for r in one]
    assert [r["id"] for r in one] == ["thm:cotwidofpath", "thm:cotdijkstra"]
    for a, b in zip(one, two):
        assert a["verdict"] == b["verdict"] == "refuted" and a["counterexample"] == b["counterexample"]


def test_an_interruption_keeps_the_finished_rows(tmp_path, monkeypatch, capsys):
    import symcot.cli.pooled as pooled

    def first_then_stop(plan, jobs, max_size, engine, reach, on_row):
        claim, chk = plan[0]
        on_row(0, claim.run_check(chk, max_size))
        raise KeyboardInterrupt

    monkeypatch.setattr(pooled, "run_pooled", first_then_stop)
    out = tmp_path / "r.json"
    rc = main(["verify", "--all-n", "thm:cotwidofpath", "thm:cotdijkstra", "-k", "as-written", "--jobs", "2",
               "--json", str(out), "--no-progress"])
    rows = json.loads(out.read_text())["claims"]
    assert rc == 130
    assert rows[0]["verdict"] == "refuted" and rows[1]["verdict"] == "unknown"
    assert rows[1]["notes"] == ["interrupted: not started"]
