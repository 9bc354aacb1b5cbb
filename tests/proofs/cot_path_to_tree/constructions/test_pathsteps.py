"""The two readings of q_τ: the letter w_τ, or the printed s_τ - s_{τ-1} (x_0's value said, the last step lost)."""

from __future__ import annotations

import pytest

from proofs.cot_path_to_tree.constructions.pathsteps import LETTER, LITERAL, LITERAL_LAST, StepReading
from symcot.inputs.dyck import dyck_words, heights


@pytest.mark.parametrize("word", [w for m in range(1, 5) for w in dyck_words(m)])
def test_the_readings_against_the_ordinates(word):
    s, n = heights(word), len(word)
    assert [LETTER.q(word, t) for t in range(n)] == [s[t + 1] - s[t] for t in range(n)]
    assert [LITERAL.q(word, t) for t in range(1, n)] == [s[t] - s[t - 1] for t in range(1, n)]
    assert LITERAL.q(word, 0) == 0 and LITERAL_LAST.q(word, 0) == s[n] - s[n - 1] == -1
    # the literal tokens hold w_0 … w_{n-2}: the last letter is on none of them
    assert [LITERAL.q(word, t) for t in range(1, n)] == [LETTER.q(word, t) for t in range(n - 1)]


def test_which_token_carries_the_step_of_cot_step_t():
    assert [LETTER.carrier(t, 4) for t in range(1, 5)] == ["x_0", "x_1", "x_2", "x_3"]
    assert [LITERAL.carrier(t, 4) for t in range(1, 5)] == ["x_1", "x_2", "x_3", None]
    assert LITERAL_LAST.carrier(4, 4) == "x_0"
    assert "q_0 = 0" in LITERAL.describe() and "last step" in LITERAL_LAST.describe()
    assert StepReading() == LETTER
