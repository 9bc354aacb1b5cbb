"""The Dijkstra dynamic ``Dkst^(t)`` of Section 2.1, BFS as its ``{1, ∞}`` case, and tree width.

Written from the paper's definitions (Section 2.1, "Dijkstra Algorithm"; Section 2.2, the definition
of ``wd`` and ``obs:dynamicwidbfs``), not from any construction.

*Dijkstra.* ``Dkst^(t) = (Dist^(t), cur^(t), vst^(t))``. Initially ``cur^(0) = v_p``,
``Dist^(0)[p] = 0``, ``Dist^(0)[i] = ∞`` otherwise, ``vst^(0) = {v_p}``. From ``t`` to ``t + 1`` with
``cur^(t) = v_i``: relax every ``v_j`` by ``Dist^(t+1)[j] = min(Dist^(t)[j], Dist^(t)[i] + a_ij)``
(``a_ij = ∞`` when there is no arc, ``a_ii = ∞`` since the graph is simple); select
``cur^(t+1) = argmin_j {Dist^(t+1)[j] | vst^(t)(v_j) = 0}``, the *lowest index* among ties (what the
unique-hard-attention decoder realizes); mark it visited. The run has exactly ``n - 1`` transitions.

*BFS.* The paper's special case ``A = {1, ∞}``: every arc has weight 1.

*Width.* ``dep(v)`` is the number of edges on the unique root–``v`` path; ``wd(G_T) = max_k |{v :
dep(v) = k}|``. :func:`width_levels` computes it from that definition, :func:`bfs_levels` by an
ordinary queue BFS (an independent route, for cross-checks).

*The twd/mwd augmentation of obs:dynamicwidbfs.* :func:`width_dynamic` evaluates the Observation's
set-count definition of ``twd^(t)`` and ``mwd^(t) = max_{t' < t} twd^(t')`` literally
(``reading="as-written"``), or with the two repairs documented in docs/errata/dijkstra-width.md.
:data:`WIDTH_BFS` states the update rule the Observation derives (same depth: count + 1; one deeper:
reset to 1; ``mwd`` the running maximum, the piecewise form of ``lem:widsupffn``) once, as a transition
extending ``Dkst``; :func:`width_update_rule` folds it along a run's states.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from symcot.algorithms.transition import Aux, Index, PyOps, StateVar, StateView, Transition, extend, run
from symcot.errors import InvalidInputError
from symcot.inputs.graphs import Digraph
from symcot.inputs.trees import validate_tree
from symcot.inputs.weighted import validate_weighted


class _Infinity:
    """The paper's ``∞``: larger than every number, absorbing under ``+``; a singleton."""

    _instance: _Infinity | None = None

    def __new__(cls) -> _Infinity:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    #: Marks the value an encoding writes as ``λ`` (:func:`symcot.constructions.encoding.vector`).
    is_infinite = True

    def __repr__(self) -> str:
        return "∞"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return other is self

    def __hash__(self) -> int:
        return hash("symcot-infinity")

    def __lt__(self, other: object) -> bool:
        return False

    def __le__(self, other: object) -> bool:
        return other is self

    def __gt__(self, other: object) -> bool:
        return other is not self

    def __ge__(self, other: object) -> bool:
        return True

    def __add__(self, other: object) -> _Infinity:
        return self

    __radd__ = __add__


#: ``∞``: the tentative distance of a vertex not reached yet, and the weight of an absent arc.
INF = _Infinity()

Value = int | Fraction | _Infinity


@dataclass(frozen=True)
class DkstState:
    """One instantaneous description ``Dkst^(t) = (Dist^(t), cur^(t), vst^(t))``.

    Attributes:
        t: the step (0 for the initial state).
        dist: ``Dist^(t)``, exact numbers and :data:`INF`.
        cur: ``cur^(t)``, the vertex visited last.
        vst: ``{v : vst^(t)(v) = 1}``.

    """

    t: int
    dist: tuple[Value, ...]
    cur: int
    vst: frozenset[int]

    @property
    def dist_cur(self) -> Value:
        """``Dist^(t)[cur^(t)]``: the distance of the vertex visited last."""
        return self.dist[self.cur]


def validate_dijkstra_input(g: Digraph, source: object) -> int:
    """Check the domain of ``Dkst`` and return ``source`` (:func:`symcot.inputs.weighted.validate_weighted`).

    Raises:
        InvalidInputError: naming the problem (not a Digraph, bad source, self-loop, weight ``≤ 0``,
            vertices unreachable from the source).

    """
    return validate_weighted(g, source)


def weight_matrix(g: Digraph) -> list[list[Value]]:
    """``a_ij``: the arc's weight (1 when unweighted), :data:`INF` without an arc, ``a_ii = INF``."""
    a: list[list[Value]] = [[INF] * g.n for _ in range(g.n)]
    ws = g.weights if g.weights is not None else (1,) * len(g.arcs)
    for (u, v), w in zip(g.arcs, ws):
        a[u][v] = w
    return a


#: The vertices ``0 … n - 1``: the range of ``Dist``, ``vst`` and the selection.
VERTEX = Index("vertex", lambda g: g.n)


def _step(o: Any, g: Any, s: Any) -> dict[str, Any]:
    """``Dkst^(t) → Dkst^(t+1)``: relax every ``v_j`` from ``cur = v_i``, select the argmin, mark it visited.

    ``Dist[j] = min(Dist[j], Dist[i] + a_ij)``: the candidate replaces ``Dist[j]`` when there is an arc and
    ``Dist[j] = ∞`` or the candidate is strictly smaller (``min`` keeps ``Dist[j]`` on a tie). The selection is
    the least ``Dist`` among the unvisited vertices with ``Dist ≠ ∞``, the lowest index among ties.
    """
    i = s.cur
    d_i = o.at(s.dist, i, 0)
    better = o.array(VERTEX, lambda j: o.and_(g.arc(i, j), o.or_(o.not_(o.at(s.fin, j, False)),
                                                                  o.lt(d_i + g.w(i, j), o.at(s.dist, j, 0)))))
    dist = o.array(VERTEX, lambda j: o.ite(o.at(better, j, False), d_i + g.w(i, j), o.at(s.dist, j, 0)))
    fin = o.array(VERTEX, lambda j: o.or_(o.at(s.fin, j, False), o.at(better, j, False)))
    sel = o.argmin("sel", lambda j: o.and_(o.not_(o.at(s.vis, j, False)), o.at(fin, j, False)),
                   lambda j: o.at(dist, j, 0))
    return {"t": s.t + 1, "cur": sel, "dist": dist, "fin": fin, "vis": o.put(s.vis, sel, True)}


#: ``Dkst`` (Section 2.1), the one statement of the algorithm: ``Dist`` is ``dist`` where ``fin`` (``∞``
#: elsewhere); ``n - 1`` transitions. Input symbols: ``n``, ``src``, ``arc(i, j)`` and its weight ``w(i, j)``.
DIJKSTRA = Transition(
    "Dkst",
    (StateVar("t", doc="the step"),
     StateVar("cur", doc="cur^(t), the vertex visited last", result="vertex"),
     StateVar("dist", "int", VERTEX, "Dist^(t)[v] where it is finite"),
     StateVar("fin", "bool", VERTEX, "Dist^(t)[v] ≠ ∞"),
     StateVar("vis", "bool", VERTEX, "vst^(t)(v) = 1")),
    init=lambda o, g: {"t": 0, "cur": g.src, "dist": o.array(VERTEX, lambda v: 0),
                       "fin": o.array(VERTEX, lambda v: v == g.src), "vis": o.array(VERTEX, lambda v: v == g.src)},
    step=_step,
    running=lambda o, g, s: s.t < g.n - 1,
    bound=lambda g: g.n,
    aux=(Aux("sel", "argmin", doc="the unvisited vertex of least finite Dist, lowest index among ties",
             over=VERTEX),),
)


@dataclass(frozen=True)
class WeightedInput:
    """The input's symbols: ``n``, ``src``, ``arc(i, j)`` and ``w(i, j)`` (the arc's weight, 0 without an arc)."""

    n: int
    src: int
    weights: tuple[tuple[Any, ...], ...]
    arcs: frozenset[tuple[int, int]]

    def arc(self, i: int, j: int) -> bool:
        """An arc ``(v_i, v_j)``."""
        return (i, j) in self.arcs

    def w(self, i: int, j: int) -> Any:
        """``a_ij`` where there is an arc."""
        return self.weights[i][j] if 0 <= i < self.n and 0 <= j < self.n else 0


def weighted_input(g: Digraph, source: int) -> WeightedInput:
    """The symbols of ``(g, source)``: the weights as the digraph carries them (1 when unweighted)."""
    rows: list[list[Any]] = [[0] * g.n for _ in range(g.n)]
    ws = g.weights if g.weights is not None else (1,) * len(g.arcs)
    for (u, v), w in zip(g.arcs, ws):
        rows[u][v] = w
    return WeightedInput(g.n, source, tuple(tuple(r) for r in rows), frozenset(g.arcs))


def dkst_state(st: dict[str, Any]) -> DkstState:
    """A state of :data:`DIJKSTRA` as :class:`DkstState` (``Dist`` with :data:`INF` where it is not finite)."""
    dist = tuple(d if f else INF for d, f in zip(st["dist"], st["fin"]))
    return DkstState(st["t"], dist, st["cur"], frozenset(v for v, x in enumerate(st["vis"]) if x))


def dijkstra_dynamic(g: Digraph, source: int) -> list[DkstState]:
    """Run ``Dkst`` (:data:`DIJKSTRA`) from ``source``: the ``n`` states ``Dkst^(0) … Dkst^(n-1)``."""
    return _dijkstra_run(g, validate_dijkstra_input(g, source))


def _dijkstra_run(g: Digraph, s: int) -> list[DkstState]:
    """:func:`dijkstra_dynamic` on an input already validated (every vertex reachable from ``s``)."""
    return [dkst_state(st) for st in run(DIJKSTRA, weighted_input(g, s)).states]


def shortest_distances(g: Digraph, source: int) -> list[Value]:
    """``Dist^(n-1)``: the single-source shortest-path distances the dynamic ends with."""
    return list(dijkstra_dynamic(g, source)[-1].dist)


def validate_bfs_input(g: Digraph, source: object) -> int:
    """BFS is Dijkstra with ``A = {1, ∞}``: every arc must have weight 1 (or the graph be unweighted)."""
    s = validate_dijkstra_input(g, source)
    if g.weights is not None and any(w != 1 for w in g.weights):
        raise InvalidInputError("BFS is the case A = {1, ∞}: every arc must have weight 1")
    return s


def bfs_dynamic(g: Digraph, source: int) -> list[DkstState]:
    """BFS as the paper's special case of ``Dkst`` (``a_ij = 1`` for an arc, ``∞`` otherwise)."""
    return _dijkstra_run(g, validate_bfs_input(g, source))


def bfs_levels(g: Digraph, source: int) -> list[list[int]]:
    """BFS levels by an ordinary FIFO queue (not through ``Dkst``): level ``k`` = vertices at ``k`` hops."""
    validate_dijkstra_input(g, source)
    hops = {source: 0}
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in g.out_neighbors(u):
            if v not in hops:
                hops[v] = hops[u] + 1
                queue.append(v)
    levels: list[list[int]] = [[] for _ in range(max(hops.values()) + 1)]
    for v in sorted(hops):
        levels[hops[v]].append(v)
    return levels


def tree_depths(tree: Digraph, root: int) -> list[int]:
    """``dep(v)``: the number of edges on the unique path from ``root`` to ``v`` (parent walk)."""
    validate_tree(tree, root)
    nbrs: list[list[int]] = [[] for _ in range(tree.n)]
    for u, v in tree.arcs:
        nbrs[u].append(v)
    parent: dict[int, int | None] = {root: None}
    depth = [0] * tree.n  # dep(v) = dep(parent(v)) + 1: the length of the parent walk from v
    stack = [root]
    while stack:
        u = stack.pop()
        for v in nbrs[u]:
            if v not in parent:
                parent[v] = u
                depth[v] = depth[u] + 1
                stack.append(v)
    return depth


def width_levels(tree: Digraph, root: int) -> list[int]:
    """``|{v : dep(v) = k}|`` for ``k = 0 .. ht(G_T)``."""
    deps = tree_depths(tree, root)
    counts = [0] * (max(deps) + 1)
    for d in deps:
        counts[d] += 1
    return counts


def tree_width(tree: Digraph, root: int) -> int:
    """``wd(G_T) = max_k |{v ∈ V : dep(v) = k}|`` (Section 2.2)."""
    return max(width_levels(tree, root))


Reading = Literal["as-written", "repaired", "twd-repaired", "mwd-repaired"]


def twd_of(state: DkstState, over_visited: bool) -> int:
    """``twd^(t)``: visited ``v_i`` with no ``j`` such that ``Dist[j] ≠ ∞`` and ``Dist[j] > Dist[i]``.

    As written, ``j`` ranges over all of ``V`` (``over_visited=False``); the repair lets ``j`` range
    over the visited vertices only.
    """
    dist = state.dist
    js = sorted(state.vst) if over_visited else range(len(dist))
    finite = [dist[j] for j in js if dist[j] is not INF]
    top = max(finite)
    return sum(1 for i in state.vst if not dist[i] < top)


def width_dynamic(states: Sequence[DkstState], reading: Reading = "as-written") -> list[tuple[int, int]]:
    """``(twd^(t), mwd^(t))`` for every ``t`` from obs:dynamicwidbfs's definitions.

    ``as-written``: ``twd`` with ``j`` over all of ``V``; ``mwd^(t) = max_{t' < t} twd^(t')`` (and
    ``mwd^(0) = 1``, the stated initialization). ``repaired``: ``j`` over visited vertices and
    ``mwd^(t) = max_{t' ≤ t} twd^(t')``. ``twd-repaired`` / ``mwd-repaired`` repair one of the two.
    """
    over_visited = reading in ("repaired", "twd-repaired")
    inclusive = reading in ("repaired", "mwd-repaired")
    twd = [twd_of(st, over_visited) for st in states]
    out = []
    for t in range(len(states)):
        if t == 0:
            mwd = 1  # "initialized by twd^(0) = mwd^(0) = 1"
        else:
            mwd = max(twd[: t + 1] if inclusive else twd[:t])
        out.append((twd[t], mwd))
    return out


@dataclass(frozen=True)
class WidthState(DkstState):
    """``Dkst^(t)`` of BFS augmented with ``(twd^(t), mwd^(t))`` of obs:dynamicwidbfs and the depth difference.

    ``dif`` is ``Dist^(t)[cur^(t)] - Dist^(t-1)[cur^(t-1)]``, the difference of the distances recorded in
    ``crd`` at consecutive steps (thm:cotwidoftree: "the difference in distances π_crd(ỹ_t) and
    π_crd(ỹ_{t-1})"), 0 at ``t = 0``.
    """

    twd: int = 1
    mwd: int = 1
    dif: Value = 0


def bfs_width_dynamic(tree: Digraph, root: int, reading: Reading = "repaired") -> list[WidthState]:
    """BFS on a tree (``A = {1, ∞}``) with ``twd``/``mwd`` from the Observation's definitions and ``dif``."""
    validate_tree(tree, root)
    return width_states_of(bfs_dynamic(tree, root), reading)


def width_states_of(states: Sequence[DkstState], reading: Reading = "repaired") -> list[WidthState]:
    """:func:`bfs_width_dynamic` from the BFS states: ``twd``/``mwd`` by the Observation's definitions, and ``dif``."""
    difs: list[Value] = [0]
    difs += [st.dist_cur - prev.dist_cur for prev, st in zip(states, states[1:])]  # type: ignore[operator]
    return [WidthState(st.t, st.dist, st.cur, st.vst, twd, mwd, dif)
            for st, (twd, mwd), dif in zip(states, width_dynamic(states, reading), difs)]


def widsup_rule(o: Any, dif: Any, twd: Any, mwd: Any) -> tuple[Any, Any]:
    """The update rule of obs:dynamicwidbfs, lem:widsupffn's ``f``, over an algebra ``o`` (the rule written once).

    Same depth (``dif = 0``): ``twd + 1``; one level deeper (``dif = 1``): reset to 1; ``mwd`` the running maximum,
    ``max(mwd, twd')``.
    """
    new = o.ite(dif == 0, twd + 1, 1)
    return new, o.ite(o.lt(mwd, new), new, mwd)


def widsup(dif: Any, twd: int, mwd: int) -> tuple[int, int]:
    """The piecewise map ``f`` of lem:widsupffn on ``(dif, twd, mwd)``; ``dif`` must be 0 or 1."""
    if dif not in (0, 1):
        raise ValueError(f"lem:widsupffn is defined for dif ∈ {{0, 1}}, got {dif}")
    return widsup_rule(PyOps(WIDTH_BFS, None), dif, twd, mwd)


#: The fold's state variables (obs:dynamicwidbfs), carried beside ``Dkst``.
WIDTH_STATE = (
    StateVar("dif", doc="Dist^(τ)[cur^(τ)] - Dist^(τ-1)[cur^(τ-1)]: the depth difference of consecutive visits "
                        "(0 at τ = 0)"),
    StateVar("twd", doc="twd^(τ): the running count of visited vertices at the current depth"),
    StateVar("mwd", doc="mwd^(τ): the running maximum of twd"),
)


def _width_init(o: Any, g: Any) -> dict[str, Any]:
    """``dif = 0`` and "initialized by twd^(0) = mwd^(0) = 1" (obs:dynamicwidbfs)."""
    return {"dif": 0, "twd": 1, "mwd": 1}


def _width_step(o: Any, g: Any, s: Any, new: Any) -> dict[str, Any]:
    """``dif`` of the vertex just visited against the previous one (named ``rise``), then :func:`widsup_rule`."""
    dif = o.let("rise", o.at(new.dist, new.cur, 0) - o.at(s.dist, s.cur, 0))
    twd, mwd = widsup_rule(o, dif, s.twd, s.mwd)
    return {"dif": dif, "twd": twd, "mwd": mwd}


#: BFS (``Dkst`` with every arc weight 1) carrying the width fold of obs:dynamicwidbfs, stated once: the reference of
#: thm:cotwidoftree runs it, :func:`width_update_rule` folds its update along a run's states, and the definitions of
#: ``algorithms.widthtree_facts`` are its reading as facts. From ``(dif, twd, mwd) = (0, 1, 1)``, each step takes
#: ``dif = Dist[cur^(t+1)] - Dist[cur^(t)]`` and applies lem:widsupffn's ``f``.
WIDTH_BFS = extend(DIJKSTRA, "obs:dynamicwidbfs", WIDTH_STATE, _width_init, _width_step,
                   (Aux("rise", "let", doc="Dist[cur^(τ+1)] - Dist[cur^(τ)]: how much deeper the step's vertex is"),))


#: The source's own coordinate as the as-written reading of thm:cotwidoftree relaxes it (``a_ss = ∞`` on the
#: diagonal and ``π_dis(y_0) = λ^n``, so nothing ever sets it to ``Dist[s] = 0``).
SOURCE_BACK_STATE = (
    StateVar("back", "bool", doc="an arc (cur^(τ'), s) from a current vertex into the source s has been relaxed, "
                                 "τ' < τ"),
    StateVar("bdist", doc="the least Dist^(τ')[cur^(τ')] + a_{cur^(τ'), s} over those arcs (0 while there is none)"),
)


def _source_back_init(o: Any, g: Any) -> dict[str, Any]:
    """No arc into the source relaxed yet."""
    return {"back": False, "bdist": 0}


def _source_back_step(o: Any, g: Any, s: Any, new: Any) -> dict[str, Any]:
    """Relax the source's coordinate from ``cur^(τ) = v_i`` as :func:`_step` relaxes every other one.

    ``min(bdist, Dist[i] + a_is)``: the candidate replaces ``bdist`` when there is an arc ``(v_i, s)`` and none was
    relaxed before or the candidate is strictly smaller.
    """
    i = s.cur
    cand = o.at(s.dist, i, 0) + g.w(i, g.src)
    better = o.and_(g.arc(i, g.src), o.or_(o.not_(s.back), o.lt(cand, s.bdist)))
    return {"back": o.or_(s.back, g.arc(i, g.src)), "bdist": o.ite(better, cand, s.bdist)}


#: :data:`WIDTH_BFS` carrying the source's relaxed-back distance: ``Dist`` relaxed along the run from a source whose
#: own entry starts at ``∞`` (thm:cotwidoftree as written, ``a_ii = ∞``): ``∞`` until an arc ``(cur^(τ'), s)`` is
#: relaxed, then the least ``Dist^(τ')[cur^(τ')] + a_{cur^(τ'), s}`` (``back``, ``bdist``). Every other coordinate is
#: ``Dkst``'s (the source is visited from the start, so the selection never reads it).
WIDTH_BFS_SOURCE = extend(WIDTH_BFS, "obs:dynamicwidbfs, source relaxed from ∞", SOURCE_BACK_STATE,
                          _source_back_init, _source_back_step)


def width_update_rule(states: Sequence[DkstState]) -> list[tuple[Value, int, int]]:
    """``(dif_t, twd_t, mwd_t)`` by the Observation's update rule, from ``(0, 1, 1)`` at ``t = 0``.

    The step of :data:`WIDTH_BFS`'s fold read along the Dijkstra states ``states``: ``dif_t = Dist[cur^(t)] -
    Dist[cur^(t-1)]`` (a visited vertex's distance never changes, so these are the final distances of consecutively
    visited vertices); ``dif = 0`` (same depth) increments ``twd``, ``dif = 1`` (one level deeper) resets it to 1,
    and ``mwd`` keeps the maximum (lem:widsupffn's ``f``, defined for ``dif ∈ {0, 1}`` only: ValueError otherwise).
    """
    o = PyOps(WIDTH_BFS, None)
    w = _width_init(o, None)
    out: list[tuple[Value, int, int]] = [(w["dif"], w["twd"], w["mwd"])]
    for prev, st in zip(states, states[1:]):
        w = _width_step(o, None, StateView({"dist": prev.dist, "cur": prev.cur, **w}),
                        StateView({"dist": st.dist, "cur": st.cur}))
        if w["dif"] not in (0, 1):
            raise ValueError(f"lem:widsupffn is defined for dif ∈ {{0, 1}}, got {w['dif']}")
        out.append((w["dif"], w["twd"], w["mwd"]))
    return out


def state_text(st: DkstState) -> str:
    """One line per state."""
    dist = ", ".join(str(d) for d in st.dist)
    return f"t={st.t}: cur=v{st.cur}, Dist=[{dist}], vst={sorted(st.vst)}"
