"""eq:addonetospecificheight is decided by lem:addonetospecificheight's own checks (the same objects)."""

from __future__ import annotations


def test_the_equation_reuses_the_lemmas_checks(claims):
    eq, lem = claims["eq:addonetospecificheight"], claims["lem:addonetospecificheight"]
    assert eq.checks and all(any(c is d for d in lem.checks) for c in eq.checks)
    assert all(not c.variant.startswith("in:") for c in eq.checks)
    rows = {r.variant: r for r in eq.run(max_size=3)}
    assert rows["as-written"].verdict == "proved" and rows["as-written"].id == "eq:addonetospecificheight"
    assert eq.readings == lem.readings
