"""The fold's vocabulary: every fact (the DFS ones included) holds on every labeled tree with every root to n = 5."""

from proofs.cot_path_to_tree.algorithms import psi
from proofs.cot_path_to_tree.algorithms.strahler import case_form, fold_transition, strahler_dynamic
from proofs.cot_path_to_tree.algorithms.strahler_facts import DEFINITION, VOCABULARY, fold_c, fold_m, run_symbols
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


def test_the_definitions_are_the_transitions():
    assert [f.name for f in DEFINITION] == ["init:stM", "init:stC", "init:accM", "init:accC", "step:stM", "step:stC",
                                            "step:accM", "step:accC", "last"]
    assert all(f.kind == "definition" for f in DEFINITION)


def test_the_facts_catch_a_wrong_fold():
    """Negative: the run of a fold that counts a repeated maximum instead of resetting ``c`` (``D = 0``) breaks
    the definition of ``stC`` where the cherry's second leaf is folded into the root."""

    def no_reset(o, s, m_u, c_u):
        m, c = case_form(o, s, m_u, c_u)
        return m, o.ite(s - m_u == 0, c_u + 1, c)

    inp = (psi("UDUD").to_digraph(), 0)
    assert check_facts(VOCABULARY, Concrete(run_symbols(inp))) is None
    fail = check_facts(VOCABULARY, Concrete(run_symbols(inp, fold_transition(no_reset))))
    assert fail is not None and fail.fact == "step:stC" and fail.values == {"τ": 3, "v": 0}
