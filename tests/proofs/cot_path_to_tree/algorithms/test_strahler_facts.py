"""The fold's vocabulary: every fact (the DFS ones included) holds on every labeled tree with every root to n = 5."""

from proofs.cot_path_to_tree.algorithms.strahler import strahler_dynamic
from proofs.cot_path_to_tree.algorithms.strahler_facts import VOCABULARY, fold_c, fold_m
from symcot.algorithms.logic import Concrete, check_facts, check_views
from symcot.inputs import rooted_labeled_trees


def test_facts_and_views_hold_on_every_rooted_tree():
    count = 0
    for size in range(1, 6):
        for inp in rooted_labeled_trees(size):
            states = strahler_dynamic(*inp)
            c = Concrete(VOCABULARY.interpret(inp, states))
            assert check_facts(VOCABULARY, c) is None, inp
            assert check_views(VOCABULARY, c, states, ["cur", "vst", "par_cur", "has_cur", "acc_m", "acc_c"]) is None
            count += 1
    assert count == sum(k ** (k - 1) for k in range(1, 6))


def test_the_fold_is_the_case_form():
    from proofs.cot_path_to_tree.algorithms.strahler import fold_case

    c = Concrete({})
    for s in range(4):
        for m_u in range(4):
            for c_u in range(2):
                assert (fold_m(c, s, m_u, c_u), fold_c(c, s, m_u, c_u)) == fold_case(s, (m_u, c_u))
