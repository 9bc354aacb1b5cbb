"""``symcot claims``: list the claims, their variants and the paper's labels without a claim."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    """The ``claims`` subcommand's options."""
    c = sub.add_parser("claims", help="list the claims, their kind, statement, variants, and paper coverage")
    c.add_argument("--markdown", action="store_true", help="a Markdown table (as in docs/claims.md)")
    c.add_argument("--proofs", metavar="DIR")
    c.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the claims (a table with ``--markdown``) and the paper labels without one."""
    from symcot.paper import PAPER_LABELS, is_paper_label
    from symcot.registry import load

    src, claims = load(args.proofs)
    if not args.markdown:
        print(src.describe())
    if args.markdown:
        print("| id | kind | statement | where | variants (checker) | id ours? |")
        print("|---|---|---|---|---|---|")
        for c in claims.values():
            variants = "; ".join(f"{chk.variant} ({chk.method})" for chk in c.checks)
            stmt = c.statement.replace("|", "\\|")
            print(f"| `{c.id}` | {c.kind} | {stmt} | {c.where} | {variants} | "
                  f"{'no' if is_paper_label(c.id) else 'yes'} |")
    else:
        for c in claims.values():
            ours = "" if is_paper_label(c.id) else "  [id ours]"
            print(f"{c.id:<28} {c.kind:<11} {c.statement}{ours}")
            for chk in c.checks:
                print(f"{'':<28} {'':<11} variant {chk.variant}: {chk.method}")
            print(f"{'':<28} {'':<11} where: {c.where}; default max size {c.default_max_size}")
    missing = [(label, kind) for label, (kind, checkable) in PAPER_LABELS.items() if label not in claims]
    if missing:
        print("\nPaper labels without a claim module:" if not args.markdown else "\nPaper labels without a claim:")
        for label, kind in missing:
            print(f"- `{label}`: {kind}" if args.markdown else f"  {label:<28} {kind}")
    return 0


