"""Golden renderings of the verdict table and the Markdown report (fixed rows, no timings from a run)."""

from pathlib import Path

from symcot.check.verdict import Verdict
from symcot.report import render_markdown, render_table

GOLDEN = Path(__file__).resolve().parent.parent / "golden"

ROWS = [
    Verdict("thm:demo", "as-written", "refuted", "exhaustive exact replay, every CoT step", 1, 4, 0.25,
            {"family": "simple digraphs", "size": 2, "input": {"text": "Digraph(n=2; 0->1), source 0"}, "step": 1,
             "layer": 2, "kind": "block", "block": "par", "expected": [1, 0], "got": [0, 0],
             "explanation": "π_par(y_1) differs from the reference state after step 1",
             "reference_state": "t=1 traverse: dfs=v1, par(dfs)=v0, vst=[0, 1]"}),
    Verdict("thm:demo", "repaired", "verified", "exhaustive exact replay, every CoT step", 4, 16585, 4.5),
    Verdict("lem:demo", "as-written", "unknown", "z3", None, 0, 30.0, None, ["solver timeout after 30 s"]),
]


def test_table_golden():
    assert render_table(ROWS) + "\n" == (GOLDEN / "table.txt").read_text()


def test_markdown_golden():
    assert render_markdown(ROWS) == (GOLDEN / "report.md").read_text()
