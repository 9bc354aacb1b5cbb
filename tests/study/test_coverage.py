"""Coverage of activation regions, gadget cases and head decisions during exhaustive replay."""

import pytest

from symcot.constructions.mutant import SymbolicMutant, sites
from symcot.study.coverage import Coverage, coverage, sign, token_class
from symcot.study.mutation import target_of
from tests.check.prefix_sum import claim


def test_regions_and_classes():
    assert [sign(v) for v in (-3, 0, 2)] == ["neg", "zero", "pos"]
    assert [token_class(x) for x in ("x_⊥", "x_3", "y_0", "y_12")] == ["x_⊥", "x", "x", "y"][:2] + ["y", "y"]


def test_the_prefix_sum_regions_appear_by_size_and_saturate():
    t = target_of(claim())
    cov = coverage(t.make(), t.spec, t.families, 4)
    assert cov.sizes == {1: 2, 2: 4, 3: 8, 4: 16}
    regions = dict(cov.regions())
    assert regions[("relu", 1, "sum", "zero")] == 1 and regions[("relu", 1, "sum", "pos")] == 1
    # y_0 ties with x_0 (both at position 0): a tie won by the input token; x_0 alone is a strict maximum
    assert regions[("head", 1, "R", "tie:x")] == 1 and regions[("head", 1, "R", "max:x")] == 1
    assert ("relu", 1, "sum", "neg") not in regions  # a prefix sum is never negative
    assert regions[("relu", 1, "pos", "pos")] == 2  # at n = 1 the shift S_1 is zero
    assert cov.saturation == 2 and cov.largest == 4
    assert cov.new_per_size() == {1: len(cov.first) - 1, 2: 1, 3: 0, 4: 0}
    again = Coverage.from_dict(cov.as_dict())
    assert again.first == cov.first and again.saturation == cov.saturation


def test_a_region_only_a_broken_decoder_enters_is_recorded():
    t = target_of(claim())
    base = t.make()
    m = SymbolicMutant(base, next(s for s in sites(base.decoder) if s.id == "1/W_1/sum/1:implicit"), -1)
    cov = coverage(m, t.spec, t.families, 3)
    assert ("relu", 1, "sum", "neg") in cov.first  # sum - bit goes negative


@pytest.fixture(scope="module")
def dfs_cov(claims):
    t = target_of(claims["thm:cotdfs"])
    return coverage(t.make(), t.spec, t.families, 3)


def test_the_dfs_flag_gadget_cases_and_head_decisions(dfs_cov):
    gadget = {r[3]: s for r, s in dfs_cov.first.items() if r[0] == "gadget"}
    # 1[γ > 0] = ReLU(γ) - ReLU(γ - 1): γ = 0, γ = 1, γ ≥ 2 (two unvisited neighbours need n = 3)
    assert gadget == {"zero,neg": 1, "pos,zero": 2, "pos,pos": 3}
    heads = {r[2:]: s for r, s in dfs_cov.first.items() if r[0] == "head"}
    assert heads[("T", "tie:x")] == 3  # two unvisited neighbours: the smaller index wins
    assert heads[("B", "max:y")] == 1 and dfs_cov.saturation == 3
