"""``symcot mutate``: mutation analysis of claims' constructions and the default size the evidence asks for."""

from __future__ import annotations

import argparse
import platform
import re
import time
from pathlib import Path
from typing import Any

from symcot import __version__
from symcot.check.exhaustive import Progress
from symcot.errors import SymcotError


def add_parser(sub: Any) -> None:
    """The ``mutate`` subcommand's options."""
    p = sub.add_parser("mutate", help="single-coefficient mutants of a construction: killed by the claim's check?")
    p.add_argument("claims", nargs="+", metavar="CLAIM", help="paper labels of claims with a construction check")
    p.add_argument("--variant", action="append", help="only these construction variants (repeatable; default: "
                   "every variant whose construction passes its own check)")
    p.add_argument("--sample", type=int, default=150, metavar="N",
                   help="mutants of constant coefficients to draw per variant (0: all; default 150); mutants of "
                        "coefficients in n or λ are always all taken")
    p.add_argument("--seed", type=int, default=0, help="seed of the draw and of the random inputs (default 0)")
    p.add_argument("--size", type=int, default=None, metavar="N",
                   help="the size the claim's check runs at (default: the claim's default size)")
    p.add_argument("--reach", type=int, default=13, metavar="K",
                   help="largest size of the seeded random inputs a survivor is compared on (default 13)")
    p.add_argument("--budget", type=float, default=60.0, metavar="SECONDS",
                   help="time per survivor for comparing it beyond the default size (default 60)")
    p.add_argument("--coverage", action="store_true",
                   help="also record the activation regions of the original up to the size (symcot coverage)")
    p.add_argument("--state", action="append", metavar="PATH",
                   help="JSON state file: results are saved there as each mutant finishes and a rerun resumes "
                        "from it; repeat to read the state files of other shards (the first is written); a "
                        "directory holds one state file per claim variant")
    p.add_argument("--reuse", action="append", metavar="PATH",
                   help="state file (or directory of them) of the same analysis at another --size: what still holds "
                        "at this size is taken over (inert mutants, kills by an exhaustive family up to this size, "
                        "survivors compared on every input up to it) (repeatable)")
    p.add_argument("--shard", metavar="I/K", help="decide only every K-th selected mutant from the I-th (0-based)")
    p.add_argument("--json", metavar="PATH", help="write the JSON report here")
    p.add_argument("--markdown", metavar="PATH", help="write a Markdown report here")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--proofs", metavar="DIR", help="claims directory (default ./proofs)")
    p.set_defaults(func=run)


def parse_shard(text: str | None) -> tuple[int, int]:
    """``"i/k"`` → ``(i, k)`` with ``0 ≤ i < k``."""
    if text is None:
        return 0, 1
    m = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not m or not 0 <= int(m.group(1)) < int(m.group(2)):
        raise SymcotError(f"--shard takes I/K with 0 ≤ I < K (e.g. 0/4), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def check_options(args: argparse.Namespace) -> None:
    """One line per bad option, before anything runs."""
    for name in ("sample", "size", "reach"):
        v = getattr(args, name)
        if v is not None and v < (0 if name == "sample" else 1):
            raise SymcotError(f"--{name} must be at least {0 if name == 'sample' else 1}, got {v}")
    if args.budget < 0:
        raise SymcotError(f"--budget must not be negative, got {args.budget}")
    paths = [("json", args.json), ("markdown", args.markdown), *(("state", p) for p in args.state or [])]
    for opt, path in paths:
        if path and not Path(path).resolve().parent.is_dir():
            raise SymcotError(f"--{opt}: the directory of {path} does not exist")
    for path in args.reuse or []:
        if not Path(path).exists():
            raise SymcotError(f"--reuse: no state file or directory {path}")
    files = [p for p in [*(args.state or []), *(args.reuse or [])] if not Path(p).is_dir()]
    if files and (len(args.claims) > 1 or (args.variant and len(args.variant) > 1)):
        raise SymcotError("a --state or --reuse file holds one claim variant's results: give one CLAIM and one "
                          "--variant, or directories")


def state_paths(paths: list[str] | None, label: str) -> list[Path]:
    """The state file of claim variant ``label`` for each path: the path itself, or a file in it if a directory."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_") + ".json"
    return [Path(p) / name if Path(p).is_dir() else Path(p) for p in paths or []]


def run(args: argparse.Namespace) -> int:
    """Analyse each selected claim variant, print the summaries, write the reports.

    Exit status: 0 when every behaviour-changing mutant decided is killed at the size checked, 1 when a
    behaviour-changing mutant survives it, 2 when a mutant's check fails with an error or on bad usage.
    """
    from symcot.check.adequacy import Settings, analyse
    from symcot.check.coverage import coverage
    from symcot.check.mutation import construction_checks, target_of
    from symcot.registry import load_claims, select
    from symcot.report.mutation import render_text, write_json, write_markdown

    check_options(args)
    shard = parse_shard(args.shard)
    claims = select(load_claims(args.proofs), args.claims)
    progress = Progress(not args.no_progress)
    analyses = []
    skipped: list[str] = []
    t0 = time.perf_counter()
    for claim in claims:
        checks = construction_checks(claim)
        if not checks:
            raise SymcotError(f"{claim.id} has no construction check: nothing to mutate")
        variants = [c.variant for c in checks]
        unknown = [v for v in args.variant or [] if v not in variants]
        if unknown and len(claims) == 1:
            raise SymcotError(f"{claim.id} has no construction variant {unknown[0]!r}; it has {', '.join(variants)}")
        for v in [v for v in variants if not args.variant or v in args.variant]:
            target = target_of(claim, v)
            size = args.size or target.default_size
            settings = Settings(size, args.sample, args.seed, args.reach, args.budget)
            a = analyse(target, settings, shard, state_paths(args.state, target.label), progress,
                        reuse=[p for p in state_paths(args.reuse, target.label) if p.exists()])
            if a.original_fails:
                skipped.append(f"{target.label}: not analysed, {a.original_fails}")
                print(skipped[-1], flush=True)
                continue
            if args.coverage:
                a.coverage = coverage(target.make(), target.spec, target.families, size, progress)
            analyses.append(a)
            print(render_text(a), flush=True)
    if not analyses:
        raise SymcotError("no construction variant to analyse (" + "; ".join(skipped) + ")")
    meta = {"symcot": __version__, "python": platform.python_version(), "seconds_total": round(time.perf_counter() - t0,
                                                                                                 3),
            "command": "symcot mutate " + " ".join(args.claims), "skipped": skipped}
    if args.json:
        write_json(args.json, analyses, meta)
        print(f"\nJSON report written to {args.json}")
    if args.markdown:
        write_markdown(args.markdown, analyses, meta)
        print(f"Markdown report written to {args.markdown}")
    if any(a.by_status("error") for a in analyses):
        return 2
    return 1 if any(a.by_status("exposed") for a in analyses) else 0
