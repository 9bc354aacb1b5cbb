"""A reference reads one transition per input and per batch: the two readings give the same states."""

import numpy as np
import pytest

from symcot.algorithms.batched.fields import Fields
from symcot.algorithms.reference import Reference
from tests.algorithms.test_transition import TOY, BatchWeights, Weights


def _fields(r, g) -> Fields:
    return Fields(r.lengths, {"level": r.states["level"], "last": r.states["last"]},
                  {"last": r.states["last"] < 0})


def _states(run, ws):
    return [(s["level"], None if s["last"] == -1 else s["last"]) for s in run.states]


REF = Reference(TOY, lambda ws: Weights(len(ws), tuple(ws)), _states,
                lambda batch: (BatchWeights(batch), len(batch), 100), _fields)
ROWS = [(2, 0, 1), (0, 0, 0), (1, 3, 2), (3, 3, 3)]


def test_per_input_and_batch_agree():
    fields = REF.batch(np.array(ROWS))
    for b, ws in enumerate(ROWS):
        states = REF(ws)
        assert fields.lengths[b] == len(states)
        for t, (level, last) in enumerate(states):
            assert fields.values["level"][b, t] == level
            assert (fields.missing["last"][b, t] and last is None) or fields.values["last"][b, t] == last


def test_a_batch_reading_of_another_algorithm_is_told_apart():
    # a batched reading that drops the weights is another algorithm: its rows end too early
    wrong = Reference(TOY, REF.inputs, _states, lambda batch: (BatchWeights(batch * 0), len(batch), 100), _fields)
    fields = wrong.batch(np.array(ROWS))
    assert [int(x) for x in fields.lengths] != [len(REF(ws)) for ws in ROWS]


def test_a_reference_without_a_batched_reading():
    ref = Reference(TOY, REF.inputs, _states)
    assert not ref.batched and ref((1, 0)) == REF((1, 0))
    with pytest.raises(ValueError, match="no batched reading"):
        ref.batch(np.array(ROWS))
    with pytest.raises(ValueError, match="needs batch_inputs and fields"):
        Reference(TOY, REF.inputs, _states, fields=_fields)
