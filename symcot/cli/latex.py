"""``symcot latex``: LaTeX of every weight matrix of a construction (a document, or a fragment to paste)."""

from __future__ import annotations

import argparse
from typing import Any

from symcot.cli.kinds import is_encoder
from symcot.cli.replay import find_construction
from symcot.cli.size import N_HELP
from symcot.errors import SymcotError


def add_parser(sub: Any) -> None:
    """The ``latex`` subcommand's options."""
    t = sub.add_parser("latex", help="LaTeX of every weight matrix (standalone document or --fragment)")
    t.add_argument("claim", metavar="CLAIM")
    t.add_argument("--variant", help="construction variant (default: as-written)")
    t.add_argument("--n", type=int, metavar="N",
                   help=f"explicit matrices at this value of {N_HELP} (default: symbolic block matrices)")
    t.add_argument("--at", metavar="NAME=VALUE,…",
                   help="a parametrised check's point, e.g. k=2,D=3 (default: the smallest point)")
    t.add_argument("--symbolic", action="store_true", help="symbolic block matrices (the default without --n)")
    t.add_argument("--lam", help="value of λ for explicit matrices (default: keep λ symbolic)")
    t.add_argument("--fragment", action="store_true",
                   help="only the matrices and terms, no preamble or headings (to paste into a paper)")
    t.add_argument("--landscape", action="store_true", help="lay out for A4 landscape (default: portrait)")
    t.add_argument("-o", "--output", metavar="PATH", help="write to a file instead of standard output")
    t.add_argument("--proofs", metavar="DIR")
    t.set_defaults(func=run)


#: Largest model dimension printed explicitly (a bigger matrix is unreadable and slow to typeset).
MAX_EXPLICIT_D = 400


def size_problem(layout: Any, env: dict[Any, int]) -> str | None:
    """Why ``env`` gives a block a size that is not a non-negative integer (``None`` when every size is fine)."""
    import sympy as sp

    for b in layout.blocks:
        v = sp.sympify(b.size).subs(env)
        if not v.is_Integer or int(v) < 0:
            return f"block {b.name} has size {b.size} = {v}"
    return None


def _bind_n(cons: Any, n_value: int) -> dict[Any, int]:
    """``{size symbol: n}`` for the layout's one size symbol, with a clear error when that size does not fit."""
    from symcot.check.size import size_symbols

    layout = cons.decoder.layout
    sizes = size_symbols(cons)
    if len(sizes) != 1:
        raise SymcotError(f"cannot bind --n: the layout's sizes use {', '.join(map(str, sizes)) or 'no symbol'}, "
                          "not one size parameter")
    if n_value < 1:
        raise SymcotError(f"--n must be at least 1, got {n_value}")
    sym = sizes[0]
    why = size_problem(layout, {sym: n_value})
    if why:
        near = [k for k in (n_value - 1, n_value + 1, n_value - 2, n_value + 2)
                if k >= 1 and size_problem(layout, {sym: k}) is None]
        hint = f"; try --n {' or --n '.join(map(str, sorted(near)[:2]))}" if near else ""
        raise SymcotError(f"{cons.claim} [{cons.variant}] cannot be built at {sym} = {n_value}: {why}, "
                          f"not a whole number of coordinates{hint}")
    return {sym: n_value}


def _encoder_latex(args: argparse.Namespace, title: str, chk: Any, cons: Any, page: Any) -> str:
    """An encoder's weights and rules: symbolic, or at ``--n`` the weights its check runs at length ``n``."""
    from symcot.latex import decoder_explicit, decoder_symbolic

    if args.lam is not None:
        raise SymcotError(f"--lam: {title} is an encoder construction with no λ")
    if args.n is None:
        return decoder_symbolic(cons.decoder, title, page, args.fragment)
    if args.n < 1:
        raise SymcotError(f"--n must be at least 1, got {args.n}")
    s = next((next(iter(f.inputs(args.n))) for f in chk.families if f.min_size <= args.n and f.count(args.n)), None)
    if s is None:
        raise SymcotError(f"--n {args.n}: {title} reads no string of length {args.n}")
    dec = cons.concrete(s)
    if dec.layout.dim > MAX_EXPLICIT_D:
        raise SymcotError(f"--n {args.n} gives d = {dec.layout.dim} > {MAX_EXPLICIT_D}: too large to print "
                          "explicitly; use a smaller --n or --symbolic")
    return decoder_explicit(dec, f"{title} at n = {args.n}", page, args.fragment)


def run(args: argparse.Namespace) -> int:
    """Print (or write) the LaTeX of a construction's weights, symbolic or at ``--n``."""
    import sympy as sp

    from symcot.check.grid import is_grid, parse_at
    from symcot.cli.common import check_output_path, not_applicable
    from symcot.ir.symbols import lam
    from symcot.latex import Page, decoder_explicit, decoder_symbolic

    if args.symbolic and args.n is not None:
        raise not_applicable("--symbolic", "and --n exclude each other: symbolic block matrices, or explicit "
                                           "matrices at --n")
    if args.lam is not None and args.n is None:
        raise not_applicable("--lam", "only applies with --n (explicit matrices)")
    if args.output:
        check_output_path(args.output, "-o")
    page = Page(landscape=args.landscape)
    claim, chk, _ = find_construction(args.claim, args.variant, args.proofs, "print")
    title = f"{claim.id} [{chk.variant}]"
    if is_grid(chk):
        point = chk.smallest() if args.at is None else parse_at(args.at, chk)
        title = f"{title} at {chk.label(point)}"
        chk = chk.make(point, args.n or 0)
    elif args.at is not None:
        raise SymcotError(f"--at names a point of a parametrised check; {title} has no parameters")
    cons = chk.construction()
    dec = cons.decoder
    if is_encoder(chk):
        text = _encoder_latex(args, title, chk, cons, page)
    elif args.n is None:
        text = decoder_symbolic(dec, title, page, args.fragment)
    else:
        env = _bind_n(cons, args.n)
        d = int(sp.sympify(dec.layout.dim).subs(env))
        if d > MAX_EXPLICIT_D:
            raise SymcotError(f"--n {args.n} gives d = {d} > {MAX_EXPLICIT_D}: too large to print explicitly; "
                              "use a smaller --n or --symbolic")
        subs = {}
        if args.lam is not None:
            from fractions import Fraction

            try:
                subs = {lam: Fraction(args.lam)}
            except (ValueError, ZeroDivisionError):
                raise SymcotError(f"--lam must be an exact number (e.g. 7 or 15/2), got {args.lam!r}") from None
        text = decoder_explicit(dec.instantiate(env, subs), title, page, args.fragment)
    if args.output:
        from pathlib import Path

        Path(args.output).write_text(text)
        print(f"LaTeX written to {args.output}")
    else:
        print(text, end="")
    return 0
