"""The all-n run's cost per row, and what one process saves by asking each solver query once.

Run by hand from the repository root (not a test)::

    python benchmarks/bench_alln.py                                  # every claim with an all-n check
    python benchmarks/bench_alln.py thm:cotdijkstra thm:cotwidoftree --separate
    python benchmarks/bench_alln.py thm:cotdfs thm:cotdijkstra thm:cotwidofpath --jobs 2 --against-one

``symcot verify --all-n --jobs 1`` runs the claims in one process, where the prover's query cache and cvc5's answers
are shared by every row (rows over one vocabulary prove the same facts). Printed: the wall time of that run, its
rows (verdict, obligations, concrete-phase inputs, Z3 and cvc5 seconds, row seconds) as a Markdown table for
docs/all-n.md, and the ratio of the wall time to the 10-minute target. With ``--separate`` each claim is also run in
a process of its own, in the same benchmark run: the ratio of the shared run's wall time to the sum of the separate
ones is what sharing saves. With ``--jobs N`` the run has ``N`` worker processes (:mod:`symcot.cli.pooled`: rows
handed out largest proof first, the solver answers shared); ``--against-one`` also runs it with one process, in the
same benchmark run, and prints the ratio. Every figure is measured, none is stored.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: The cost target of the whole ``--all-n`` run, in seconds.
TARGET_S = 600.0


def run_all_n(claims: list[str], out: Path, jobs: int = 1) -> float:
    """Wall seconds of ``symcot verify --all-n CLAIMS --jobs JOBS --json OUT`` in a fresh process.

    Its exit status is the verdicts', so it is not checked; a missing report is an error.
    """
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import sys; from symcot.cli import main; sys.exit(main(sys.argv[1:]))",
                    "verify", "--all-n", *claims, "--jobs", str(jobs), "--no-progress", "--json", str(out)],
                   check=False, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    if not out.exists():
        raise SystemExit(f"bench_alln: no report from symcot verify --all-n {' '.join(claims)}")
    return wall


def rows(report: Path) -> list[dict[str, Any]]:
    """Per row: claim, variant, verdict, obligations, inputs, Z3, cvc5 and row seconds."""
    out = []
    for r in json.loads(report.read_text())["claims"]:
        det = r.get("details") or {}
        second = det.get("second_solver") or {}
        out.append({"row": f"`{r['id']}` {r['variant']}", "verdict": r["verdict"],
                    "obligations": len(det.get("obligations") or []),
                    "inputs": (det.get("concrete") or {}).get("inputs", ""),
                    "z3": det.get("prover_seconds", ""), "cvc5": second.get("seconds", ""),
                    "seconds": r["seconds"]})
    return out


def table(found: list[dict[str, Any]]) -> str:
    """The rows as Markdown."""
    head = ("| row | verdict | obligations | concrete phase inputs | Z3 (prover) s | cvc5 s | row s |\n"
            "|---|---|---|---|---|---|---|")
    lines = [f"| {r['row']} | {r['verdict']} | {r['obligations']} | {r['inputs']} | {r['z3']} | {r['cvc5']} | "
             f"{r['seconds']} |" for r in found]
    return "\n".join([head, *lines])


def main() -> None:
    """Run, print the table and the ratios."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("claims", nargs="*", help="claims (default: every claim with an all-n check)")
    ap.add_argument("--separate", action="store_true", help="also run each claim in a process of its own")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes of the run (default 1)")
    ap.add_argument("--against-one", action="store_true", help="also run with one process and print the ratio")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        shared = Path(tmp) / "shared.json"
        wall = run_all_n(args.claims, shared, args.jobs)
        found = rows(shared)
        print(table(found))
        print(f"\nrun with {args.jobs} worker(s): {wall:.1f} s wall for {len(found)} rows; "
              f"{wall / TARGET_S:.2f}× the {TARGET_S:.0f} s target")
        if args.against_one and args.jobs > 1:
            one = run_all_n(args.claims, Path(tmp) / "one.json")
            print(f"with one process: {one:.1f} s wall; {args.jobs} workers / one = {wall / one:.2f}")
        if args.separate:
            claims = args.claims or sorted({r["row"].split("`")[1] for r in found})
            alone = sum(run_all_n([c], Path(tmp) / f"{k}.json") for k, c in enumerate(claims))
            print(f"each claim in its own process: {alone:.1f} s wall in all; shared / separate = {wall / alone:.2f}")


if __name__ == "__main__":
    main()
