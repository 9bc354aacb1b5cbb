"""The batched checker's fast paths agree with the slow ones, and refuse what they cannot represent.

Lazy outputs (``RowOutputs``, ``block_series``) and the encoding's batched table (spot-checked against its
per-step values, and testable with ``table_disagreements``).
"""

import random

import pytest

from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic
from proofs.cot_path_to_tree.constructions.cotdfs import STOP, DfsConstruction
from proofs.cot_path_to_tree.thm_cotdfs import SPEC, TREE_SPEC
from symcot.check.batched_check import BatchedChecker, EngineDisagreement, table_disagreements
from symcot.inputs import random_digraph, rooted_labeled_trees
from symcot.model import generate
from symcot.replay.batched import RowOutputs, block_series, generate_batch


def _dfs_prompts(inps):
    cons = DfsConstruction()
    return cons.concrete(inps[0]), [cons.prompt(i).tokens for i in inps]


def test_row_outputs_are_the_exact_outputs_read_lazily():
    rng = random.Random(5)
    inps = [(random_digraph(4, rng, p=0.5), rng.randrange(4)) for _ in range(12)]
    dec, prompts = _dfs_prompts(inps)
    br = generate_batch(dec, prompts, 10, stop=lambda y: STOP.fires(dec.layout, y))
    for b, p in enumerate(prompts):
        want = generate(dec, p, 10, stop=lambda y: STOP.fires(dec.layout, y)).outputs
        row = br.outputs[b]
        assert isinstance(row, RowOutputs) and len(row) == len(want)
        assert row == want and list(row) == want and row[-1] == want[-1] and row[1:3] == want[1:3]
        assert block_series(row, dec.layout, "cur") == block_series(want, dec.layout, "cur")
        assert block_series(row, dec.layout, "vis", 2) == [dec.layout.pi("vis", y) for y in want[:2]]
        with pytest.raises(IndexError):
            row[len(want)]
    assert br.outputs[0] != br.outputs[0][:-1]  # equality compares contents, so it can fail


class _BrokenTable(DfsConstruction):
    """The DFS construction with its batched table changed by ``edit(inp, table)`` (a broken interpreter)."""

    def __init__(self, edit):
        super().__init__()
        self.edit = edit

    def expected_table(self, inp, states):
        table = super().expected_table(inp, states)
        self.edit(inp, table)
        return table


def test_the_dfs_table_is_the_per_step_expected_and_a_broken_table_is_caught():
    trees = list(rooted_labeled_trees(4))
    rng = random.Random(11)
    graphs = [(random_digraph(5, rng, p=0.3), rng.randrange(5)) for _ in range(40)]
    assert table_disagreements(DfsConstruction(), SPEC, trees + graphs) == []

    def flip(inp, table):
        table["vis"][-1, 0] ^= 1  # one bit of the last step

    bad = table_disagreements(_BrokenTable(flip), SPEC, trees[:5])
    assert len(bad) == 5 and "vis" in bad[0][1]

    def missing_presence(inp, table):
        table["par"] = table["par"][0]  # par claimed at every step, but it is undefined once cur = φ

    assert table_disagreements(_BrokenTable(missing_presence), SPEC, trees[:2])[0][1].startswith("step")


def test_the_checker_spot_checks_the_table_and_refuses_a_wrong_one():
    def zero_cur(inp, table):
        table["cur"][0] = 0

    checker = BatchedChecker(_BrokenTable(zero_cur), TREE_SPEC)
    with pytest.raises(EngineDisagreement, match="table"):
        checker.check(list(rooted_labeled_trees(3)))


def test_a_table_checked_by_the_engine_gives_the_verdicts_of_the_per_step_expected():
    trees = list(rooted_labeled_trees(5))

    class NoTable(DfsConstruction):
        def expected_table(self, inp, states):
            return None

    with_table = BatchedChecker(DfsConstruction(), TREE_SPEC).check(trees)
    without = BatchedChecker(NoTable(), TREE_SPEC).check(trees)
    assert with_table == without and with_table[1] is None and all(r is None for r in with_table[0])
    # a table beyond the spot-checked rows that is wrong makes the engine flag the input; exact replay then
    # accepts it, which is reported as a disagreement, never as a verdict

    def late_wrong(inp, table):
        if inp == trees[10]:
            table["cur"][1] = 0

    with pytest.raises(EngineDisagreement, match="exact replay accepts"):
        BatchedChecker(_BrokenTable(late_wrong), TREE_SPEC).check(trees)


def test_dfs_reference_states_fill_the_table_shapes():
    inp = next(iter(rooted_labeled_trees(4)))
    states = dfs_dynamic(*inp)
    table = DfsConstruction().expected_table(inp, states)
    assert table["cur"].shape == (len(states), 4) and table["par"][1].tolist()[-1] is False
