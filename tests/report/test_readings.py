"""Readings × verdicts: report rows put beside each variant's reading; unreadable reports are one-line errors."""

from __future__ import annotations

import json

import pytest

from symcot.check.verdict import Verdict
from symcot.claims import Claim, PropertyCheck, Reading
from symcot.errors import SymcotError
from symcot.report.readings import (
    load_report,
    load_reports,
    render_markdown_list,
    render_markdown_tables,
    render_text,
    unmatched_rows,
    variant_views,
)
from symcot.report.table import report_dict


def _prop(variant: str, method: str = "enumeration") -> PropertyCheck:
    return PropertyCheck(variant, [], lambda inp: None, method=method)


CLAIM = Claim("thm:cotdemo", "theorem", "a statement", "somewhere",
              [_prop("as-written"), _prop("repaired"), _prop("repaired", "symbolic replay")], 3,
              readings={"as-written": Reading("as-written", "as printed"), "repaired": Reading("repair", "fixed")})
CEX = {"family": "f", "size": 2, "input": {"text": "tree {0-1}, root 0"}, "step": 1, "layer": 1, "kind": "block",
       "block": "dis", "expected": [0, 1], "got": [2, 1]}
ROWS = [
    Verdict("thm:cotdemo", "as-written", "refuted", "enumeration", 1, 3, 0.1, CEX,
            inherited_from={"claim": "thm:base", "variant": "as-written", "step": 1, "layer": 1, "kind": "block",
                            "name": "dis", "expected": [0, 1], "got": [2, 1], "how": "the same input"}),
    Verdict("thm:cotdemo", "repaired", "verified", "enumeration", 6, 100, 1.0),
    Verdict("thm:gone", "as-written", "verified", "enumeration", 6, 100, 1.0),
]


def test_rows_sit_beside_their_reading_and_missing_checks_say_so():
    views = variant_views(CLAIM, ROWS)
    assert [(v.variant, v.kind, len(v.rows)) for v in views] == [("as-written", "as-written", 1),
                                                                  ("repaired", "repair", 1)]
    assert views[1].unreported == ["symbolic replay"]
    text = render_text({CLAIM.id: CLAIM}, ROWS)
    assert "as-written [as-written]: as printed" in text
    assert "enumeration: refuted (counterexample at n = 2" in text
    assert "inherited from thm:base [as-written]: step 1, layer 1, block dis" in text
    assert "symbolic replay: not in the report" in text
    assert "thm:gone [as-written]: verified" in text  # a row of the report without a claim here
    assert [r.id for r in unmatched_rows({CLAIM.id: CLAIM}, ROWS)] == ["thm:gone"]


def test_markdown_has_one_table_per_claim():
    md = render_markdown_tables({CLAIM.id: CLAIM}, ROWS)
    assert md.startswith("#### `thm:cotdemo`")
    assert "| as-written | as-written | as printed | enumeration | **refuted** |" in md
    assert "| repaired | repair | fixed | symbolic replay | not in the report | | |" in md
    listing = render_markdown_list({CLAIM.id: CLAIM})
    assert "as-written (as-written; enumeration); repaired (repair; enumeration, symbolic replay)" in listing


def test_a_report_round_trips(tmp_path):
    p = tmp_path / "r.json"
    p.write_text(json.dumps(report_dict(ROWS)))
    back = load_report(p)
    assert [r.as_dict() for r in back] == [r.as_dict() for r in ROWS]
    assert len(load_reports([p, p])) == 2 * len(ROWS)


@pytest.mark.parametrize("content, why", [
    (None, "does not exist"),
    ("{not json", "is not JSON"),
    ('{"schema": 2, "claims": []}', "is not a symcot verify --json report"),
    ('{"schema": 1, "claims": [{"variant": "x"}]}', "malformed row"),
])
def test_an_unreadable_report_is_one_clear_error(tmp_path, content, why):
    p = tmp_path / "r.json"
    if content is not None:
        p.write_text(content)
    with pytest.raises(SymcotError, match=why):
        load_report(p)
