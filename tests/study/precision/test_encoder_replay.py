"""An encoder claim replayed in each float format against its exact runs: measured changes and readout errors."""

import numpy as np

from symcot.registry import load_claims, select
from symcot.replay.floating.numbers import FloatNumbers
from symcot.study.precision.encoder import study_encoder
from symcot.study.precision.encoder_replay import replay_rows, with_float_replay


def _claim(cid):
    return select(load_claims(None), [cid])[0]


def test_float64_changes_no_decision_and_narrow_formats_err_by_their_rounding():
    claim = _claim("sec:tie-breaking")
    js = with_float_replay(claim, study_encoder(claim, max_size=5))
    rows = js["float_replay"]
    assert {r["format"] for r in rows} == {"float64", "float32", "float16", "bfloat16"}
    assert all(r["strings"] == 2 ** r["n"] and r["undecided"] == 0 for r in rows)
    assert all(r["changed"] == 0 for r in rows)  # the gap 1/(n(n-1)) is far above every format's rounding here
    err = {f: max(r["max_readout_error"] for r in rows if r["format"] == f) for f in ("float64", "float32",
                                                                                          "bfloat16")}
    assert err["float64"] <= 2 ** -52 and 0 < err["float32"] <= 2 ** -23 and err["float32"] < err["bfloat16"] <= 2 ** -7


def test_a_wrong_maximal_set_in_the_float_engine_is_measured_as_changed_decisions(monkeypatch):
    """A deliberately wrong float rule (the maximal set cut to its first position) must show as changes."""
    claim = _claim("sec:uniform-attention")
    ep = study_encoder(claim, max_size=3, variant="AHAT")  # zero scores: every position ties
    check = next(c for c in claim.checks if getattr(c, "variant", None) == ep.variant)
    assert all(r.changed == 0 for r in replay_rows(check.construction(), ep.rows, ("float64",)))
    monkeypatch.setattr(FloatNumbers, "maximal", staticmethod(lambda scores, positions: [
        j for j in positions if scores[j] == max(scores[k] for k in positions)][:1]))
    got = replay_rows(check.construction(), ep.rows, ("float64",))
    changed = [r for r in got if r.changed]
    assert changed and changed[0].first_changed is not None
    assert np.isfinite(max(r.max_error for r in got))
