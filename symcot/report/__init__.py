"""Rendering of verdicts: terminal table and JSON report."""

from symcot.report.table import counterexample_summary, render_table, report_dict, write_json

__all__ = ["counterexample_summary", "render_table", "report_dict", "write_json"]
