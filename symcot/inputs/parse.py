"""Parsing inputs typed on the command line, with errors that name the problem."""

from __future__ import annotations

import re

from symcot.errors import InvalidInputError
from symcot.inputs.dyck import validate_dyck
from symcot.inputs.graphs import Digraph
from symcot.inputs.trees import OrderedTree, validate_tree

_NAME = r"(\d+|[A-Za-z_][A-Za-z0-9_]*)"
_ARC = re.compile(rf"^\s*{_NAME}\s*(->|-|>)\s*{_NAME}\s*(?::\s*([0-9/]+))?\s*$")


def parse_graph(text: str, n: int | None = None) -> Digraph:
    """Parse ``"0->1, 1->2"`` (arcs), ``"0-1, 1-2"`` (undirected edges: both arcs), optional ``:w`` weights.

    ``n`` defaults to one more than the largest vertex named. Vertices may also be names (``"a->b,
    b->c"``): they are numbered in sorted order and the graph keeps the names (:attr:`Digraph.labels`).
    """
    items = [s for part in text.replace(";", ",").split(",") for s in [part] if s.strip()]
    parsed = []
    for it in items:
        m = _ARC.match(it)
        if not m:
            raise InvalidInputError(f"cannot read {it.strip()!r} as an arc: write u->v, or u-v for an undirected edge")
        parsed.append((m.group(1), m.group(2), m.group(3), m.group(4)))
    if any(not u.isdigit() or not v.isdigit() for u, _, v, _ in parsed):
        if n is not None:
            raise InvalidInputError("--n sets the number of vertices 0..n-1; it does not apply to named vertices")
        return _named_graph(parsed)
    arcs: dict[tuple[int, int], object] = {}
    weighted = False
    for su, kind, sv, w in parsed:
        u, v = int(su), int(sv)
        weighted |= w is not None
        weight = w if w is not None else 1
        for a in [(u, v)] + ([(v, u)] if kind == "-" else []):
            if a in arcs:
                raise InvalidInputError(f"arc {a[0]}->{a[1]} given twice")
            arcs[a] = weight
    top = max((max(a) for a in arcs), default=-1) + 1
    size = top if n is None else n
    if n is not None and top > n:
        raise InvalidInputError(f"the graph names vertex {top - 1} but --n is {n}")
    if size < 1:
        raise InvalidInputError("empty graph: give at least one arc or --n")
    if weighted:
        return Digraph.from_weighted_arcs(size, arcs)
    return Digraph.from_arcs(size, list(arcs))


def _named_graph(parsed: list[tuple[str, str, str, str | None]]) -> Digraph:
    """A graph whose vertices are names: numbered in sorted order, the names kept on the graph."""
    import networkx as nx

    g = nx.DiGraph()
    weighted = any(w is not None for *_, w in parsed)
    for u, kind, v, w in parsed:
        for a, b in [(u, v)] + ([(v, u)] if kind == "-" else []):
            if g.has_edge(a, b):
                raise InvalidInputError(f"arc {a}->{b} given twice")
            g.add_edge(a, b, weight=w if w is not None else "1")
    return Digraph.from_networkx(g, weight="weight" if weighted else None)


def parse_tree(text: str) -> tuple[Digraph, int]:
    """A rooted tree from plain notation; returns ``(tree as a symmetric Digraph, root)``.

    Accepted forms: a Dyck word (``UUDD``: the tree ψ(w), root 0); nested parentheses (``(()(()))``:
    the outer pair is the root, each inner pair a child, in order); a parent array (``-1,0,0,1``: entry
    ``i`` is the parent of vertex ``i``, ``-1`` (or ``-``) marks the root).
    """
    t = text.strip()
    if not t:
        raise InvalidInputError("empty tree: give a Dyck word, nested parentheses or a parent array")
    if set(t) <= {"U", "D"}:
        return OrderedTree.from_dyck(validate_dyck(t)).to_digraph(), 0
    if set(t) <= {"(", ")", " "}:
        s = t.replace(" ", "")
        depth = 0
        for i, ch in enumerate(s):
            depth += 1 if ch == "(" else -1
            if depth < 0 or (depth == 0 and i != len(s) - 1):
                raise InvalidInputError(
                    f"nested parentheses {t!r}: the outer pair must enclose everything (position {i})")
        if depth != 0:
            raise InvalidInputError(f"nested parentheses {t!r} are unbalanced ({depth} unclosed)")
        word = s[1:-1].replace("(", "U").replace(")", "D")
        return OrderedTree.from_dyck(validate_dyck(word)).to_digraph(), 0
    parts = [p.strip() for p in t.replace(";", ",").split(",")]
    try:
        parents = [-1 if p in ("-1", "-", "") else int(p) for p in parts]
    except ValueError:
        raise InvalidInputError(
            f"cannot read {t!r} as a tree: give a Dyck word (UUDD), nested parentheses ((()())) "
            "or a parent array (-1,0,0)") from None
    roots = [i for i, p in enumerate(parents) if p == -1]
    if len(roots) != 1:
        raise InvalidInputError(f"a parent array needs exactly one root (-1), found {len(roots)}")
    for i, p in enumerate(parents):
        if p != -1 and not 0 <= p < len(parents):
            raise InvalidInputError(f"parent of vertex {i} is {p}, not a vertex 0..{len(parents) - 1}")
    cycle = parent_cycle(parents)
    if cycle:
        raise InvalidInputError(f"the parent array has a cycle {' → '.join(map(str, cycle))} "
                                "(each vertex's parent, followed, must reach the root -1)")
    g = Digraph.undirected(len(parents), [(p, i) for i, p in enumerate(parents) if p != -1])
    validate_tree(g, roots[0])
    return g, roots[0]


def parent_cycle(parents: list[int]) -> list[int] | None:
    """A cycle of parent links (``[1, 2, 1]``: 1's parent is 2, 2's is 1), the first found; ``None`` if none.

    ``parents[i]`` is the parent of vertex ``i``, ``-1`` for the root; every other entry is a vertex.
    """
    done: set[int] = set()
    for start in range(len(parents)):
        path: list[int] = []
        on_path: dict[int, int] = {}
        v = start
        while v != -1 and v not in done:
            if v in on_path:
                return path[on_path[v]:] + [v]
            on_path[v] = len(path)
            path.append(v)
            v = parents[v]
        done.update(path)
    return None


def read_graph_file(path: str, directed: bool = True) -> Digraph:
    """An edge-list file readable by networkx (``u v`` or ``u v weight`` per line; ``#`` comments)."""
    import os

    import networkx as nx

    if not os.path.isfile(path):
        raise InvalidInputError(f"graph file {path} does not exist")
    create = nx.DiGraph if directed else nx.Graph
    try:
        g = nx.read_edgelist(path, nodetype=str, create_using=create, data=(("weight", str),))
    except (TypeError, ValueError, IndexError) as e:
        raise InvalidInputError(f"cannot read {path} as an edge list: {e}") from None
    if g.number_of_nodes() == 0:
        raise InvalidInputError(f"graph file {path} has no edges")
    if not all(v.isdigit() for v in g.nodes):  # named vertices: numbered in sorted order, names kept
        weighted = any("weight" in d for _, _, d in g.edges(data=True))
        return Digraph.from_networkx(g, weight="weight" if weighted else None)
    g = nx.relabel_nodes(g, {v: int(v) for v in g.nodes})
    nodes = sorted(g.nodes)
    full = nx.DiGraph() if directed else nx.Graph()
    full.add_nodes_from(range(max(nodes) + 1))
    full.add_edges_from(g.edges(data=True))
    weighted = any("weight" in d for _, _, d in g.edges(data=True))
    return Digraph.from_networkx(full, weight="weight" if weighted else None)
