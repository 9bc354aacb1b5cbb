"""The paper's DFS dynamic, eq. (dfsdynamic) of Section 2, written from its definition.

State ``t`` is the instantaneous description ``(dfs^(t)(s), par^(t), vst^(t))``. From ``t - 1`` to ``t``:
if the current vertex has an out-neighbour not yet visited, *traverse* to the lowest-index one
``v_j`` (``par(v_j)`` := current, ``v_j`` becomes visited); otherwise *backtrack* to the current
vertex's parent, with ``par`` and ``vst`` unchanged. The run ends with the backtrack from ``s``, whose
parent is ``phi`` (``None`` here). The paper leaves the choice among several unvisited neighbours
open; this module takes the lowest index, which is what the constructions realize.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from symcot.errors import InvalidInputError
from symcot.inputs.graphs import Digraph

Move = Literal["init", "traverse", "backtrack"]


@dataclass(frozen=True)
class DfsState:
    """One instantaneous description of the DFS dynamic.

    Attributes:
        t: the step index (0 for the initial state).
        cur: ``dfs^(t)(s)``, the current vertex; ``None`` is ``phi``, reached by backtracking from ``s``.
        par: the whole map ``par^(t)``; ``par[v] is None`` means ``phi``.
        vst: the visited set ``{v : vst^(t)(v) = 1}``.
        move: how this state was reached (``"init"`` for state 0).

    """

    t: int
    cur: int | None
    par: tuple[int | None, ...]
    vst: frozenset[int]
    move: Move

    @property
    def has_cur(self) -> bool:
        """``dfs^(t)(s) ≠ φ``."""
        return self.cur is not None

    @property
    def par_cur(self) -> int | None:
        """``par^(t)(dfs^(t)(s))``, the parent of the current vertex (``None``: φ, or no current vertex)."""
        return None if self.cur is None else self.par[self.cur]

    @property
    def step_sign(self) -> int:
        """The letter of ``φ`` this move writes: ``+1`` (traverse, ``U``), ``-1`` (backtrack, ``D``), 0 at ``t = 0``."""
        return {"init": 0, "traverse": 1, "backtrack": -1}[self.move]


def _check_source(g: Digraph, source: object) -> int:
    """Return ``source`` if it is a vertex of ``g``; raise :class:`InvalidInputError` otherwise."""
    if not isinstance(g, Digraph):
        raise InvalidInputError(f"the graph must be a symcot Digraph, got {type(g).__name__}")
    if not isinstance(source, int) or isinstance(source, bool) or not 0 <= source < g.n:
        raise InvalidInputError(f"source {source!r} is not a vertex: vertices are 0..{g.n - 1}")
    return source


def dfs_dynamic(g: Digraph, source: int) -> list[DfsState]:
    """Run the DFS dynamic from ``source``: all states, from ``init`` to the backtrack from ``source``.

    The list has ``2 * (r - 1) + 2`` states, ``r`` the number of vertices reachable from ``source``:
    the initial state, one traverse into and one backtrack out of each other reachable vertex, and
    the final backtrack from ``source`` (whose ``cur`` is ``None``).
    """
    s = _check_source(g, source)
    nbrs = [g.out_neighbors(u) for u in range(g.n)]  # increasing index order
    par: tuple[int | None, ...] = (None,) * g.n
    vst: frozenset[int] = frozenset({s})
    states = [DfsState(0, s, par, vst, "init")]
    cur: int | None = s
    t = 0
    while cur is not None:
        t += 1
        unvisited = [v for v in nbrs[cur] if v not in vst]
        if unvisited:
            v = unvisited[0]  # the lowest-index unvisited out-neighbour
            par = par[:v] + (cur,) + par[v + 1 :]
            vst = vst | {v}
            cur = v
            states.append(DfsState(t, cur, par, vst, "traverse"))
        else:
            cur = par[cur]
            states.append(DfsState(t, cur, par, vst, "backtrack"))
    return states


def dfs_moves(g: Digraph, source: int) -> str:
    """Spell the DFS moves as ``U`` (traverse) / ``D`` (backtrack), leaving out the final backtrack from s."""
    states = dfs_dynamic(g, source)
    return "".join("U" if st.move == "traverse" else "D" for st in states[1:-1])
