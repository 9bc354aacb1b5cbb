"""``symcot verify --scheduler``: the shards on a Dask cluster give the local run's verdicts and counterexamples."""

import json
import sys
import textwrap

import pytest

from symcot.check import shard
from symcot.cli import main

#: A user's claims directory: DFS as written, and a mutant that first fails at rank 21 of n = 3.
CLAIMS = textwrap.dedent('''
    import importlib

    from symcot.claims import Claim, ConstructionCheck
    from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
    from symcot.constructions.mutant import Mutant

    P = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")


    def flg1():
        return Mutant(DfsConstruction(), 1, "W_2", ("flg1", 0), [("flg2", 0)], 0)


    def claim(id, *constructions):
        return Claim(id, "theorem", "DFS", "test", [ConstructionCheck(c, P.SPEC, [P.DIGRAPHS]) for c in constructions],
                     default_max_size=3)


    CLAIMS = [claim("demo:dfs", DfsConstruction), claim("demo:flg1", flg1)]
''')


@pytest.fixture()
def proofs(tmp_path):
    d = tmp_path / "claims"
    d.mkdir()
    (d / "demo.py").write_text(CLAIMS)
    return d


@pytest.fixture()
def small_shards(monkeypatch):
    """n = 3 (192 inputs) in four shards of 48 ranks on the cluster; n ≤ 2 in this process."""
    monkeypatch.setattr(shard, "SHARD_THRESHOLD", 100)
    monkeypatch.setattr(shard, "MIN_SHARD", 4)


def _rows(path):
    """The report's rows without what depends on the machine (seconds) or on the split (shards, batch counts)."""
    rows = json.loads(path.read_text())["claims"]
    for r in rows:
        r.pop("seconds")
        details = r.get("details") or {}
        details.pop("shards", None)
        for key in ("batches", "batches_per_path"):
            (details.get("certificate") or {}).pop(key, None)
    return rows


def test_a_local_cluster_gives_the_local_verdicts_and_counterexamples(proofs, tmp_path, small_shards, capsys):
    pytest.importorskip("distributed")
    here, there = tmp_path / "here.json", tmp_path / "there.json"
    common = ["verify", "--proofs", str(proofs), "--no-progress"]
    assert main([*common, "--jobs", "1", "--json", str(here)]) == 1
    assert main([*common, "--jobs", "2", "--scheduler", "local", "--json", str(there)]) == 1
    capsys.readouterr()
    assert _rows(here) == _rows(there)
    verdicts = {r["id"]: r["verdict"] for r in _rows(there)}
    assert verdicts == {"demo:dfs": "verified", "demo:flg1": "refuted"}
    for r in json.loads(there.read_text())["claims"]:
        assert r["details"]["shards"]["engine"] == "dask" and r["details"]["shards"]["sharded_sizes"] == [3]
        assert r["details"]["shards"]["shards"] == 4
        failing = r["counterexample"] and r["counterexample"]["input"]["text"]
        assert failing in (None, "Digraph(n=3; 0->1, 0->2), source 0")


def test_without_dask_one_line_and_a_non_zero_exit(proofs, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert main(["verify", "--proofs", str(proofs), "--scheduler", "local"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "symcot: error: --scheduler needs the distributed extra: pip install 'symcot[distributed]'\n"


@pytest.mark.parametrize("extra, why", [(["--engine", "exact"], "--engine exact"), (["--symbolic"], "--symbolic"),
                                        (["--all-n"], "--all-n")])
def test_scheduler_goes_with_the_batched_engine(proofs, capsys, extra, why):
    assert main(["verify", "--proofs", str(proofs), "--scheduler", "local", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("symcot: error: --scheduler") and why in err and len(err.splitlines()) == 1


def test_an_unreachable_scheduler_is_one_line(proofs, capsys, monkeypatch):
    pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        assert main(["verify", "--proofs", str(proofs), "--scheduler", "tcp://127.0.0.1:9", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("symcot: error: --scheduler tcp://127.0.0.1:9: cannot reach the Dask scheduler")
    assert len(err.splitlines()) == 1
