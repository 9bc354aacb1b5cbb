"""The search for a real counterexample beyond the all-n proof's concrete phase."""

import dataclasses
import itertools

from symcot.inputs.family import Family
from symcot.prove.alln.search import agreement, exhaustive_top, model_inputs, sample, search
from tests.prove.alln.prefix_toys import capped, ps


def test_a_capped_counter_is_refuted_at_its_smallest_input_as_the_default_check_reports_it():
    found = search("demo:prefixsum", capped(6)(), ps.SPEC, [ps.BIT_STRINGS], 5)
    assert found.found and found.row.counterexample["input"] == {"text": "1111111"}
    assert found.row.counterexample["block"] == "sum" and found.row.max_size == 6
    assert found.exhaustive == {"bit strings": 7} and found.inputs == 32 + 64 + 128  # whole batches


def test_a_right_decoder_keeps_searching_to_the_bound_and_says_how_far():
    found = search("demo:prefixsum", ps.as_written(), ps.SPEC, [ps.BIT_STRINGS], 5, model_sizes=[13],
                   model={"bit": {(3,): 1}}, input_symbols=ps.VOCABULARY.inputs, exhaustive_size=7, sample_size=9,
                   samples=8)
    assert not found.found and found.row is None
    assert found.exhaustive == {"bit strings": 7} and found.sampled == {8: 8, 9: 8, 13: 8}
    assert found.text().startswith("exact replay of every input (bit strings up to n = 7); 24 seeded samples at "
                                   "n = 8..9, 13: ")
    assert found.as_dict()["found"] is False


def test_samples_are_seeded_and_ranked_access_or_small_enumeration_is_needed():
    assert sample(ps.BIT_STRINGS, 10, 5) == sample(ps.BIT_STRINGS, 10, 5) and len(sample(ps.BIT_STRINGS, 10, 5)) == 5
    assert sample(ps.BIT_STRINGS, 3, 100) == list(itertools.product((0, 1), repeat=3))
    unranked = dataclasses.replace(ps.BIT_STRINGS, inputs_range=None)
    assert sample(unranked, 40, 5) is None
    ranked = Family("ranked", inputs=lambda k: iter(()), count=lambda k: 2 ** k,
                    inputs_range=lambda k, a, b: [tuple(int(c) for c in format(r, f"0{k}b")) for r in range(a, b)])
    assert len(sample(ranked, 40, 3)) == 3


def test_the_model_shapes_which_inputs_are_replayed_first():
    model = model_inputs(["t = 5", "bit(t) = bit(5) = 1", "acc(t) = acc(5) = 5", "n = 6"])
    assert model == {"bit": {(5,): 1}, "acc": {(5,): 5}}
    assert agreement(ps.VOCABULARY.inputs((0, 0, 0, 0, 0, 1)), model) == 1
    assert agreement(ps.VOCABULARY.inputs((0, 0, 0, 0, 0, 0)), model) == 0


def test_the_exhaustive_bound_stops_at_the_first_size_that_is_too_large():
    assert exhaustive_top(ps.BIT_STRINGS, 5, limit=14, inputs=2 ** 10) == 10
    assert exhaustive_top(ps.BIT_STRINGS, 12, limit=14, inputs=2 ** 10) == 11
