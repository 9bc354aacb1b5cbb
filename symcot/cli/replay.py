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
                                  "(write --tree=-1,0,0 when it starts with a minus)")
    r.add_argument("--input", help="input text for constructions with their own parser")
    r.add_argument("--plot", metavar="PATH", help="write a heatmap of the tokens and the input (.png/.svg/.pdf)")
    r.add_argument("--n", type=int, help="number of vertices (default: largest named + 1)")
    r.add_argument("--dyck", help="a Dyck word over U/D; the tree ψ(w) rooted at vertex 0")
    r.add_argument("--source", type=int, help="source / root vertex (default 0)")
    r.add_argument("--variant", help="construction variant (default: as-written)")
    r.add_argument("--all-blocks", action="store_true", help="print every block, not only the changed ones")
    r.add_argument("--proofs", metavar="DIR")
    r.set_defaults(func=run)



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


def run(args: argparse.Namespace) -> int:
    """Replay one input and print its trace; 0 if every step matches the reference, else 1."""
    from symcot.check.trace import render_text, replay

    chk = construction_check(args.claim, args.variant, args.proofs)
    inp, text, drawing = _replay_input(chk, args)
    trace = replay(chk.construction(), inp, chk.spec, input_text=text)
    print(render_text(trace, changed_only=not args.all_blocks))
    if args.plot:
        from symcot.report.plot import plot_trace

        plot_trace(trace, args.plot, **drawing)
        print(f"plot written to {args.plot}")
    return 0 if trace.ok else 1


def construction_check(claim_id: str, variant: str | None, proofs: str | None) -> Any:
    """The ``ConstructionCheck`` of ``claim_id`` (its ``variant``, else the first one)."""
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


