"""Simple digraphs: exhaustive enumeration (fewest arcs first), random digraphs, reachability checks.

The enumeration order is by number of arcs, then lexicographic on the sorted arc tuple, so the first
counterexample an exhaustive checker meets is one with the fewest arcs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations

from symcot.errors import InvalidInputError
from symcot.inputs.graphs import Digraph


def _check_n(n: object) -> int:
    """Return ``n`` if it is an ``int >= 1``; raise :class:`InvalidInputError` otherwise."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise InvalidInputError(f"number of vertices must be an integer, got {n!r}")
    if n < 1:
        raise InvalidInputError(f"a graph needs at least one vertex (n >= 1), got n = {n}")
    return n


def _ordered_pairs(n: int) -> list[tuple[int, int]]:
    """All ``n(n-1)`` ordered pairs ``(u, v)`` with ``u != v``, sorted."""
    return [(u, v) for u in range(n) for v in range(n) if u != v]


def digraph_count(n: int) -> int:
    """Count the ``2^(n(n-1))`` simple digraphs on the labeled vertex set ``0..n-1``."""
    _check_n(n)
    return 2 ** (n * (n - 1))


def simple_digraphs(n: int) -> Iterator[Digraph]:
    """Yield all ``2^(n(n-1))`` simple digraphs on ``0..n-1``: fewest arcs first, then lexicographic."""
    _check_n(n)
    pairs = _ordered_pairs(n)

    def gen() -> Iterator[Digraph]:
        for k in range(len(pairs) + 1):
            # combinations of a sorted list come in lexicographic order of the chosen tuples
            for arcs in combinations(pairs, k):
                yield Digraph(n, arcs)

    return gen()


def digraphs_with_sources(n: int) -> Iterator[tuple[Digraph, int]]:
    """Yield every ``(digraph, source)`` pair on ``n`` vertices, graph major, source minor."""
    _check_n(n)
    return ((g, s) for g in simple_digraphs(n) for s in range(n))


def random_digraph(n: int, rng: random.Random, p: float = 0.3) -> Digraph:
    """Draw a random simple digraph: each ordered pair ``u != v`` is an arc with probability ``p``."""
    _check_n(n)
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise InvalidInputError(f"arc probability p must be a number in [0, 1], got {p!r}")
    return Digraph(n, tuple(a for a in _ordered_pairs(n) if rng.random() < p))


def reachable_from(g: Digraph, source: int) -> set[int]:
    """Return the set of vertices reachable from ``source`` by directed paths (``source`` included)."""
    if not isinstance(source, int) or isinstance(source, bool) or not 0 <= source < g.n:
        raise InvalidInputError(f"source {source!r} is not a vertex: vertices are 0..{g.n - 1}")
    nbrs: list[list[int]] = [[] for _ in range(g.n)]
    for u, v in g.arcs:
        nbrs[u].append(v)
    seen = {source}
    stack = [source]
    while stack:
        u = stack.pop()
        for v in nbrs[u]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def validate_connected_from(g: Digraph, source: int) -> None:
    """Raise :class:`InvalidInputError` unless every vertex of ``g`` is reachable from ``source``."""
    seen = reachable_from(g, source)
    if len(seen) != g.n:
        unreachable = sorted(set(range(g.n)) - seen)
        raise InvalidInputError(
            f"not connected from source {source}: vertices {{{', '.join(map(str, unreachable))}}} "
            f"are unreachable by directed paths"
        )
