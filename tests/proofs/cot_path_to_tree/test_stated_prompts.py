"""The prompts of the constructions with segments: read from the statement alone, per input and per batch.

The five constructions that state their prompt by segments (DFS, DFS with φ, tree Strahler, Algorithm 1, path
Strahler in every reading) read it through the vocabulary's input interpretation. Their prompts are compared
with the tokens of the hand-written prompts they replace, frozen as one digest per construction over every
input to 7 vertices (digraphs to 4 vertices with every source, labeled rooted trees to 5, ordered trees ψ(w) to
7; Dyck words to length 12), with a few tokens written out from the papers' formulas, and with the batched
prompts read on a batch's stand-in.
"""

import hashlib

import numpy as np
import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cotdfs_phi import DfsPhiConstruction
from proofs.cot_path_to_tree.constructions.cotpathstrahler import VARIANTS, StrahlerPathConstruction
from proofs.cot_path_to_tree.constructions.cotpathtotree import PathToTreeConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from symcot.constructions.base import Construction
from symcot.constructions.prompt_batch import _is_leaf
from symcot.inputs import Digraph
from symcot.inputs.batch import tree_batch, word_batch
from symcot.inputs.digraphs import digraphs_with_sources
from symcot.inputs.dyck_families import ordered_rooted_trees, words_by_rank
from symcot.inputs.trees import rooted_labeled_trees

#: ``(inputs, sha256 prefix of repr((labels, tokens)) over them in order)``, recorded from the hand-written prompts.
FROZEN = {
    "thm:cotdfs": (17483, "9e45fc9768e66f74"),
    "thm:cotdfs:phi": (17483, "7391d6f2a0c1410f"),
    "thm:cottreestrahler": (898, "a1e1e6e84e823bde"),
    "thm:cotpathtotree": (197, "7fbeac92913c6576"),
    **{f"thm:cotpathstrahler/{v}": (196, "959feeb56bfbb15e")
       for v in ("as-written", "repaired", "tmp-q", "pos-sc-layer-1", "repaired-pos-sc-layer-1",
                 "tmp-q-pos-sc-layer-1")},
    **{f"thm:cotpathstrahler/{v}": (196, "e0011099d097cf3f")
       for v in ("q-literal", "q-literal-key-repaired", "q-literal-pos-sc-layer-1",
                 "q-literal-key-repaired-pos-sc-layer-1")},
    **{f"thm:cotpathstrahler/{v}": (196, "2051f7405252b1ac")
       for v in ("q-literal-last-repaired", "q-literal-repaired", "q-literal-repaired-m-from-q",
                 "q-literal-last-repaired-pos-sc-layer-1", "q-literal-repaired-pos-sc-layer-1",
                 "q-literal-repaired-m-from-q-pos-sc-layer-1")},
}


def _graphs(trees_only: bool):
    if not trees_only:
        for n in range(1, 5):
            yield from digraphs_with_sources(n)
    for n in range(1, 6):
        yield from rooted_labeled_trees(n)
    for n in range(1, 8):
        yield from ordered_rooted_trees(n)


def _words(smallest: int):
    for n in range(smallest, 8):
        yield from words_by_rank(n)


def _constructions():
    yield "thm:cotdfs", DfsConstruction(), _graphs(False)
    yield "thm:cotdfs:phi", DfsPhiConstruction(), _graphs(False)
    yield "thm:cottreestrahler", StrahlerTreeConstruction("repaired"), _graphs(True)
    yield "thm:cotpathtotree", PathToTreeConstruction(), _words(1)
    for v in VARIANTS:
        yield f"thm:cotpathstrahler/{v}", StrahlerPathConstruction(v), _words(2)


def test_every_reading_has_a_frozen_prompt():
    assert set(FROZEN) == {name for name, _, _ in _constructions()}


@pytest.mark.parametrize(("name", "cons", "inputs"), list(_constructions()),
                         ids=lambda x: x if isinstance(x, str) else "")
def test_the_prompt_is_the_hand_written_one_on_every_input_to_7_vertices(name, cons, inputs):
    assert type(cons).token_keys is Construction.token_keys and type(cons).token is Construction.token  # segments
    h, count = hashlib.sha256(), 0
    for inp in inputs:
        p = cons.prompt(inp)
        assert all(type(x) is int for tok in p.tokens for x in tok)  # exact integers, no truth values
        h.update(repr((p.labels, p.tokens)).encode())
        count += 1
    assert (count, h.hexdigest()[:16]) == FROZEN[name]


def _blocks(cons, inp):
    """The prompt of ``inp`` as ``(label, {block: values})``, blocks that are 0 left out."""
    cl, p = cons.concrete(inp).layout, cons.prompt(inp)
    return [(label, {b: cl.pi(b, tok) for b in cl.names if any(cl.pi(b, tok))}) for label, tok in zip(p.labels,
                                                                                                          p.tokens)]


def test_the_papers_tokens_on_small_inputs():
    # thm:cotdfs: x_i = [e_i ‖ 0 ‖ 0 ‖ A_{i,:} ‖ 0 ‖ 0 ‖ -1 ‖ -1 ‖ 0],
    # y_0 = [e_p ‖ 0 ‖ e_p ‖ A_{p,:} ‖ 0 ‖ 0 ‖ -1 ‖ -1 ‖ 1]
    flags = {"flg1": [-1], "flg2": [-1]}
    assert _blocks(DfsConstruction(), (Digraph.from_arcs(2, [(0, 1)]), 0)) == [
        ("x_⊥", {}),
        ("x_0", {"cur": [1, 0], "nbr": [0, 1], **flags}),
        ("x_1", {"cur": [0, 1], **flags}),
        ("y_0", {"cur": [1, 0], "vis": [1, 0], "nbr": [0, 1], **flags, "flg3": [1]}),
    ]
    # thm:cotpathtotree: x_τ = [0 ‖ 0 ‖ 0 ‖ 0 ‖ ê_τ ‖ q_τ ‖ 0 ‖ 0], y_0 = [e_0 ‖ e_0 ‖ 0 ‖ 0 ‖ ê_0 ‖ 0 ‖ 0 ‖ 1]
    assert _blocks(PathToTreeConstruction(), "UD") == [
        ("x_0", {"pos": [1, 0], "stp": [1]}), ("x_1", {"pos": [0, 1], "stp": [-1]}),
        ("y_0", {"cur": [1, 0], "nl": [1, 0], "pos": [1, 0], "flg": [1]}),
    ]
    # thm:cotpathstrahler: x_τ = [e_τ ‖ τ+1 ‖ 0 ‖ q_τ ‖ 0 ‖ e_{s_τ} ‖ 0 …]; q_τ the letter w_τ, or (printed, x_0
    # carrying the last step) w_{τ-1}
    y0 = ("y_0", {"pos": [1, 0], "pos_sc": [1], "q": [1], "ht": [1, 0], "flg": [1]})
    assert _blocks(StrahlerPathConstruction("as-written"), "UD") == [
        ("x_0", {"pos": [1, 0], "pos_sc": [1], "q": [1], "ht": [1, 0]}),
        ("x_1", {"pos": [0, 1], "pos_sc": [2], "q": [-1], "ht": [0, 1]}), y0]
    assert _blocks(StrahlerPathConstruction("q-literal-repaired"), "UD") == [
        ("x_0", {"pos": [1, 0], "pos_sc": [1], "q": [-1], "ht": [1, 0]}),
        ("x_1", {"pos": [0, 1], "pos_sc": [2], "q": [1], "ht": [0, 1]}), y0]
    assert _blocks(StrahlerPathConstruction("q-literal"), "UD")[0] == ("x_0", {"pos": [1, 0], "pos_sc": [1],
                                                                               "ht": [1, 0]})  # q_0 = 0


def _leaves(key) -> int:
    """The row arrays (leaves) in a key."""
    if _is_leaf(key):
        return 1
    return sum(_leaves(x) for x in key) if isinstance(key, tuple) else 0


def _batches():
    for cons in (DfsConstruction(), DfsPhiConstruction(), StrahlerTreeConstruction("repaired")):
        yield cons, [tree_batch(size, 0, 10**6) for size in range(1, 8)]
    yield PathToTreeConstruction(), [word_batch(size, 0, 10**6) for size in range(1, 8)]
    for v in ("as-written", "tmp-q", "q-literal", "q-literal-repaired"):  # the three readings of q_τ
        yield StrahlerPathConstruction(v), [word_batch(size, 0, 10**6) for size in range(2, 8)]


@pytest.mark.parametrize(("cons", "batches"), list(_batches()), ids=lambda x: getattr(x, "label", ""))
def test_the_batched_prompt_is_the_per_input_prompt_on_every_input_to_7_vertices(cons, batches):
    leaves = 0
    for batch in batches:
        first = batch.item(0)
        keys = cons.token_keys(batch.stand_in)
        leaves += sum(_leaves(key) for _, key in keys)
        bp = cons.prompt_batch(batch, cons.concrete(first).layout, cons.lam_value(first))
        for r in range(batch.count):
            prompt = cons.prompt(batch.item(r))
            assert [bp.tokens[j] for j in bp.index[r].tolist()] == prompt.tokens, (batch.size, r)
            assert bp.labels == prompt.labels
    assert leaves > 0  # rows differ: the keys read on the stand-in hold row arrays


def test_a_key_read_on_a_stand_in_holds_each_rows_values():
    batch = tree_batch(4, 0, 10**6)
    keys = dict(DfsConstruction().token_keys(batch.stand_in))
    cls, i, tail, row = keys["x_2"]
    assert (cls, i, tail) == ("x", 2, 2) and len(row) == 4 and all(isinstance(a, np.ndarray) for a in row)
    for r in range(batch.count):
        g, _ = batch.item(r)
        assert [int(a[r]) for a in row] == g.adjacency()[2]
