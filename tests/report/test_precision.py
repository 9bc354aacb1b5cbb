"""The text of ``symcot precision``: the search line of a decoder claim and the tables of an encoder claim."""

from symcot.report.precision import render_claim, render_encoder

FOUND = {"input": {"text": "w = 0110"}, "family": "bits", "rank": 6, "M": 9, "S": 12, "gamma": 1}


def _decoder(search):
    row = {"family": "bits (searched)", "n": 8, "inputs": 40, "gamma": None, "heads": [], "M": 9, "S": {"value": 12},
           "beta": None, "bits": {"significand_bits": 4, "formats_exact": ["float64"]}, "extremal": True,
           "search": {"n": 8, "largest_M": FOUND, "smallest_gamma": {**FOUND, "rank": 10**20}}}
    return {"claim": "toy", "variant": "as-written", "variant_choice": "as written", "seconds": 1.0,
            "relies_on_ties": False, "options": {"eps": 0.001}, "rows": [row], "formulas": {}, "thresholds": [],
            "search": search}


def test_the_search_line_says_how_far_it_went_and_what_it_found():
    text = render_claim(_decoder({"sizes": [8], "evaluated": 40, "pool": 24, "refined": 16, "budget_per_family": 32,
                                  "seed": 0}))
    assert "n = 8; 40 inputs evaluated (24 pool, 16 refined)" in text and "budget 32 per family and size" in text
    assert "largest M at n = 8: 9, w = 0110 (rank 6 of bits)" in text
    assert "smallest γ at n = 8: 1, w = 0110 (rank ≈ 1.000e+20 of bits)" in text
    assert "search of the larger sizes" not in render_claim(_decoder(None))


def test_an_encoder_report_has_its_margins_relus_and_formats():
    head = {"layer": 1, "head": "t", "attention": "unique", "events": 8, "ties": 2, "margin": {"value": 0},
            "relative_margin": {"value": "1/7", "approx": 1 / 7}}
    relu = {"layer": 1, "unit": "h", "evaluations": 8, "zeros": 1, "inexact": 0, "smallest": {"value": 2},
            "relative": {"value": "1/3", "approx": 1 / 3}}
    js = {"claim": "toy:enc", "variant": "as-written", "rejected": [{"variant": "other", "size": 1}],
          "rows": [{"family": "strings", "n": 2, "strings": 4, "heads": [head], "relus": [relu], "departures": 1,
                    "first_departure": {"input": {"text": "w = 01"}, "kind": "output", "position": 1}}],
          "formats": {"bfloat16": {"n": 2, "kept_up_to": 1, "reason": "layer 1, head t: a tie between different keys"}}}
    text = render_encoder(js)
    assert "other departs from its reference at n = 1: not studied" in text
    assert "1 of 4 strings depart from the reference, first w = 01 (output at position 1)" in text
    assert "1.t" in text and "1/7" in text and "1.h" in text and "1/3" in text
    assert "bfloat16  2" in text and "a tie between different keys" in text
