"""The DFS dynamic on a graph reachable from its source: every fact holds on every run of every small rooted tree, and
H1 (T = 2n - 1) is proved for every n -- but not without reachability, and not in a form that is right only up to
some size."""

import pytest

from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic
from proofs.cot_path_to_tree.algorithms.dfsstack_facts import VOCABULARY as DFS_STACK
from proofs.cot_path_to_tree.algorithms.dfstree_facts import VOCABULARY
from symcot.algorithms.logic import Concrete, Direct, Fact, Vocabulary, check_facts, check_views
from symcot.inputs import Digraph, rooted_labeled_trees
from symcot.prove.alln.facts import prove_vocabulary
from tests.fixtures.vocabularies import added_facts, prove_one

FIELDS = ["cur", "vst", "par_cur", "has_cur", "step_sign", "t"]
ADDED_DERIVED = ["spread", "visited", "count-full", "tree-steps", "tree-root"]


def _fact(name):
    return next(f for f in VOCABULARY.facts if f.name == name)


def _with(*facts):
    return Vocabulary("dfs-tree+", VOCABULARY.symbols, (*VOCABULARY.facts, *facts), VOCABULARY.views,
                      VOCABULARY.interpret)


def _check(inp):
    states = dfs_dynamic(*inp)
    c = Concrete(VOCABULARY.interpret(inp, states))
    assert check_facts(VOCABULARY, c) is None, inp
    assert check_views(VOCABULARY, c, states, FIELDS) is None, inp
    return c


def test_facts_and_views_hold_on_every_rooted_tree_to_five_vertices():
    count = 0
    for size in range(1, 6):
        for inp in rooted_labeled_trees(size):
            c = _check(inp)
            assert c.T == 2 * size - 1
            count += 1
    assert count == 1 + 2 + 9 + 64 + 625


def test_an_unreachable_vertex_breaks_the_domain_fact_reachable():
    inp = (Digraph(3, ((0, 1), (1, 0))), 0)
    fail = check_facts(VOCABULARY, Concrete(VOCABULARY.interpret(inp, dfs_dynamic(*inp))))
    assert fail is not None and fail.fact == "reachable" and fail.values == {"v": 2}


def test_it_extends_the_stack_vocabulary_with_reachability_and_no_hand_fact():
    added = added_facts(VOCABULARY, DFS_STACK)
    assert added == {"reachable": "domain", **dict.fromkeys(ADDED_DERIVED, "derived")}


def test_a_count_right_up_to_seven_vertices_and_wrong_after_is_not_proved():
    """T = 2n - 1 up to n = 7 and 2n after it: every run the concrete phase sees agrees; the proof must not."""
    late = Fact("late", (), lambda c: c.T == c.ite(c.n <= 7, 2 * c.n - 1, 2 * c.n), "derived", Direct())
    for size in range(1, 5):
        for inp in rooted_labeled_trees(size):
            c = Concrete(VOCABULARY.interpret(inp, dfs_dynamic(*inp)))
            assert late.body(c)
    obs = prove_one(_with(late), late, timeout_s=10)
    assert [o.status for o in obs] != ["proved"]


def test_without_reachability_the_count_is_not_proved():
    """Remove the domain fact: then an unreachable vertex is never visited, and ``visited`` must not be proved."""
    facts = tuple(f for f in VOCABULARY.facts if f.name != "reachable")
    vocab = Vocabulary("no-reach", VOCABULARY.symbols, facts, VOCABULARY.views, VOCABULARY.interpret)
    obs = prove_one(vocab, _fact("visited"), timeout_s=10)
    assert [o.status for o in obs] != ["proved"]


@pytest.mark.slow
def test_every_derived_fact_is_proved_for_every_n():
    obs = prove_vocabulary(VOCABULARY, timeout_s=60)
    assert obs and all(o.ok for o in obs), [o.line() for o in obs if not o.ok]
    assert {o.where for o in obs} >= set(ADDED_DERIVED)
