"""``symcot latex``: LaTeX of every weight matrix of a construction."""

from __future__ import annotations

import argparse
from typing import Any

from symcot.cli.replay import construction_check
from symcot.errors import SymcotError


def add_parser(sub: Any) -> None:
    """The ``latex`` subcommand's options."""
    t = sub.add_parser("latex", help="LaTeX of every weight matrix (standalone document)")
    t.add_argument("claim", metavar="CLAIM")
    t.add_argument("--variant", help="construction variant (default: as-written)")
    t.add_argument("--n", type=int, help="explicit matrices at this size (default: symbolic block matrices)")
    t.add_argument("--symbolic", action="store_true", help="symbolic block matrices (the default without --n)")
    t.add_argument("--lam", help="value of λ for explicit matrices (default: keep λ symbolic)")
    t.add_argument("-o", "--output", metavar="PATH", help="write to a file instead of standard output")
    t.add_argument("--proofs", metavar="DIR")
    t.set_defaults(func=run)


#: Largest model dimension printed explicitly (a bigger matrix is unreadable and slow to typeset).
MAX_EXPLICIT_D = 400


def run(args: argparse.Namespace) -> int:
    """Print (or write) the LaTeX of a construction's weights, symbolic or at ``--n``."""
    import sympy as sp

    from symcot.ir.symbols import lam
    from symcot.latex import decoder_explicit, decoder_symbolic

    chk = construction_check(args.claim, args.variant, args.proofs)
    cons = chk.construction()
    dec = cons.decoder
    if args.n is None:
        if args.lam is not None:
            raise SymcotError("--lam only applies with --n (explicit matrices)")
        text = decoder_symbolic(dec, f"{cons.claim} [{cons.variant}]")
    else:
        sizes = sorted({s for b in dec.layout.blocks for s in sp.sympify(b.size).free_symbols}, key=str)
        if len(sizes) != 1:
            raise SymcotError(f"cannot bind --n: the layout's sizes use {[str(s) for s in sizes]}")
        if args.n < 1:
            raise SymcotError(f"--n must be at least 1, got {args.n}")
        env = {sizes[0]: args.n}
        d = int(sp.sympify(dec.layout.dim).subs(env))
        if d > MAX_EXPLICIT_D:
            raise SymcotError(f"--n {args.n} gives d = {d} > {MAX_EXPLICIT_D}: too large to print explicitly; "
                              "use a smaller --n or --symbolic")
        subs = {}
        if args.lam is not None:
            from fractions import Fraction

            try:
                subs = {lam: Fraction(args.lam)}
            except ValueError:
                raise SymcotError(f"--lam must be an exact number (e.g. 7 or 15/2), got {args.lam!r}") from None
        text = decoder_explicit(dec.instantiate(env, subs), f"{cons.claim} [{cons.variant}]")
    if args.output:
        from pathlib import Path

        Path(args.output).write_text(text)
        print(f"LaTeX written to {args.output}")
    else:
        print(text, end="")
    return 0


