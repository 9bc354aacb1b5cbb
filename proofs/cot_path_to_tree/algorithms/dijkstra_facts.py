r"""The Dijkstra dynamic ``Dkst`` (Section 2.1, ssec:prelimgraphs) as a vocabulary of its runs, for every ``n``.

Its runs for every ``n`` and every positive weight: the dynamic thm:cotdijkstra (app:cotdij) simulates.

Symbols (``-1`` stands for φ):

* input: ``n``, ``src`` (the source ``s = v_p``), ``arc(i, j)`` (an arc ``(v_i, v_j)``), ``w(i, j)`` (its weight
  ``a_ij``), and three auxiliaries: ``W`` (the largest arc weight, ``0`` without arcs: the ``W`` of the
  construction's rule ``λ = 1 + (n - 1)·W``, app:cotdij), ``hop(v)`` and ``pre(v)`` (a breadth-first tree from
  ``s``: the witness of reachability, below);
* run (:data:`~proofs.cot_path_to_tree.algorithms.dijkstra.DIJKSTRA`): ``T`` (the last step), ``t(τ)``,
  ``cur(τ)`` (``cur^(τ)``), ``dist(τ, v)`` and ``fin(τ, v)`` (``Dist^(τ)[v]`` is ``dist(τ, v)`` where ``fin(τ, v)``
  and ``∞`` elsewhere), ``vis(τ, v)`` (``vst^(τ)(v)``), ``sel(τ)`` (the argmin the step from ``τ`` selects), and
  the auxiliary ``cnt(τ, k)`` (how many of ``v_0 … v_{k-1}`` are visited at ``τ``).

*Integer weights.* The weights are symbolic integers. That loses nothing for the dynamic: every decision it makes
is a comparison of two sums of weights along paths (``Dist[i] + a_ij < Dist[j]`` in the relaxation, ``Dist[j] <
Dist[k]`` in the selection), and multiplying every weight of one input by a positive common denominator of its
rational weights multiplies every such sum by it, which preserves every comparison; so the run on the scaled
integer weights makes the same selections, with every ``Dist`` scaled by the same factor.

*Domain* (Section 2.1: a simple directed graph with positive weights, every vertex reachable from the source).
``n ≥ 1``, ``src`` a vertex, no arc ``(v_i, v_i)``, ``w(i, j) ≥ 1`` on every arc (positive integers), and
``reachable``: reachability is not first-order, but it is equivalent to the existence of a breadth-first tree,
which is: ``hop(s) = 0``, and every ``v ≠ s`` has ``1 ≤ hop(v) ≤ n - 1`` and an arc ``(pre(v), v)`` from a
vertex with ``hop(pre(v)) = hop(v) - 1`` (following ``pre`` from ``v`` reaches ``s`` in ``hop(v)`` arcs; conversely
the BFS from ``s`` gives ``hop``, ``pre``). ``interpret`` computes them by a BFS. No fact is proved by hand.

*Derived*, each by induction over the steps (or over a count, or a path length) or directly from the facts
before it: ``t(τ) = τ`` and ``T = n - 1`` (exactly ``n - 1`` transitions); every step selects a vertex
(``progress``: at ``τ < n - 1`` at most ``τ + 1`` vertices are visited, and were none selectable every vertex
would be visited, along the breadth-first tree's arcs, each relaxed when its tail was current); ``cur(τ)`` is a
visited vertex; the visited set grows by exactly ``cur(τ + 1)``, an unvisited vertex; visited vertices are
finite, their ``Dist`` at most ``Dist[cur]``, and it never changes again; the selected vertex has the least
``Dist`` among the unvisited finite ones (the lowest index among equal ones); ``Dist ≥ 0``, and a finite
``Dist^(τ)`` is at most ``τ·W`` (so ``λ = 1 + (n - 1)·W`` is above every finite ``Dist``); and
``Dist^(τ)[cur^(τ)]`` is non-decreasing in ``τ`` (Dijkstra's monotonicity, from the positive weights). For the
construction's statement (thm:cotdijkstra): exactly ``τ + 1`` vertices are visited at ``τ`` (so all at ``T``, the
halting criterion), ``cur^(τ+1)`` is unvisited at ``τ < T``, and a relaxation candidate ``Dist^(τ)[cur^(τ)] + a_ij``
on a moving step is at most ``(n - 1)·W``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from proofs.cot_path_to_tree.algorithms import reach
from proofs.cot_path_to_tree.algorithms.dfs_facts import MOVE, STEP, VERTEX, valid, vertex
from proofs.cot_path_to_tree.algorithms.dijkstra import DIJKSTRA, INF, DkstState, weighted_input
from symcot.algorithms.logic import Direct, Fact, Induction, Sig, Var, Vocabulary
from symcot.algorithms.transition import definitions, interpretation, run
from symcot.inputs.batch import DigraphColumns

SYMBOLS = (
    Sig("n", 0, doc="number of vertices"),
    Sig("src", 0, doc="the source s = v_p", result="vertex"),
    Sig("arc", 2, "bool", "an arc (v_i, v_j)", ("vertex", "vertex")),
    Sig("w", 2, "int", "a_ij, the weight of the arc (v_i, v_j)", ("vertex", "vertex")),
    Sig("W", 0, doc="the largest arc weight (0 without arcs)"),
    *reach.SYMBOLS,
    *DIJKSTRA.symbols(),
    Sig("cnt", 2, "int", "|{v < k : vst^(τ)(v) = 1}|", ("step", "vertex")),
)



def dist_cur(c: Any, t: Any) -> Any:
    """``Dist^(τ)[cur^(τ)]``."""
    return c.dist(t, c.cur(t))


DOMAIN = (
    Fact("graph", (), lambda c: c.and_(c.n >= 1, valid(c, c.src)), "domain",
         source="G = (V, E, A) with n = |V| ≥ 1 vertices and a source s = v_p ∈ V (Section 2.1)"),
    Fact("simple", (VERTEX,), lambda c, v: c.not_(c.arc(v, v)), "domain",
         source="G is simple: no self-loop (a_ii = ∞)"),
    Fact("positive", (vertex("i"), vertex("j")), lambda c, i, j: c.implies(c.arc(i, j), c.w(i, j) >= 1), "domain",
         source="A ∈ ℝ_{>0}^{n×n}: every arc's weight is positive (≥ 1 on integer weights: see the module docstring)"),
    Fact("reachable", (VERTEX,), reach.reachable("arc"), "domain",
         source="every vertex is reachable from s by a directed path (the domain of Dkst, Section 2.1), in first-order "
                "form: a path s = pre^h(v) → … → pre(v) → v with h = hop(v) ≤ n - 1 arcs (a breadth-first tree)"),
)

#: The transition's definitions (init, one step of each state variable, ``sel``, moves, ends) and ``W``.
DEFINITION = (
    *definitions(DIJKSTRA, MOVE, STEP),
    Fact("W", (vertex("i"), vertex("j")), lambda c, i, j: c.and_(c.W >= 0, c.implies(c.arc(i, j), c.w(i, j) <= c.W)),
         "definition", source="W = max_e a_e, the largest arc weight (0 without arcs): every arc weighs at most W"),
    Fact("cnt:0", (STEP,), lambda c, t: c.cnt(t, 0) == 0, "definition", source="cnt(τ, 0) = 0: no vertex below 0"),
    Fact("cnt:step", (STEP, vertex("k")),
         lambda c, t, k: c.cnt(t, k + 1) == c.cnt(t, k) + c.ite(c.vis(t, k), 1, 0), "definition",
         source="cnt(τ, k + 1) = cnt(τ, k) + vst^(τ)(v_k): the visited vertices below k, counted"),
)

#: No fact is proved by hand: reachability is the domain fact ``reachable``, and ``progress`` is derived from it.
HAND: tuple[Fact, ...] = ()


def _invariant(c: Any, t: Any, v: Any) -> Any:
    """The Dijkstra invariant at ``τ`` about ``v`` (see :data:`DERIVED`'s ``invariant``)."""
    d = dist_cur(c, t)
    return c.and_(
        c.dist(t, v) >= 0,
        c.implies(c.vis(t, v), c.and_(c.fin(t, v), c.dist(t, v) <= d)),
        c.implies(c.and_(c.not_(c.vis(t, v)), c.fin(t, v)), d <= c.dist(t, v)),
        c.implies(c.fin(t, v), c.dist(t, v) <= t * c.W))


def _monotone(c: Any, t1: Any, t2: Any, v: Any) -> Any:
    return c.implies(c.vis(t1, v), c.and_(c.vis(t2, v), c.fin(t2, v), c.dist(t2, v) == c.dist(t1, v)))


def _grows(c: Any, t: Any, v: Any) -> Any:
    return c.and_(c.not_(c.vis(t, c.cur(t + 1))), c.vis(t + 1, v) == c.or_(c.vis(t, v), v == c.cur(t + 1)))


def _least(c: Any, t: Any, v: Any) -> Any:
    """``cur(τ + 1)`` has the least ``Dist^(τ+1)`` among the vertices unvisited at ``τ`` and finite at ``τ + 1``."""
    x, d = c.cur(t + 1), dist_cur(c, t + 1)
    return c.and_(
        c.fin(t + 1, x),
        c.implies(c.and_(c.not_(c.vis(t, v)), c.fin(t + 1, v)),
                  c.or_(d < c.dist(t + 1, v), c.and_(d == c.dist(t + 1, v), x <= v))))


def _step_hints(c: Any, t: Any) -> list[Any]:
    """The vertices a step reads: the current one, the one it selects, the next current one."""
    return [c.cur(t), c.sel(t), c.cur(t + 1)]


#: ``k`` over ``0 … n`` (a count's bound), ``h`` over the path lengths ``0 … n - 1``.
BOUND = Var("k", lambda c, *_: 0, lambda c, *_: c.n, "vertex")
HOPS = reach.HOPS


def _relaxed(c: Any, t: Any, u: Any, x: Any) -> Any:
    return c.implies(c.and_(c.vis(t, u), c.arc(u, x)), c.fin(t + 1, x))


def _stuck(c: Any, t: Any, h: Any, x: Any) -> Any:
    return c.implies(c.and_(c.sel(t) == -1, c.hop(x) <= h), c.vis(t, x))


T1 = Var("τ1", lambda c, *_: 0, lambda c, *_: c.T, "step")
T2 = Var("τ2", lambda c, t1, *_: t1, lambda c, *_: c.T, "step")

DERIVED = (
    Fact("clock", (STEP,), lambda c, t: c.t(t) == t, "derived", Induction("τ"),
         source="the state's step counter t is the step τ"),
    Fact("last-step", (STEP,), lambda c, t: c.implies(t == c.T, t == c.n - 1), "derived",
         Induction("τ", hints=lambda c, t: [t, t + 1]),
         source="the step where the run stops is n - 1: every step before it moves, so its clock is below n - 1"),
    Fact("steps", (), lambda c: c.T == c.n - 1, "derived", Direct(),
         source="the run has exactly n - 1 transitions (Section 2.1)"),
    Fact("source", (STEP,), lambda c, t: c.vis(t, c.src), "derived", Induction("τ"),
         source="the source is visited from the start"),
    Fact("relaxed", (MOVE, vertex("u"), vertex("x")), _relaxed, "derived", Induction("τ"),
         source="after the step from τ, every out-neighbour of a vertex visited at τ has a finite Dist (its arcs "
                "were relaxed when it was current)"),
    Fact("stuck", (MOVE, HOPS, vertex("x")), _stuck, "derived", Induction("h"),
         source="if the step from τ selects no vertex, every vertex within h arcs of s is visited at τ (by induction "
                "on h along the path of reachable: its last arc was relaxed)"),
    Fact("stuck-full", (MOVE, BOUND), lambda c, t, k: c.implies(c.sel(t) == -1, c.cnt(t, k) == k), "derived",
         Induction("k", hints=lambda c, k: [k, c.hop(k), c.n - 1]),
         source="if the step from τ selects no vertex, all n are visited (v_k is: it is within hop(v_k) ≤ n - 1 arcs)"),
    Fact("count-init", (BOUND,), lambda c, k: c.cnt(0, k) == c.ite(c.src < k, 1, 0), "derived", Induction("k"),
         source="vst^(0) = {s}"),
    Fact("count-step", (MOVE, BOUND),
         lambda c, t, k: c.cnt(t + 1, k) <= c.cnt(t, k) + c.ite(c.and_(0 <= c.sel(t), c.sel(t) < k), 1, 0),
         "derived", Induction("k"), source="a step visits at most one more vertex, the one it selects"),
    Fact("count", (STEP,), lambda c, t: c.cnt(t, c.n) <= t + 1, "derived", Induction("τ"),
         source="at most τ + 1 vertices are visited at τ"),
    Fact("progress", (MOVE,), lambda c, t: c.sel(t) != -1, "derived", Direct(),
         source="every step selects a vertex: at τ < T = n - 1 at most τ + 1 < n vertices are visited, so not all; "
                "had the step selected none, all would be (stuck-full)"),
    Fact("current", (STEP,), lambda c, t: c.and_(valid(c, c.cur(t)), c.vis(t, c.cur(t))), "derived",
         Induction("τ"), source="cur^(τ) is a visited vertex"),
    Fact("invariant", (STEP, VERTEX), _invariant, "derived", Induction("τ", hints=_step_hints),
         source="Dist ≥ 0; a visited vertex is finite with Dist at most Dist[cur]; an unvisited finite vertex has "
                "Dist at least Dist[cur] (cur was the least); a finite Dist is at most τ·W"),
    Fact("grows", (MOVE, VERTEX), _grows, "derived", Direct(),
         source="vst^(τ+1) = vst^(τ) ∪ {cur^(τ+1)} with cur^(τ+1) ∉ vst^(τ): visited sets grow by exactly one"),
    Fact("least", (MOVE, VERTEX), _least, "derived", Direct(),
         source="cur^(τ+1) = argmin_j {Dist^(τ+1)[j] | vst^(τ)(v_j) = 0}, the lowest index among ties: it is finite, "
                "and no vertex unvisited at τ and finite at τ + 1 has a smaller Dist^(τ+1)"),
    Fact("monotone", (T1, T2, VERTEX), _monotone, "derived", Induction("τ2"),
         source="visited stays visited and finite, and a visited vertex's Dist never changes"),
    Fact("dist-cur-grows", (MOVE,), lambda c, t: dist_cur(c, t) <= dist_cur(c, t + 1), "derived", Direct(),
         source="Dist^(τ)[cur^(τ)] is non-decreasing in τ (Dijkstra's monotonicity, from positive weights)"),
    Fact("dist-cur-monotone", (T1, T2), lambda c, t1, t2: dist_cur(c, t1) <= dist_cur(c, t2), "derived",
         Induction("τ2"), source="Dist^(τ1)[cur^(τ1)] ≤ Dist^(τ2)[cur^(τ2)] for τ1 ≤ τ2"),
    Fact("below-lambda", (STEP, VERTEX),
         lambda c, t, v: c.implies(c.fin(t, v), c.and_(0 <= c.dist(t, v), c.dist(t, v) <= (c.n - 1) * c.W)),
         "derived", Direct(), source="a finite Dist is in [0, (n - 1)·W]: below λ = 1 + (n - 1)·W (app:cotdij)"),
    Fact("count-grows", (MOVE, BOUND),
         lambda c, t, k: c.cnt(t + 1, k) == c.cnt(t, k) + c.ite(c.cur(t + 1) < k, 1, 0), "derived",
         Induction("k"), source="vst^(τ+1) = vst^(τ) ∪ {cur^(τ+1)}, counted below k"),
    Fact("count-exact", (STEP,), lambda c, t: c.cnt(t, c.n) == t + 1, "derived", Induction("τ"),
         source="exactly τ + 1 vertices are visited at τ"),
    Fact("count-at-most", (STEP, BOUND), lambda c, t, k: c.cnt(t, k) <= k, "derived", Induction("k"),
         source="at most k of v_0 … v_{k-1} are visited"),
    Fact("count-missing", (STEP, BOUND, VERTEX),
         lambda c, t, k, v: c.implies(c.and_(v < k, c.not_(c.vis(t, v))), c.cnt(t, k) <= k - 1), "derived",
         Induction("k"), source="an unvisited v below k leaves at most k - 1 visited below k"),
    Fact("all-visited", (VERTEX,), lambda c, v: c.vis(c.T, v), "derived", Direct(),
         source="π_vis(y_{n-1}) = 1^n: the n = T + 1 vertices visited at T are all of them (the halting criterion, "
                "app:cotdij)"),
    Fact("unvisited", (MOVE,), lambda c, t: c.and_(valid(c, c.cur(t + 1)), c.not_(c.vis(t, c.cur(t + 1)))),
         "derived", Direct(), source="before the last step some vertex, cur^(τ+1), is unvisited"),
    Fact("candidate", (MOVE, VERTEX),
         lambda c, t, v: c.implies(c.arc(c.cur(t), v), dist_cur(c, t) + c.w(c.cur(t), v) <= (c.n - 1) * c.W),
         "derived", Direct(), source="a relaxation candidate Dist^(τ)[cur^(τ)] + a_{cur,j} on a moving step is at "
                                     "most (n - 1)·W: below λ = 1 + (n - 1)·W (app:cotdij)"),
)


def _search(g: Any) -> dict[str, Any]:
    """``W``, ``hop`` and ``pre`` of a :class:`~proofs.cot_path_to_tree.algorithms.dijkstra.WeightedInput`.

    ``hop`` and ``pre`` come from :func:`~proofs.cot_path_to_tree.algorithms.reach.breadth_first`.
    """
    weights = [g.w(i, j) for (i, j) in g.arcs]
    return {"W": max(weights, default=0), **reach.breadth_first(g.n, g.src, g.arc)}


def interpret(inp: tuple[Any, int], states: Sequence[DkstState]) -> dict[str, Any]:
    """The symbols' values on the run of ``inp = (graph, source)``.

    :data:`DIJKSTRA` is run again (``states`` is :func:`~proofs.cot_path_to_tree.algorithms.dijkstra.dijkstra_dynamic`
    of that run).
    """
    g = weighted_input(*inp)
    r = run(DIJKSTRA, g)
    counts = [list(accumulate((int(x) for x in st["vis"]), initial=0)) for st in r.states]

    def cnt(t: int, k: int) -> int:
        return counts[t][k] if 0 <= t < len(counts) and 0 <= k < len(counts[t]) else -1

    return {**inputs(inp), **_search(g), **interpretation(DIJKSTRA, r), "cnt": cnt}


def inputs(inp: tuple[Any, int]) -> dict[str, Any]:
    """The input symbols ``n``, ``src``, ``arc``, ``w`` (what a prompt reads), ``hop`` and ``pre`` of ``inp``.

    Also of a batch's stand-in ``(DigraphColumns, source)`` (unweighted: every arc weighs 1): ``arc(i, j)`` is then
    every row's, a ``(B,)`` array, and ``hop``/``pre`` are left out (no prompt reads them). The weights may be
    symbols (symbolic replay). ``hop`` and ``pre`` (a breadth-first search of the input) make the domain fact
    ``reachable`` one of the input alone: an input outside the domain is known so without a run. ``W`` is
    :func:`interpret`'s.
    """
    g, s = inp
    if isinstance(g, DigraphColumns):
        a, size = g.adjacency(), g.n

        def arc(i: int, j: int) -> Any:
            return a[i][j] != 0 if 0 <= i < size and 0 <= j < size else False

        return {"n": size, "src": s, "arc": arc, "w": lambda i, j: 1}
    wi = weighted_input(g, s)
    return {"n": wi.n, "src": wi.src, "arc": wi.arc, "w": wi.w, **reach.breadth_first(wi.n, wi.src, wi.arc)}


def infinity(c: Any) -> Any:
    """``∞`` as a statement writes it.

    The ``λ`` an interpretation binds (the prover's, or a run's where its row has one), else the reference's
    :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.INF`.
    """
    return getattr(c, "lam", INF)


def _dist_view(c: Any, t: Any) -> Any:
    """``Dist^(τ)``: ``dist(τ, v)`` where finite, ``∞`` elsewhere (the prover's ``λ``, which the encoding writes)."""
    inf = infinity(c)
    return c.vec(lambda v: c.ite(c.fin(t, v), c.dist(t, v), inf), c.n)


#: The reference state's fields as views: :class:`~proofs.cot_path_to_tree.algorithms.dijkstra.DkstState`'s
#: ``dist``, ``cur``, ``vst``, ``dist_cur`` and ``t`` (the fields the construction's encoding reads). ``dist`` is
#: ``∞`` where not finite on a concrete run, where :func:`~symcot.algorithms.logic.check_views` compares it with
#: the reference's :data:`~proofs.cot_path_to_tree.algorithms.dijkstra.INF`; read by the prover, whose
#: interpretation binds ``lam``, it is ``λ`` there, as the encoding's ``vector`` term writes ``∞``.
VIEWS = {
    "dist": _dist_view,
    "cur": lambda c, t: c.cur(t),
    "vst": lambda c, t: c.set(lambda v: c.vis(t, v), c.n),
    "dist_cur": dist_cur,
    "t": lambda c, t: t,
}

VOCABULARY = Vocabulary("Dkst", SYMBOLS, DOMAIN + DEFINITION + HAND + DERIVED, VIEWS, interpret, inputs=inputs)
