"""Rendering of verdicts: terminal table and JSON report."""

from symcot.report.markdown import render_markdown, write_markdown
from symcot.report.table import counterexample_summary, render_table, report_dict, write_json

__all__ = ["render_markdown", "write_markdown", "counterexample_summary", "render_table", "report_dict", "write_json"]
