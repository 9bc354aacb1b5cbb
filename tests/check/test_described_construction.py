"""A decoder construction under a non-default description: checked by the exact engine, unknown when undecided."""

import dataclasses
from fractions import Fraction

from symcot.check.exhaustive import run_construction_check
from symcot.model.description import AHAT, SMAT, HeadRule, ModelDescription
from tests.fixtures.toys import TOY_SPEC, ToyConstruction, one_winner_family


def _toy(kind):
    cons = ToyConstruction()
    cons.decoder = dataclasses.replace(cons.decoder, description=ModelDescription("toy", head=HeadRule("future", kind)))
    return cons


def test_average_hard_attention_runs_exactly_and_is_verified():
    row = run_construction_check("toy", _toy(AHAT()), TOY_SPEC, [one_winner_family(lambda n: 3, lambda n: 1, 4)], 4)
    assert row.verdict == "verified" and row.max_size == 4


def test_softmax_is_refuted_where_its_balls_exclude_the_reference_and_unknown_where_they_contain_it():
    row = run_construction_check("toy", _toy(SMAT(1)), TOY_SPEC, [one_winner_family(lambda n: 3, lambda n: 1, 4)], 4)
    assert row.verdict == "refuted" and row.counterexample["block"] == "out"
    same = run_construction_check("toy", _toy(SMAT(Fraction(1, 2))), TOY_SPEC,
                                  [one_winner_family(lambda n: 1, lambda n: 1, 3)], 3)
    assert same.verdict == "unknown"
    und = same.details["undecided"]
    assert und["what"].startswith("block out against the reference 1") and "+/-" in und["interval"]


def test_a_trace_shows_the_weights_of_a_described_head():
    from symcot.check.trace import render_text, replay
    from tests.fixtures.toys import ToyInput

    text = render_text(replay(_toy(AHAT()), ToyInput(((1, 3), (1, 5), (0, 1)), 0), TOY_SPEC))
    assert "head A (average) -> {x_0: 1/2, x_1: 1/2}" in text and "ok: matches the reference" not in text
    soft = render_text(replay(_toy(SMAT(1)), ToyInput(((1, 3),), 0)))
    assert "head A (softmax) -> {x_0: [0.73" in soft


def test_the_batched_engine_hands_a_described_construction_to_the_exact_one():
    from symcot.check.context import RunContext
    from symcot.check.exhaustive import Progress
    from symcot.claims import ConstructionCheck

    chk = ConstructionCheck(lambda: _toy(AHAT()), TOY_SPEC, [one_winner_family(lambda n: 3, lambda n: 1, 3)],
                            input_kind="custom")
    row = chk.run(RunContext("toy", 3, Progress(False), 1, "batched"))
    assert row.verdict == "verified" and "[batched engine]" not in row.method
    assert any("the batched engine runs Section 3's rules only" in note for note in row.notes)
