"""``--explain`` output: every obligation of an all-n row, grouped by phase, then the trusted base."""

from symcot.check.verdict import Verdict
from symcot.report.explain import render_obligations


def test_obligations_are_listed_by_phase_with_facts_and_reasons():
    obs = [{"phase": "step", "layer": 2, "where": "head T, case 1", "statement": "every x[u] scores ≤ x[nxt(t)]",
            "status": "proved", "method": "Z3", "used": ["lowest", "choice"], "seconds": 0.1, "detail": "",
            "second": "proved", "smt2": "d/thm_x__as-written__000.smt2"},
           {"phase": "stop", "layer": None, "where": "block cur", "statement": "fires on y_T", "status": "unknown",
            "method": "Z3", "used": [], "seconds": 60, "detail": "Z3: canceled"}]
    row = Verdict("thm:x", "as-written", "unknown", "all-n", None, 0, 1.0,
                  details={"obligations": obs, "trusted_base": ["Z3"], "lambda_assumed": "λ ≥ 2*n - 1",
                           "lambda_rule": {"derived": "λ ≥ 2*n - 3", "obligations_using_lambda": 1,
                                           "tries": [{"rule": "λ ≥ 8", "status": "unknown", "first_not_proved": "x"}]}})
    text = render_obligations([row, Verdict("other", "v", "verified", "m", 3, 1, 0.0)])
    assert "== thm:x [as-written]" in text and "-- step (1 proved)" in text and "-- stop (1 unknown)" in text
    assert "layer 2 head T, case 1" in text and "facts used: lowest, choice" in text
    assert "why not proved: Z3: canceled" in text and "derived λ ≥ 2*n - 3" in text and "- Z3" in text
    assert "cvc5: proved" in text and "SMT-LIB 2: d/thm_x__as-written__000.smt2" in text
    assert "other" not in text
    assert render_obligations([]) == "no row has obligations (run with --all-n)"
