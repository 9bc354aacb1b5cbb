"""Inputs beyond the exhaustive sizes: the path and the star, and a few of each size from a claim's own families."""

import itertools

from symcot.check.extremal import PER_FAMILY, extremal_inputs, family_probes, in_domain
from symcot.inputs.family import Family


def _ranked(k, start, stop):
    return (tuple((r >> (k - 1 - i)) & 1 for i in range(k)) for r in range(start, stop))


BITS = Family("bit strings", lambda k: itertools.product((0, 1), repeat=k), lambda k: 2 ** k, inputs_range=_ranked)
PLAIN = Family("plain bit strings", lambda k: itertools.product((0, 1), repeat=k), lambda k: 2 ** k)
SHORT = Family("short words", lambda k: ["a" * k], lambda k: 1, max_size=3)


def test_a_ranked_family_gives_its_first_and_last_inputs_and_seeded_ranks():
    got = family_probes([BITS]).inputs(200)
    assert got[:2] == [(0,) * 200, (0,) * 199 + (1,)] and got[-1] == (1,) * 200  # 11…1: the largest sum
    assert 2 * PER_FAMILY < len(got) <= 3 * PER_FAMILY and len(set(got)) == len(got)
    assert family_probes([BITS]).inputs(200) == got  # seeded: the same inputs on every run
    assert family_probes([BITS], seed=1).inputs(200) != got


def test_an_unranked_family_gives_its_first_inputs_and_one_outside_its_sizes_none():
    probes = family_probes([PLAIN, SHORT])
    assert probes.inputs(40)[:1] == [(0,) * 40] and len(probes.inputs(40)) == 3 * PER_FAMILY
    assert probes.count(3) == 2 ** 3 + 1  # every plain bit string of 3, and the one short word
    assert probes.describe("aaa") == SHORT.describe("aaa") and not probes.exhaustive


def test_the_path_and_the_star_only_for_trees():
    assert [name for name, _ in extremal_inputs("dyck", 3)] == ["path", "star"]
    assert not in_domain("custom", [BITS])
