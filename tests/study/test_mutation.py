"""A claim's own check on a mutant: the target read off the claim, the kill and its size."""

import pytest

from symcot.check.exhaustive import run_construction_check
from symcot.constructions.mutant import SymbolicMutant, sites
from symcot.errors import SymcotError
from symcot.study.mutation import construction_checks, kill, run_check, target_of
from tests.check.prefix_sum import BITS, SPEC, claim


def _mutant(target, sid, value):
    base = target.make()
    return SymbolicMutant(base, next(s for s in sites(base.decoder) if s.id == sid), value)


def test_the_target_is_read_off_the_claims_own_check(claims):
    dfs = claims["thm:cotdfs"]
    t, chk = target_of(dfs), dfs.checks[0]
    assert (t.variant, t.spec, t.families) == ("as-written", chk.spec, chk.families)
    assert t.default_size == dfs.default_max_size
    dij = target_of(claims["thm:cotdijkstra"], "repaired")  # a λ-scan check: its construction factory
    assert dij.make().variant == "repaired" and dij.default_size == claims["thm:cotdijkstra"].default_max_size
    assert [c.variant for c in construction_checks(claims["thm:cotdijkstra"])] == [
        "as-written", "missing-arc-0", "repaired"]  # the symbolic checks are not replays


def test_a_claim_without_a_construction_or_variant_is_refused(claims):
    with pytest.raises(SymcotError, match="no construction check"):
        target_of(claims["lem:addwidplus1"])
    with pytest.raises(SymcotError, match="no construction variant 'nope'; it has as-written"):
        target_of(claims["thm:cotdfs"], "nope")


def test_a_killed_mutant_has_its_kill_size_the_smallest_counterexamples():
    t = target_of(claim())
    m = _mutant(t, "1/W_1/pos/m:implicit", 0)  # the position shift is lost: wrong from the second bit on
    k = kill(t, m, 4)
    assert k.killed and k.size == 2 and k.exhaustive and k.family == "bit strings"
    assert k.input == {"bits": [0, 1], "text": "01"} and k.where["step"] == 2 and k.where["block"] == "sum"
    exact = run_construction_check(t.claim_id, m, SPEC, [BITS], 4)
    assert exact.counterexample["size"] == k.size and exact.counterexample["input"] == k.input


def test_a_mutant_the_check_passes_is_not_killed():
    t = target_of(claim())
    k = kill(t, _mutant(t, "1/Q_R/p/:implicit", 2), 4)  # scores doubled: the same choices
    assert not k.killed and k.error is None and k.checked_to == 4 and k.inputs_checked == 30


def test_exact_and_batched_replay_give_the_same_kill():
    t = target_of(claim(deep=True, default=6))
    m = _mutant(t, "1/W_1/sum/3:c", 0)  # drops - c(n)·bit: right up to n = 4
    exact, batched = kill(t, m, 6, exact_below=10**9), kill(t, m, 6, exact_below=0)
    assert exact.as_dict() | {"seconds": 0} == batched.as_dict() | {"seconds": 0}
    assert exact.size == 5 and exact.input == {"bits": [0, 0, 0, 0, 1], "text": "00001"}


def test_min_size_skips_sizes_known_to_pass():
    t = target_of(claim(deep=True))
    m = _mutant(t, "1/W_1/sum/3:c", 0)
    assert kill(t, m, 6, min_size=5).size == 5
    row = run_check(t, m, 4)
    assert row.verdict == "verified" and row.max_size == 4


@pytest.mark.slow
def test_a_default_one_size_below_the_evidence_lets_a_real_mutant_through(claims):
    """thm:cotpathstrahler [repaired]: dropping ``-π_M_buf`` from ``tmp_D-1`` in layer 2 passes every Dyck word
    of 9 vertices and fails at 10 (docs/adequacy.md): a default of 9 would miss it, the claim's default does not."""
    t = target_of(claims["thm:cotpathstrahler"], "repaired")
    m = _mutant(t, "2/W_2/tmp_D-1/2:c", 0)
    passed = kill(t, m, 9, exhaustive_only=True, min_size=9)
    assert not passed.killed and passed.error is None and passed.inputs_checked == 1430
    caught = kill(t, m, 10, exhaustive_only=True, min_size=10)
    assert caught.killed and caught.size == 10 and caught.exhaustive
    assert caught.input["word"] == "UDUDUUUDUDDUUDUDDD" and caught.where["block"] == "tmp_D-1"
    assert claims["thm:cotpathstrahler"].default_max_size >= caught.size + 1


def test_a_scan_of_a_constant_is_not_a_construction_but_a_departures_check_is(claims):
    # a λ-scan's make(value) cannot build the construction alone; a departures check's make() can
    assert construction_checks(claims["thm:cottreestrahler:lambda"]) == []
    fact = construction_checks(claims["thm:cotdfs:fact1"])
    assert fact and target_of(claims["thm:cotdfs:fact1"]).paper_sizes == {}
