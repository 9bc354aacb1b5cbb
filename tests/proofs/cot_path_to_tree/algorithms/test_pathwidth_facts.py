"""thm:cotwidofpath's width counts as a vocabulary: facts and views hold on every word; Z3 proves the derived."""

import pytest

from proofs.cot_path_to_tree.algorithms.alg1_facts import STEP, height
from proofs.cot_path_to_tree.algorithms.path_transitions import WIDTH
from proofs.cot_path_to_tree.algorithms.paths import width_states
from proofs.cot_path_to_tree.algorithms.pathwidth_facts import LEVEL, VOCABULARY, inputs, levels, run_symbols
from symcot.algorithms.logic import Concrete, Fact, Induction, Vocabulary, check_facts, check_views
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS
from symcot.prove.alln.context import Context
from symcot.prove.alln.facts import prove_fact, prove_vocabulary
from symcot.prove.alln.ops import Symbolic, quantified

FIELDS = ["t", "ht", "p", "wd"]


def test_facts_and_views_hold_on_every_nonempty_dyck_word_to_length_ten():
    count = 0
    for size in range(2, 7):  # |w| = 2(size - 1) ≤ 10
        for w in NONEMPTY_DYCK_WORDS.inputs(size):
            states = width_states(w, levels(len(w)))
            c = Concrete(VOCABULARY.interpret(w, states))
            assert check_facts(VOCABULARY, c) is None, w
            assert check_views(VOCABULARY, c, states, FIELDS) is None, w
            count += 1
    assert count == 1 + 2 + 5 + 14 + 42


def test_the_views_are_the_reference_states():
    w = "UDUDUUDD"
    c = Concrete(run_symbols(w))
    states = width_states(w, 5)
    assert [VOCABULARY.views["p"](c, t) for t in range(len(w) + 1)] == [list(s.p) for s in states]
    assert [VOCABULARY.views["wd"](c, 8), VOCABULARY.views["ht"](c, 5)] == [3, 1]
    assert states[-1].p == (3, 1, 0, 0, 0)  # three vertices at depth 1, one at depth 2


def test_the_definitions_are_the_transition_and_the_inputs_need_no_run():
    names = [f.name for f in VOCABULARY.facts if f.kind == "definition"]
    assert names == [*(f"init:{v.name}" for v in WIDTH.state), *(f"step:{v.name}" for v in WIDTH.state),
                     "moves", "ends"]
    assert not [f.name for f in VOCABULARY.facts if f.kind == "hand"]
    got = inputs("UUDD")
    assert (got["m"], got["T"], got["levels"], got["up"](1), got["up"](2)) == (3, 4, 3, True, False)


def _p_at_height(c, t, h):
    """p-step with the counter indexed by the height itself (p_h raised on a U into h: the printed lemma's k ≥ 1)."""
    return c.p(t + 1, h) == c.p(t, h) + c.ite(c.and_(c.up(t), h == height(c, t + 1)), 1, 0)


def test_a_wrong_derived_fact_is_caught_on_a_run_and_not_proved():
    wrong = Fact("p-at-height", (STEP, LEVEL), _p_at_height, "derived", Induction("τ"))
    vocab = Vocabulary("width+wrong", VOCABULARY.symbols, (*VOCABULARY.facts, wrong), VOCABULARY.views,
                       VOCABULARY.interpret, size="m", inputs=VOCABULARY.inputs)
    bad = check_facts(vocab, Concrete(run_symbols("UD")))
    assert bad is not None and bad.fact == "p-at-height" and bad.values == {"τ": 0, "h": 0}
    c = Symbolic(vocab)
    ctx = Context([(f.name, quantified(c, f)) for f in vocab.facts if f is not wrong], 10)
    ctx.kinds = c.kinds
    obs = prove_fact(ctx, vocab, c, wrong)
    assert obs and not all(o.ok for o in obs)


def test_every_derived_fact_is_proved_by_z3():
    obs = prove_vocabulary(VOCABULARY, 60)
    assert obs and all(o.ok for o in obs), [o.line() for o in obs if not o.ok]
    derived = {f.name for f in VOCABULARY.facts if f.kind == "derived"}
    assert {o.where for o in obs} == derived
    assert derived >= {"height", "height-bound", "down-above-root", "p-step", "wd-step", "counts"}


@pytest.mark.parametrize("word", ["UUDD", "UDUUDD"])
def test_wd_is_the_largest_counter(word):
    states = width_states(word, levels(len(word)))
    assert all(s.wd == max(s.p) for s in states)
