"""The fold along a Dyck word as a vocabulary: facts and views hold on every non-empty word; Z3 proves the derived."""

import dataclasses

import pytest

from proofs.cot_path_to_tree.algorithms.bijection import psi
from proofs.cot_path_to_tree.algorithms.path_transitions import FOLD, WordInput
from proofs.cot_path_to_tree.algorithms.paths import finished, strahler, strahler_fold
from proofs.cot_path_to_tree.algorithms.pathstrahler_facts import VOCABULARY, run_symbols
from proofs.cot_path_to_tree.algorithms.strahler_facts import fold_c, fold_m, str_of
from symcot.algorithms.logic import Concrete, check_facts, check_views
from symcot.algorithms.transition import run
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS
from symcot.prove.alln.facts import prove_vocabulary

FIELDS = ["t", "height", "m", "c", "reading", "next_q", "q_in"]


def test_facts_and_views_hold_on_every_nonempty_dyck_word_to_seven_vertices():
    count = 0
    for size in range(2, 8):
        for w in NONEMPTY_DYCK_WORDS.inputs(size):
            states = strahler_fold(w)
            c = Concrete(VOCABULARY.interpret(w, states))
            assert check_facts(VOCABULARY, c) is None, w
            assert check_views(VOCABULARY, c, states, FIELDS) is None, w
            count += 1
    assert count == 1 + 2 + 5 + 14 + 42 + 132


def _first_point(o, g, s):
    """lp keeping the first point at a height instead of the last."""
    new = FOLD.step(o, g, s)
    h1 = 2 * g.ups(s.nread + 1) - (s.nread + 1)
    return {**new, "lp": o.ite(o.at(s.lp, h1) == -1, new["lp"], s.lp)}


def _forgetful(o, g, s):
    """A D folds the finished child into an empty accumulator, forgetting the siblings folded before."""
    new = FOLD.step(o, g, s)
    up = g.up(s.nread)
    sv = str_of(o, s.accM, s.accC)
    m1, c1 = o.ite(up, 0, fold_m(o, sv, 0, 0)), o.ite(up, 0, fold_c(o, sv, 0, 0))
    h1 = 2 * g.ups(s.nread + 1) - (s.nread + 1)
    return {**new, "accM": m1, "accC": c1, "hM": o.put(s.hM, h1, m1), "hC": o.put(s.hC, h1, c1)}


def test_a_wrong_step_is_caught_by_the_facts_and_by_the_tree():
    """lp keeping the first point: false at UDUD (height 0 at points 0, 2, 4); a fold forgetting the siblings."""
    w = "UDUD"
    bad = check_facts(VOCABULARY, Concrete(run_symbols(w, dataclasses.replace(FOLD, step=_first_point))))
    assert bad is not None and bad.fact == "step:lp" and bad.values["τ"] == 1
    forgetful = dataclasses.replace(FOLD, step=_forgetful)
    last = run(forgetful, WordInput(w)).states[-1]
    assert finished(last["accM"], last["accC"]) == 0 != strahler(psi(w)) == 1  # the root has two leaves
    assert strahler_fold(w)[-1].m == 1
    bad = check_facts(VOCABULARY, Concrete(run_symbols(w, forgetful)))
    assert bad is not None and bad.fact == "step:hM" and bad.values == {"τ": 3, "v": 0}


@pytest.mark.slow
def test_every_derived_fact_is_proved_by_z3():
    obs = prove_vocabulary(VOCABULARY, 60)
    assert obs and all(o.ok for o in obs), [o.line() for o in obs if not o.ok]
    derived = {f.name for f in VOCABULARY.facts if f.kind == "derived"}
    assert {o.where for o in obs} == derived
    assert not [f.name for f in VOCABULARY.facts if f.kind == "hand"]
