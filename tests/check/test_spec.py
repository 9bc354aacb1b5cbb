"""A claim's spec selects the encoding's blocks it compares; the exact, batched and symbolic checkers and replay
all honour the selection, and a wrong selection or a broken compared block is still caught."""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import pytest

from proofs.cot_path_to_tree.algorithms.batched.trees import width_of_psi
from proofs.cot_path_to_tree.algorithms.bijection import psi
from proofs.cot_path_to_tree.algorithms.paths import tree_width
from proofs.cot_path_to_tree.constructions.cotwidofpath import WidthPathConstruction
from proofs.cot_path_to_tree.constructions.cotwidoftree import WIDTH_BLOCKS, WidthTreeConstruction
from symcot.check.batched_check import run_batched_check
from symcot.check.context import RunContext
from symcot.check.exhaustive import run_construction_check
from symcot.check.spec import (
    BatchRunView,
    Conclusion,
    NotInBatch,
    RunView,
    StandInDisagreement,
    StepwiseSpec,
    as_rows,
    rows_equal,
    stack_rows,
    take_rows,
)
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


# -- one conclusion, read on one run and on a batch's runs ---------------------------------------------

L = Layout("toy", [("a", 2), ("b", 1)]).instantiate({})


def _run():
    final = np.array([[1, 2, 3], [4, 5, 6]])
    y0 = np.array([[0, 0, 9], [0, 0, 8]])
    trace = np.array([[[10], [11], [3]], [[20], [21], [6]]])  # block b at steps 1..3
    return BatchRunView(final, y0, trace, ["b"], np.array([3, 3]), L)


def _one_run(r):
    """Row ``r`` of :func:`_run` as one run (``y_1 … y_3``; only ``b`` is known before the last token)."""
    run = _run()
    outs = [[0, 0, int(run.trace[r, t, 0])] for t in range(2)] + [run.final[r].tolist()]
    return RunView(outs, run.y0[r].tolist(), L)


def test_a_batch_run_reads_a_block_as_one_column_per_component():
    run = _run()
    a = run.block("a")
    assert len(a) == 2 and [c.tolist() for c in a] == [[1, 4], [2, 5]]
    assert run.block("b", 3)[0].tolist() == [3, 6] and run.rows("a").tolist() == [[1, 2], [4, 5]]
    assert run.block("b", 0)[0].tolist() == [9, 8] and run.block("b", 2)[0].tolist() == [11, 21]
    assert run.series("b", 1, 2)[..., 0].tolist() == [[10, 11], [20, 21]]
    assert run.series("b", 2, 1).shape == (2, 0, 1)
    with pytest.raises(KeyError, match="not traced"):
        run.block("a", 1)
    with pytest.raises(IndexError):
        run.series("b", 1, 4)


def test_one_read_gives_every_rows_value_on_a_batch_run():
    """The same function on one run and on the batch's runs: row r of the batch's value is run r's."""
    def read(run, inp):
        return run.block("a")[1] + (run.block("b", 2)[0] >= 20), run.block("a")

    got = as_rows(read(_run(), "xyz"), 2)
    for r in range(2):
        one = read(_one_run(r), "xyz")
        assert [x.tolist() for x in take_rows(got, np.array([r]))] == [[one[0]], [one[1]]]


def test_rows_equal_compares_row_by_row():
    assert rows_equal(np.array([[1, 2], [3, 4]]), np.array([[1, 2], [3, 5]])).tolist() == [True, False]
    got = (np.array([1, 2]), np.array([[1], [2]]))
    assert rows_equal(got, (np.array([1, 0]), np.array([[1], [2]]))).tolist() == [True, False]
    with pytest.raises(ValueError):
        rows_equal(np.array([1, 2]), np.array([[1, 2]]))
    with pytest.raises(TypeError):
        rows_equal(got, np.array([1, 2]))


def test_values_read_on_a_stand_in_and_per_row_values_become_the_same_arrays():
    col = np.array([1, 2])
    assert as_rows([col, 7], 2).tolist() == [[1, 7], [2, 7]]  # a shared value is every row's
    assert as_rows([[col, col], [col, 0]], 2).shape == (2, 2, 2)
    assert as_rows([], 2).shape == (2, 0)
    assert [x.tolist() for x in as_rows(([1, 0], col), 2)] == [[[1, 0], [1, 0]], [1, 2]]
    with pytest.raises(ValueError, match="3 rows"):
        as_rows(np.arange(3), 2)
    assert stack_rows([[1, 7], [2, 7]]).tolist() == [[1, 7], [2, 7]]
    assert [x.tolist() for x in stack_rows([([1, 0], 1), ([1, 0], 2)])] == [[[1, 0], [1, 0]], [1, 2]]
    assert stack_rows(["UD", "UU"]).tolist() == ["UD", "UU"]
    with pytest.raises(ValueError):
        stack_rows([[1], [1, 2]])
    with pytest.raises(ValueError):
        stack_rows([(1, 2), (1,)])


class _StandIn:
    """Stands in for the words ``xyz`` and ``uvw``: ``len`` is shared, nothing else can be read on it."""

    def __len__(self):
        return 3


class _Batch:
    stand_in = _StandIn()

    def item(self, r):
        return ["xyz", "uvw"][r]


#: Row 0's b is 3, row 1's is 6.
_B = {"xyz": 3, "uvw": 7}


def _per_input_verdicts(c):
    return [c.failure(_Batch().item(r), _one_run(r).outputs, _one_run(r).y0, L) is not None for r in range(2)]


def test_a_conclusion_stated_once_gets_the_same_verdicts_in_batch_and_per_input():
    row_by_row = Conclusion("b is its word's number, in 3 steps", steps=len, read=lambda run, inp: run.block("b")[0],
                            answer=lambda inp: _B[inp])  # the stand-in is not a word: answers row by row
    on_stand_in = Conclusion("b is 3", steps=len, read=lambda run, inp: run.block("b")[0], answer=lambda inp: 3)
    for c in (row_by_row, on_stand_in):
        assert c.batch_failures(_run(), _Batch(), spot=[0, 1]).tolist() == _per_input_verdicts(c) == [False, True]
    assert row_by_row.batch_failures(_run(), _Batch(), np.array([True, False])).tolist() == [False, False]
    only_steps = Conclusion("4 steps", steps=lambda inp: 4)
    assert only_steps.batch_failures(_run(), _Batch()).tolist() == [True, True]


def test_an_answer_on_the_stand_in_that_is_not_every_rows_is_caught_on_the_spot_rows():
    lying = Conclusion("b is the answer", read=lambda run, inp: run.block("b")[0],
                       answer=lambda inp: 6 if isinstance(inp, _StandIn) else _B[inp])
    assert lying.batch_failures(_run(), _Batch()).tolist() == [True, False]  # without spot rows: not seen
    with pytest.raises(StandInDisagreement, match="xyz"):
        lying.batch_failures(_run(), _Batch(), spot=[0])


def test_a_read_the_batch_cannot_make_leaves_the_rows_to_the_caller():
    late = Conclusion("b at y_4", read=lambda run, inp: run.block("b", 4)[0], answer=lambda inp: 0)
    untraced = Conclusion("a at y_1", read=lambda run, inp: run.block("a", 1)[0], answer=lambda inp: 0)
    per_word = Conclusion("b by the word", read=lambda run, inp: run.block("b")[0] + {"xyz": 0}[inp],
                          answer=lambda inp: 0)
    ragged = Conclusion("a", read=lambda run, inp: run.block("a"), answer=lambda inp: [0] * len(_B) * (inp == "xyz"))
    for c in (late, untraced, per_word, ragged):
        with pytest.raises(NotInBatch):
            c.batch_failures(_run(), _Batch())


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


def test_a_spec_is_checked_in_batch_where_it_has_a_batch_reference():
    assert not StepwiseSpec(reference=list).batched
    assert StepwiseSpec(reference=list, reference_batch=lambda b: None).batched


def _wider_from_4_vertices(w):
    """wid(ψ(w)), one too many from 4 vertices on: read on a stand-in (``len``) too."""
    return width_of_psi(w) + (len(w) >= 6)


def _wider_on_a_fork(w):
    """wid(ψ(w)), one too many on ψ(UUDUDD): written for one word only (``psi`` takes no stand-in: row by row)."""
    return tree_width(psi(w)) + (w == "UUDUDD")


@pytest.mark.parametrize("answer", [_wider_from_4_vertices, _wider_on_a_fork])
def test_a_wrong_answer_is_refuted_in_batch_at_the_smallest_counterexample_of_exact_replay(answer):
    """thm:cotwidofpath's own read against a wrong answer: both checkers refute it on the same word."""
    P = importlib.import_module("proofs.cot_path_to_tree.thm_cotwidofpath")
    wrong = dataclasses.replace(P.SPEC.conclusions[0], answer=answer)
    spec = dataclasses.replace(P.SPEC, conclusions=(wrong,))
    cons = WidthPathConstruction("repaired")
    exact = run_construction_check("x", cons, spec, [P.NONEMPTY_DYCK_WORDS], 5)
    batched = run_batched_check("x", cons, spec, [P.NONEMPTY_DYCK_WORDS], 5)
    assert exact.verdict == batched.verdict == "refuted"
    assert batched.counterexample == exact.counterexample and exact.counterexample["size"] == 4
    assert batched.inputs_checked == exact.inputs_checked
    assert batched.details["exact_fallbacks"] == 0  # decided on the batch, not by exact replay
