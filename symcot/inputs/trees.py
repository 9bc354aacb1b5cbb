"""Trees: ordered (plane) trees, labeled trees in Prüfer order, random trees and tree validation.

Two kinds of tree are input families here. A *labeled* tree is a symmetric :class:`Digraph` (both arcs per
edge) plus a root; the DFS dynamic orders the children of a vertex by index. An *ordered* tree is
the tree of a Dyck word (:meth:`OrderedTree.from_dyck`): an :class:`OrderedTree` whose children lists carry
the order and whose vertices are numbered in preorder.

Labeled trees on ``0..n-1`` are enumerated through Prüfer sequences: the tree of rank ``r`` is the
tree whose Prüfer sequence (length ``n-2``, letters ``0..n-1``) spells ``r`` in base ``n``, most
significant letter first.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import networkx as nx

from symcot.errors import InvalidInputError
from symcot.inputs.digraphs import reachable_from
from symcot.inputs.dyck import UP, dyck_words, validate_dyck
from symcot.inputs.graphs import Digraph


def _check_n(n: object) -> int:
    """Return ``n`` if it is an ``int >= 1``; raise :class:`InvalidInputError` otherwise."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise InvalidInputError(f"number of vertices must be an integer, got {n!r}")
    if n < 1:
        raise InvalidInputError(f"a tree needs at least one vertex (n >= 1), got n = {n}")
    return n


def _check_vertex(v: object, n: int, what: str = "vertex") -> int:
    """Return ``v`` if it is a vertex of a graph on ``0..n-1``; raise :class:`InvalidInputError` otherwise."""
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
        raise InvalidInputError(f"{what} {v!r} is not a vertex: vertices are 0..{n - 1}")
    return v


# -- ordered trees -----------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderedTree:
    """An ordered (plane) tree: vertex 0 is the root, ``children[v]`` lists v's children in order.

    Vertices must be numbered in preorder (children visited in stored order), which is the numbering
    ``psi`` produces: each ``U`` creates the next label. Construction validates this.
    """

    children: tuple[tuple[int, ...], ...]
    _parents: tuple[int | None, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            kids = tuple(tuple(c) for c in self.children)
        except TypeError:
            raise InvalidInputError("children must be a sequence of sequences of vertex indices") from None
        object.__setattr__(self, "children", kids)
        n = len(kids)
        if n < 1:
            raise InvalidInputError("an ordered tree needs at least one vertex (the root 0)")
        parents: list[int | None] = [None] * n
        for u, cs in enumerate(kids):
            for v in cs:
                _check_vertex(v, n, f"child of {u}:")
                if v == 0:
                    raise InvalidInputError(f"the root 0 is listed as a child of vertex {u}")
                if parents[v] is not None:
                    raise InvalidInputError(f"vertex {v} is listed as a child of both {parents[v]} and {u}")
                parents[v] = u
        orphans = [v for v in range(1, n) if parents[v] is None]
        if orphans:
            raise InvalidInputError(f"vertices {orphans} have no parent: every non-root vertex needs one")
        order: list[int] = []
        stack = [0]
        while stack:
            u = stack.pop()
            order.append(u)
            stack.extend(reversed(kids[u]))
        if len(order) != n:
            missing = sorted(set(range(n)) - set(order))
            raise InvalidInputError(
                f"vertices {missing} unreachable from the root 0 (their parents form a cycle)"
            )
        if order != list(range(n)):
            raise InvalidInputError(
                f"vertices are not numbered in preorder: the preorder walk gives {order}, expected 0..{n - 1}"
            )
        object.__setattr__(self, "_parents", tuple(parents))

    @property
    def n(self) -> int:
        """Number of vertices."""
        return len(self.children)

    def parent(self, v: int) -> int | None:
        """Return the parent of ``v``, or ``None`` for the root."""
        return self._parents[_check_vertex(v, self.n)]

    def depth(self, v: int) -> int:
        """Return the number of edges on the path from the root to ``v``."""
        _check_vertex(v, self.n)
        d = 0
        p = self._parents[v]
        while p is not None:
            d += 1
            p = self._parents[p]
        return d

    def edges(self) -> list[tuple[int, int]]:
        """Return the ``n - 1`` edges as ``(parent, child)`` pairs, ordered by child (preorder)."""
        return [(p, v) for v, p in enumerate(self._parents) if p is not None]

    def to_digraph(self) -> Digraph:
        """Return the underlying labeled tree as a symmetric :class:`Digraph` (forgetting the order)."""
        return Digraph.undirected(self.n, self.edges())

    @classmethod
    def from_dyck(cls, word: str) -> OrderedTree:
        """``ψ(w)`` of ``lem:bijectionpathtree``: the ordered tree of a Dyck word.

        ``U`` adds the next child of the current vertex and enters it, ``D`` returns to the parent (so the
        vertices are numbered in preorder).
        """
        validate_dyck(word)
        children: list[list[int]] = [[]]
        parent: list[int] = [-1]
        cur = 0
        for c in word:
            if c == UP:
                new = len(children)
                children.append([])
                parent.append(cur)
                children[cur].append(new)
                cur = new
            else:
                cur = parent[cur]
        return cls(tuple(tuple(cs) for cs in children))

    def to_dyck(self) -> str:
        """The contour word: ``U`` down to each child (in stored order), ``D`` back up; the inverse of ψ."""
        out: list[str] = []
        stack: list[tuple[int, int]] = [(0, 0)]  # (vertex, index of the next child to enter)
        while stack:
            v, k = stack[-1]
            if k < len(self.children[v]):
                stack[-1] = (v, k + 1)
                out.append("U")
                stack.append((self.children[v][k], 0))
            else:
                stack.pop()
                if stack:
                    out.append("D")
        return "".join(out)

    @classmethod
    def from_rooted(cls, g: Digraph, root: int) -> OrderedTree:
        """A rooted labeled tree as an ordered tree: children in increasing label order, renumbered in preorder.

        Its contour word (:meth:`to_dyck`) is the word the DFS dynamic spells on ``(g, root)``, lowest index
        first (``φ`` of ``lem:bijectionpathtree``); ``from_rooted(ψ(w).to_digraph(), 0) == ψ(w)``.
        """
        validate_tree(g, root)
        nbrs: list[list[int]] = [[] for _ in range(g.n)]
        for u, v in g.arcs:
            nbrs[u].append(v)
        label: dict[int, int] = {}
        kids: dict[int, list[int]] = {}
        stack: list[tuple[int, int]] = [(root, -1)]
        while stack:
            v, p = stack.pop()
            label[v] = len(label)
            kids[v] = sorted(u for u in nbrs[v] if u != p)
            stack.extend((u, v) for u in reversed(kids[v]))
        children: list[tuple[int, ...]] = [()] * g.n
        for v, cs in kids.items():
            children[label[v]] = tuple(label[u] for u in cs)
        return cls(tuple(children))


def ordered_trees(n: int) -> Iterator[OrderedTree]:
    """Yield the ``catalan(n-1)`` ordered trees on ``n`` vertices: ``ψ(w)`` for ``w`` in order."""
    _check_n(n)
    return (OrderedTree.from_dyck(w) for w in dyck_words(n - 1))


# -- validation ------------------------------------------------------------------------------


def validate_tree(g: Digraph, root: int) -> None:
    """Raise :class:`InvalidInputError` unless ``g`` is a symmetric tree and ``root`` one of its vertices.

    Checked in order: root in range, symmetric arcs, connected (naming the vertices unreachable from
    the root), exactly ``n - 1`` edges (naming a cycle when there are more).
    """
    if not isinstance(g, Digraph):
        raise InvalidInputError(f"a tree is given as a symcot Digraph, got {type(g).__name__}")
    _check_vertex(root, g.n, "root")
    arcs = set(g.arcs)
    for u, v in g.arcs:
        if (v, u) not in arcs:
            raise InvalidInputError(
                f"not a tree: arc {(u, v)} has no reverse {(v, u)}; give trees with both arcs per edge "
                f"(Digraph.undirected)"
            )
    seen = reachable_from(g, root)
    if len(seen) != g.n:
        unreachable = sorted(set(range(g.n)) - seen)
        raise InvalidInputError(
            f"not a tree: disconnected: vertices {{{', '.join(map(str, unreachable))}}} "
            f"unreachable from root {root}"
        )
    m = len(g.arcs) // 2
    if m != g.n - 1:
        cycle = nx.find_cycle(nx.Graph(list(g.arcs)), source=root)
        cyc = " - ".join(str(u) for u, _ in cycle) + f" - {cycle[0][0]}"
        raise InvalidInputError(
            f"not a tree: has a cycle ({cyc}); {m} edges on {g.n} vertices, a tree has {g.n - 1}"
        )


# -- labeled trees via Prüfer sequences ---------------------------------------------------------


def labeled_tree_count(n: int) -> int:
    """Cayley's count ``n^(n-2)`` of labeled trees on ``n`` vertices (1 for ``n = 1``)."""
    _check_n(n)
    return 1 if n <= 2 else n ** (n - 2)


def prufer_decode(n: int, seq: tuple[int, ...] | list[int]) -> Digraph:
    """Decode the Prüfer sequence ``seq`` (length ``n - 2``; empty for ``n <= 2``) into a labeled tree."""
    _check_n(n)
    if len(seq) != max(n - 2, 0):
        raise InvalidInputError(f"a Prüfer sequence for n = {n} has length {max(n - 2, 0)}, got {len(seq)}")
    for i, x in enumerate(seq):
        _check_vertex(x, n, f"Prüfer letter at position {i}:")
    if n == 1:
        return Digraph(1, ())
    degree = [1] * n
    for x in seq:
        degree[x] += 1
    leaves = [v for v in range(n) if degree[v] == 1]
    heapq.heapify(leaves)
    edges: list[tuple[int, int]] = []
    for x in seq:
        leaf = heapq.heappop(leaves)
        edges.append((leaf, x))
        degree[x] -= 1
        if degree[x] == 1:
            heapq.heappush(leaves, x)
    u, v = heapq.heappop(leaves), heapq.heappop(leaves)
    edges.append((u, v))
    return Digraph.undirected(n, edges)


def prufer_sequence(g: Digraph) -> tuple[int, ...]:
    """Return the Prüfer sequence of a labeled tree (strip the smallest leaf, record its neighbour)."""
    validate_tree(g, 0)
    n = g.n
    if n <= 2:
        return ()
    nbrs: list[set[int]] = [set() for _ in range(n)]
    for u, v in g.arcs:
        nbrs[u].add(v)
    leaves = [v for v in range(n) if len(nbrs[v]) == 1]
    heapq.heapify(leaves)
    seq: list[int] = []
    for _ in range(n - 2):
        leaf = heapq.heappop(leaves)
        (x,) = nbrs[leaf]
        seq.append(x)
        nbrs[x].discard(leaf)
        nbrs[leaf].clear()
        if len(nbrs[x]) == 1:
            heapq.heappush(leaves, x)
    return tuple(seq)


def prufer_rank(g: Digraph) -> int:
    """Return the rank of a labeled tree in Prüfer order (its sequence read as a base-``n`` number)."""
    r = 0
    for x in prufer_sequence(g):
        r = r * g.n + x
    return r


def prufer_unrank(n: int, r: int) -> Digraph:
    """Return the labeled tree on ``0..n-1`` of rank ``r`` in Prüfer order."""
    total = labeled_tree_count(n)
    if not isinstance(r, int) or isinstance(r, bool):
        raise InvalidInputError(f"rank must be an integer, got {r!r}")
    if not 0 <= r < total:
        raise InvalidInputError(
            f"rank {r} out of range for labeled trees on {n} vertices: ranks are 0..{total - 1}"
        )
    seq = [0] * max(n - 2, 0)
    for i in range(len(seq) - 1, -1, -1):
        r, seq[i] = divmod(r, n)
    return prufer_decode(n, seq)


def labeled_trees_range(n: int, start: int, stop: int) -> Iterator[Digraph]:
    """Yield the labeled trees on ``n`` vertices with Prüfer rank in ``[start, stop)`` (``stop`` clipped)."""
    total = labeled_tree_count(n)
    for name, x in (("start", start), ("stop", stop)):
        if not isinstance(x, int) or isinstance(x, bool):
            raise InvalidInputError(f"{name} must be an integer, got {x!r}")
    if start < 0:
        raise InvalidInputError(f"start must be >= 0, got {start}")
    return (prufer_unrank(n, r) for r in range(start, min(stop, total)))


def labeled_trees(n: int) -> Iterator[Digraph]:
    """Yield all ``n^(n-2)`` labeled trees on ``0..n-1`` as symmetric Digraphs, in Prüfer-rank order."""
    return labeled_trees_range(n, 0, labeled_tree_count(n))


def rooted_labeled_trees(n: int) -> Iterator[tuple[Digraph, int]]:
    """Yield every ``(tree, root)`` pair on ``n`` vertices, tree rank major, root minor; ``n^(n-1)`` pairs."""
    _check_n(n)
    return ((t, r) for t in labeled_trees(n) for r in range(n))


def random_labeled_tree(n: int, rng: random.Random) -> Digraph:
    """Draw a uniformly random labeled tree on ``0..n-1`` (decoded from a uniform Prüfer sequence)."""
    _check_n(n)
    return prufer_decode(n, [rng.randrange(n) for _ in range(max(n - 2, 0))])
