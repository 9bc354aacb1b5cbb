"""``symcot coverage``: the activation regions, gadget cases and head decisions an exhaustive check exercises."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from symcot.check.exhaustive import Progress
from symcot.errors import SymcotError


def add_parser(sub: Any) -> None:
    """The ``coverage`` subcommand's options."""
    p = sub.add_parser("coverage", help="activation regions, gadget cases and head decisions seen per size")
    p.add_argument("claims", nargs="+", metavar="CLAIM", help="paper labels of claims with a construction check")
    p.add_argument("--variant", action="append", help="only these construction variants (repeatable)")
    p.add_argument("--max-size", type=int, default=None, metavar="N",
                   help="largest size replayed (default: the claim's default size)")
    p.add_argument("--family", action="append", metavar="NAME",
                   help="only the exhaustive families of this name (repeatable; default: every one of the check)")
    p.add_argument("--regions", action="store_true", help="list every region with the size it first appears at")
    p.add_argument("--json", metavar="PATH", help="write the coverage records here")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--proofs", metavar="DIR", help="claims directory (default ./proofs)")
    p.set_defaults(func=run)


def _families(target: Any, names: list[str] | None) -> list[Any]:
    """The target's families, only those named in ``names`` when given (an unknown name is an error)."""
    if not names:
        return list(target.families)
    known = [f.name for f in target.families]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SymcotError(f"--family {unknown[0]!r}: {target.label} has the families {', '.join(map(repr, known))}")
    return [f for f in target.families if f.name in names]


def run(args: argparse.Namespace) -> int:
    """Replay every exhaustive input of each selected variant up to the size and print what it exercised."""
    from symcot.cli.kinds import no_construction
    from symcot.registry import load_claims, select
    from symcot.report.mutation import coverage_lines
    from symcot.study.coverage import coverage
    from symcot.study.mutation import construction_checks, target_of

    if args.max_size is not None and args.max_size < 1:
        raise SymcotError(f"--max-size must be at least 1, got {args.max_size}")
    if args.json and not Path(args.json).resolve().parent.is_dir():
        raise SymcotError(f"--json: the directory of {args.json} does not exist")
    claims = select(load_claims(args.proofs), args.claims)
    progress = Progress(not args.no_progress)
    out: list[dict[str, Any]] = []
    for claim in claims:
        checks = construction_checks(claim)
        if not checks:
            raise no_construction(claim, "coverage", "record (no activation regions)",
                                  "symcot replay shows an encoder's heads and blocks on one string")
        for chk in checks:
            if args.variant and chk.variant not in args.variant:
                continue
            target = target_of(claim, chk.variant)
            size = args.max_size or target.default_size
            families = _families(target, args.family)
            cov = coverage(target.make(), target.spec, families, size, progress)
            which = "the exhaustive families" if not args.family else ", ".join(f.name for f in families)
            print(f"{target.label}, every input of {which} to n = {size}:")
            for line in coverage_lines(cov):
                print(f"  {line}")
            if args.regions:
                for (kind, layer, unit, region), first in cov.regions():
                    print(f"    n={first}  {kind:6} layer {layer}  {unit}: {region}")
            out.append({"claim": claim.id, "variant": chk.variant, "max_size": size,
                        "families": [f.name for f in families], **cov.as_dict()})
    if not out:
        raise SymcotError("no construction variant selected")
    if args.json:
        Path(args.json).write_text(json.dumps({"schema": "symcot-coverage/1", "coverage": out}, indent=1,
                                              ensure_ascii=False))
        print(f"\nJSON written to {args.json}")
    return 0
