"""A claim's spec selects the encoding's blocks it compares; the exact, batched and symbolic checkers and replay
all honour the selection, and a wrong selection or a broken compared block is still caught."""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import pytest

from proofs.cot_path_to_tree.constructions.cotwidoftree import WIDTH_BLOCKS, WidthTreeConstruction
from symcot.check.batched_check import run_batched_check
from symcot.check.context import RunContext
from symcot.check.exhaustive import run_construction_check
from symcot.check.spec import BatchRunView, Conclusion, StepwiseSpec, rows_equal
from symcot.check.stepwise import check_input
from symcot.check.trace import replay
from symcot.constructions.mutant import Mutant
from symcot.inputs import Digraph
from symcot.ir import Layout
from symcot.prove.symbolic_check import SymbolicCheck
from symcot.prove.symbolic_target import SymbolicTarget


@pytest.fixture(scope="module")
def W():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotwidoftree")


def _trees(W, k):
    return [dataclasses.replace(W.TREES, max_size=k)]


def test_the_width_spec_compares_every_block_but_dis(W):
    cons = WidthTreeConstruction("as-written")
    assert set(cons.encoding.blocks) - set(WIDTH_BLOCKS) == {"dis"} and W.WIDTH_SPEC.compare == set(WIDTH_BLOCKS)
    state = W.SPEC.reference((Digraph.undirected(2, [(0, 1)]), 0))[1]
    inp = (Digraph.undirected(2, [(0, 1)]), 0)
    assert set(W.WIDTH_SPEC.expected(cons, inp, state, 1)) == set(WIDTH_BLOCKS)
    assert set(W.SPEC.expected(cons, inp, state, 1)) == set(WIDTH_BLOCKS) | {"dis"}
    assert W.WIDTH_SPEC.ignores(cons, "dis") and not W.WIDTH_SPEC.ignores(cons, "wei")  # wei is not in enc


@pytest.mark.parametrize("engine", ["exact", "batched"])
def test_both_engines_verify_the_width_and_refute_the_distances(W, engine):
    run = run_batched_check if engine == "batched" else run_construction_check
    cons = WidthTreeConstruction("as-written")
    assert run("x", cons, W.WIDTH_SPEC, _trees(W, 5), 5).verdict == "verified"
    row = run("x", cons, W.SPEC, _trees(W, 5), 5)
    assert row.verdict == "refuted" and row.counterexample["block"] == "dis"


@pytest.mark.parametrize("engine", ["exact", "batched"])
def test_a_broken_compared_block_is_refuted_under_the_selection(W, engine):
    """dif = Σ buf (the crd term dropped): the width spec locates it in layer 2, not at the ignored dis."""
    m = Mutant(WidthTreeConstruction("as-written"), 2, "W_2", ("dif", 0), [("crd", 0)], 0)
    run = run_batched_check if engine == "batched" else run_construction_check
    c = run("x", m, W.WIDTH_SPEC, _trees(W, 5), 5).counterexample
    assert c is not None and (c["step"], c["layer"], c["block"]) == (2, 2, "dif")


def test_a_selection_naming_a_block_the_encoding_lacks_is_an_error(W):
    bad = dataclasses.replace(W.SPEC, compare=frozenset({"cur", "nope"}))
    with pytest.raises(ValueError, match="nope"):
        check_input(WidthTreeConstruction("as-written"), bad, (Digraph.undirected(2, [(0, 1)]), 0))
    row = run_batched_check("x", WidthTreeConstruction("as-written"), bad, _trees(W, 2), 2)
    assert row.verdict == "error" and "nope" in row.notes[-1]


def test_symbolic_replay_honours_the_selection(W):
    def target(spec):
        return SymbolicTarget("thm:cotwidoftree", lambda: WidthTreeConstruction("as-written"), spec, W.TREES)

    width = SymbolicCheck("as-written", target(W.WIDTH_SPEC), lambda_min=False).run(RunContext("x", 4))
    full = SymbolicCheck("as-written", target(W.SPEC), lambda_min=False).run(RunContext("x", 4))
    assert width.verdict == "proved" and width.max_size == 4
    assert full.verdict == "refuted"


def test_replay_reports_no_mismatch_on_an_ignored_block(W):
    tree = (Digraph.undirected(3, [(0, 1), (0, 2)]), 0)
    cons = WidthTreeConstruction("as-written")
    assert replay(cons, tree, W.WIDTH_SPEC).ok
    full = replay(cons, tree, W.SPEC)
    assert not full.ok and any("dis" in m for st in full.steps for m in st.mismatches)


# -- the batch forms of a spec -------------------------------------------------------------------------

L = Layout("toy", [("a", 2), ("b", 1)]).instantiate({})


def _run():
    final = np.array([[1, 2, 3], [4, 5, 6]])
    y0 = np.array([[0, 0, 9], [0, 0, 8]])
    trace = np.array([[[10], [11], [3]], [[20], [21], [6]]])  # block b at steps 1..3
    return BatchRunView(final, y0, trace, ["b"], np.array([3, 3]), L)


def test_a_batch_run_reads_blocks_at_the_last_step_at_0_and_traced_steps():
    run = _run()
    assert run.block("a").tolist() == [[1, 2], [4, 5]] and run.block("b", 3).tolist() == [[3], [6]]
    assert run.block("b", 0).tolist() == [[9], [8]] and run.block("b", 2).tolist() == [[11], [21]]
    assert run.series("b", 1, 2)[..., 0].tolist() == [[10, 11], [20, 21]]
    assert run.series("b", 2, 1).shape == (2, 0, 1)
    with pytest.raises(KeyError, match="not traced"):
        run.block("a", 1)
    with pytest.raises(IndexError):
        run.series("b", 1, 4)


def test_rows_equal_compares_row_by_row():
    assert rows_equal(np.array([[1, 2], [3, 4]]), np.array([[1, 2], [3, 5]])).tolist() == [True, False]
    got = (np.array([1, 2]), np.array([[1], [2]]))
    assert rows_equal(got, (np.array([1, 0]), np.array([[1], [2]]))).tolist() == [True, False]
    with pytest.raises(ValueError):
        rows_equal(np.array([1, 2]), np.array([[1, 2]]))
    with pytest.raises(TypeError):
        rows_equal(got, np.array([1, 2]))


class _Batch:
    stand_in = "xyz"  # len() of the stand-in is 3, as a word's length


def test_batch_failures_of_a_conclusion():
    c = Conclusion("b is 3 and 6, in 3 steps", steps=len, read=lambda run, inp: run.block("b")[0],
                   answer=lambda inp: 0, batch_read=lambda run, b: run.block("b")[:, 0],
                   batch_answer=lambda b: np.array([3, 7]))
    assert c.batched and c.batch_failures(_run(), _Batch()).tolist() == [False, True]
    only_steps = Conclusion("4 steps", steps=lambda inp: 4)
    assert only_steps.batched and only_steps.batch_failures(_run(), _Batch()).tolist() == [True, True]
    per_input_only = Conclusion("read per input", read=lambda run, inp: 0, answer=lambda inp: 0)
    assert not per_input_only.batched
    assert not StepwiseSpec(reference=list, conclusions=(c,)).batched  # no batch reference
    assert StepwiseSpec(reference=list, conclusions=(c,), reference_batch=lambda b: None).batched
    assert not StepwiseSpec(reference=list, conclusions=(per_input_only,), reference_batch=lambda b: None).batched


class _Items:
    stand_in = object()  # no count can be read on it

    def item(self, r):
        return "xyz" if r == 0 else "wxyz"


def test_a_step_count_written_for_one_input_only_is_read_row_by_row():
    c = Conclusion("3 steps, one input at a time", steps=lambda inp: inp.count("x") + 2 if isinstance(inp, str)
                   else inp.missing)
    assert c.batch_failures(_run(), _Items()).tolist() == [False, False]
    c4 = Conclusion("len steps", steps=lambda inp: len(inp) if isinstance(inp, str) else inp.missing)
    assert c4.batch_failures(_run(), _Items()).tolist() == [False, True]
