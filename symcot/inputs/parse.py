"""Parsing inputs typed on the command line, with errors that name the problem."""

from __future__ import annotations

import re

from symcot.errors import InvalidInputError
from symcot.inputs.graphs import Digraph

_ARC = re.compile(r"^\s*(\d+)\s*(->|-|>)\s*(\d+)\s*(?::\s*([0-9/]+))?\s*$")


def parse_graph(text: str, n: int | None = None) -> Digraph:
    """Parse ``"0->1, 1->2"`` (arcs), ``"0-1, 1-2"`` (undirected edges: both arcs), optional ``:w`` weights.

    ``n`` defaults to one more than the largest vertex named.
    """
    items = [s for part in text.replace(";", ",").split(",") for s in [part] if s.strip()]
    arcs: dict[tuple[int, int], object] = {}
    weighted = False
    for it in items:
        m = _ARC.match(it)
        if not m:
            raise InvalidInputError(f"cannot read {it.strip()!r} as an arc: write u->v, or u-v for an undirected edge")
        u, kind, v, w = int(m.group(1)), m.group(2), int(m.group(3)), m.group(4)
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
