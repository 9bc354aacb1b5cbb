"""``verify --all-n --jobs N``: rows handed out largest proof first (a label's rows together), run in worker
processes, reported in plan order with the same verdicts as one process gives; an interruption keeps the finished
rows."""

import json
from types import SimpleNamespace

from symcot.cli import main
from symcot.cli.pooled import effort, groups, label_of, order


def _plan(*ids):
    return [(SimpleNamespace(id=i), None) for i in ids]


def test_rows_are_grouped_by_paper_label_most_rows_first():
    assert label_of("thm:cotdfs:tree") == "thm:cotdfs" and label_of("thm:cotdfs") == "thm:cotdfs"
    plan = _plan("thm:cotdfs", "thm:cotdijkstra", "thm:cotdfs:tree", "thm:cotdijkstra", "thm:cotdfs:phi", "lem:x")
    assert groups(plan) == [[0, 2, 4], [1, 3], [5]]


class _Sized:
    def __init__(self, n):
        self.n = n

    def effort(self):
        return self.n


def test_rows_go_out_largest_effort_first_a_labels_rows_together_on_ties():
    plan = [(SimpleNamespace(id=i), _Sized(k)) for i, k in [("thm:a", 5), ("thm:b", 0), ("thm:c", 9), ("thm:a", 5),
                                                             ("thm:c", 0), ("thm:b", 5), ("thm:a", 0)]]
    assert order(plan) == [2, 0, 3, 5, 6, 1, 4]  # 9; the 5s: thm:a (3 rows) before thm:b; the 0s: thm:a, b, c
    assert effort(None) == 0 and effort(_Sized(3)) == 3


def test_an_all_n_checks_effort_is_the_facts_it_proves_over():
    import importlib

    from proofs.cot_path_to_tree.algorithms.dfsstack_facts import VOCABULARY as DFS_STACK
    from proofs.cot_path_to_tree.algorithms.dfstree_facts import VOCABULARY as DFS_TREE
    from symcot.prove.alln.check import AllNCheck

    m = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")
    checks = [c for claim in m.CLAIMS for c in claim.checks if isinstance(c, AllNCheck)]
    assert [c.effort() for c in checks[:2]] == [len(DFS_STACK.facts), len(DFS_TREE.facts)]
    assert len(DFS_TREE.facts) > len(DFS_STACK.facts) > 0
    no_statement = AllNCheck(lambda: SimpleNamespace(all_n=None), m.SPEC, [])
    assert no_statement.effort() == 0


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


class _SlowClaim:
    """A row that takes a while in its worker (the workers are forked: they read it from the parent)."""

    def __init__(self, name):
        self.id = name

    def run_check(self, chk, max_size, progress, jobs, engine, reach):
        import time

        from symcot.check.verdict import Verdict

        time.sleep(0.2 if self.id == "fast" else 30)
        return Verdict(self.id, "as-written", "verified", "test", 1, 1, 0.0)


def test_an_interruption_mid_run_ends_the_workers_and_raises_it_again():
    import os
    import time

    import pytest

    from symcot.cli import pooled

    seen = []

    def on_row(i, row):
        seen.append(row.id)
        pids = list((getattr(pool_ref[0], "_processes", None) or {}).keys()) if pool_ref else []
        workers.extend(pids)
        raise KeyboardInterrupt  # as SIGTERM or Ctrl-C arrives while the other rows run

    pool_ref: list = []
    workers: list[int] = []
    real = pooled.ProcessPoolExecutor

    def keep(*a, **k):
        pool = real(*a, **k)
        pool_ref.append(pool)
        return pool

    mp = pytest.MonkeyPatch()
    mp.setattr(pooled, "ProcessPoolExecutor", keep)
    try:
        t0 = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            pooled.run_pooled([(_SlowClaim("fast"), None), (_SlowClaim("slow"), None), (_SlowClaim("slow2"), None)],
                              2, None, "exact", None, on_row)
        assert seen == ["fast"] and time.monotonic() - t0 < 20  # the slow rows were not waited for
    finally:
        mp.undo()
    assert workers, "the test saw no worker"
    for pid in workers:
        stat = f"/proc/{pid}/stat"
        assert not os.path.exists(stat) or open(stat).read().rsplit(")", 1)[1].split()[0] == "Z", \
            f"worker {pid} outlived the interruption"
