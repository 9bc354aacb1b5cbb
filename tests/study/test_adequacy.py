"""Mutation analysis end to end on the prefix-sum claim: kills, a deep bug, scratch-only and equivalent mutants."""

import json
from dataclasses import replace

import pytest

from symcot.constructions.mutant import statement_digest, symbolic_mutants
from symcot.errors import SymcotError
from symcot.study.adequacy import Analysis, Settings, analyse, carried_over, load_states, save_state, select
from symcot.study.coverage import coverage
from symcot.study.mutation import target_of
from tests.check.prefix_sum import PrefixSum, claim, decoder

SETTINGS = Settings(size=4, sample=0, reach=7, budget=30, per_size=3)


@pytest.fixture(scope="module")
def deep():
    """Every mutant of the prefix-sum decoder with the planted cancelling pair ± c(n)·bit (right up to n = 4)."""
    return analyse(target_of(claim(deep=True)), SETTINGS)


def test_a_deep_bug_raises_the_recommended_default_past_it(deep):
    exposed = {r.id: r for r in deep.by_status("exposed")}
    assert "1/W_1/sum/3:c=0" in exposed  # drop - c(n)·bit: passes n ≤ 4, fails at n = 5
    r = exposed["1/W_1/sum/3:c=0"]
    assert r.kill_size == 5 and r.beyond["exhaustive"] and r.beyond["input"]["text"] == "00001"
    assert deep.max_kill_size == 5 and deep.recommended_default() == 6 > deep.current_default
    killed, bc = deep.score
    assert killed < bc and deep.killed_at(6) == (bc, bc) and deep.killed_at(4) == (killed, bc)


def test_a_planted_construction_right_up_to_a_size_is_caught_and_sized():
    t = target_of(claim())
    planted = PrefixSum("demo:prefixsum", "wrong-beyond-4", decoder(wrong_beyond=True))
    a = analyse(t, Settings(size=4, sample=3, reach=7, budget=30, per_size=3), extra=[planted])
    r = a.results["wrong-beyond-4"]
    assert r.status == "exposed" and r.kill_size == 5 and a.recommended_default() == 6


def test_killed_mutants_have_their_kill_size(deep):
    killed = {r.id: r.kill_size for r in deep.by_status("killed")}
    assert killed["1/W_1/sum/1:implicit=0"] == 1  # sum without the bit: wrong on "1"
    assert killed["1/W_1/pos/m:implicit=0"] == 2  # the position is not advanced: wrong from the second bit
    assert killed["1/W_1/sum/2:c=n+1"] == 4  # c(n + 1) wakes up one size earlier: killed at the default exactly
    assert all(deep.results[i].kill["killed"] for i in killed)


def test_a_scratch_only_mutant_is_reported_as_such(deep):
    scratch = {r.id: r for r in deep.by_status("scratch-only")}
    assert set(scratch) == {f"1/{m}/flg/:implicit={op}" for m in ("W_1", "W_2") for op in ("0", "+1", "neg")}
    assert all(r.beyond["scratch"].keys() == {"flg"} for r in scratch.values())
    assert all(r.kill_size is None for r in scratch.values())


def test_mutants_that_change_nothing_observable_are_equivalent(deep):
    eq = {r.id for r in deep.by_status("equivalent")}
    assert {"1/Q_R/p/:implicit=+1", "1/K_R/p/:implicit=+1"} <= eq  # the scores doubled: the same choices
    inert = {r.id: r.reason for r in deep.by_status("inert")}
    assert inert["1/V_R/sum/:implicit=0"] == "W_O of layer 1 does not read block sum of head R's value"
    assert inert["1/W_2/bit/:implicit=neg"] == "the term reads only bit, set to zero by W_1 of layer 1"
    assert not deep.by_status("error") and deep.complete


def test_the_selection_takes_every_symbolic_and_inert_mutant_and_a_seeded_sample():
    ms = symbolic_mutants(target_of(claim(deep=True)).make())
    picked = select(ms, 5, seed=1)
    assert picked == select(ms, 5, seed=1) and picked != select(ms, 5, seed=2)
    symbolic = [m for m in ms if m.site.symbolic]
    assert symbolic and all(m in picked for m in symbolic)
    assert len(picked) == len(symbolic) + 12 + 5  # 12 inert: V's pos, sum, flg and W_2's bit, × 3 operators
    assert select(ms, 0, 0) == ms


def test_shards_resume_from_their_state_files(tmp_path):
    t = target_of(claim(deep=True))
    s0, s1 = tmp_path / "s0.json", tmp_path / "s1.json"
    a0 = analyse(t, SETTINGS, shard=(0, 2), states=[s0])
    assert not a0.complete and set(json.loads(s0.read_text())["results"]) == set(a0.results)
    analyse(t, SETTINGS, shard=(1, 2), states=[s1])
    both = analyse(t, SETTINGS, states=[s0, s1])  # nothing left to decide
    assert both.complete and both.seconds < 5
    assert both.score == (len(both.by_status("killed")), len(both.behaviour_changing))
    with pytest.raises(SymcotError, match="other settings"):
        load_states([s0], t, Settings(size=5, sample=0))
    other = target_of(claim())
    other.claim_id = "demo:other"
    with pytest.raises(SymcotError, match="is not of demo:other"):
        load_states([s0], other, SETTINGS)


def test_coverage_saturation_counts_towards_the_recommendation():
    t = target_of(claim())
    a = Analysis(t.claim_id, t.variant, 1, Settings(size=1), 0, [])
    assert a.recommended_default() == 1
    a.coverage = coverage(t.make(), t.spec, t.families, 3)
    assert a.coverage.saturation == 2 and a.recommended_default() == 2


def test_a_state_file_is_written_atomically(tmp_path):
    t = target_of(claim())
    a = Analysis(t.claim_id, t.variant, 4, SETTINGS, 0, [])
    save_state(tmp_path / "s.json", a)
    assert load_states([tmp_path / "s.json"], t, SETTINGS) == {}
    assert not (tmp_path / "s.json.tmp").exists()


def test_an_analysis_at_a_larger_size_carries_over_what_still_holds(tmp_path):
    t = target_of(claim(deep=True))
    at4 = tmp_path / "at4.json"
    first = analyse(t, SETTINGS, states=[at4])
    exposed = {r.id for r in first.by_status("exposed")}
    at6 = analyse(t, replace(SETTINGS, size=6), reuse=[at4])
    carried = {k for k, r in at6.results.items() if r.reason and r.reason.startswith("carried over")}
    assert exposed <= carried  # exposed at n = 5 by an exhaustive family: killed at 6 by the same input
    survivors = {r.id for r in first.done() if r.status in ("equivalent", "scratch-only")}
    assert survivors <= carried  # compared on every bit string of n = 5, 6 (and 7) by the run at 4
    assert all(at6.results[k].status == first.results[k].status for k in survivors)
    assert all(at6.results[k].status == "killed" and at6.results[k].kill_size == 5 for k in exposed)
    assert at6.score == (len(at6.behaviour_changing), len(at6.behaviour_changing))  # 100 % at the new default
    assert at6.recommended_default() == 6
    at3 = carried_over([at4], t, replace(SETTINGS, size=3))
    assert all(r.status == "inert" or r.kill_size <= 3 for r in at3.values())
    assert {r.status for r in at3.values()} == {"inert", "killed"}
    other = target_of(claim())
    other.claim_id = "demo:other"
    with pytest.raises(SymcotError, match="is not of demo:other"):
        carried_over([at4], other, SETTINGS)


def test_a_state_file_of_another_statement_is_refused(tmp_path):
    """Results are about one statement: after the construction changes, neither --state nor --reuse takes them."""
    t = target_of(claim(deep=True))
    path = tmp_path / "s.json"
    a = analyse(t, replace(SETTINGS, sample=3), states=[path])
    assert json.loads(path.read_text())["statement"] == a.statement == statement_digest(t.make().decoder)
    changed = target_of(claim(wrong_beyond=True))  # another statement of the same claim and variant
    assert statement_digest(changed.make().decoder) != a.statement
    with pytest.raises(SymcotError, match="another statement"):
        analyse(changed, replace(SETTINGS, sample=3), states=[path])
    with pytest.raises(SymcotError, match="another statement"):
        analyse(changed, replace(SETTINGS, sample=3), reuse=[path])
    legacy = json.loads(path.read_text())
    del legacy["statement"]  # written before digests were recorded: taken as it is
    path.write_text(json.dumps(legacy))
    assert load_states([path], changed, replace(SETTINGS, sample=3), statement_digest(changed.make().decoder))


def test_the_toys_verdicts_are_those_of_the_input_by_input_comparison():
    """The partition the comparison gave when it checked each differing input by exact replay, one by one."""
    a = analyse(target_of(claim()), Settings(size=4, sample=0, reach=6, budget=300))
    by = {s: {r.id for r in a.by_status(s)} for s in ("inert", "killed", "exposed", "scratch-only", "equivalent",
                                                       "error")}
    assert {s: len(ids) for s, ids in by.items()} == {"inert": 12, "killed": 25, "exposed": 0, "scratch-only": 6,
                                                      "equivalent": 2, "error": 0}
    assert by["scratch-only"] == {f"1/{m}/flg/:implicit={op}" for m in ("W_1", "W_2") for op in ("0", "+1", "neg")}
    assert by["equivalent"] == {"1/K_R/p/:implicit=+1", "1/Q_R/p/:implicit=+1"}
    assert sorted(r.kill_size for r in a.by_status("killed")) == [1] * 12 + [2] * 13
    assert all(r.beyond["scratch"] == {"flg": 32 + 64} and r.beyond["every"] == {"bit strings": [5, 6]}
               for r in a.by_status("scratch-only"))
