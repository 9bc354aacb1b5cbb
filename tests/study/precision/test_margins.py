import math

import numpy as np
import pytest

from symcot.study.precision.analysis import run_batch
from symcot.study.precision.batches import batches
from symcot.study.precision.margins import token_class
from symcot.study.precision.predict import beta_needed, tie_heads
from tests.fixtures.toys import TOY_SPEC, ToyConstruction, ToyInput

EPS = 1e-3


def _stats(pairs, v_y=0, betas=(), force_exact=False):
    (b,) = list(batches(ToyConstruction(), TOY_SPEC, [ToyInput(tuple(pairs), v_y)]))
    res = run_batch(b, TOY_SPEC, EPS, betas, force_exact=force_exact)
    assert res.failure is None
    return res


@pytest.mark.parametrize("force_exact", [False, True])
def test_figures_of_a_tiny_decoder_by_hand(force_exact):
    # prompt x_0 = (k 1, v 2), x_1 = (3, 5), x_2 = (2, 7), y_0 = (q 1): at y_0 the scores are k·1 = [1, 3, 2, 0]
    res = _stats([(1, 2), (3, 5), (2, 7)], betas=(2.0,), force_exact=force_exact)
    assert res.engine == ("exact" if force_exact else "float64 (certified integers)")
    st = res.stats
    (hs,) = st.heads.values()
    # only y_0's attention can reach a generated token (one layer): one event
    assert (hs.events, hs.strict, hs.ties, hs.deciding) == (1, 1, 0, 0)
    assert hs.gamma.value == 1 and hs.gamma.witness.label == "y_0"  # 3 - 2
    assert hs.delta.value == 5  # |v_i - v_1| over i ≠ 1: |2-5|, |7-5|, |0-5|
    assert hs.beta.value == pytest.approx(math.log(3 * 5 / EPS) / 1)
    s = np.array([1, 3, 2, 0]) * 2.0
    w = np.exp(s - s.max())
    w /= w.sum()
    assert hs.error_at[2.0].value == pytest.approx(abs(w @ (np.array([2, 5, 7, 0]) - 5)))
    mags = {c: e.value for c, e in st.magnitudes.items()}
    assert mags == {"weights": 1, "tokens": 7, "queries": 1, "keys": 3, "values": 7, "scores": 3, "attention": 5,
                    "ffn_in": 5, "pre_relu": 5, "hidden": 5, "outputs": 5}
    assert st.stored == 7 and st.sums.value == 7 and st.context == 4 and st.denominator == 1
    assert st.magnitudes["scores"].witness.where == "head A, score of x_1"
    assert st.magnitudes["tokens"].witness.where == "token: v" and st.magnitudes["tokens"].witness.label == "x_2"
    assert st.magnitudes["hidden"].witness.where == "hidden: out"
    assert res.outputs[:, 0].tolist() == [[0, 0, 0, 5]]


def test_a_deciding_tie_is_flagged_and_needs_infinite_beta():
    st = _stats([(3, 5), (3, 2)]).stats
    (hs,) = st.heads.values()
    assert (hs.ties, hs.deciding) == (1, 1)
    assert dict(hs.winners) == {"x_i": 1}
    assert tie_heads(st) == ["layer 1, head A"]
    assert beta_needed(st, EPS)["beta"] == math.inf
    assert "2 tied positions" in hs.deciding_example.where


def test_a_benign_tie_is_not_flagged():
    # equal scores and equal values: softmax averages equal vectors, so nothing depends on the tie rule
    st = _stats([(3, 5), (3, 5)]).stats
    (hs,) = st.heads.values()
    assert (hs.ties, hs.deciding) == (1, 0)
    assert tie_heads(st) == []
    assert hs.group_gap.value == 3  # the tied maximum 3 against y_0's score 0
    need = beta_needed(st, EPS)
    assert need["beta"] == pytest.approx(math.log(1 * 5 / EPS) / 3)


def test_rational_values_run_exactly():
    from fractions import Fraction

    res = _stats([(1, Fraction(1, 3)), (0, 2)])
    assert res.engine == "exact"
    assert res.denominator == 3
    assert res.outputs[0, 0, 3] == Fraction(1, 3)


def test_token_classes():
    assert [token_class(x) for x in ("x_⊥", "x_3", "y_0", "y_12")] == ["x_⊥", "x_i", "y_0", "y_t"]


def test_ties_are_judged_on_what_reaches_alpha():
    # DFS layer 2: W_O routes cur, par and nbr of head T's selection, never buf. Two tied positions whose
    # values differ only in buf make the same contribution to α'': a benign tie.
    from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
    from symcot.inputs.graphs import Digraph
    from symcot.study.precision.analysis import head_contributions
    from symcot.study.precision.margins import MarginRecorder

    dec = DfsConstruction().concrete((Digraph(2, ()), 0))
    lay = dec.layout
    contrib = head_contributions(dec)
    a, b = lay.assemble({"cur": [1, 0], "nbr": [0, 1]}), lay.assemble({"cur": [1, 0], "nbr": [0, 1], "buf": [0, 1]})
    values = np.array([[a], [b]], dtype=float)  # (L = 2, B = 1, d)
    w_o = dec.get_map(2, "W_O")
    want = w_o(a + [0] * lay.dim)
    assert contrib[(2, "T")](values)[0, 0].tolist() == want
    scores, chosen = np.array([[1.0, 1.0]]), np.array([0])
    for contributions, deciding in ((contrib, 0), ({}, 1)):
        rec = MarginRecorder([None], ["x_0", "y_0"], lambda *a: "", EPS, contributions=contributions)
        rec.head(1, 2, "T", scores, None, chosen, values)
        assert rec.stats.heads[(2, "T")].deciding == deciding
