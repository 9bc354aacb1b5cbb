"""The ``symcot`` command line: ``verify``, ``claims``, ``replay``.

Every expected failure (unknown claim, malformed input, bad size) prints one line and exits non-zero.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from typing import Any

from symcot import __version__
from symcot.check.exhaustive import Progress
from symcot.check.verdict import Verdict, exit_status
from symcot.errors import SymcotError


def _cmd_verify(args: argparse.Namespace) -> int:
    from symcot.check.parallel import default_jobs
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


def _cmd_claims(args: argparse.Namespace) -> int:
    from symcot.paper import PAPER_LABELS, is_paper_label
    from symcot.registry import load_claims

    claims = load_claims(args.proofs)
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


def _replay_input(chk: Any, args: argparse.Namespace) -> tuple[Any, str, dict[str, Any]]:
    """Build the construction's input from --graph/--graph-file/--tree/--dyck/--input."""
    from symcot.algorithms.bijection import phi, psi
    from symcot.inputs.dyck import validate_dyck
    from symcot.inputs.parse import parse_graph, parse_tree, read_graph_file

    given = [o for o in ("graph", "graph_file", "tree", "dyck", "input") if getattr(args, o) is not None]
    if len(given) != 1:
        raise SymcotError("give exactly one input: --graph, --graph-file, --tree, --dyck or --input")
    kind = getattr(chk, "input_kind", "graph")
    if args.input is not None:
        if chk.parse_input is None:
            raise SymcotError("this construction reads --graph/--graph-file/--tree/--dyck, not --input")
        inp = chk.parse_input(args.input)
        return inp, args.input, {}
    g, root, word = None, None, None
    if args.dyck is not None:
        word = validate_dyck(args.dyck)
        g, root = psi(word).to_digraph(), 0
    elif args.tree is not None:
        g, root = parse_tree(args.tree)
    elif args.graph is not None:
        g = parse_graph(args.graph, args.n)
    else:
        g = read_graph_file(args.graph_file, directed=not args.undirected)
    source = args.source if args.source is not None else (root if root is not None else 0)
    if not 0 <= source < g.n:
        raise SymcotError(f"--source {source} is not a vertex of a graph on 0..{g.n - 1}")
    if kind == "dyck":
        if word is None:
            word = phi(g, source)
        return word, f"Dyck word {word}", {"word": word}
    return (g, source), f"{g}, source {source}", {"graph": g, "root": source}


def _cmd_replay(args: argparse.Namespace) -> int:
    from symcot.replay import render_text, replay

    chk = _construction_check(args.claim, args.variant, args.proofs)
    inp, text, drawing = _replay_input(chk, args)
    trace = replay(chk.construction(), inp, chk.spec, input_text=text)
    print(render_text(trace, changed_only=not args.all_blocks))
    if args.plot:
        from symcot.report.plot import plot_trace

        plot_trace(trace, args.plot, **drawing)
        print(f"plot written to {args.plot}")
    return 0 if trace.ok else 1


def _construction_check(claim_id: str, variant: str | None, proofs: str | None) -> Any:
    from symcot.registry import load_claims, select

    claim = select(load_claims(proofs), [claim_id])[0]
    checks = [c for c in claim.checks if hasattr(c, "construction")]
    if not checks:
        raise SymcotError(f"{claim.id} is not checked through a construction (nothing to replay or print)")
    if variant:
        checks = [c for c in checks if c.variant == variant]
        if not checks:
            known = ", ".join(c.variant for c in claim.checks)
            raise SymcotError(f"{claim.id} has no construction variant {variant!r}; variants: {known}")
    return checks[0]


#: Largest model dimension printed explicitly (a bigger matrix is unreadable and slow to typeset).
MAX_EXPLICIT_D = 400


def _cmd_latex(args: argparse.Namespace) -> int:
    import sympy as sp

    from symcot.ir.symbols import lam
    from symcot.latex import decoder_explicit, decoder_symbolic

    chk = _construction_check(args.claim, args.variant, args.proofs)
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


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump), exit status 2."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        self.exit(2, f"symcot: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and docs)."""
    p = _Parser(prog="symcot", description="Machine-check chain-of-thought Transformer constructions.")
    p.add_argument("--version", action="version", version=f"symcot {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

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
    v.set_defaults(func=_cmd_verify)

    c = sub.add_parser("claims", help="list the claims, their kind, statement, variants, and paper coverage")
    c.add_argument("--markdown", action="store_true", help="a Markdown table (as in docs/claims.md)")
    c.add_argument("--proofs", metavar="DIR")
    c.set_defaults(func=_cmd_claims)

    r = sub.add_parser("replay", help="replay one input and print the trace")
    r.add_argument("claim", metavar="CLAIM")
    r.add_argument("--graph", help='arcs "0->1,1->2" or undirected edges "0-1,1-2"')
    r.add_argument("--graph-file", metavar="PATH", help="edge list file (u v [weight] per line, networkx format)")
    r.add_argument("--undirected", action="store_true", help="read --graph-file edges as undirected")
    r.add_argument("--tree", help="a rooted tree: Dyck word, nested parentheses (()()) or parent array "
                                  "(write --tree=-1,0,0 when it starts with a minus)")
    r.add_argument("--input", help="input text for constructions with their own parser")
    r.add_argument("--plot", metavar="PATH", help="write a heatmap of the tokens and the input (.png/.svg/.pdf)")
    r.add_argument("--n", type=int, help="number of vertices (default: largest named + 1)")
    r.add_argument("--dyck", help="a Dyck word over U/D; the tree ψ(w) rooted at vertex 0")
    r.add_argument("--source", type=int, help="source / root vertex (default 0)")
    r.add_argument("--variant", help="construction variant (default: as-written)")
    r.add_argument("--all-blocks", action="store_true", help="print every block, not only the changed ones")
    r.add_argument("--proofs", metavar="DIR")
    r.set_defaults(func=_cmd_replay)

    t = sub.add_parser("latex", help="LaTeX of every weight matrix (standalone document)")
    t.add_argument("claim", metavar="CLAIM")
    t.add_argument("--variant", help="construction variant (default: as-written)")
    t.add_argument("--n", type=int, help="explicit matrices at this size (default: symbolic block matrices)")
    t.add_argument("--symbolic", action="store_true", help="symbolic block matrices (the default without --n)")
    t.add_argument("--lam", help="value of λ for explicit matrices (default: keep λ symbolic)")
    t.add_argument("-o", "--output", metavar="PATH", help="write to a file instead of standard output")
    t.add_argument("--proofs", metavar="DIR")
    t.set_defaults(func=_cmd_latex)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``symcot`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except SymcotError as e:
        print(f"symcot: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("symcot: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - never a traceback, never exit 1 (which means "refuted")
        print(f"symcot: internal error: {type(e).__name__}: {e} (please report it)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
