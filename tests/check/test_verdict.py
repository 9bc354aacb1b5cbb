"""Every verdict row says what it covers (``scope``), in the row, the table, the Markdown and the JSON."""

import pytest

from symcot.check.verdict import Verdict, default_scope


def test_default_scopes_follow_the_row():
    v = Verdict("c", "v", "verified", "m", 6, 10, 0.0, families=[
        {"family": "trees", "exhaustive": True, "sizes_complete": [1, 2, 3, 4, 5, 6]},
        {"family": "ordered trees", "exhaustive": True, "sizes_complete": list(range(1, 14))},
        {"family": "random", "exhaustive": False, "sizes_complete": [7, 8]}])
    assert v.scope == ("every input, n ≤ 6; every input of ordered trees to n = 13; "
                       "seeded samples of random to n = 8")
    r = Verdict("c", "v", "refuted", "m", 2, 3, 0.0, {"size": 3})
    assert r.scope == "counterexample at n = 3; every input passes for n ≤ 2"
    assert Verdict("c", "v", "unknown", "m", None, 0, 0.0).scope == "nothing established"
    assert Verdict("c", "v", "proved", "m", None, 0, 0.0, scope="all dimensions").scope == "all dimensions"
    assert default_scope(Verdict("c", "v", "proved", "m", None, 0, 0.0, scope="x")) == "scope not stated by the check"
    assert Verdict("c", "v", "verified", "m", 3, 1, 0.0).as_dict()["scope"] == "every input, n ≤ 3"


@pytest.mark.parametrize("cid", ["lem:mMc", "lem:widsupffn", "lem:bilinearstack", "thm:cottreestrahler:ind0",
                                 "eq:proprelu", "lem:shiftonehot"])
def test_proved_rows_state_their_scope(claims, cid):
    for row in claims[cid].run():
        if row.verdict == "proved":
            assert row.scope and row.scope != "scope not stated by the check", (cid, row.variant)


def _row(verdict, expect=None):
    return Verdict("demo:x", "v", verdict, "m", 4, 10, 0.1, expect=expect)


def test_a_row_expected_refuted_passes_when_refuted_and_fails_when_it_holds():
    from symcot.check.verdict import exit_status, outcome_of

    ok, held, lost = _row("refuted", "refuted"), _row("verified", "refuted"), _row("unknown", "refuted")
    assert (outcome_of(ok), ok.failed, ok.shown_verdict) == ("expected refuted", False, "refuted (expected)")
    assert (outcome_of(held), held.failed, held.shown_verdict) == ("unexpectedly verified", True,
                                                                   "verified (expected refuted)")
    assert (outcome_of(lost), lost.failed, lost.shown_verdict) == ("unknown", True, "unknown")
    assert exit_status([_row("verified"), ok]) == 0
    assert exit_status([_row("verified"), held]) == 1
    assert exit_status([ok, lost]) == 2
    assert exit_status([_row("refuted")]) == 1
    d = ok.as_dict()
    assert (d["expect"], d["outcome"]) == ("refuted", "expected refuted")
    assert Verdict.from_dict(d).expect == "refuted"
    assert "expect" not in _row("refuted").as_dict()
    with pytest.raises(ValueError, match="expect must be one of"):
        _row("refuted", "verified")
