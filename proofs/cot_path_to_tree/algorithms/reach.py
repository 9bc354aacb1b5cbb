r"""Reachability from the source in first-order form: a breadth-first tree ``hop``/``pre``, for every vocabulary.

"Every vertex is reachable from ``s``" is not first-order, but it is equivalent to the existence of a breadth-first
tree: ``hop(s) = 0``, and every ``v ≠ s`` has ``1 ≤ hop(v) ≤ n - 1`` and an arc ``(pre(v), v)`` from a vertex with
``hop(pre(v)) = hop(v) - 1`` (following ``pre`` from ``v`` reaches ``s`` in ``hop(v)`` arcs; conversely the BFS
from ``s`` gives ``hop``, ``pre``). A proof that something holds at every reachable vertex inducts on ``h`` over
:data:`HOPS` along ``pre``. Read by the Dijkstra/BFS vocabulary (Section 2.1's domain) and by the tree domain of
the DFS vocabulary (a tree ``G_T`` is reachable from its root).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from proofs.cot_path_to_tree.algorithms.dfs_facts import valid
from symcot.algorithms.logic import Sig, Var

#: ``hop`` and ``pre``, the breadth-first tree's symbols.
SYMBOLS = (
    Sig("hop", 1, "int", "the number of arcs on a shortest directed path from s to v", ("vertex",)),
    Sig("pre", 1, "int", "the vertex before v on such a path (-1 for s)", ("vertex",), "vertex"),
)

#: ``h`` over the path lengths ``0 … n - 1``.
HOPS = Var("h", lambda c, *_: 0, lambda c, *_: c.n - 1, "hops")


def reachable(arc: str) -> Callable[[Any, Any], Any]:
    """The domain fact's body at ``v``, with the arcs read from the symbol ``arc`` (``arc(i, j)`` or ``adj(i, j)``)."""

    def body(c: Any, v: Any) -> Any:
        before = c.pre(v)
        return c.and_(0 <= c.hop(v), c.hop(v) <= c.n - 1, (c.hop(v) == 0) == (v == c.src),
                      c.implies(v != c.src, c.and_(valid(c, before), getattr(c, arc)(before, v),
                                                   c.hop(before) == c.hop(v) - 1)))

    return body


def breadth_first(n: int, src: int, arc: Callable[[int, int], Any]) -> dict[str, Callable[[int], int]]:
    """``hop`` and ``pre`` of a breadth-first search from ``src`` (out-neighbours in index order).

    A vertex it does not reach (outside the domain) has ``hop = -1``.
    """
    hop, pre = {src: 0}, {src: -1}
    queue = deque([src])
    while queue:
        u = queue.popleft()
        for v in range(n):
            if arc(u, v) and v not in hop:
                hop[v], pre[v] = hop[u] + 1, u
                queue.append(v)
    return {"hop": lambda v: hop.get(v, -1), "pre": lambda v: pre.get(v, -1)}
