"""``symcot verify``: run the claims' checks and print a verdict per claim variant."""

from __future__ import annotations

import argparse
import platform
import time
from typing import Any

from symcot import __version__
from symcot.check.exhaustive import Progress
from symcot.check.verdict import Verdict, exit_status
from symcot.errors import SymcotError


def add_parser(sub: Any) -> None:
    """The ``verify`` subcommand's options."""
    v = sub.add_parser("verify", help="check claims and print a verdict per claim variant")
    v.add_argument("claims", nargs="*", metavar="CLAIM", help="paper labels (default: every claim)")
    v.add_argument("--max-size", type=int, default=None, help="largest input size (default: each claim's own)")
    v.add_argument("--json", metavar="PATH", help="write the JSON report here")
    v.add_argument("--markdown", metavar="PATH", help="write a Markdown report here")
    v.add_argument("--variant", action="append", help="only these variants (repeatable)")
    v.add_argument("--no-progress", action="store_true", help="no progress bars")
    v.add_argument("--engine", choices=["exact", "batched"], default=None,
                   help="exact per-input replay (default) or the batched numpy engine with certified exactness "
                        "(default with --reach)")
    v.add_argument("--reach", type=int, default=None, metavar="K",
                   help="also take the families that scale (Dyck words; ordered trees for the tree-side "
                        "constructions) up to K vertices, e.g. --reach 13")
    v.add_argument("--symbolic", action="store_true",
                   help="run the symbolic checks (λ and weights as symbols, decided by Z3) instead")
    v.add_argument("--jobs", type=int, default=None, help="worker processes for large sizes (default: all cores)")
    v.add_argument("--proofs", metavar="DIR", help="claims directory (default ./proofs)")
    v.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the selected claims' checks, print the table, write the reports; the exit status of the verdicts."""
    from symcot.check.pool import default_jobs
    from symcot.registry import load_claims, select
    from symcot.report import render_table, write_json, write_markdown

    if args.max_size is not None and args.max_size < 1:
        raise SymcotError(f"--max-size must be at least 1, got {args.max_size}")
    if args.jobs is not None and args.jobs < 1:
        raise SymcotError(f"--jobs must be at least 1, got {args.jobs}")
    if args.reach is not None and args.reach < 1:
        raise SymcotError(f"--reach must be at least 1, got {args.reach}")
    if args.reach is not None and args.symbolic:
        raise SymcotError("--reach applies to exhaustive checks, not to --symbolic")
    engine = args.engine or ("batched" if args.reach is not None else "exact")
    claims = select(load_claims(args.proofs), args.claims)
    if args.symbolic:
        claims = [c for c in claims if any(getattr(chk, "symbolic", False) for chk in c.checks)]
        if not claims:
            raise SymcotError("none of the selected claims has a symbolic check")
    rows: list[Verdict] = []
    progress = Progress(not args.no_progress)
    t0 = time.perf_counter()
    for claim in claims:
        for row in claim.run(args.max_size, progress, args.variant or None, args.jobs or default_jobs(),
                             symbolic=args.symbolic, engine=engine, reach=args.reach):
            rows.append(row)
            size = "-" if row.max_size is None else row.max_size
            print(f"{row.id} [{row.variant}]: {row.verdict} (max size {size}, {row.inputs_checked} inputs, "
                  f"{row.seconds:.1f}s)", flush=True)
    print()
    print(render_table(rows))
    meta: dict[str, Any] = {"symcot": __version__, "python": platform.python_version(),
                            "max_size_requested": args.max_size, "reach": args.reach, "engine": engine,
                            "seconds_total": round(time.perf_counter() - t0, 3)}
    if args.json:
        write_json(args.json, rows, meta)
        print(f"\nJSON report written to {args.json}")
    if args.markdown:
        write_markdown(args.markdown, rows, meta)
        print(f"Markdown report written to {args.markdown}")
    return exit_status(rows)


