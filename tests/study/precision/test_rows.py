"""Per-input magnitudes, partial sums and strict attention margins, against the batch's own figures and by hand."""

from fractions import Fraction

import pytest

from symcot.registry import load_claims, select
from symcot.study.precision.analysis import run_batch
from symcot.study.precision.batches import batches
from symcot.study.precision.margins import CATEGORIES
from tests.fixtures.toys import TOY_SPEC, ToyConstruction, ToyInput


def _scores(inputs, force_exact=False):
    (b,) = list(batches(ToyConstruction(), TOY_SPEC, inputs))
    res = run_batch(b, TOY_SPEC, 1e-3, margins=False, rows=True, force_exact=force_exact)
    assert res.failure is None
    return res


def test_each_row_has_its_own_magnitude_sums_and_margin():
    # three pairs and y_0 (score 0): the winner's key is its margin over the rest; its value is read into out
    inputs = [ToyInput(((3, 7), (0, 1), (0, 2))), ToyInput(((0, 1), (1, 20), (0, 2))),
              ToyInput(((2, 1), (0, 1), (1, 5)))]
    scores = _scores(inputs).rows
    assert [s.magnitude for s in scores] == [7, 20, 5] and [s.margin for s in scores] == [3, 1, 1]
    # each row alone: its magnitude is the batch figure of every category but the weights
    for inp, s in zip(inputs, scores):
        alone = _scores([inp])
        assert s.magnitude == max(alone.stats.magnitudes[c].value for c in CATEGORIES if c != "weights")
        assert s.sums == alone.stats.sums.value


def test_a_tie_is_no_margin_and_exact_values_stay_exact():
    # two keys tie at the maximum: no event has a unique maximum, so no margin (ties are counted, not measured)
    tie, half = ToyInput(((1, 4), (1, 3))), ToyInput(((Fraction(1, 2), 9), (0, 1)))
    res = _scores([tie, half])
    assert res.engine == "exact" and res.rows[0].margin is None and res.rows[0].magnitude == 4
    assert res.rows[1].margin == Fraction(1, 2) and res.rows[1].magnitude == 9


@pytest.mark.parametrize("claim_id,variant,size", [("thm:cotpathtotree", "as-written", 4)])
def test_row_scores_agree_with_the_batch_on_a_construction(claim_id, variant, size):
    chk = next(c for c in select(load_claims(None), [claim_id])[0].checks
               if hasattr(c, "construction") and c.variant == variant)
    fam = next(f for f in chk.families if f.exhaustive)
    for b in batches(chk.construction(), chk.spec, fam.inputs(size)):
        res = run_batch(b, chk.spec, 1e-3, margins=True, rows=True)
        gamma = min(h.gamma.value for h in res.stats.heads.values() if h.gamma.value is not None)
        mags = [res.stats.magnitudes[c].value for c in CATEGORIES if c != "weights"]
        assert max(s.magnitude for s in res.rows) == max(m for m in mags if m is not None)
        assert min(s.margin for s in res.rows if s.margin is not None) == gamma
        assert max(s.sums for s in res.rows) == res.stats.sums.value
