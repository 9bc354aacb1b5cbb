"""The state encoding read on arrays over a batch of runs: forms, masks, and rows it cannot represent."""

import numpy as np

from symcot.algorithms.batched.fields import Fields
from symcot.constructions.encoding import (
    StateEncoding,
    batch_field_arrays,
    const,
    flat,
    indicator,
    onehot,
    scalar,
    vector,
)

ENC = StateEncoding({"cur": onehot("cur"), "vis": indicator("vst"), "x": scalar("x", scale=2, offset=1, when="on"),
                     "d": vector("d", from_step=1), "m": flat("m"), "k": const(1)})
SIZES = {"cur": 3, "vis": 3, "x": 1, "d": 2, "m": 4, "k": 2}


def _fields(**missing):
    b, s = 2, 3
    return Fields(np.array([3, 3]), {
        "cur": np.array([[0, 1, 2], [2, 2, 0]]), "vst": np.zeros((b, s, 3), dtype=bool),
        "x": np.array([[1, 2, 3], [4, 5, 6]]), "on": np.array([[True, False, True], [True, True, True]]),
        "d": np.arange(b * s * 2).reshape(b, s, 2), "m": np.ones((b, s, 2, 2), dtype=np.int8)}, missing)


def test_every_form_at_every_step():
    f = _fields(cur=np.array([[False, False, True], [False, False, False]]))
    arrays, bad = batch_field_arrays(f, ENC, SIZES)
    blocks = ENC.evaluate(arrays, 3, SIZES, lam=9)
    assert not bad.any() and not any(bv.unrepresentable.any() for bv in blocks.values())
    assert blocks["cur"].form == "index" and blocks["cur"].dense()[0].tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 0]]
    assert blocks["vis"].data.dtype == np.int8 and blocks["m"].data.dtype == np.int8
    assert blocks["x"].dense()[1, :, 0].tolist() == [9, 11, 13] and blocks["x"].present[0].tolist() == [1, 0, 1]
    assert blocks["d"].present[0].tolist() == [False, True, True]
    assert blocks["k"].form == "const" and blocks["k"].dense().shape == (2, 3, 2)


def test_rows_that_are_not_integers_here_are_marked():
    # x is None at a step where it is compared (row 1), d has ∞ in row 0 and no integer λ
    f = _fields(x=np.array([[False, True, False], [False, True, False]]),
                d=np.array([[[True, False]] * 3, [[False, False]] * 3]))
    arrays, _ = batch_field_arrays(f, ENC, SIZES)
    blocks = ENC.evaluate(arrays, 3, SIZES, lam=None)
    assert blocks["x"].unrepresentable.tolist() == [False, True]  # row 0's None is at a step x is not compared
    assert blocks["d"].unrepresentable.tolist() == [True, False]
    with_lam = ENC.evaluate(arrays, 3, SIZES, lam=7)
    assert not with_lam["d"].unrepresentable.any() and with_lam["d"].dense()[0, 0].tolist() == [7, 1]


def test_a_set_beyond_its_block_marks_its_row():
    f = _fields()
    f.values["vst"] = np.zeros((2, 3, 4), dtype=bool)
    f.values["vst"][1, 2, 3] = True
    _, bad = batch_field_arrays(f, ENC, SIZES)
    assert bad.tolist() == [False, True]


def test_the_table_of_one_run_is_the_batch_interpreter_on_one_row():
    class S:
        def __init__(self, t):
            self.cur, self.vst, self.x, self.on = t % 3, frozenset(range(t)), t, t != 1
            self.d, self.m = (t, 2 * t), ((1, 0), (0, t))

    table = ENC.table([S(0), S(1), S(2)], SIZES, lam=5)
    assert table["cur"].tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert table["x"][0].tolist() == [[1], [3], [5]] and table["x"][1].tolist() == [True, False, True]
    assert table["m"][2].tolist() == [1, 0, 0, 2] and table["k"].tolist() == [[1, 1]] * 3


def test_lambda_values_are_computed_once_per_sizes_and_weight(monkeypatch):
    from fractions import Fraction

    from symcot.constructions import encoding
    from symcot.constructions.encoding import LambdaRule, W
    from symcot.ir import n

    rule = LambdaRule(1 + (n - 1) * W)
    calls = []
    real = LambdaRule._value
    monkeypatch.setattr(LambdaRule, "_value", lambda self, env, w: calls.append((dict(env), w)) or real(self, env, w))
    monkeypatch.setattr(encoding, "_LAMBDA_VALUES", {})
    assert [rule.value({n: 4}, 2), rule.value({n: 4}, 2), rule.value({n: 4}, Fraction(1, 2)), rule.value({n: 5}, 2)] \
        == [7, 7, Fraction(5, 2), 9]
    assert len(calls) == 3  # the repeated (sizes, weight) is looked up
    monkeypatch.setattr(encoding, "LAMBDA_CACHE_LIMIT", 1)
    assert rule.value({n: 6}, 1) == 6 and len(encoding._LAMBDA_VALUES) == 1
