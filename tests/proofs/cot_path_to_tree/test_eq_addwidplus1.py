"""eq:addwidplus1 is decided by lem:addwidplus1's own checks: the same objects, the same verdicts."""

from __future__ import annotations


def test_the_equation_reuses_the_lemmas_checks(claims):
    eq, lem = claims["eq:addwidplus1"], claims["lem:addwidplus1"]
    assert eq.checks and all(any(c is d for d in lem.checks) for c in eq.checks)
    assert all(not c.variant.startswith("in:") for c in eq.checks)
    rows = {r.variant: r for r in eq.run(max_size=3)}
    lem_rows = {r.variant: r for r in lem.run(max_size=3)}
    assert rows.keys() <= lem_rows.keys()
    for v, r in rows.items():
        assert r.id == "eq:addwidplus1" and (r.verdict, r.counterexample) == (lem_rows[v].verdict,
                                                                             lem_rows[v].counterexample)
    assert rows["as-written"].verdict == "refuted" and rows["repaired"].verdict == "verified"
