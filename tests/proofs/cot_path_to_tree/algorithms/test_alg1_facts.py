"""Algorithm 1's vocabulary: every fact holds on the run of every Dyck word to m = 6; views are the state's fields."""

import dataclasses

from proofs.cot_path_to_tree.algorithms.alg1_facts import VOCABULARY, run_symbols
from proofs.cot_path_to_tree.algorithms.bijection import psi_adjacency
from proofs.cot_path_to_tree.algorithms.path_transitions import ALG1, WordInput
from proofs.cot_path_to_tree.algorithms.paths import algorithm1_states
from symcot.algorithms.logic import Concrete, check_facts, check_views
from symcot.algorithms.transition import run
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


def test_the_definitions_are_the_transitions():
    names = [f.name for f in VOCABULARY.facts if f.kind == "definition"]
    assert names[:5] == ["init:nread", "init:i", "init:nl", "init:par", "init:Aw"]
    assert {"step:i", "step:Aw", "pj:choice", "pj:lowest", "moves", "ends", "A", "made"} <= set(names)
    assert not [f.name for f in VOCABULARY.facts if f.kind == "hand"]


def test_the_dyck_condition_is_what_the_domain_states():
    # "DU" is not a Dyck word: its height goes below 0, so the domain fact fails on a run over it
    c = Concrete({**VOCABULARY.interpret("UD", algorithm1_states("UD")), "up": lambda t: t == 1,
                  "ups": lambda t: [0, 0, 1][t] if 0 <= t <= 2 else 0})
    fail = check_facts(VOCABULARY, c)
    assert fail is not None and fail.fact == "dyck"


def _proof_line8(o, g, s):
    """The correctness proof's reading of line 8 (docs/errata.md (c)): search j < nl with A_w[j, nl] = 1."""
    new = ALG1.step(o, g, s)
    pj = o.lowest("pj", lambda j: o.and_(j < s.nl, o.at(s.Aw, g.pair(j, s.nl), False)))
    return {**new, "i": o.ite(g.up(s.nread), s.nl + 1, pj)}


def test_a_wrong_line_8_is_caught_by_the_tree_and_by_the_facts():
    wrong = dataclasses.replace(ALG1, step=_proof_line8)
    w = "UUDDUD"
    g = WordInput(w)
    flat = run(wrong, g).states[-1]["Aw"]
    got = [[int(flat[a * g.m + b]) for b in range(g.m)] for a in range(g.m)]
    assert got != psi_adjacency(w)  # node 3 is attached to node 1 instead of the root
    assert [list(r) for r in algorithm1_states(w)[-1].a] == psi_adjacency(w)
    fail = check_facts(VOCABULARY, Concrete(run_symbols(w, wrong)))
    assert fail is not None and fail.fact == "pj:choice" and fail.values == {"τ": 3}
