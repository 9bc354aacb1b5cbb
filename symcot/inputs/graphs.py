"""Graph inputs: a small immutable digraph type with validation that names the problem.

Vertices are ``0 .. n-1`` (the paper's ``v_0 .. v_{n-1}``). Arcs are ordered pairs ``(u, v)``; an
undirected graph (a tree, say) is stored with both arcs. Weights, when present, are exact positive
rationals (``int`` or :class:`fractions.Fraction`), aligned with ``arcs``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import cast

import networkx as nx

from symcot.errors import InvalidInputError

Weight = int | Fraction


def _exact_weight(w: object, arc: tuple[int, int]) -> Weight:
    if isinstance(w, bool):
        raise InvalidInputError(f"weight of arc {arc} is a boolean ({w!r}); give a positive number")
    if isinstance(w, int):
        return w
    if isinstance(w, Fraction):
        return w.numerator if w.denominator == 1 else w
    if isinstance(w, float):
        raise InvalidInputError(
            f"weight of arc {arc} is the float {w!r}; symcot is exact: give an int or a Fraction"
        )
    if isinstance(w, str):
        try:
            f = Fraction(w)
        except ValueError:
            raise InvalidInputError(f"weight of arc {arc} is not a number: {w!r}") from None
        return f.numerator if f.denominator == 1 else f
    raise InvalidInputError(f"weight of arc {arc} has unsupported type {type(w).__name__}")


def _vertex(x: object, what: str = "vertex") -> int:
    """An integer from ``int`` or a numpy integer (``np.int64(3)``); anything else is refused clearly."""
    import operator

    if isinstance(x, bool):
        raise InvalidInputError(f"{what} is a boolean ({x!r}); give an integer")
    try:
        return operator.index(x)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidInputError(f"{what} must be an integer, got {x!r} ({type(x).__name__})") from None


def _pairs(arcs: Iterable[object]) -> Iterable[object]:
    """Rows of a numpy array of shape ``(k, 2)`` (exact integers only), or the pairs as given."""
    if hasattr(arcs, "dtype") and hasattr(arcs, "tolist"):
        dtype = getattr(arcs, "dtype")  # noqa: B009 - a numpy array, not typed here
        if dtype.kind not in "iu":
            raise InvalidInputError(f"arcs as a numpy array must hold integers, got dtype {dtype}")
        rows: list[object] = getattr(arcs, "tolist")()  # noqa: B009
        return rows
    return arcs


def _pair(a: object) -> tuple[int, int]:
    try:
        u, v = cast("tuple[object, object]", a)
    except (TypeError, ValueError):
        raise InvalidInputError(f"an arc is a pair (u, v), got {a!r}") from None
    return _vertex(u), _vertex(v)


@dataclass(frozen=True)
class Digraph:
    """A simple directed graph on vertices ``0..n-1`` with optional exact positive weights.

    Construction validates: ``n >= 1``, endpoints in range, no self-loop, no repeated arc, weights
    (if any) exact and ``> 0``. Arcs are kept sorted so equal graphs compare equal.
    """

    n: int
    arcs: tuple[tuple[int, int], ...]
    weights: tuple[Weight, ...] | None = None
    #: The user's names of the vertices (vertex ``i`` is ``labels[i]``), when the graph came from a networkx
    #: graph or an edge list with other names than ``0..n-1``; ``None`` otherwise. Not part of equality.
    labels: tuple[Hashable, ...] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.n, int) or isinstance(self.n, bool):
            raise InvalidInputError(f"number of vertices must be an integer, got {self.n!r}")
        if self.n < 1:
            raise InvalidInputError(f"a graph needs at least one vertex (n >= 1), got n = {self.n}")
        arcs = [tuple(a) for a in self.arcs]
        seen: set[tuple[int, int]] = set()
        for a in arcs:
            self._check_arc(a, seen)
            seen.add(a)  # type: ignore[arg-type]
        if self.weights is not None:
            if len(self.weights) != len(arcs):
                raise InvalidInputError(f"{len(self.weights)} weights given for {len(arcs)} arcs")
            ws = [_exact_weight(w, a) for w, a in zip(self.weights, arcs)]  # type: ignore[arg-type]
            for w, a in zip(ws, arcs):
                if w <= 0:
                    raise InvalidInputError(f"weight of arc {a} is {w}; weights must be positive (> 0)")
            order = sorted(range(len(arcs)), key=lambda i: arcs[i])
            object.__setattr__(self, "arcs", tuple(arcs[i] for i in order))
            object.__setattr__(self, "weights", tuple(ws[i] for i in order))
        else:
            object.__setattr__(self, "arcs", tuple(sorted(arcs)))

    def _check_arc(self, a: tuple[object, ...], seen: set[tuple[int, int]]) -> None:
        """Raise :class:`InvalidInputError` unless ``a`` is a new arc ``(u, v)`` between two vertices, ``u ≠ v``."""
        if len(a) != 2:
            raise InvalidInputError(f"an arc is a pair (u, v), got {a!r}")
        u, v = a
        for x in (u, v):
            if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < self.n:
                raise InvalidInputError(f"arc {a!r} names vertex {x!r}, outside 0..{self.n - 1}")
        if u == v:
            raise InvalidInputError(f"self-loop at vertex {u}: the constructions need a simple graph")
        if a in seen:
            raise InvalidInputError(f"arc {a!r} appears twice: the constructions need a simple graph")

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def from_arcs(cls, n: int, arcs: Iterable[tuple[int, int]]) -> Digraph:
        """Unweighted digraph from ordered pairs (a list of pairs, or a numpy integer array of shape ``(k, 2)``)."""
        return cls(_vertex(n, "number of vertices"), tuple(_pair(a) for a in _pairs(arcs)))

    @classmethod
    def from_weighted_arcs(cls, n: int, arcs: Mapping[tuple[int, int], object]) -> Digraph:
        """Weighted digraph from ``{(u, v): weight}``."""
        items = list(arcs.items())
        return cls(_vertex(n, "number of vertices"), tuple(_pair(a) for a, _ in items),
                   tuple(w for _, w in items))  # type: ignore[misc]

    @classmethod
    def undirected(cls, n: int, edges: Iterable[tuple[int, int]]) -> Digraph:
        """Symmetric digraph (both arcs per edge), as trees are given to the constructions."""
        arcs: list[tuple[int, int]] = []
        for e in _pairs(edges):
            u, v = _pair(e)
            arcs += [(u, v), (v, u)]
        return cls(_vertex(n, "number of vertices"), tuple(arcs))

    @classmethod
    def from_networkx(cls, g: nx.Graph, weight: str | None = None) -> Digraph:
        """From a networkx ``Graph`` or ``DiGraph`` with any hashable node names (undirected: both arcs).

        Nodes ``0..n-1`` keep their numbers. Other names are numbered in sorted order (in the graph's
        node order when they cannot be sorted) and kept in :attr:`labels`; :meth:`vertex` finds a name's
        number, and the graph prints with its names (``Digraph(n=3; 0->1; 0=a, 1=b, 2=c)``).
        """
        nodes = list(g.nodes)
        if not nodes:
            raise InvalidInputError("the networkx graph has no nodes")
        try:
            order = sorted(nodes)
        except TypeError:  # names of mixed types: the graph's own order
            order = nodes
        plain = order == list(range(len(order)))
        index = {v: i for i, v in enumerate(order)}
        arcs: dict[tuple[int, int], object] = {}
        for u, v, data in g.edges(data=True):
            if u == v:
                raise InvalidInputError(f"self-loop at node {u!r}: the constructions need a simple graph")
            w = data.get(weight, 1) if weight else 1
            arcs[(index[u], index[v])] = w
            if not g.is_directed():
                arcs[(index[v], index[u])] = w
        labels = None if plain else tuple(order)
        if weight:
            base = cls.from_weighted_arcs(len(order), arcs)
        else:
            base = cls.from_arcs(len(order), arcs)
        return cls(base.n, base.arcs, base.weights, labels) if labels else base

    def vertex(self, name: Hashable) -> int:
        """The number of the vertex called ``name`` (a vertex number itself when the graph has no names)."""
        if self.labels is None:
            if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < self.n:
                return name
            raise InvalidInputError(f"{name!r} is not a vertex of a graph on 0..{self.n - 1}")
        try:
            return self.labels.index(name)
        except ValueError:
            raise InvalidInputError(f"{name!r} is not a vertex; the vertices are "
                                    f"{', '.join(map(repr, self.labels[:10]))}") from None

    def mapping(self) -> dict[Hashable, int]:
        """``{name: number}`` of the vertices (``{i: i}`` without names)."""
        return {(self.labels[i] if self.labels else i): i for i in range(self.n)}

    # -- queries ------------------------------------------------------------------------------
    @property
    def weighted(self) -> bool:
        """Whether the graph carries weights."""
        return self.weights is not None

    def adjacency(self) -> list[list[Weight]]:
        """The ``n x n`` matrix ``A`` with ``A[u][v]`` = weight (1 if unweighted) or 0 without an arc."""
        a: list[list[Weight]] = [[0] * self.n for _ in range(self.n)]
        ws = self.weights if self.weights is not None else (1,) * len(self.arcs)
        for (u, v), w in zip(self.arcs, ws):
            a[u][v] = w
        return a

    def out_arcs(self) -> tuple[tuple[tuple[int, Weight], ...], ...]:
        """Per vertex ``u``, its out-arcs ``(v, weight)`` (weight 1 if unweighted) in increasing ``v``."""
        out: list[list[tuple[int, Weight]]] = [[] for _ in range(self.n)]
        ws = self.weights if self.weights is not None else (1,) * len(self.arcs)
        for (u, v), w in zip(self.arcs, ws):
            out[u].append((v, w))
        return tuple(tuple(o) for o in out)

    def out_neighbors(self, u: int) -> list[int]:
        """Out-neighbours of ``u`` in increasing index order."""
        return list(self._out[u]) if 0 <= u < self.n else []

    @cached_property
    def _out(self) -> tuple[tuple[int, ...], ...]:
        """Every vertex's out-neighbours, sorted (computed once: the graph is immutable)."""
        out: list[list[int]] = [[] for _ in range(self.n)]
        for u, v in self.arcs:
            out[u].append(v)
        return tuple(tuple(sorted(o)) for o in out)

    def weight(self, u: int, v: int) -> Weight | None:
        """Weight of arc ``(u, v)`` (1 if unweighted), or ``None`` without such an arc."""
        for i, a in enumerate(self.arcs):
            if a == (u, v):
                return 1 if self.weights is None else self.weights[i]
        return None

    def is_symmetric(self) -> bool:
        """Whether every arc has its reverse (an undirected graph)."""
        s = set(self.arcs)
        return all((v, u) in s for (u, v) in s)

    def to_networkx(self) -> nx.DiGraph:
        """A networkx ``DiGraph``; arcs inserted in increasing order, ``weight`` attribute set."""
        g = nx.DiGraph()
        g.add_nodes_from(range(self.n))
        ws = self.weights if self.weights is not None else (1,) * len(self.arcs)
        for (u, v), w in zip(self.arcs, ws):
            g.add_edge(u, v, weight=w)
        return g

    def __str__(self) -> str:
        if self.weights is None:
            body = ", ".join(f"{u}->{v}" for u, v in self.arcs)
        else:
            body = ", ".join(f"{u}->{v}:{w}" for (u, v), w in zip(self.arcs, self.weights))
        names = "" if self.labels is None else "; " + ", ".join(f"{i}={v}" for i, v in enumerate(self.labels))
        return f"Digraph(n={self.n}; {body}{names})"
