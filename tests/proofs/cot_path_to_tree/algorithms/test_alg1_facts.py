"""Algorithm 1's vocabulary: every fact holds on the run of every Dyck word to m = 6; views are the state's fields."""

from proofs.cot_path_to_tree.algorithms.alg1_facts import VOCABULARY
from proofs.cot_path_to_tree.algorithms.paths import algorithm1_states
from symcot.algorithms.logic import Concrete, check_facts, check_views
from symcot.inputs.dyck import dyck_words


def test_facts_and_views_hold_on_every_word():
    count = 0
    for size in range(1, 7):
        for w in dyck_words(size - 1):
            states = algorithm1_states(w)
            c = Concrete(VOCABULARY.interpret(w, states))
            assert check_facts(VOCABULARY, c) is None, w
            assert check_views(VOCABULARY, c, states, ["i", "nl", "par", "a", "cursor"]) is None, w
            count += 1
    assert count == 1 + 1 + 2 + 5 + 14 + 42


def test_the_dyck_condition_is_what_the_domain_states():
    # "DU" is not a Dyck word: its height goes below 0, so the domain fact fails on a run over it
    c = Concrete({**VOCABULARY.interpret("UD", algorithm1_states("UD")), "up": lambda t: t == 1,
                  "ups": lambda t: [0, 0, 1][t] if 0 <= t <= 2 else 0})
    fail = check_facts(VOCABULARY, c)
    assert fail is not None and fail.fact == "dyck"
