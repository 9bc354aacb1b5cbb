"""``symcot claims``: the claims, their readings (with verdicts from a report) and the paper's labels without one.

Verdicts are read from a ``symcot verify --json`` report (``--report PATH``), never computed here: listing
the claims stays instant, and the verdicts shown are those of a real run, with that run's scope.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    """The ``claims`` subcommand's options."""
    c = sub.add_parser("claims", help="list the claims, their readings (with verdicts from a report) and coverage")
    c.add_argument("--markdown", action="store_true",
                   help="Markdown: the claims table (docs/claims.md), or with --report one reading × verdict table "
                        "per claim (docs/errata.md)")
    c.add_argument("--report", metavar="PATH", action="append",
                   help="a symcot verify --json report: show each variant's verdicts beside its reading "
                        "(repeatable: e.g. a default run and a --symbolic run)")
    c.add_argument("--proofs", metavar="DIR")
    c.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the claims and their readings (verdicts with ``--report``), then the paper labels without a claim."""
    from symcot.registry import load
    from symcot.report.readings import load_reports, render_markdown_list, render_markdown_tables, render_text

    src, claims = load(args.proofs)
    if not args.markdown:
        print(src.describe())
    rows = load_reports(args.report) if args.report else None
    if args.markdown:
        print(render_markdown_tables(claims, rows, src.is_label) if rows is not None
              else render_markdown_list(claims, src.is_label))
    else:
        print(render_text(claims, rows, src.is_label))
    missing = src.uncovered()
    if missing:
        print("\nPaper labels without a claim:")
        for label, why, checkable in missing:
            reason = why if not checkable else f"{why}: a statement, but no claim checks it yet"
            print(f"- `{label}`: {reason}" if args.markdown else f"  {label:<28} {reason}")
    return 0
