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


def test_only_a_proved_obligation_says_discharged_by_and_a_failed_one_explains_itself():
    explained = {"equation": {"decoder": "ReLU(acc(t) + bit(t)) - ReLU(acc(t) + bit(t) - 5)",
                              "statement": "acc(t + 1)"},
                 "in_scope": {"facts": ["nonneg (derived: never negative)"], "hypotheses": ["0 ≤ t < T: t ≥ 0"]},
                 "counter_model": {"values": ["n = 6", "t = 5", "acc(t) = acc(5) = 5"],
                                   "sides": {"decoder": "5", "statement": "6"},
                                   "relus": ["ReLU(acc(t) + bit(t) - 5): argument 1, the unit fires"]}}
    timed = {"goal": "x ≥ 0", "in_scope": {"facts": [], "hypotheses": []},
             "timeout": "timed out after 10 s (Z3's limit per obligation 10 s)", "causes": ["a ReLU"],
             "raise_limit": "AllNCheck(..., timeout_s=SECONDS)",
             "candidate_model": {"values": ["acc(t) = acc(3) = -2"], "relus": ["ReLU(acc(t)): argument -2, off"],
                                 "compared": ["x ≥ 0: -2 ≥ 0, false"]}}
    obs = [{"phase": "step", "layer": None, "where": "output block sum", "statement": "sum[i] as stated",
            "status": status, "method": "Z3", "used": [], "seconds": 1.0, "detail": "Z3 model: n = 9",
            "explain": e} for status, e in (("failed", explained), ("unknown", timed))]
    obs.append({"phase": "step", "layer": None, "where": "block pos", "statement": "pos[i]", "status": "proved",
                "method": "Z3: unsat", "used": [], "seconds": 0.1, "detail": ""})
    text = render_obligations([Verdict("demo", "v", "refuted", "all-n", 5, 0, 1.0, details={"obligations": obs})])
    assert text.count("discharged by") == 1 and "discharged by: Z3: unsat" in text
    assert "decoder:   ReLU(acc(t) + bit(t)) - ReLU(acc(t) + bit(t) - 5)" in text and "statement: acc(t + 1)" in text
    assert "counter-model (least sizes and step, Z3's seeds fixed): n = 6, t = 5, acc(t) = acc(5) = 5" in text
    assert "there the decoder gives 5, the statement 6" in text and "the unit fires" in text
    assert "- nonneg (derived: never negative)" in text and "Z3 model: n = 9" not in text
    assert "timed out after 10 s" in text and "to raise the limit: AllNCheck" in text
    assert "candidate counter-model" in text and "acc(3) = -2" in text and "compared: x ≥ 0: -2 ≥ 0, false" in text
