"""The seeded search for the largest magnitudes and smallest margins of a size, on families with known extremes."""

import itertools

import pytest

from symcot.check.extremal import family_probes
from symcot.check.extremal_search import PATIENCE, SEARCH_BUDGET, UNRANKED_SPAN, Score, guided_search
from symcot.inputs.family import Family

RANKS = 1000


def _ranked(name: str, ranks: int = RANKS) -> Family:
    return Family(name, lambda n: ((n, r) for r in range(ranks)), lambda n: ranks,
                  inputs_range=lambda n, a, b: ((n, r) for r in range(a, b)))


def _missed_by_old(fam: Family, n: int) -> int:
    """A middle rank the fixed selection (first, last and seeded random ranks) does not take."""
    taken = {r for _, r in family_probes([fam]).inputs(n)}
    return next(r for r in range(RANKS // 2, RANKS) if r not in taken and r - 1 not in taken and r + 1 not in taken)


class Tent:
    """An evaluator whose magnitude peaks at rank ``peak`` and whose margin is smallest at rank ``low``."""

    def __init__(self, peak: int, low: int):
        self.peak, self.low, self.calls = peak, low, []

    def __call__(self, inputs):
        self.calls.append(list(inputs))
        return [Score(10_000 - abs(r - self.peak), 0, 1 + abs(r - self.low)) for _, r in inputs]


def test_the_search_finds_a_largest_magnitude_the_fixed_ranks_miss():
    fam = _ranked("middle")
    peak = _missed_by_old(fam, 40)
    low = _missed_by_old(fam, 40) - 137
    tent = Tent(peak, low)
    old = Tent(peak, low)(family_probes([fam]).inputs(40))
    assert max(s.magnitude for s in old) < 10_000 and min(s.margin for s in old) > 1  # the old selection misses both
    found = guided_search([fam], 40, tent)
    log = found.log
    assert log.largest.rank == peak and log.largest.score.magnitude == 10_000 and log.largest.input == (40, peak)
    assert log.smallest_margin.rank == low and log.smallest_margin.score.margin == 1
    assert (40, peak) in found.inputs and found.source[repr((40, peak))] is fam
    assert log.pool == len(family_probes([fam]).inputs(40)) and 0 < log.refined <= SEARCH_BUDGET
    assert log.evaluated == len(found.inputs) == len({repr(x) for x in found.inputs})  # each input once
    assert sum(len(c) for c in tent.calls) == log.evaluated and len(tent.calls) - 1 <= log.rounds


def test_the_search_is_deterministic_and_seeded():
    fam = _ranked("middle")
    runs = [guided_search([fam], 40, Tent(612, 377)) for _ in range(2)]
    assert runs[0].inputs == runs[1].inputs
    assert (runs[0].log.rounds, runs[0].log.refined) == (runs[1].log.rounds, runs[1].log.refined)
    other = guided_search([fam], 40, Tent(612, 377), seed=1)
    assert other.inputs[: other.log.pool] != runs[0].inputs[: runs[0].log.pool]


def test_the_budget_bounds_the_refinement_per_family():
    a, b = _ranked("a"), _ranked("b")
    for budget in (0, 5):
        found = guided_search([a, b], 40, Tent(612, 377), budget=budget)
        per_family = {name: sum(1 for x in found.inputs[found.log.pool:] if found.source[repr(x)].name == name)
                      for name in ("a", "b")}
        assert all(v <= budget for v in per_family.values()), per_family
    # families a and b hold the same inputs: one met in both (rank 0) is evaluated once, described by the first
    assert found.source[repr((40, 0))] is a and len({repr(x) for x in found.inputs}) == len(found.inputs)
    assert {found.source[repr(x)].name for x in found.inputs} == {"a", "b"}  # b's own random ranks are b's


def test_a_flat_objective_stops_after_the_patience_and_margins_may_be_absent():
    calls = []

    def flat(inputs):
        calls.append(len(inputs))
        return [Score(7, 7, None) for _ in inputs]

    found = guided_search([_ranked("flat", 10**12)], 40, flat, budget=10_000)
    assert found.log.smallest_margin is None and found.log.largest.score.magnitude == 7
    assert found.log.rounds <= PATIENCE and found.log.refined <= 2 * 2 * PATIENCE


def test_an_unranked_family_is_searched_within_its_span():
    seen = []
    fam = Family("unranked", lambda n: ((n, r) for r in itertools.count()), lambda n: 10**9)

    def slope(inputs):
        seen.extend(r for _, r in inputs)
        return [Score(r, 0, None) for _, r in inputs]

    found = guided_search([fam], 3, slope)
    assert max(seen) < UNRANKED_SPAN and found.log.largest.rank > 3 * 8  # past the first inputs the pool takes
    short = Family("short", lambda n: [(n, r) for r in range(30)], lambda n: 10**9)
    assert guided_search([short], 3, slope).log.largest.rank == 29  # the end of the enumeration bounds the span


def test_no_family_of_the_size_evaluates_nothing():
    fam = Family("small", lambda n: [n], lambda n: 1, max_size=3)
    found = guided_search([fam], 10, lambda inputs: pytest.fail("nothing to evaluate"))
    assert found.inputs == [] and found.log.largest is None and found.log.evaluated == 0
