"""Weighted inputs for shortest paths: connected digraphs × weights × sources, with counts.

"Connected" is read as *every vertex reachable from the source by a directed path*: that is what
a shortest-path dynamic needs to visit all ``n`` vertices in ``n - 1`` steps (a weakly connected digraph does not give
it).

Enumeration order (so an exhaustive checker meets the smallest counterexample first): the digraph
(fewest arcs first, then lexicographic, as :func:`symcot.inputs.simple_digraphs`), then the source,
then the weight assignment (lexicographic over the arcs in sorted order).

Counts come from an inclusion–exclusion recurrence that does not enumerate: with ``c`` weight choices
per arc, ``T(n) = (1 + c)^{n(n-1)}`` weighted digraphs split by the set ``S ∋ 0`` reachable from vertex
0 (``|S| = k``): ``T(n) = Σ_k C(n-1, k-1) R(k) (1 + c)^{(n-k)k + (n-k)(n-k-1)}``, where ``R(k)`` counts
those with every vertex reachable from 0. By symmetry there are ``n R(n)`` (digraph, source) pairs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

from symcot.errors import InvalidInputError
from symcot.inputs.digraphs import reachable_from, simple_digraphs
from symcot.inputs.graphs import Digraph

#: The weight range of the exhaustive family the brief asks for.
SMALL_WEIGHTS: tuple[int, ...] = (1, 2, 3)


def _check_n(n: object) -> int:
    if not isinstance(n, int) or isinstance(n, bool):
        raise InvalidInputError(f"number of vertices must be an integer, got {n!r}")
    if n < 1:
        raise InvalidInputError(f"a graph needs at least one vertex (n >= 1), got n = {n}")
    return n


@cache
def _rooted_connected(n: int, c: int) -> int:
    """``R(n)``: digraphs on ``0..n-1`` with every vertex reachable from 0, each arc counted ``c`` times."""
    total = (1 + c) ** (n * (n - 1))
    others = sum(comb(n - 1, k - 1) * _rooted_connected(k, c) * (1 + c) ** ((n - k) * k + (n - k) * (n - k - 1))
                 for k in range(1, n))
    return total - others


def connected_count(n: int, weight_choices: int = 1) -> int:
    """How many (digraph, source) pairs on ``n`` vertices have every vertex reachable from the source.

    ``weight_choices`` weights each arc (3 for weights in ``{1, 2, 3}``): the count of
    (weighted digraph, source) pairs.
    """
    _check_n(n)
    if not isinstance(weight_choices, int) or weight_choices < 1:
        raise InvalidInputError(f"weight_choices must be a positive integer, got {weight_choices!r}")
    return n * _rooted_connected(n, weight_choices)


def connected_digraphs_with_sources(n: int) -> Iterator[tuple[Digraph, int]]:
    """Every unweighted (BFS: ``A = {1, ∞}``) digraph and source with all vertices reachable from it."""
    _check_n(n)
    return ((g, s) for g in simple_digraphs(n) for s in range(n) if len(reachable_from(g, s)) == n)


def weighted_digraphs_with_sources(n: int, weights: Sequence[int | Fraction] = SMALL_WEIGHTS
                                   ) -> Iterator[tuple[Digraph, int]]:
    """Every (digraph, source) connected from the source, with every weight assignment from ``weights``."""
    _check_n(n)
    ws = tuple(weights)
    if not ws or any(isinstance(w, (bool, float)) or not w > 0 for w in ws):
        raise InvalidInputError(f"weights must be exact positive numbers, got {ws!r}")

    def gen() -> Iterator[tuple[Digraph, int]]:
        for g, s in connected_digraphs_with_sources(n):
            for assignment in product(ws, repeat=len(g.arcs)):
                yield Digraph(n, g.arcs, assignment), s

    return gen()


def weighted_universe(n: int, weights: Sequence[int | Fraction] = SMALL_WEIGHTS) -> Iterator[tuple[Digraph, int]]:
    """Every simple digraph (reachable or not) with every weight assignment from ``weights`` and every source.

    The candidates among which :func:`weighted_digraphs_with_sources` are the ones every vertex is reachable in.
    """
    _check_n(n)
    ws = tuple(weights)
    return ((Digraph(n, g.arcs, assignment), s) for g in simple_digraphs(n)
            for assignment in product(ws, repeat=len(g.arcs)) for s in range(n))


def weighted_universe_count(n: int, weight_choices: int = len(SMALL_WEIGHTS)) -> int:
    """How many :func:`weighted_universe` yields: ``n·(1 + c)^(n(n-1))`` for ``c`` weights."""
    _check_n(n)
    return n * (1 + weight_choices) ** (n * (n - 1))


def random_weighted_digraph(n: int, rng: random.Random, p: float = 0.3, max_num: int = 20,
                            max_den: int = 6) -> tuple[Digraph, int]:
    """A random digraph connected from a random source, with exact rational weights in ``(0, max_num]``.

    A random arborescence from the source guarantees reachability; every other ordered pair is an arc
    with probability ``p``. Each weight is ``Fraction(randint(1, max_num), randint(1, max_den))``.
    """
    _check_n(n)
    s = rng.randrange(n)
    order = [v for v in range(n) if v != s]
    rng.shuffle(order)
    placed = [s]
    arcs: set[tuple[int, int]] = set()
    for v in order:
        arcs.add((rng.choice(placed), v))
        placed.append(v)
    for u in range(n):
        for v in range(n):
            if u != v and (u, v) not in arcs and rng.random() < p:
                arcs.add((u, v))
    arc_list = sorted(arcs)
    ws = [Fraction(rng.randint(1, max_num), rng.randint(1, max_den)) for _ in arc_list]
    return Digraph(n, tuple(arc_list), tuple(ws)), s


def validate_weighted(g: Digraph, source: object) -> int:
    """Check a weighted shortest-path input (a digraph and a source) and return ``source``.

    The domain is a simple digraph (no self-loop, no repeated arc) with positive exact weights, in
    which every vertex is reachable from ``source`` by a directed path. That is our reading of
    "simple connected directed graph": it is exactly what the run of ``n - 1`` steps needs.
    Checked: a symcot ``Digraph`` (which itself refuses self-loops, repeated arcs and weights ``≤ 0``),
    a source in range, exact positive weights, and every vertex reachable from the source.

    Raises:
        InvalidInputError: naming the problem.

    """
    if not isinstance(g, Digraph):
        raise InvalidInputError(f"a weighted input is a symcot Digraph, got {type(g).__name__}")
    if not isinstance(source, int) or isinstance(source, bool) or not 0 <= source < g.n:
        raise InvalidInputError(f"source {source!r} is not a vertex: vertices are 0..{g.n - 1}")
    for (u, v) in g.arcs:
        if u == v:  # Digraph already refuses these; kept for inputs built around it
            raise InvalidInputError(f"self-loop at vertex {u}: a weighted input is a simple graph")
    for (u, v), w in zip(g.arcs, g.weights or ()):
        if isinstance(w, float) or not w > 0:
            raise InvalidInputError(f"weight of arc {(u, v)} is {w!r}; weights must be exact and positive (> 0)")
    seen = reachable_from(g, source)
    if len(seen) != g.n:
        missing = sorted(set(range(g.n)) - seen)
        raise InvalidInputError(
            f"not connected from source {source}: vertices {{{', '.join(map(str, missing))}}} are unreachable "
            "by directed paths, and the run needs every vertex reachable (n - 1 steps)"
        )
    return source


def describe(inp: tuple[Digraph, int]) -> dict[str, object]:
    """JSON description of a (weighted graph, source) input: arcs, weights (``"p/q"``), text."""
    g, s = inp
    ws = list(g.weights) if g.weights is not None else [1] * len(g.arcs)
    return {"n": g.n, "arcs": [list(a) for a in g.arcs],
            "weights": [w if isinstance(w, int) or w.denominator != 1 else int(w) for w in ws],
            "source": s, "text": f"{g}, source {s}"}


def weight_name(u: int, v: int) -> str:
    """The symbol of the weight of arc ``(u, v)``: ``w[u,v]``."""
    return f"w[{u},{v}]"


def symbolic_weights(g: Digraph, make_var: Callable[[str], object]) -> Digraph:
    """``g``'s topology with the weight of arc ``(u, v)`` replaced by the symbol ``make_var(w[u,v])``.

    The digraph's own validation accepts exact numbers only; the symbolic weights are attached after it
    (the topology itself is validated as usual).
    """
    out = Digraph(g.n, g.arcs)
    object.__setattr__(out, "weights", tuple(make_var(weight_name(u, v)) for u, v in out.arcs))
    return out
