"""Survivors of the default check compared with the original beyond the default size."""

from symcot.constructions.mutant import SymbolicMutant, sites
from symcot.study import survivors
from symcot.study.mutation import target_of
from symcot.study.survivors import Beyond, _sample, compare_beyond
from tests.check.prefix_sum import BITS, claim


def _mutant(base, sid, value):
    return SymbolicMutant(base, next(s for s in sites(base.decoder) if s.id == sid), value)


def test_a_deep_mutant_is_exposed_by_the_first_exhaustive_size_above_the_default():
    t = target_of(claim(deep=True))
    base = t.make()
    b = compare_beyond(t, base, _mutant(base, "1/W_1/sum/3:c", 0), 4, reach=8, budget=30)
    assert b.status == "exposed" and b.size == 5 and b.exhaustive and b.smallest
    assert b.input == {"bits": [0, 0, 0, 0, 1], "text": "00001"}  # the smallest input, in the family's order
    assert (b.where["step"], b.where["block"], b.where["expected"], b.where["got"]) == (5, "sum", [1], [2])
    assert b.departure["token"] == "x_4" and b.departure["name"] == "sum"


def test_a_scratch_only_mutant_lists_the_blocks_the_check_does_not_compare():
    t = target_of(claim())
    base = t.make()
    b = compare_beyond(t, base, _mutant(base, "1/W_2/flg/:implicit", 0), 4, reach=7, budget=30, per_size=3)
    assert b.status == "scratch-only" and b.scratch == {"flg": 32 + 64 + 128}
    assert b.every == {"bit strings": [5, 6, 7]} and b.sampled == {} and b.inputs_compared == 224
    assert b.scratch_example["blocks"] == ["flg"] and b.scratch_example["step"] == 1


def test_an_equivalent_mutant_is_equal_on_every_input_compared():
    t = target_of(claim())
    base = t.make()
    b = compare_beyond(t, base, _mutant(base, "1/K_R/p/:implicit", 2), 4, reach=9, budget=30, per_size=2)
    assert b.status == "equivalent" and not b.scratch and b.size is None
    assert b.every == {"bit strings": [5, 6, 7, 8, 9]} and b.sampled == {}
    assert Beyond.from_dict(b.as_dict()).status == "equivalent"


def test_an_exhaustive_size_over_the_budget_is_abandoned_for_random_inputs_and_said(monkeypatch):
    monkeypatch.setattr(survivors, "CHUNK", 8)
    monkeypatch.setattr(survivors._Clock, "fits", lambda self, count: False)  # the rest never fits
    t = target_of(claim())
    base = t.make()
    b = compare_beyond(t, base, _mutant(base, "1/K_R/p/:implicit", 2), 4, reach=6, budget=30, per_size=3)
    assert b.every == {} and b.over_budget == {"bit strings": [5, 32]} and b.sampled == {"bit strings": [5, 6]}
    assert b.inputs_compared == 8 + 3 + 3  # the first chunk of n = 5, then three random inputs per size


def test_a_rate_measured_on_a_chunk_replaces_a_pessimistic_first_estimate():
    t = target_of(claim())
    base = t.make()
    b = compare_beyond(t, base, _mutant(base, "1/K_R/p/:implicit", 2), 4, reach=7, budget=30, rate=10.0)
    assert b.every == {"bit strings": [5, 6, 7]}


def test_random_inputs_are_seeded_uniform_ranks():
    a, b = _sample(BITS, 12, 5, seed=1), _sample(BITS, 12, 5, seed=1)
    assert a == b and len(a) == 5 and all(len(x) == 12 for x in a)
    assert _sample(BITS, 12, 5, seed=2) != a


def _record(b):
    return {k: v for k, v in b.as_dict().items() if k != "seconds"}


def test_the_batched_check_of_differing_inputs_records_what_exact_replay_input_by_input_does():
    for deep, sid, value in ((False, "1/W_2/flg/:implicit", 0), (False, "1/W_1/flg/:implicit", -1),
                             (False, "1/K_R/p/:implicit", 2), (True, "1/W_1/sum/3:c", 0)):
        t = target_of(claim(deep=deep))
        base = t.make()
        m = _mutant(base, sid, value)
        batched = compare_beyond(t, base, m, 4, reach=7, budget=300, per_size=3)
        exact = compare_beyond(t, base, m, 4, reach=7, budget=300, per_size=3, exact=True)
        assert _record(batched) == _record(exact), sid
        assert batched.status == ("exposed" if deep else "equivalent" if "K_R" in sid else "scratch-only")
