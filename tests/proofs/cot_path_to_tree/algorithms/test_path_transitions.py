"""The transitions along a Dyck word: Python and numpy readings agree; the width's definitions and a wrong step."""

import dataclasses

import numpy as np
import pytest

from proofs.cot_path_to_tree.algorithms.bijection import psi
from proofs.cot_path_to_tree.algorithms.path_transitions import ALG1, FOLD, WIDTH, WordInput, WordRows
from proofs.cot_path_to_tree.algorithms.paths import tree_width, width_states
from symcot.algorithms.batched.run import run_batch
from symcot.algorithms.logic import Concrete, Sig, Var, Vocabulary, check_facts
from symcot.algorithms.transition import definitions, interpretation, run
from symcot.inputs.batch import word_batch

STEP = Var("τ", lambda c, *_: 0, lambda c, *_: c.T, "step")
MOVE = Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step")


@pytest.mark.parametrize("letters", range(0, 13, 2))
def test_every_state_variable_agrees_on_every_dyck_word_up_to_12_letters(letters):
    b = word_batch(letters // 2 + 1, 0, 10**9)
    words = [b.item(i) for i in range(b.count)]
    levels = letters // 2 + 1
    for tr in (ALG1, FOLD, WIDTH):
        rows = run_batch(tr, WordRows(b.words, levels), b.count, letters + 1)
        for k, w in enumerate(words):
            r = run(tr, WordInput(w, levels))
            assert rows.lengths[k] == len(r.states) == letters + 1
            for t, st in enumerate(r.states):
                for v in tr.state:
                    assert np.asarray(rows.states[v.name][k, t]).tolist() == (
                        list(st[v.name]) if v.index else st[v.name]), (tr.name, w, t, v.name)
            for t, aux in enumerate(r.aux):
                assert {a: rows.aux[a][k, t] for a in aux} == aux, (tr.name, w, t)


def _width_vocabulary() -> Vocabulary:
    syms = (Sig("levels", 0), Sig("up", 1, "bool", args=("step",)), *WIDTH.symbols())
    return Vocabulary("thm:cotwidofpath", syms, definitions(WIDTH, MOVE, STEP), {}, lambda inp, states: {})


def _width_symbols(w: str, tr=WIDTH) -> Concrete:
    g = WordInput(w, len(w) // 2 + 1)
    return Concrete({"levels": g.levels, "up": g.up, **interpretation(tr, run(tr, g))})


def _down_counts(o, g, s):
    """Counts the letters ending at each height whatever their direction (deliberately wrong)."""
    new = WIDTH.step(o, g, s)
    count = o.at(s.p, new["ht"] - 1, 0) + 1
    return {**new, "p": o.put(s.p, new["ht"] - 1, count), "wd": o.ite(count > s.wd, count, s.wd)}


def test_the_width_definitions_hold_and_catch_a_wrong_step():
    vocab = _width_vocabulary()
    for w in ("", "UD", "UUDD", "UDUD", "UUDUDD", "UUDDUUDD"):
        assert check_facts(vocab, _width_symbols(w)) is None, w
        assert width_states(w, len(w) // 2 + 1)[-1].wd == (tree_width(psi(w)) if w else 0)
    wrong = dataclasses.replace(WIDTH, step=_down_counts)
    w = "UUDUDD"  # a root, one child, two grandchildren: width 2
    last = run(wrong, WordInput(w, 4)).states[-1]
    assert last["wd"] == 3 != tree_width(psi(w)) == 2
    fail = check_facts(vocab, _width_symbols(w, wrong))
    assert fail is not None and fail.fact == "step:p" and fail.values["τ"] == 2
