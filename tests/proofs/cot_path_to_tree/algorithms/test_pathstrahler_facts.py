"""The fold along a Dyck word as a vocabulary: facts and views hold on every non-empty word; Z3 proves the derived."""

import pytest

from proofs.cot_path_to_tree.algorithms.paths import strahler_fold
from proofs.cot_path_to_tree.algorithms.pathstrahler_facts import VOCABULARY
from symcot.algorithms.logic import Concrete, check_facts, check_views
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS
from symcot.prove.alln.context import Context
from symcot.prove.alln.facts import prove_facts
from symcot.prove.alln.ops import Symbolic, quantified

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


def test_a_wrong_definition_is_caught_on_a_word():
    """lp keeping the first point at a height instead of the last: false at UDUD (height 0 at points 0, 2, 4)."""
    import dataclasses

    from proofs.cot_path_to_tree.algorithms.alg1_facts import height
    from symcot.algorithms.logic import Fact

    wrong = Fact("lp-step", VOCABULARY.facts[5].vars,
                 lambda c, t, h: c.lp(t + 1, h) == c.ite(c.and_(height(c, t + 1) == h, c.lp(t, h) == -1), t + 1,
                                                         c.lp(t, h)), "definition")
    assert VOCABULARY.facts[5].name == "lp-step"
    vocab = dataclasses.replace(VOCABULARY, facts=(*VOCABULARY.facts[:5], wrong, *VOCABULARY.facts[6:]))
    w = "UDUD"
    bad = check_facts(vocab, Concrete(vocab.interpret(w, strahler_fold(w))))
    assert bad is not None and bad.fact == "lp-step"


@pytest.mark.slow
def test_every_derived_fact_is_proved_by_z3():
    c = Symbolic(VOCABULARY)
    ctx = Context([(f.name, quantified(c, f)) for f in VOCABULARY.facts], 60)
    ctx.kinds = c.kinds
    obs = prove_facts(ctx, VOCABULARY, c)
    assert obs and all(o.ok for o in obs), [o.line() for o in obs if not o.ok]
    derived = {f.name for f in VOCABULARY.facts if f.kind == "derived"}
    assert {o.where for o in obs} == derived
    assert not [f.name for f in VOCABULARY.facts if f.kind == "hand"]
