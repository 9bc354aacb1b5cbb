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

from proofs.cot_path_to_tree.algorithms.dfs import DFS, DfsState, dfs_input
from symcot.algorithms.logic import Direct, Fact, Induction, Sig, Var, Vocabulary
from symcot.algorithms.transition import definitions, interpretation, run

SYMBOLS = (
    Sig("n", 0, doc="number of vertices"),
    Sig("src", 0, doc="the source s = v_p", result="vertex"),
    Sig("adj", 2, "bool", "a_ij = 1", ("vertex", "vertex")),
    *DFS.symbols(),
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

#: The transition's definitions (init, one step of each state variable, ``nxt``, ``tr``, moves, ends) and the
#: auxiliary ``first``.
DEFINITION = (*definitions(DFS, MOVE, STEP), Fact(
    "first", (STEP, VERTEX),
    lambda c, t, v: c.implies(c.cur(t) == v, c.and_(0 <= c.first(v), c.first(v) <= t, c.cur(c.first(v)) == v)),
    "definition", source="first(v): the least step at which v is current"))


def _run(c: Any, t: Any, v: Any) -> Any:
    return c.and_(
        c.implies(t <= c.T - 1, c.and_(valid(c, c.cur(t)), c.vis(t, c.cur(t)))),
        c.implies(c.and_(c.vis(t, v), v != c.src),
                  c.and_(valid(c, c.par(t, v)), c.par(t, v) != v, c.vis(t, c.par(t, v)))),
        c.par(t, c.src) == -1, c.vis(t, c.src))


DERIVED = (
    Fact("starts", (), lambda c: c.T >= 1, "derived", Direct(),
         source="the run moves at least once: dfs^(0)(s) = s ≠ φ"),
    Fact("run", (STEP, VERTEX), _run, "derived", Induction("τ", without=("ends",)),
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


def interpret(inp: tuple[Any, int], states: Sequence[DfsState]) -> dict[str, Any]:
    """The symbols' values on the run of ``inp = (graph, source)``.

    :data:`DFS` is run again (``states`` is :func:`~proofs.cot_path_to_tree.algorithms.dfs.states_of` of that run).
    """
    g = dfs_input(*inp)
    r = run(DFS, g)
    first: dict[int, int] = {}
    for t, st in enumerate(r.states):
        first.setdefault(st["cur"], t)
    return {"n": g.n, "src": g.src, "adj": g.adj, **interpretation(DFS, r),
            "first": lambda v: first.get(v, r.T + 1) if v != -1 else r.T + 1}


def inputs(inp: tuple[Any, Any]) -> dict[str, Any]:
    """The input symbols ``n``, ``src``, ``adj`` of ``inp = (graph, source)``, without a run.

    Also of a batch's stand-in ``(DigraphColumns, source)``: ``adj(i, j)`` is then every row's, a ``(B,)`` array.
    """
    g, s = inp
    a = g.adjacency()
    size = g.n

    def adj(i: int, j: int) -> Any:
        return a[i][j] != 0 if 0 <= i < size and 0 <= j < size else False

    return {"n": size, "src": s, "adj": adj}


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

VOCABULARY = Vocabulary("eq:dfsdynamic", SYMBOLS, DOMAIN + DEFINITION + DERIVED, VIEWS, interpret, inputs=inputs)
