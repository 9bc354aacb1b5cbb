"""``symcot temperature``: the inverse temperature at which softmax takes every decision of the hard rule."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from symcot.errors import SymcotError


def add_parser(sub: Any) -> None:
    """The ``temperature`` subcommand's options."""
    p = sub.add_parser("temperature", help="softmax against hard attention: the rule β(n), the measured β, each rule")
    p.add_argument("claims", nargs="+", metavar="CLAIM", help="claims with softmax temperature checks")
    p.add_argument("--max-size", type=int, default=None, help="largest size (default: each claim's own)")
    p.add_argument("--tol", default="1/100", help="width of the measured bracket (a rational, default 1/100)")
    p.add_argument("--no-measure", action="store_true", help="only each rule's outcome, no bisection")
    p.add_argument("--proofs", metavar="DIR", help="claims directory (default: the bundled proofs package)")
    p.set_defaults(func=run)


def _tol(text: str) -> Fraction:
    try:
        tol = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise SymcotError(f"--tol must be a rational such as 1/100, got {text!r}") from None
    if tol <= 0:
        raise SymcotError(f"--tol must be positive, got {text!r}")
    return tol


def _dec(x: Fraction) -> str:
    """A rational to 4 decimals, for the table (the exact values are the study's)."""
    return f"{float(x):.4f}"


def _bracket(m: Any) -> str:
    if m is None:
        return "-"
    return f"({_dec(m.fails)}, {_dec(m.agrees)}]" + (" undecided" if m.undecided else "")


def run(args: argparse.Namespace) -> int:
    """Print one table per claim; 0 when every claim had a temperature check."""
    from symcot.registry import load_claims, select
    from symcot.study.temperature import TemperatureCheck, study

    if args.max_size is not None and args.max_size < 1:
        raise SymcotError(f"--max-size must be at least 1, got {args.max_size}")
    tol = _tol(args.tol)
    claims = select(load_claims(args.proofs), args.claims)
    found = [(c, [k for k in c.checks if isinstance(k, TemperatureCheck)]) for c in claims]
    for claim, checks in found:
        if not checks:
            raise SymcotError(f"claim {claim.id} has no softmax temperature check (a TemperatureCheck)")
    for claim, checks in found:
        top = args.max_size or claim.default_max_size or 4
        print(f"{claim.id}: rule β(n) = {checks[0].rule.text} ({checks[0].variant})")
        names = [c.variant for c in checks]
        print(f"  {'n':<3} {'rule β(n)':<20} {'run at β':<10} {'measured β in':<20} " + "  ".join(names))
        for row in study(checks, range(2, top + 1), tol, not args.no_measure):
            print((f"  {row.n:<3} {row.rule:<20} {_dec(row.run):<10} {_bracket(row.measured):<20} "
                   + "  ".join(f"{row.outcomes[v]:<{len(v)}}" for v in names)).rstrip())
        for c in checks:
            print(f"  {c.variant}: β(n) = {c.rule.text}")
    return 0
