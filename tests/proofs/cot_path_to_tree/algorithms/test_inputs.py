"""The vocabularies' input interpretations: ``interpret``'s input symbols without a run, per input and per batch."""

import itertools

import numpy as np
import pytest

from proofs.cot_path_to_tree.algorithms import alg1_facts, dfs_facts, pathstrahler_facts, strahler_facts
from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic
from proofs.cot_path_to_tree.algorithms.paths import algorithm1_states, strahler_fold
from proofs.cot_path_to_tree.algorithms.strahler import strahler_dynamic
from symcot.inputs.batch import tree_batch, word_batch
from symcot.inputs.digraphs import digraphs_with_sources
from symcot.inputs.dyck_families import ordered_rooted_trees, words_by_rank

#: ``(vocabulary module, reference run, inputs)``: every vocabulary of the paper with an input interpretation.
GRAPH_VOCABULARIES = [(dfs_facts, dfs_dynamic), (strahler_facts, strahler_dynamic)]
WORD_VOCABULARIES = [(alg1_facts, algorithm1_states), (pathstrahler_facts, strahler_fold)]


def _same(vocab, inputs: dict, values: dict, span: range) -> None:
    """``inputs`` agrees with the run's ``values`` on its symbols (a function at every argument in ``span``)."""
    for name, v in inputs.items():
        arity = vocab.symbol(name).arity
        if arity == 0:
            assert v == values[name], name
            continue
        for a in itertools.product(span, repeat=arity):
            got, want = v(*a), values[name](*a)
            assert type(got) is type(want) and got == want, (name, a)


def _row(v, r: int):
    """Row ``r`` of a stand-in's value (a value shared by every row is not an array)."""
    return v[r].item() if isinstance(v, np.ndarray) else v


@pytest.mark.parametrize(("module", "run"), GRAPH_VOCABULARIES, ids=lambda x: getattr(x, "__name__", ""))
def test_graph_inputs_are_the_runs_input_symbols(module, run):
    vocab = module.VOCABULARY
    assert vocab.inputs is module.inputs or vocab.inputs is dfs_facts.inputs
    inputs = [inp for n in range(1, 4) for inp in digraphs_with_sources(n)] if module is dfs_facts else []
    inputs += [inp for n in range(1, 6) for inp in ordered_rooted_trees(n)]
    for g, s in inputs:
        got = module.inputs((g, s))
        assert {"n", "src", "adj"} <= set(got) <= {sym.name for sym in vocab.symbols}
        _same(vocab, got, vocab.interpret((g, s), run(g, s)), range(-1, g.n + 1))


@pytest.mark.parametrize(("module", "run"), WORD_VOCABULARIES, ids=lambda x: getattr(x, "__name__", ""))
def test_word_inputs_are_the_runs_input_symbols(module, run):
    vocab = module.VOCABULARY
    for n in range(2 if module is pathstrahler_facts else 1, 7):
        for w in words_by_rank(n):
            got = module.inputs(w)
            assert {"m", "T", "up", "ups"} <= set(got) <= {sym.name for sym in vocab.symbols}
            _same(vocab, got, vocab.interpret(w, run(w)), range(-1, len(w) + 2))


def test_the_inputs_of_a_batchs_stand_in_are_every_rows():
    trees = tree_batch(5, 0, 10**6)
    rows = dfs_facts.inputs(trees.stand_in)
    assert rows["n"] == 5 and rows["src"] == 0
    words = word_batch(5, 0, 10**6)
    cols = alg1_facts.inputs(words.stand_in)
    assert cols["T"] == 8 and cols["m"] == 5
    for r in range(trees.count):
        one = dfs_facts.inputs(trees.item(r))
        assert all(_row(rows["adj"](i, j), r) == one["adj"](i, j) for i in range(-1, 6) for j in range(-1, 6))
        w = alg1_facts.inputs(words.item(r))
        assert all(_row(cols["up"](t), r) == w["up"](t) and _row(cols["ups"](t), r) == w["ups"](t)
                   for t in range(-1, 10))
    assert isinstance(rows["adj"](0, 1), np.ndarray) and isinstance(cols["up"](1), np.ndarray)  # rows differ


def test_an_extended_vocabulary_keeps_its_input_interpretation():
    ext = dfs_facts.VOCABULARY.extended("more")
    assert ext.inputs is dfs_facts.inputs
    assert dfs_facts.VOCABULARY.extended("other", inputs=alg1_facts.inputs).inputs is alg1_facts.inputs
