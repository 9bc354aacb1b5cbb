"""Expected block values of prepared rows and their exact comparison with a batched step (symcot.check.expected)."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from symcot.check.expected import Expected, table_disagreement, table_items
from symcot.check.kernel_check import EngineDisagreement
from symcot.replay.batched import StepView

LAYOUT = SimpleNamespace(names=["cur", "vis"], sizes={"cur": 2, "vis": 1}, offsets={"cur": 0, "vis": 2})


def _row(table=None, expected=None, total=1):
    return SimpleNamespace(table=table, expected=expected, total=total)


def _view(t, columns, scale=1):
    y = np.array(columns, dtype=np.int64).T  # (d, rows)
    return StepView(t=t, rows=np.arange(y.shape[1]), y=y, scale=scale, path="int64", layout=LAYOUT)  # type: ignore[arg-type]


TABLE_ROW = _row(table={"cur": np.array([[1, 0], [0, 1]]), "vis": (np.array([[0], [1]]), [False, True])})
STEPS_ROW = _row(expected=[{"cur": [1, 0]}, {"cur": [0, 1], "vis": [1]}])


def test_a_table_and_per_step_values_laid_out_alike():
    exp = Expected([TABLE_ROW, STEPS_ROW], LAYOUT)
    assert exp.cols.tolist() == [0, 1, 2] and not exp.unrepresentable
    assert (exp.vals[0] == exp.vals[1]).all() and (exp.mask[0] == exp.mask[1]).all()
    assert exp.mask[:, 0].tolist() == [[True, True, False]] * 2  # vis is not expected at step 0
    idx = np.array([0, 1])
    # step 0: vis is free, anything there passes
    assert exp.mismatch(_view(0, [[1, 0, 5], [1, 0, -7]]), idx).tolist() == [False, False]
    # step 1: row 1 carries vis = 0 where 1 is expected
    assert exp.mismatch(_view(1, [[0, 1, 1], [0, 1, 0]]), idx).tolist() == [False, True]


def test_a_scaled_step_compares_scale_times_the_values():
    exp = Expected([STEPS_ROW], LAYOUT)
    idx = np.array([0])
    assert exp.mismatch(_view(1, [[0, 3, 3]], scale=3), idx).tolist() == [False]
    assert exp.mismatch(_view(1, [[0, 1, 1]], scale=3), idx).tolist() == [True]  # the unscaled values differ


def test_values_no_int64_holds_go_to_the_exact_path():
    exp = Expected([STEPS_ROW, _row(expected=[{"cur": [Fraction(1, 2), 0]}, {"cur": [0, 1]}])], LAYOUT)
    assert exp.unrepresentable == {1}


def test_a_table_of_the_wrong_shape_is_an_engine_disagreement():
    with pytest.raises(EngineDisagreement, match="block cur"):
        Expected([_row(table={"cur": np.zeros((3, 2), dtype=np.int64)})], LAYOUT)


def test_table_disagreement_names_the_first_difference():
    steps = [{"cur": [1, 0]}, {"cur": [0, 1], "vis": [1]}]
    assert table_disagreement(TABLE_ROW.table, steps) is None
    assert [b for b, _ in table_items(TABLE_ROW.table)] == ["cur", "vis"]
    wrong = {"cur": np.array([[1, 0], [1, 0]]), "vis": TABLE_ROW.table["vis"]}
    assert table_disagreement(wrong, steps) == "step 1, block cur: expected [0, 1], table [1, 0]"
    always = {"cur": TABLE_ROW.table["cur"], "vis": np.array([[0], [1]])}  # vis present at step 0 too
    assert table_disagreement(always, steps).startswith("step 0: blocks")
    assert "steps expected" in table_disagreement(TABLE_ROW.table, steps[:1])
