r"""The DFS dynamic eq:dfsdynamic as a vocabulary of its runs, with the facts an all-n proof uses.

Symbols (``-1`` stands for φ):

* input: ``n``, ``src`` (the source ``s = v_p``), ``adj(i, j)`` (``a_ij = 1``);
* run: ``T`` (the step of the backtrack from ``s``, where the run ends), ``cur(τ)`` (``dfs^(τ)(s)``),
  ``vis(τ, v)`` (``vst^(τ)(v)``), ``par(τ, v)`` (``par^(τ)(v)``);
* auxiliary: ``tr(τ)`` (the move from ``τ`` to ``τ + 1`` is a traverse), ``nxt(τ)`` (the vertex it
  traverses to: the lowest-index unvisited out-neighbour, the choice :mod:`proofs.cot_path_to_tree.algorithms.dfs`
  makes)
  and ``first(v)`` (the first step at which ``v`` is current).

The definitions are eq:dfsdynamic transcribed; the derived facts are what the step proofs of the
decoders need (the current vertex is visited, visited sets only grow, a parent never changes once set,
every visited vertex has been current), each proved by induction over the steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from proofs.cot_path_to_tree.algorithms.dfs import DfsState
from symcot.algorithms.logic import Direct, Fact, Induction, Sig, Var, Vocabulary, table

SYMBOLS = (
    Sig("n", 0, doc="number of vertices"),
    Sig("src", 0, doc="the source s = v_p", result="vertex"),
    Sig("T", 0, doc="the last step: the backtrack from s (dfs^(T)(s) = φ)", result="step"),
    Sig("adj", 2, "bool", "a_ij = 1", ("vertex", "vertex")),
    Sig("cur", 1, "int", "dfs^(τ)(s); -1 is φ", ("step",), "vertex"),
    Sig("vis", 2, "bool", "vst^(τ)(v) = 1", ("step", "vertex")),
    Sig("par", 2, "int", "par^(τ)(v); -1 is φ", ("step", "vertex"), "vertex"),
    Sig("tr", 1, "bool", "the move from τ to τ + 1 is a traverse", ("step",)),
    Sig("nxt", 1, "int", "the vertex a traverse at τ moves to (lowest-index unvisited out-neighbour)", ("step",),
        "vertex"),
    Sig("first", 1, "int", "the first step at which v is the current vertex", ("vertex",), "step"),
)

#: ``τ`` over the steps ``0 … T`` and over the steps that move (``0 … T - 1``); ``v`` over the vertices.
STEP = Var("τ", lambda c, *_: 0, lambda c, *_: c.T, "step")
MOVE = Var("τ", lambda c, *_: 0, lambda c, *_: c.T - 1, "step")
VERTEX = Var("v", lambda c, *_: 0, lambda c, *_: c.n - 1, "vertex")


def vertex(name: str) -> Var:
    """A vertex variable called ``name``."""
    return Var(name, lambda c, *_: 0, lambda c, *_: c.n - 1, "vertex")


def valid(c: Any, v: Any) -> Any:
    """``v`` is a vertex."""
    return c.and_(0 <= v, v <= c.n - 1)


DOMAIN = (
    Fact("graph", (), lambda c: c.and_(c.n >= 1, valid(c, c.src)), "domain",
         source="G = (V, E, A) with n = |V| ≥ 1 vertices and a source s = v_p ∈ V"),
    Fact("simple", (VERTEX,), lambda c, v: c.not_(c.adj(v, v)), "domain",
         source="G is simple: no self-loop"),
)

DEFINITION = (
    Fact("init", (VERTEX,),
         lambda c, v: c.and_(c.cur(0) == c.src, c.vis(0, v) == (v == c.src), c.par(0, v) == -1), "definition",
         source="vst^(0)(s) = 1, vst^(0)(v_i) = 0 otherwise, par^(0)(v_i) = φ; dfs^(0)(s) = s"),
    Fact("moves", (MOVE,), lambda c, t: c.cur(t) != -1, "definition",
         source="the run ends with the backtrack from s (the first step with dfs = φ)"),
    Fact("ends", (), lambda c: c.and_(c.T >= 1, c.cur(c.T) == -1), "definition",
         source="the algorithm terminates after backtracking from s"),
    Fact("choice", (MOVE,),
         lambda c, t: c.implies(c.tr(t), c.and_(valid(c, c.nxt(t)), c.adj(c.cur(t), c.nxt(t)),
                                                 c.not_(c.vis(t, c.nxt(t))))), "definition",
         source="traverse: v_j ∈ nei(dfs^(t-1)(s)) with vst^(t-1)(v_j) = 0"),
    Fact("lowest", (MOVE, vertex("j")),
         lambda c, t, j: c.implies(c.and_(c.adj(c.cur(t), j), c.not_(c.vis(t, j))),
                                   c.and_(c.tr(t), c.nxt(t) <= j)), "definition",
         source="a traverse happens when an unvisited out-neighbour exists; to the lowest-index one"),
    Fact("traverse", (MOVE, VERTEX),
         lambda c, t, v: c.implies(c.tr(t), c.and_(
             c.cur(t + 1) == c.nxt(t), c.vis(t + 1, v) == c.or_(c.vis(t, v), v == c.nxt(t)),
             c.par(t + 1, v) == c.ite(v == c.nxt(t), c.cur(t), c.par(t, v)))), "definition",
         source="traverse: par^(t)(v_j) = dfs^(t-1)(s), vst^(t)(v_j) = 1; the rest inherited"),
    Fact("backtrack", (MOVE, VERTEX),
         lambda c, t, v: c.implies(c.not_(c.tr(t)), c.and_(
             c.cur(t + 1) == c.par(t, c.cur(t)), c.vis(t + 1, v) == c.vis(t, v), c.par(t + 1, v) == c.par(t, v))),
         "definition", source="backtrack: dfs^(t)(s) = par^(t-1)(dfs^(t-1)(s)); the mappings unchanged"),
    Fact("first", (STEP, VERTEX),
         lambda c, t, v: c.implies(c.cur(t) == v, c.and_(0 <= c.first(v), c.first(v) <= t, c.cur(c.first(v)) == v)),
         "definition", source="first(v): the least step at which v is current"),
)


def _run(c: Any, t: Any, v: Any) -> Any:
    return c.and_(
        c.implies(t <= c.T - 1, c.and_(valid(c, c.cur(t)), c.vis(t, c.cur(t)))),
        c.implies(c.and_(c.vis(t, v), v != c.src),
                  c.and_(valid(c, c.par(t, v)), c.par(t, v) != v, c.vis(t, c.par(t, v)))),
        c.par(t, c.src) == -1, c.vis(t, c.src))


DERIVED = (
    Fact("run", (STEP, VERTEX), _run, "derived", Induction("τ"),
         source="the current vertex is a visited vertex; every visited vertex but s has a visited parent "
                "other than itself; s has none"),
    Fact("monotone", (Var("τ1", lambda c, *_: 0, lambda c, *_: c.T, "step"),
                      Var("τ2", lambda c, t1, *_: t1, lambda c, *_: c.T, "step"),
                      VERTEX),
         lambda c, t1, t2, v: c.implies(c.vis(t1, v), c.and_(c.vis(t2, v), c.par(t2, v) == c.par(t1, v))),
         "derived", Induction("τ2"), source="visited stays visited, and a parent once set never changes"),
    Fact("seen", (STEP, VERTEX),
         lambda c, t, v: c.implies(c.vis(t, v), c.and_(0 <= c.first(v), c.first(v) <= t, c.cur(c.first(v)) == v)),
         "derived", Induction("τ"), source="every visited vertex has been the current vertex"),
    Fact("parent-seen", (STEP,),
         lambda c, t: c.implies(c.and_(t <= c.T - 1, c.par(t, c.cur(t)) != -1),
                                c.and_(c.first(c.par(t, c.cur(t))) <= t,
                                       c.cur(c.first(c.par(t, c.cur(t)))) == c.par(t, c.cur(t)))),
         "derived", Direct(), source="the parent of the current vertex has been current before"),
)


def _nxt(st: DfsState, adj: Sequence[Sequence[int]]) -> int:
    if st.cur is None:
        return -1
    return next((j for j, a in enumerate(adj[st.cur]) if a and j not in st.vst), -1)


def interpret(inp: tuple[Any, int], states: Sequence[DfsState]) -> dict[str, Any]:
    """The symbols' values on the reference run of ``inp = (graph, source)``."""
    g, s = inp
    a = g.adjacency()
    T = len(states) - 1
    first: dict[int, int] = {}
    for t, st in enumerate(states):
        if st.cur is not None:
            first.setdefault(st.cur, t)
    return {
        "n": g.n, "src": s, "T": T,
        "adj": lambda i, j: 0 <= i < g.n and 0 <= j < g.n and bool(a[i][j]),
        "cur": table([st.cur for st in states]),
        "vis": lambda t, v: 0 <= t <= T and v in states[t].vst,
        "par": lambda t, v: states[t].par[v] if 0 <= t <= T and 0 <= v < g.n and states[t].par[v] is not None else -1,
        "tr": lambda t: 0 <= t < T and states[t + 1].move == "traverse",
        "nxt": table([_nxt(st, a) for st in states]),
        "first": lambda v: first.get(v, T + 1),
    }


#: The reference state's fields as views: what :mod:`proofs.cot_path_to_tree.algorithms.dfs` calls ``cur``, ``vst``,
#: ``par_cur``,
#: ``has_cur``, ``step_sign`` (the fields the constructions' encodings read).
VIEWS = {
    "cur": lambda c, t: c.cur(t),
    "vst": lambda c, t: c.set(lambda v: c.vis(t, v), c.n),
    "par_cur": lambda c, t: c.par(t, c.cur(t)),
    "has_cur": lambda c, t: c.cur(t) != -1,
    "step_sign": lambda c, t: c.ite(t == 0, 0, c.ite(c.tr(t - 1), 1, -1)),
    "t": lambda c, t: t,
}

VOCABULARY = Vocabulary("eq:dfsdynamic", SYMBOLS, DOMAIN + DEFINITION + DERIVED, VIEWS, interpret)
