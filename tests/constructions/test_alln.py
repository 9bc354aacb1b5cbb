"""The all-n statement of a construction: its classes, choices and checks of its own shape."""

import dataclasses

import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT, DfsConstruction
from proofs.cot_path_to_tree.constructions.cotpathtotree import PathToTreeConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from proofs.cot_path_to_tree.constructions.cotwidofpath import WidthPathConstruction
from symcot.constructions.alln import Y
from symcot.constructions.base import Construction


def test_statements_of_the_proved_constructions():
    assert STATEMENT.classes() == ["x_⊥", "x", Y] and STATEMENT.choice(2, "T") is not None
    assert STATEMENT.choice(1, "T") is None and STATEMENT.segment("x").label(3) == "x_3"
    assert set(STATEMENT.token.blocks) == set(DfsConstruction().decoder.layout.names)
    assert PathToTreeConstruction.all_n.last_token == "all"
    for cls in (DfsConstruction, PathToTreeConstruction, StrahlerTreeConstruction):
        enc = cls.encoding.blocks
        assert all(cls.all_n.token.blocks[b] == term for b, term in enc.items())  # the token extends enc
    assert WidthPathConstruction.all_n is None


def test_shape_errors():
    with pytest.raises(ValueError, match="last_token"):
        dataclasses.replace(STATEMENT, last_token="some")
    with pytest.raises(ValueError, match="distinct"):
        dataclasses.replace(STATEMENT, segments=STATEMENT.segments + STATEMENT.segments[:1])


def test_a_choice_is_stated_for_a_token_class():
    from symcot.constructions.alln import Choice

    at_x = Choice(2, "T", lambda c, i: [(True, "x_⊥", 0)], cls="x")
    stmt = dataclasses.replace(STATEMENT, choices=(*STATEMENT.choices, at_x))
    assert stmt.choice(2, "T", "x") is at_x and stmt.choice(2, "T") is STATEMENT.choice(2, "T")
    assert STATEMENT.choice(2, "T", "x") is None and all(ch.cls == Y for ch in STATEMENT.choices)
    with pytest.raises(ValueError, match="stated twice"):
        dataclasses.replace(stmt, choices=(*stmt.choices, at_x))
    with pytest.raises(ValueError, match="neither a segment's"):
        dataclasses.replace(STATEMENT, choices=(*STATEMENT.choices, dataclasses.replace(at_x, cls="y_0")))


def test_the_per_step_claims_a_failure_is_located_by_are_the_statements_cuts_and_choices():
    """One statement of the per-step claims: ``Construction.invariants`` reads the all-n cuts and choices."""
    from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic
    from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT, DfsConstruction
    from symcot.inputs.graphs import Digraph

    g = Digraph(3, [(0, 1), (1, 0), (1, 2), (2, 1)])
    cons, states = DfsConstruction(), dfs_dynamic(g, 0)
    assert type(cons).invariants is Construction.invariants  # no hand-written copy in the construction
    step1 = {(e.layer, e.kind, e.name): e.expected for e in cons.invariants((g, 0), states, 1)}
    assert step1 == {(1, "block", "flg1"): [1], (1, "block", "buf"): [1, 0, 0], (2, "head", "T"): "x_1",
                     (2, "head", "B"): "x_⊥"}  # step 1 traverses 0 → 1
    last = {(e.layer, e.kind, e.name): e.expected for e in cons.invariants((g, 0), states, len(states) - 1)}
    assert last[(2, "head", "T")] == "x_⊥" and last[(1, "block", "flg1")] == [0]
    quotes = {e.name: e.source for e in cons.invariants((g, 0), states, 1)}
    assert quotes["flg1"] == STATEMENT.quotes[(1, "flg1")] and "x_⊥" in quotes["T"]


# -- the prompt stated by segments ---------------------------------------------------------------------------


def _toy_prompt(inputs, x_views=None, y_term=None):
    """A prompt of ``n`` tokens ``x_i = [e_i ‖ w_i]`` and ``y_0 = [0 ‖ w_0]`` over a toy vocabulary (weights ``w``)."""
    from symcot.algorithms.logic import Sig, Vocabulary
    from symcot.constructions.alln import PromptStatement, Segment
    from symcot.constructions.encoding import StateEncoding, onehot, vector

    vocab = Vocabulary("toy", (Sig("n", 0), Sig("w", 1), Sig("cur", 1)), (), {}, lambda inp, states: {},
                       inputs=inputs)
    views = x_views or {"i": lambda c, i: i, "row": lambda c, i: c.vec(lambda j: c.w(j), c.n)}
    x = Segment("x", lambda c: c.n, StateEncoding({"e": onehot("i"), "w": vector("row")}), views, lambda i: f"x_{i}")
    y0 = Segment("y_0", lambda c: 1, StateEncoding({"w": y_term or vector("row")}), {"row": views["row"]},
                 lambda i: "y_0")
    return PromptStatement(vocab, (x,), y0)


def _toy_layout(k):
    from symcot.ir import Layout, n

    return Layout("toy", [("e", n), ("w", n)]).instantiate({n: k})


class _Inf:
    """A reference's ∞ (read as λ by a vector term)."""

    is_infinite = True


def test_a_prompt_stated_by_segments_is_read_from_the_input_alone():
    weights = [3, _Inf()]
    prompt = _toy_prompt(lambda ws: {"n": len(ws), "w": lambda j: ws[j]})
    keys = prompt.keys(weights)
    assert [label for label, _ in keys] == ["x_0", "x_1", "y_0"]
    assert keys[0][1][:3] == ("x", 0, 0) and keys[2][1][:2] == ("y_0", 0)  # (class, index, view values by name)
    cl = _toy_layout(2)
    assert prompt.token(cl, keys[0][1], 7) == [1, 0, 3, 7]  # λ enters through the encoding: ∞ ↦ λ
    assert prompt.token(cl, keys[1][1], 9) == [0, 1, 3, 9]
    assert prompt.token(cl, keys[2][1], 7) == [0, 0, 3, 7]  # blocks the encoding does not list are 0


def test_a_prompt_view_that_reads_the_run_or_a_vocabulary_without_inputs_is_an_error():
    views = {"i": lambda c, i: c.cur(i), "row": lambda c, i: c.vec(lambda j: c.w(j), c.n)}
    prompt = _toy_prompt(lambda ws: {"n": len(ws), "w": lambda j: ws[j]}, views)
    with pytest.raises(ValueError, match="input symbols only"):
        prompt.keys([1, 2])
    with pytest.raises(ValueError, match="no input interpretation"):
        _toy_prompt(None).keys([1, 2])


def test_a_prompt_read_on_row_arrays_gives_leaves_whose_rows_are_the_inputs_keys():
    import numpy as np

    from symcot.constructions.prompt_batch import batch_prompt

    rows = np.array([[1, 0], [0, 0], [1, 0]])
    prompt = _toy_prompt(lambda ws: {"n": ws.shape[1], "w": lambda j: ws[:, j]})
    cl = _toy_layout(2)
    bp = batch_prompt(prompt.keys(rows), lambda key: prompt.token(cl, key), 3)
    one = _toy_prompt(lambda ws: {"n": len(ws), "w": lambda j: ws[j]})
    for r in range(3):
        want = [one.token(cl, key) for _, key in one.keys(rows[r].tolist())]
        assert [bp.tokens[j] for j in bp.index[r].tolist()] == want
    assert bp.index[0].tolist() == bp.index[2].tolist() != bp.index[1].tolist()


def test_a_construction_with_segments_and_its_own_token_keys_is_refused():
    class Prompted:
        def token_keys(self, inp):
            return []

    with pytest.raises(TypeError, match="states its prompt twice"):
        class Twice(Construction):  # noqa: F841 - the class statement is what raises
            all_n = STATEMENT

            def token(self, cl, key, lam_value):
                return []
    with pytest.raises(TypeError, match="token_keys"):
        class Mixed(Prompted, Construction):  # noqa: F841 - a mixin's token_keys counts
            prompt_segments = STATEMENT.prompt

    class Hand(Prompted, Construction):  # no segments: its own prompt is the one
        pass

    assert Hand.token_keys is Prompted.token_keys
