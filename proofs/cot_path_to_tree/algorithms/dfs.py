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
from typing import Any, Literal

from symcot.algorithms.transition import Aux, Index, Run, StateVar, Transition, extend, run
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


#: The vertices ``0 … n - 1``, the range of ``vst``, ``par`` and the traverse's choice.
VERTEX = Index("vertex", lambda g: g.n)


def _step(o: Any, g: Any, s: Any) -> dict[str, Any]:
    """One step of eq:dfsdynamic: traverse to the lowest-index unvisited out-neighbour, else backtrack."""
    nxt = o.lowest("nxt", lambda j: o.and_(g.adj(s.cur, j), o.not_(o.at(s.vis, j, False))))
    tr = o.let("tr", nxt != -1)
    return {"cur": o.ite(tr, nxt, o.at(s.par, s.cur)),
            "vis": o.put(s.vis, nxt, True),
            "par": o.put(s.par, nxt, s.cur)}


#: eq:dfsdynamic, the one statement of the algorithm: ``dfs^(0)(s) = s``, ``vst^(0) = {s}``, ``par^(0) = φ``;
#: a step traverses (``par(v_j) := dfs^(t-1)(s)``, ``vst(v_j) := 1``) or backtracks (``dfs^(t)(s) =
#: par(dfs^(t-1)(s))``); the run ends with the backtrack from ``s`` into φ. Input symbols: ``n``, ``src``,
#: ``adj(i, j)``.
DFS = Transition(
    "eq:dfsdynamic",
    (StateVar("cur", doc="dfs^(τ)(s); -1 is φ", result="vertex"),
     StateVar("vis", "bool", VERTEX, "vst^(τ)(v) = 1"),
     StateVar("par", "int", VERTEX, "par^(τ)(v); -1 is φ", result="vertex")),
    init=lambda o, g: {"cur": g.src, "vis": o.array(VERTEX, lambda v: v == g.src),
                       "par": o.array(VERTEX, lambda v: -1)},
    step=_step,
    running=lambda o, g, s: s.cur != -1,
    bound=lambda g: 2 * g.n + 1,
    aux=(Aux("nxt", "lowest", doc="the vertex a traverse at τ moves to (lowest-index unvisited out-neighbour)",
             over=VERTEX),
         Aux("tr", "let", "bool", doc="the move from τ to τ + 1 is a traverse")),
)


#: The traversal's stack, carried along the run (what a count of its moves reads): the depth ``dep`` of the current
#: vertex on the stack (``-1`` after the backtrack from ``s``), the depth ``lvl(v)`` at which ``v`` was traversed to,
#: and whether ``v`` is ``done`` (backtracked from).
STACK_STATE = (
    StateVar("dep", doc="the depth of dfs^(τ)(s) on the stack: +1 per traverse, -1 per backtrack, from 0"),
    StateVar("lvl", "int", VERTEX, "the depth v was traversed to at (0 for s and while unvisited)"),
    StateVar("done", "bool", VERTEX, "v has been backtracked from"),
)


def _stack_init(o: Any, g: Any) -> dict[str, Any]:
    return {"dep": 0, "lvl": o.array(VERTEX, lambda v: 0), "done": o.array(VERTEX, lambda v: False)}


def _stack_step(o: Any, g: Any, s: Any, new: Any) -> dict[str, Any]:
    """A traverse to ``nxt`` pushes it at depth ``dep + 1``; a backtrack pops the current vertex, which is done."""
    tr = o.get("tr")
    return {"dep": o.ite(tr, s.dep + 1, s.dep - 1),
            "lvl": o.put(s.lvl, o.get("nxt"), s.dep + 1),
            "done": o.put(s.done, o.ite(tr, -1, s.cur), True)}


#: :data:`DFS` with its stack: the same run, and the counters a proof of its length reads (``dfstree_facts``).
DFS_STACK = extend(DFS, "eq:dfsdynamic with its stack", STACK_STATE, _stack_init, _stack_step)


@dataclass(frozen=True)
class DfsInput:
    """The input's symbols: ``n``, the source ``src``, ``adj(i, j)`` (``a_ij = 1``; false outside the range)."""

    n: int
    src: int
    rows: tuple[tuple[int, ...], ...]

    def adj(self, i: int, j: int) -> bool:
        """``a_ij = 1``."""
        return 0 <= i < self.n and 0 <= j < self.n and bool(self.rows[i][j])


def dfs_input(g: Digraph, source: int) -> DfsInput:
    """The symbols of ``(g, source)`` (checked: ``source`` is a vertex)."""
    s = _check_source(g, source)
    return DfsInput(g.n, s, tuple(tuple(int(x != 0) for x in r) for r in g.adjacency()))


def states_of(r: Run) -> list[DfsState]:
    """The run's states as :class:`DfsState` (``-1`` becomes ``None``, the visited flags a set)."""
    out = []
    for t, st in enumerate(r.states):
        move: Move = "init" if t == 0 else ("traverse" if r.aux[t - 1]["tr"] else "backtrack")
        cur = None if st["cur"] == -1 else st["cur"]
        par = tuple(None if p == -1 else p for p in st["par"])
        out.append(DfsState(t, cur, par, frozenset(v for v, x in enumerate(st["vis"]) if x), move))
    return out


def dfs_dynamic(g: Digraph, source: int) -> list[DfsState]:
    """Run the DFS dynamic (:data:`DFS`) from ``source``: all states, from ``init`` to the backtrack from ``source``.

    The list has ``2 * (r - 1) + 2`` states, ``r`` the number of vertices reachable from ``source``:
    the initial state, one traverse into and one backtrack out of each other reachable vertex, and
    the final backtrack from ``source`` (whose ``cur`` is ``None``).
    """
    return states_of(run(DFS, dfs_input(g, source)))


def dfs_moves(g: Digraph, source: int) -> str:
    """Spell the DFS moves as ``U`` (traverse) / ``D`` (backtrack), leaving out the final backtrack from s."""
    states = dfs_dynamic(g, source)
    return "".join("U" if st.move == "traverse" else "D" for st in states[1:-1])
