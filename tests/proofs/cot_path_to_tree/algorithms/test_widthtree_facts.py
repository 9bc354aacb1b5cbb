"""BFS with the width fold of obs:dynamicwidbfs (thm:cotwidoftree's runs): the transition is the update rule, every
fact holds on every run of every small rooted tree, its views are the reference's fields, a wrong statement is caught,
and the derived facts are proved for every n."""

import pytest

from proofs.cot_path_to_tree.algorithms.dijkstra import (
    WIDTH_BFS,
    bfs_dynamic,
    bfs_width_dynamic,
    weighted_input,
    width_update_rule,
)
from proofs.cot_path_to_tree.algorithms.dijkstra_facts import MOVE, STEP, dist_cur
from proofs.cot_path_to_tree.algorithms.dijkstra_facts import VOCABULARY as DKST
from proofs.cot_path_to_tree.algorithms.widthtree_facts import VOCABULARY
from symcot.algorithms.logic import Concrete, Direct, Fact, Induction, Vocabulary, check_facts, check_views
from symcot.algorithms.transition import run
from symcot.inputs import Digraph, rooted_labeled_trees
from symcot.prove.alln.facts import prove_vocabulary
from tests.fixtures.vocabularies import added_facts, prove_one, replaced

FIELDS = ["dist", "cur", "vst", "dist_cur", "t", "dif", "twd", "mwd"]
WIDTH_DERIVED = ["dif-step", "frontier", "next-depth", "dif-range", "fold-range", "width-bound"]


def _oracle(states):
    """The update rule as obs:dynamicwidbfs states it, on the final distances: the loop it replaced."""
    last = states[-1].dist
    out, twd, mwd = [(0, 1, 1)], 1, 1
    for prev, st in zip(states, states[1:]):
        dif = last[st.cur] - last[prev.cur]
        if dif == 0:
            twd, mwd = twd + 1, max(mwd, twd + 1)
        elif dif == 1:
            twd, mwd = 1, max(mwd, 1)
        else:
            raise ValueError(dif)
        out.append((dif, twd, mwd))
    return out


def _agree_to(max_n):
    count = 0
    for size in range(1, max_n + 1):
        for g, r in rooted_labeled_trees(size):
            want = _oracle(bfs_dynamic(g, r))
            assert width_update_rule(bfs_dynamic(g, r)) == want, (g, r)
            if size < 7:  # the whole transition's run, beside the rule folded along the states
                assert [(s["dif"], s["twd"], s["mwd"]) for s in run(WIDTH_BFS, weighted_input(g, r)).states] == want
            count += 1
    assert count == sum(k ** (k - 1) for k in range(1, max_n + 1))


def test_the_transition_is_the_update_rule_on_every_rooted_tree_to_six_vertices():
    _agree_to(6)


@pytest.mark.slow
def test_the_update_rule_is_the_old_loop_on_every_rooted_tree_to_seven_vertices():
    _agree_to(7)


def test_the_update_rule_refuses_a_difference_outside_zero_and_one():
    # a weighted path 0 -2- 1: Dist jumps by 2, outside lem:widsupffn's domain
    states = bfs_dynamic(Digraph.undirected(2, [(0, 1)]), 0)
    jump = [states[0], type(states[1])(1, (0, 2), 1, frozenset({0, 1}))]
    with pytest.raises(ValueError, match="dif"):
        width_update_rule(jump)


def _check(inp):
    states = bfs_width_dynamic(*inp)
    c = Concrete(VOCABULARY.interpret(inp, states))
    assert check_facts(VOCABULARY, c) is None, inp
    assert check_views(VOCABULARY, c, states, FIELDS) is None, inp


def test_facts_and_views_hold_on_every_rooted_tree_to_five_vertices():
    count = 0
    for size in range(1, 6):
        for inp in rooted_labeled_trees(size):
            _check(inp)
            count += 1
    assert count == 1 + 2 + 9 + 64 + 625


def test_it_extends_the_dijkstra_vocabulary_with_the_fold_and_no_hand_fact():
    added = added_facts(VOCABULARY, DKST)
    assert added == {"unit": "domain", "init:dif": "definition", "init:twd": "definition", "init:mwd": "definition",
                     "step:dif": "definition", "step:twd": "definition", "step:mwd": "definition",
                     "rise": "definition", **dict.fromkeys(WIDTH_DERIVED, "derived")}
    assert not [f.name for f in VOCABULARY.facts if f.kind == "hand"]


def test_a_weight_other_than_one_breaks_the_domain_fact_unit():
    inp = (Digraph.from_weighted_arcs(2, {(0, 1): 2, (1, 0): 2}), 0)
    fail = check_facts(VOCABULARY, Concrete(VOCABULARY.interpret(inp, [])))
    assert fail is not None and fail.fact == "unit" and fail.values == {"i": 0, "j": 1}


def test_a_wrong_derived_fact_is_caught_on_a_small_run():
    # "twd ≤ τ": false at τ = 0, where twd = 1
    tight = Fact("fold-range", (STEP,), lambda c, t: c.twd(t) <= t, "derived", Induction("τ"))
    inp = (Digraph.undirected(2, [(0, 1)]), 0)
    wrong_vocab = replaced(VOCABULARY, "fold-range", tight)
    fail = check_facts(wrong_vocab, Concrete(VOCABULARY.interpret(inp, bfs_width_dynamic(*inp))))
    assert fail is not None and fail.fact == "fold-range" and fail.values == {"τ": 0}


def test_a_false_fact_is_not_proved():
    # every step goes one level deeper: false (siblings share a level)
    deeper = Fact("deeper", (MOVE,), lambda c, t: c.dif(t + 1) == 1, "derived", Direct())
    # the count never exceeds 1: false (a vertex with two children)
    flat = Fact("flat", (STEP,), lambda c, t: c.twd(t) <= 1, "derived", Induction("τ"))
    for false in (deeper, flat):
        vocab = Vocabulary("width+false", VOCABULARY.symbols, (*VOCABULARY.facts, false), VOCABULARY.views,
                           VOCABULARY.interpret)
        obs = prove_one(vocab, false)
        assert obs and not all(o.ok for o in obs), false.name


def test_the_frontier_needs_the_unit_weights():
    """Without the domain's unit weights (any positive weight) BFS's frontier invariant is not proved."""
    vocab = Vocabulary("width-unit", VOCABULARY.symbols, tuple(f for f in VOCABULARY.facts if f.name != "unit"),
                       VOCABULARY.views, VOCABULARY.interpret)
    frontier = next(f for f in vocab.facts if f.name == "frontier")
    base, step = prove_one(vocab, frontier)
    assert base.ok and not step.ok and "step" in step.statement


def test_the_derived_facts_the_statement_reads_hold_on_a_run():
    """A root with two children, one grandchild: dif = 0, 1, 0, 1 and (twd, mwd) = (1,1), (1,1), (2,2), (1,2)."""
    inp = (Digraph.undirected(4, [(0, 1), (0, 2), (1, 3)]), 0)
    c = Concrete(VOCABULARY.interpret(inp, bfs_width_dynamic(*inp)))
    assert [c.dif(t) for t in range(4)] == [0, 1, 0, 1]
    assert [(c.twd(t), c.mwd(t)) for t in range(4)] == [(1, 1), (1, 1), (2, 2), (1, 2)]
    assert all(c.dif(t + 1) == dist_cur(c, t + 1) - dist_cur(c, t) for t in range(3))
    assert all(c.dist(t, v) <= dist_cur(c, t) + 1 for t in range(4) for v in range(4)
               if c.fin(t, v) and not c.vis(t, v))
    assert max(c.mwd(t) for t in range(4)) <= c.n


@pytest.mark.slow
def test_width_facts_are_proved():
    obs = prove_vocabulary(VOCABULARY, 60)
    assert obs and all(o.ok for o in obs), [o.line() for o in obs if not o.ok]
    derived = [f.name for f in VOCABULARY.facts if f.kind == "derived"]
    assert {o.where for o in obs} == set(derived) and set(WIDTH_DERIVED) <= set(derived)
