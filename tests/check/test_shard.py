"""Sharding: ranked enumerations, the reduction to the smallest counterexample, local and Dask engines."""

import sys

import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from symcot.check import shard
from symcot.check.batched_check import run_batched_check
from symcot.check.exhaustive import Family, run_construction_check
from symcot.constructions.mutant import Mutant
from symcot.errors import SymcotError
from symcot.inputs import digraphs_with_sources, ordered_trees, rooted_labeled_trees, simple_digraphs


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_digraph_ranges_are_slices_of_the_full_enumeration(n):
    full = list(simple_digraphs(n))
    assert [shard.digraph_unrank(n, r) for r in range(len(full))] == full
    for a, b in [(0, len(full)), (3, 17), (5, 6), (len(full) - 3, len(full) + 5), (9, 9)]:
        assert list(shard.simple_digraphs_range(n, a, b)) == full[a:b]
    pairs = list(digraphs_with_sources(n))
    for a, b in [(0, len(pairs)), (1, len(pairs) - 1), (7, 30)]:
        assert list(shard.digraphs_with_sources_range(n, a, b)) == pairs[a:b]


@pytest.mark.parametrize("n", [1, 2, 4, 6])
def test_tree_ranges_are_slices_of_the_full_enumeration(n):
    full = list(rooted_labeled_trees(n))
    for a, b in [(0, len(full)), (1, len(full) - 1), (5, 6)]:
        assert list(shard.rooted_labeled_trees_range(n, a, b)) == full[a:b]
    ordered = list(ordered_trees(n))
    assert list(shard.ordered_trees_range(n, 1, 3)) == ordered[1:3]


def test_range_functions_of_the_proofs_families(dfs_proofs):
    assert shard.range_function(dfs_proofs.DIGRAPHS) is shard.digraphs_with_sources_range
    assert shard.range_function(dfs_proofs.TREES) is shard.rooted_labeled_trees_range
    assert shard.range_function(dfs_proofs.RANDOM) is None  # a random sample is checked in-process
    own = Family("own", lambda n: iter(()), lambda n: 0, str)
    own.inputs_range = lambda n, a, b: range(a, b)
    assert list(shard.range_function(own)(0, 2, 4)) == [2, 3]


def test_plan_shards_covers_every_rank_once():
    s = shard.plan_shards(7, 10_001, 4, min_shard=1000)
    assert s[0].start == 0 and s[-1].stop == 10_001 and all(a.stop == b.start for a, b in zip(s, s[1:]))
    assert shard.plan_shards(7, 0, 4) == []


def test_reduction_keeps_the_smallest_failure_and_counts_up_to_it():
    def res(a, b, fail=None):
        s = shard.Shard(5, a, b)
        return shard.ShardResult(s, (fail - a + 1) if fail is not None else b - a,
                                 None if fail is None else (fail, f"input {fail}", {"rank": fail}))

    # shards finished in any order; failures in shards 2 and 4: the one at rank 130 wins
    results = [res(300, 400, 350), res(0, 100), res(200, 300), res(100, 200, 130)]
    checked, failure = shard.reduce_results(results)
    assert failure[0] == 130 and checked == 131
    assert shard.reduce_results([res(0, 100), res(100, 150)]) == (150, None)


def strip(v):
    d = v.as_dict()
    d.pop("seconds")
    d.pop("details")
    return d


@pytest.fixture
def small_shards(monkeypatch):
    monkeypatch.setattr(shard, "SHARD_THRESHOLD", 50)
    monkeypatch.setattr(shard, "MIN_SHARD", 4)
    monkeypatch.setattr(shard, "MAX_SHARD", 5)


def test_local_pool_gives_the_single_process_result(dfs_proofs, small_shards):
    fams = [dfs_proofs.DIGRAPHS]
    for cons in (DfsConstruction(), Mutant(DfsConstruction(), 1, "W_2", ("flg1", 0), [("flg2", 0)], 0)):
        one = run_construction_check("thm:cotdfs", cons, dfs_proofs.SPEC, fams, 3)
        two = run_batched_check("thm:cotdfs", cons, dfs_proofs.SPEC, fams, 3, jobs=2, batch=40)
        assert strip(one) == strip(two)
        assert two.details["shards"]["sharded_sizes"] == [3] and two.details["shards"]["shards"] >= 2


def test_a_failure_in_a_late_shard_is_the_smallest_overall(dfs_proofs, small_shards):
    """flg1 = ReLU(γ) first fails at rank 21 of n = 3 (two unvisited neighbours), in the fifth shard of five ranks."""
    mut = Mutant(DfsConstruction(), 1, "W_2", ("flg1", 0), [("flg2", 0)], 0)
    one = run_construction_check("t", mut, dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 4)
    two = run_batched_check("t", mut, dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 4, jobs=2, batch=3)
    assert one.verdict == "refuted" and strip(one) == strip(two)
    assert one.inputs_checked - (1 + 8) == 22 and two.details["shards"]["shards"] >= 5


def test_dask_local_cluster_gives_the_single_process_result(dfs_proofs, small_shards, monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(shard, "MAX_SHARD", 48)  # four shards of n = 3
    fams = [dfs_proofs.DIGRAPHS]
    bad = Mutant(DfsConstruction(), 2, "W_2", ("par", 1), [("flg1", 0), ("buf", 1)], 0)
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        eng = shard.DaskEngine(client)
        for cons in (DfsConstruction(), bad):
            one = run_construction_check("thm:cotdfs", cons, dfs_proofs.SPEC, fams, 3)
            got = run_batched_check("thm:cotdfs", cons, dfs_proofs.SPEC, fams, 3, engine=eng, batch=40)
            assert strip(one) == strip(got)
            assert got.details["shards"]["engine"] == "dask"


def test_dask_missing_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(SymcotError, match="pip install 'symcot\\[distributed\\]'"):
        shard.DaskEngine()
