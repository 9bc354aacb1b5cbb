"""Reference states of a batch as arrays (symcot.algorithms.batched.fields): the recorder and its helpers."""

import numpy as np

from symcot.algorithms.batched.fields import Fields, Recorder, since, step_numbers


def test_recorder_writes_columns_with_missing_and_lengths():
    rec = Recorder(batch=2, steps=3)
    rec.put(0, "cur", np.array([0, 4]))
    rec.put(1, "cur", np.array([1, -1]), missing=np.array([False, True]))
    rec.put(0, "vst", np.array([[True, False], [False, False]]))
    f = rec.fields([2, 3])
    assert f.values["cur"].shape == (2, 3) and f.values["cur"].dtype.kind == "i"
    assert f.values["cur"][:, :2].tolist() == [[0, 1], [4, -1]]
    assert f.missing["cur"][:, :2].tolist() == [[False, False], [False, True]]
    assert "vst" not in f.missing and f.values["vst"].shape == (2, 3, 2)
    assert f.lengths.dtype == np.int64 and f.steps == 3


def test_rows_keeps_the_chosen_rows_of_every_field():
    f = Fields(np.array([1, 2, 3]), {"cur": np.arange(9).reshape(3, 3)}, {"cur": np.eye(3, dtype=bool)})
    g = f.rows(np.array([False, True, True]))
    assert g.lengths.tolist() == [2, 3] and g.steps == 3
    assert g.values["cur"].tolist() == [[3, 4, 5], [6, 7, 8]]
    assert g.missing["cur"].tolist() == [[False, True, False], [False, False, True]]
    assert Fields(np.zeros(0, dtype=np.int64)).steps == 0


def test_step_numbers_and_a_growing_set():
    assert step_numbers(2, 3).tolist() == [[0, 1, 2], [0, 1, 2]]
    first = np.array([[0, 2, 99]])  # vertex 2 never joins
    assert since(first, 3)[0].tolist() == [[True, False, False], [True, False, False], [True, True, False]]


def test_matrix_rows_read_each_rows_entry_and_zero_outside():
    import numpy as np

    from symcot.algorithms.batched.fields import MatrixRows

    m = MatrixRows(np.arange(8).reshape(2, 2, 2), np.array([0, 1]))
    assert m.entry(np.array([[0], [1]]), np.array([[1], [0]])).tolist() == [[1], [6]]  # a column per row
    assert m.entry(np.array([[-1], [2]]), 0).tolist() == [[0], [0]]
    assert m.entry(0, np.arange(2)[None, :]).tolist() == [[0, 1], [4, 5]]  # a row of indices: every j
    assert m.n == 2 and m.batch == 2 and m.src.tolist() == [[0], [1]]


def test_matrix_rows_gather_the_same_entries_once_and_hand_them_out_read_only():
    import numpy as np
    import pytest

    from symcot.algorithms.batched.fields import MatrixRows

    m = MatrixRows(np.arange(8).reshape(2, 2, 2), np.array([0, 1]))
    i, j = np.array([[1], [0]]), np.arange(2)[None, :]
    first = m.entry(i, j)
    assert m.entry(i, j) is first and first.tolist() == [[2, 3], [4, 5]]
    assert m.entry(np.array([[1], [0]]), j) is not first  # equal values, another object: gathered again
    with pytest.raises(ValueError):
        first[0, 0] = 7  # read-only: a caller cannot change what the next read gets
