"""DFS with its stack: the stack transition makes DFS's run, every fact holds on every run of every small digraph, a
wrong statement is caught, and the length bound is proved without assuming that the run stops."""

import dataclasses

import pytest

from proofs.cot_path_to_tree.algorithms.dfs import DFS, DFS_STACK, dfs_dynamic, dfs_input
from proofs.cot_path_to_tree.algorithms.dfs_facts import MOVE, STEP
from proofs.cot_path_to_tree.algorithms.dfs_facts import VOCABULARY as DFS_VOCABULARY
from proofs.cot_path_to_tree.algorithms.dfsstack_facts import VOCABULARY
from symcot.algorithms.logic import Concrete, Direct, Fact, Induction, check_facts
from symcot.algorithms.transition import run
from symcot.inputs import Digraph, digraphs_with_sources, rooted_labeled_trees
from symcot.prove.alln.facts import hypotheses_for, prove_vocabulary
from symcot.prove.alln.ops import Symbolic
from tests.fixtures.vocabularies import added_facts, prove_one, replaced

ADDED_DERIVED = ["stack-levels", "stack-current", "stack-unique", "closed", "count-init", "count-step", "count-range",
                 "clock", "moving", "final-move", "empty", "all-done", "length", "bound"]
#: The facts the bound rests on, each proved without ``ends``.
WITHOUT_ENDS = ["run", "stack-levels", "stack-current", "stack-unique", "count-init", "count-step", "count-range",
                "clock", "moving", "bound"]


def _fact(name):
    return next(f for f in VOCABULARY.facts if f.name == name)


def test_the_stack_transition_makes_the_dfs_run():
    for size in range(1, 6):
        for g, r in rooted_labeled_trees(size):
            plain, stacked = run(DFS, dfs_input(g, r)), run(DFS_STACK, dfs_input(g, r))
            assert [{k: s[k] for k in ("cur", "vis", "par")} for s in stacked.states] == plain.states


def test_facts_hold_on_every_digraph_and_source_to_three_vertices():
    count = 0
    for size in range(1, 4):
        for g, s in digraphs_with_sources(size):
            c = Concrete(VOCABULARY.interpret((g, s), dfs_dynamic(g, s)))
            assert check_facts(VOCABULARY, c) is None, (g, s)
            count += 1
    assert count == 1 + 2 * 4 + 3 * 64


def test_it_extends_the_dfs_vocabulary_with_no_domain_or_hand_fact():
    added = added_facts(VOCABULARY, DFS_VOCABULARY)
    assert added == {"init:dep": "definition", "init:lvl": "definition", "init:done": "definition",
                     "step:dep": "definition", "step:lvl": "definition", "step:done": "definition",
                     "cnt:0": "definition", "cnt:step": "definition", **dict.fromkeys(ADDED_DERIVED, "derived")}


def test_the_bound_and_what_it_rests_on_are_proved_without_ends():
    c = Symbolic(VOCABULARY)
    assert [f.name for f in VOCABULARY.facts if "ends" in getattr(f.proof, "without", ())] == WITHOUT_ENDS
    used = {name for name, _ in hypotheses_for(VOCABULARY, c, _fact("bound"))}
    assert "ends" not in used and "moving" in used
    assert not used & {"starts", "final-move", "empty", "all-done", "length"}  # proved with ends: left out


def test_a_wrong_clock_is_caught_on_a_small_run_and_the_right_one_is_proved():
    # one step off: τ + dep(τ) = 2·|vst| - 1 is false at τ = 0
    wrong = Fact("clock", (STEP,), lambda c, t: t + c.dep(t) == 2 * c.cnt(t, c.n) - 1, "derived", Direct())
    inp = (Digraph.undirected(2, [(0, 1)]), 0)
    fail = check_facts(replaced(VOCABULARY, "clock", wrong), Concrete(VOCABULARY.interpret(inp, dfs_dynamic(*inp))))
    assert fail is not None and fail.fact == "clock" and fail.values == {"τ": 0}
    assert [o.status for o in prove_one(VOCABULARY, _fact("clock"))] == ["proved", "proved"]


def test_a_bound_right_up_to_a_size_and_wrong_after_is_not_proved():
    """"Every move is below n + 3" holds on every run to n = 4 (T ≤ 2n - 1 ≤ n + 3; here to 3), not on a path of 5."""
    tight = Fact("tight", (MOVE,), lambda c, t: t <= c.n + 2, "derived", Direct(without=("ends",)))
    for size in range(1, 4):
        for inp in digraphs_with_sources(size):
            c = Concrete(VOCABULARY.interpret(inp, dfs_dynamic(*inp)))
            assert all(tight.body(c, t) for t in range(c.T))
    vocab = dataclasses.replace(VOCABULARY, facts=(*VOCABULARY.facts, tight))
    assert [o.status for o in prove_one(vocab, tight, timeout_s=10)] != ["proved"]


def test_without_ends_a_fact_that_needs_it_is_not_proved():
    """``final-move`` (the last move is the backtrack from s) is about the step where the run stops: it needs ends."""
    last = _fact("final-move")
    cut = dataclasses.replace(last, proof=Direct(without=("ends",)))
    vocab = replaced(VOCABULARY, "final-move", cut)
    assert [o.status for o in prove_one(vocab, cut, timeout_s=10)] != ["proved", "proved"]
    assert [o.status for o in prove_one(VOCABULARY, last, timeout_s=30)] == ["proved", "proved"]


def test_a_joint_group_shares_what_it_is_proved_without():
    odd = dataclasses.replace(_fact("stack-unique"), proof=Induction("τ", joint=("stack-levels", "stack-current")))
    with pytest.raises(ValueError, match="joint induction of stack-unique"):
        prove_one(replaced(VOCABULARY, "stack-unique", odd), odd)


@pytest.mark.slow
def test_every_derived_fact_is_proved_for_every_n():
    obs = prove_vocabulary(VOCABULARY, timeout_s=60)
    assert obs and all(o.ok for o in obs), [o.line() for o in obs if not o.ok]
    assert {o.where for o in obs} >= set(ADDED_DERIVED)
