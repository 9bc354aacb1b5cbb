"""Comparing two constructions token by token, and locating where their runs part."""

import itertools

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from symcot.constructions.mutant import SymbolicMutant, sites
from symcot.inputs import Digraph
from symcot.study.equivalence import locate, token_diffs
from symcot.study.mutation import target_of
from tests.check.prefix_sum import claim


def _mutant(base, sid, value):
    return SymbolicMutant(base, next(s for s in sites(base.decoder) if s.id == sid), value)


INPUTS = [bits for k in range(1, 7) for bits in itertools.product((0, 1), repeat=k)]
STEPS = [len(b) for b in INPUTS]


def test_a_scratch_change_shows_in_its_block_at_the_first_step():
    base = target_of(claim()).make()
    m = _mutant(base, "1/W_2/flg/:implicit", 2)  # y's flg doubled: 1 → 2 from y_1 on
    diffs = token_diffs(base, m, INPUTS, STEPS)
    assert [d.index for d in diffs] == list(range(len(INPUTS)))  # every input
    assert {(d.step, tuple(d.blocks)) for d in diffs} == {(1, ("flg",))}


def test_exact_and_batched_comparisons_agree():
    base = target_of(claim(deep=True)).make()
    m = _mutant(base, "1/W_1/sum/3:c", 0)  # + c(n)·bit: differs from n = 5 on, at the first 1 bit
    exact = token_diffs(base, m, INPUTS, STEPS, batch_from=10**9)
    batched = token_diffs(base, m, INPUTS, STEPS, batch_from=1)
    assert exact == batched
    assert all(len(INPUTS[d.index]) >= 5 for d in exact) and exact
    first = INPUTS[exact[0].index]
    assert first == (0, 0, 0, 0, 1) and exact[0].step == 5 and exact[0].blocks == ["sum"]


def test_equal_constructions_have_no_differences():
    base = target_of(claim()).make()
    same = _mutant(base, "1/Q_R/p/:implicit", 3)  # the scores tripled: the same choices
    assert token_diffs(base, same, INPUTS, STEPS) == []
    assert token_diffs(base, same, INPUTS, STEPS, batch_from=1) == []
    assert locate(base, same, (1, 0, 1), 3) is None


def test_locate_names_the_step_layer_and_block_where_the_runs_part():
    base = target_of(claim(deep=True)).make()
    m = _mutant(base, "1/W_1/sum/3:c", 0)
    # every token passes through every layer: the prompt token x_4 (bit 1) already computes sum + 2·bit there
    dep = locate(base, m, (0, 0, 0, 0, 1), 5)
    assert (dep.step, dep.token, dep.layer, dep.kind, dep.name) == (0, "x_4", 1, "block", "sum")
    assert dep.text().startswith("prompt token x_4, layer 1, block sum: ")
    flg = _mutant(base, "1/W_2/flg/:implicit", 2)  # only y_0 carries flg = 1: the first push that differs is y_0's
    dep = locate(base, flg, (1, 0), 2)
    assert dep.text() == "step 1 (reading y_0), layer 1, block flg: [1] → [2]"


def test_locate_reports_a_head_choosing_another_token():
    base = DfsConstruction()
    m = _mutant(base, "2/K_T/v/:implicit", -1)  # keys negated: head T picks the worst match
    dep = locate(base, m, (Digraph.from_arcs(3, [(0, 1), (0, 2)]), 0), 5)
    assert (dep.kind, dep.name, dep.layer) == ("head", "T", 2)
    assert dep.base != dep.other
