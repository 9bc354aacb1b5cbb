"""``symcot replay``: replay one input exactly and print the trace."""

from __future__ import annotations

import argparse
from typing import Any

from symcot.errors import SymcotError


def add_parser(sub: Any) -> None:
    """The ``replay`` subcommand's options."""
    r = sub.add_parser("replay", help="replay one input and print the trace")
    r.add_argument("claim", metavar="CLAIM")
    r.add_argument("--graph", help='arcs "0->1,1->2" or undirected edges "0-1,1-2"')
    r.add_argument("--graph-file", metavar="PATH", help="edge list file (u v [weight] per line, networkx format)")
    r.add_argument("--undirected", action="store_true", help="read --graph-file edges as undirected")
    r.add_argument("--tree", help="a rooted tree: Dyck word, nested parentheses (()()) or parent array "
                                  "(--tree -1,0,0: entry i is the parent of vertex i, -1 the root)")
    r.add_argument("--input", "--string", dest="input",
                   help="input text for constructions with their own parser; an encoder's string (0110, or "
                        "symbols separated by spaces or commas)")
    r.add_argument("--plot", metavar="PATH", help="write a heatmap of the tokens and the input (.png/.svg/.pdf)")
    r.add_argument("--n", type=int, metavar="N",
                   help="with --graph: n = |V|, the graph's vertices 0..n-1 (default: largest named + 1); as "
                        "everywhere, the construction's size parameter, so not for a path-side construction (n = |w|)")
    r.add_argument("--dyck", help="a Dyck word over U/D; its ordered tree, rooted at vertex 0")
    r.add_argument("--source", help="source / root vertex: a number, or a name of --graph/--graph-file (default 0)")
    r.add_argument("--variant", help="construction variant (default: as-written)")
    r.add_argument("--lam", help="the value of λ (default: the construction's rule for the input), e.g. 9 or 15/2")
    r.add_argument("--all-blocks", action="store_true", help="print every block, not only the changed ones")
    r.add_argument("--at", metavar="NAME=VALUE,…",
                   help="a parametrised check's point, e.g. k=2,D=3 (default: the smallest point whose inputs include "
                        "the string)")
    r.add_argument("--width", type=int, metavar="COLUMNS",
                   help="an encoder's table: fit this many columns (default: the terminal's, or COLUMNS)")
    r.add_argument("--proofs", metavar="DIR")
    r.set_defaults(func=run)



def _check_options(args: argparse.Namespace) -> None:
    """Options that do not apply to the input given are errors, not silently ignored."""
    from symcot.cli.common import check_output_path, not_applicable

    given = [o for o in ("graph", "graph_file", "tree", "dyck", "input") if getattr(args, o) is not None]
    if len(given) != 1:
        raise SymcotError("give exactly one input: --graph, --graph-file, --tree, --dyck or --input")
    if args.n is not None and args.graph is None:
        raise not_applicable("--n", f"sets the number of vertices of --graph; it does not apply to "
                                    f"--{given[0].replace('_', '-')}")
    if args.undirected and args.graph_file is None:
        raise not_applicable("--undirected", "applies to --graph-file only (write u-v in --graph for an edge)")
    if args.source is not None and args.input is not None:
        raise not_applicable("--source", "does not apply to --input (the construction's parser reads the input)")
    if args.width is not None:
        raise not_applicable("--width", "sizes an encoder's table; a decoder's trace is printed line by line")
    if args.plot:
        check_output_path(args.plot, "--plot", (".png", ".svg", ".pdf"))


def _replay_input(chk: Any, args: argparse.Namespace) -> tuple[Any, str, dict[str, Any]]:
    """Build the construction's input from --graph/--graph-file/--tree/--dyck/--input."""
    from symcot.cli.common import not_applicable
    from symcot.errors import locate
    from symcot.inputs.dyck import validate_dyck
    from symcot.inputs.parse import parse_graph, parse_tree, read_graph_file
    from symcot.inputs.trees import OrderedTree

    kind = getattr(chk, "input_kind", "graph")
    if args.input is not None:
        if getattr(chk, "parse_input", None) is None:
            raise SymcotError("this construction reads --graph/--graph-file/--tree/--dyck, not --input")
        try:
            inp = chk.parse_input(args.input)
        except SymcotError as e:
            raise SymcotError(f"--input {args.input!r}: {e}") from e
        except Exception as e:  # noqa: BLE001 - an error in the user's parser, reported at its line
            raise locate(e, f"in the input parser of {chk.variant}, --input {args.input!r}") from e
        return inp, args.input, {}
    if kind == "custom":
        raise SymcotError("this construction reads its input with --input TEXT (its own parser)")
    g, root, word = None, None, None
    if args.dyck is not None:
        word = validate_dyck(args.dyck)
        g, root = OrderedTree.from_dyck(word).to_digraph(), 0
    elif args.tree is not None:
        g, root = parse_tree(args.tree)
    elif args.graph is not None:
        g = parse_graph(args.graph, args.n)
    else:
        g = read_graph_file(args.graph_file, directed=not args.undirected)
    if kind == "dyck" and args.dyck is not None and args.source is not None:
        raise not_applicable("--source", "does not apply to --dyck here: the construction reads the word itself")
    source = _source(g, args.source, root)
    if kind == "dyck":
        if word is None:
            word = OrderedTree.from_rooted(g, source).to_dyck()
        return word, f"Dyck word {word}", {"word": word}
    return (g, source), f"{g}, source {source}", {"graph": g, "root": source}


def _n_counts_vertices(chk: Any) -> None:
    """``--n`` with ``--graph`` sets the vertices: an error where the size parameter is not them (``n = |w|``)."""
    from symcot.cli.size import parameter_or_none

    cons = _build(chk)
    param = parameter_or_none(chk, cons)
    if param is not None and not param.counts_vertices():
        raise SymcotError(f"--n is {cons.claim}'s size parameter {param.name} = {param.measure or '?'}, not the "
                          "number of vertices of --graph: drop --n (the vertices are 0 to the largest named)")


def _source(g: Any, given: str | None, root: int | None) -> int:
    """The source vertex: ``--source`` as a number or a vertex name, else the tree's root, else vertex 0."""
    if given is None:
        return root if root is not None else 0
    if g.labels is not None:
        names = {str(v): i for i, v in enumerate(g.labels)}
        if given in names:
            return names[given]
        raise SymcotError(f"--source {given}: not a vertex; the vertices are {', '.join(names)}")
    try:
        s = int(given)
    except ValueError:
        raise SymcotError(f"--source {given}: the vertices are numbered 0..{g.n - 1}") from None
    if not 0 <= s < g.n:
        raise SymcotError(f"--source {s} is not a vertex of a graph on 0..{g.n - 1}")
    return s


def _lambda_line(cons: Any, rule: Any, value: Any) -> str | None:
    """``λ = 5 (…)``: the λ this replay uses and where it comes from (``None`` when there is no λ)."""
    from symcot.check.trace import fmt_value

    if value is None:
        return None if rule is None else (f"λ = {fmt_value(rule)} (the construction's rule, "
                                          f"{cons.lambda_text}; --lam to change it)")
    return f"λ = {fmt_value(value)} (--lam; the construction's rule, {cons.lambda_text}, gives {fmt_value(rule)})"


def run(args: argparse.Namespace) -> int:
    """Replay one input and print its trace; 0 if every step matches the reference, else 1."""
    from fractions import Fraction

    from symcot.check.grid import is_grid
    from symcot.check.trace import render_text, replay
    from symcot.cli.kinds import is_encoder
    from symcot.errors import locate
    from symcot.ir.symbols import lam

    claim, chk, reader = find_construction(args.claim, args.variant, args.proofs, "replay")
    if is_grid(chk):
        from symcot.cli.replay_encoder import replay_grid

        return replay_grid(args, claim.id, chk)
    if is_encoder(chk):
        from symcot.cli.replay_encoder import replay_encoder

        return replay_encoder(args, claim.id, chk)
    if args.at is not None:
        raise SymcotError(f"--at names a point of a parametrised check; {claim.id} [{chk.variant}] has no parameters")
    _check_options(args)
    value: int | Fraction | None = None
    if args.lam is not None:
        try:
            exact = Fraction(args.lam)
        except (ValueError, ZeroDivisionError):
            raise SymcotError(f"--lam must be an exact number (e.g. 9 or 15/2), got {args.lam!r}") from None
        value = exact.numerator if exact.denominator == 1 else exact
    if args.n is not None:
        _n_counts_vertices(chk)
    inp, text, drawing = _replay_input(reader, args)
    cons = _build(chk)
    context = f"replaying {cons.claim} [{cons.variant}] on {text}"
    try:
        subs = cons.subs(inp)
    except Exception as e:  # noqa: BLE001
        raise locate(e, context) from e
    if value is not None and lam not in subs:
        raise SymcotError(f"--lam: {cons.claim} [{cons.variant}] has no λ")
    line = _lambda_line(cons, subs.get(lam), value)
    if value is not None:
        cons = cons.with_lambda(value)  # weights, prompt and the state encoding all read this λ
    try:
        trace = replay(cons, inp, chk.spec, input_text=text)
    except Exception as e:  # noqa: BLE001 - bad input or the user's code: one line naming where
        raise locate(e, context) from e
    first, _, rest = render_text(trace, changed_only=not args.all_blocks).partition("\n")
    print("\n".join([first] + ([line] if line else []) + ([rest] if rest else [])))
    if args.plot:
        from symcot.report.plot import plot_trace

        plot_trace(trace, args.plot, **drawing)
        print(f"plot written to {args.plot}")
    return 0 if trace.ok else 1


def _build(chk: Any) -> Any:
    """``chk.construction()``, an error in it located in the user's code."""
    from symcot.errors import locate

    try:
        return chk.construction()
    except Exception as e:  # noqa: BLE001
        raise locate(e, "while building the construction") from e


def construction_check(claim_id: str, variant: str | None, proofs: str | None, action: str = "replay or print") -> Any:
    """The ``ConstructionCheck`` of ``claim_id`` (its ``variant``, else the first one)."""
    return find_construction(claim_id, variant, proofs, action)[1]


def find_construction(claim_id: str, variant: str | None, proofs: str | None,
                      action: str = "replay or print") -> tuple[Any, Any, Any]:
    """The claim, its construction check of ``variant`` (else the first one) and the check that reads its inputs.

    A variant checked only for every n (an all-n check) has the construction but no input parser of its
    own; its claim's inputs are read as the claim's replayed checks read them. A check whose verdict is its own
    comparison may name the transformer it runs (``runs_as``: an encoder or grid check, the same variant): that
    is the construction. A claim with no construction is one line saying what it is and that there is nothing
    to ``action``.
    """
    from symcot.check.grid import is_grid
    from symcot.cli.kinds import nothing_to
    from symcot.registry import load_claims, select

    found = select(load_claims(proofs), [claim_id])
    if len(found) > 1:
        raise SymcotError(f"{claim_id!r} matches {len(found)} claims ({', '.join(c.id for c in found)}); "
                          "this command takes one")
    claim = found[0]
    # a replayed check first: an all-n or symbolic check of the same variant holds the construction too
    shown = [getattr(c, "runs_as", None) or c for c in claim.checks]
    checks: list[Any] = sorted((c for c in shown if hasattr(c, "construction") or is_grid(c)),
                               key=lambda c: bool(getattr(c, "all_n", False) or getattr(c, "symbolic", False)))
    if not checks:
        raise nothing_to(claim, action)
    if variant:
        named = [c for c in checks if c.variant == variant]
        formulas = [f for c in claim.checks if c.variant == variant and (f := getattr(c, "as_formulas", None))]
        if not named and formulas:
            raise SymcotError(f"{claim.id} [{variant}] is checked as formulas, not run as a transformer: "
                              f"{formulas[0]}; nothing to {action}")
        if not named:
            import difflib

            known = [c.variant for c in checks]
            near = difflib.get_close_matches(variant, known, n=1, cutoff=0.6)
            hint = f"; did you mean {near[0]}?" if near else ""
            raise SymcotError(f"{claim.id} has no construction variant {variant!r}{hint} "
                              f"(variants: {', '.join(known)})")
        checks = named
    chk = checks[0]
    if hasattr(chk, "parse_input"):
        return claim, chk, chk
    return claim, chk, next((c for c in claim.checks if hasattr(c, "parse_input")), chk)
