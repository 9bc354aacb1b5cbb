"""The numpy reading of a transition: shapes, whole index ranges at once, and the history it keeps."""

import numpy as np
import pytest

from symcot.algorithms.batched.run import NumpyOps, run_batch
from symcot.algorithms.transition import run
from tests.algorithms.test_transition import TOY, BatchWeights, Weights


def test_scalars_are_columns_and_an_index_range_is_a_row():
    o = NumpyOps(TOY, BatchWeights(np.array([[2, 0, 1], [0, 0, 0]])), 2)
    assert o.col(3).shape == (2, 1) and o.col(np.array([1, 2])).tolist() == [[1], [2]]
    arr = np.array([[10, 11, 12], [20, 21, 22]])
    assert o.at(arr, np.array([[2], [-1]])).tolist() == [[12], [-1]]  # one index per row; -1 outside
    assert o.at(arr, np.arange(3)[None, :]).tolist() == arr.tolist()  # a row of indices: every column
    assert o.put(arr, np.array([[0], [5]]), 9).tolist() == [[9, 11, 12], [20, 21, 22]]  # outside: unchanged
    assert o.lowest("pick", lambda j: j >= np.array([[1], [3]])).tolist() == [[1], [-1]]


def test_history_is_kept_only_for_the_named_variables():
    ws = np.array([[2, 0, 1], [1, 1, 3]])
    full = run_batch(TOY, BatchWeights(ws), 2, 100)
    part = run_batch(TOY, BatchWeights(ws), 2, 100, keep=("last",))
    assert part.states["last"].tolist() == full.states["last"].tolist()
    assert part.states["mark"].shape == (2, 1, 3)  # the last state only
    assert part.states["mark"][:, 0].tolist() == full.states["mark"][:, -1].tolist()
    for row, w in enumerate(ws):
        assert full.lengths[row] == len(run(TOY, Weights(3, tuple(w))).states)


def test_a_batch_that_does_not_stop_is_refused():
    from dataclasses import replace

    with pytest.raises(RuntimeError, match="runs past"):
        run_batch(replace(TOY, running=lambda o, g, s: s.level >= 0), BatchWeights(np.array([[1, 1]])), 1, 5)


def test_the_whole_index_range_reads_the_array_itself_and_other_rows_gather():
    o = NumpyOps(TOY, BatchWeights(np.array([[2, 0, 1], [0, 0, 0]])), 2)
    arr = np.array([[10, 11, 12], [20, 21, 22]])
    seen = []
    o.array(TOY.state[1].index, lambda j: seen.append(j) or j)
    j = seen[0]  # the row array() hands its function
    assert o.at(arr, j) is arr  # the range itself: no gather
    shifted = o.at(arr, j + 1)  # another row of indices: gathered, -1 outside
    assert shifted.tolist() == [[11, 12, -1], [21, 22, -1]]
    assert not j.flags.writeable


def test_a_variable_whose_type_widens_keeps_every_step_in_the_wider_type():
    from dataclasses import replace

    from symcot.algorithms.transition import StateVar

    tr = replace(TOY, state=(*TOY.state, StateVar("w", doc="0, then 1.5")),
                 init=lambda o, g: {**TOY.init(o, g), "w": 0},
                 step=lambda o, g, s: {**TOY.step(o, g, s), "w": 1.5})
    r = run_batch(tr, BatchWeights(np.array([[2, 0, 1]])), 1, 100)
    assert r.states["w"].dtype == np.float64 and r.states["w"][0, 0] == 0 and r.states["w"][0, 1] == 1.5
