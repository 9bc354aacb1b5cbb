"""The Dkst vocabulary (Section 2.1): every fact holds on every run of every small weighted digraph, its views are the
reference's fields, a wrong statement is caught, and the derived facts are proved for every n."""

import random

import pytest

from proofs.cot_path_to_tree.algorithms.dijkstra import INF, dijkstra_dynamic
from proofs.cot_path_to_tree.algorithms.dijkstra_facts import MOVE, VERTEX, VOCABULARY, dist_cur, inputs
from symcot.algorithms.logic import Concrete, Direct, Fact, Vocabulary, check_facts, check_views
from symcot.inputs import Digraph
from symcot.inputs.weighted import (
    SMALL_WEIGHTS,
    connected_count,
    connected_digraphs_with_sources,
    weighted_digraphs_with_sources,
)
from symcot.prove.alln.context import Context
from symcot.prove.alln.facts import hypotheses_for, prove_fact, prove_vocabulary
from symcot.prove.alln.ops import Symbolic
from tests.fixtures.vocabularies import replaced

FIELDS = ["dist", "cur", "vst", "dist_cur", "t"]
DERIVED = ["clock", "last-step", "steps", "source", "relaxed", "stuck", "stuck-full", "count-init", "count-step",
           "count", "progress", "current", "invariant", "grows", "least", "monotone", "dist-cur-grows",
           "dist-cur-monotone", "below-lambda", "count-grows", "count-exact", "count-at-most", "count-missing",
           "all-visited", "unvisited", "candidate"]


def _check(inp):
    states = dijkstra_dynamic(*inp)
    c = Concrete(VOCABULARY.interpret(inp, states))
    assert check_facts(VOCABULARY, c) is None, inp
    assert check_views(VOCABULARY, c, states, FIELDS) is None, inp


def test_facts_and_views_hold_on_every_weighted_digraph_to_three_vertices():
    count = 0
    for size in range(1, 4):
        for inp in weighted_digraphs_with_sources(size, SMALL_WEIGHTS):
            _check(inp)
            count += 1
    assert count == sum(connected_count(size, len(SMALL_WEIGHTS)) for size in range(1, 4)) == 1 + 24 + 10368


def test_facts_and_views_hold_on_four_vertices_sampled():
    """Weights 1..3 on four vertices are 62,816,256 inputs: a seeded sample here, every digraph under ``slow``."""
    pairs = list(connected_digraphs_with_sources(4))
    rng = random.Random(4)
    for g, s in rng.sample(pairs, 150):
        _check((Digraph(4, g.arcs, tuple(rng.choice(SMALL_WEIGHTS) for _ in g.arcs)), s))


@pytest.mark.slow
def test_facts_and_views_hold_on_every_digraph_of_four_vertices():
    """Every (digraph, source) on four vertices with every vertex reachable, unit weights and seeded weights 1..3."""
    rng = random.Random(44)
    count = 0
    for g, s in connected_digraphs_with_sources(4):
        _check((g, s))
        _check((Digraph(4, g.arcs, tuple(rng.choice(SMALL_WEIGHTS) for _ in g.arcs)), s))
        count += 1
    assert count == connected_count(4)


def test_the_views_read_lambda_for_infinity_where_the_prover_binds_it():
    inp = (Digraph.from_weighted_arcs(3, {(0, 1): 2, (1, 2): 3}), 0)
    states = dijkstra_dynamic(*inp)
    values = VOCABULARY.interpret(inp, states)
    assert VOCABULARY.views["dist"](Concrete(values), 0) == [0, INF, INF] == list(states[0].dist)
    assert VOCABULARY.views["dist"](Concrete({**values, "lam": 99}), 0) == [0, 99, 99]
    assert [VOCABULARY.views["dist_cur"](Concrete(values), t) for t in range(3)] == [0, 2, 5]


def test_inputs_are_the_interpretations_input_symbols():
    inp = (Digraph.from_weighted_arcs(4, {(2, 0): 3, (0, 1): 1, (1, 3): 2, (2, 3): 1}), 2)
    got, full = inputs(inp), VOCABULARY.interpret(inp, dijkstra_dynamic(*inp))
    assert sorted(got) == ["arc", "hop", "n", "pre", "src", "w"]
    assert (got["n"], got["src"]) == (full["n"], full["src"]) == (4, 2)
    pairs = [(i, j) for i in range(4) for j in range(4)]
    assert all(got["arc"](i, j) == full["arc"](i, j) and got["w"](i, j) == full["w"](i, j) for i, j in pairs)
    # hop and pre are the input's (so the domain fact `reachable` is read without a run), and the run's alike
    assert all(got[k](v) == full[k](v) for k in ("hop", "pre") for v in range(4))
    # the interpretation's search of the whole input: the largest weight and a breadth-first tree from the source
    assert full["W"] == 3
    assert [full["hop"](v) for v in range(4)] == [1, 2, 0, 1] and [full["pre"](v) for v in range(4)] == [2, 0, -1, 2]


def test_inputs_read_a_batch_stand_in_row_by_row():
    """On a batch's stand-in (unweighted digraphs as columns) ``arc`` is every row's and every arc weighs 1."""
    import numpy as np

    from symcot.inputs.batch import DigraphColumns

    adj = np.zeros((2, 3, 3), dtype=np.int64)
    adj[0, 0, 1] = adj[1, 0, 2] = adj[1, 2, 1] = 1
    got = inputs((DigraphColumns(adj), 0))
    assert got["n"] == 3 and got["w"](0, 1) == 1
    assert got["arc"](0, 1).tolist() == [True, False] and got["arc"](2, 1).tolist() == [False, True]
    assert got["arc"](0, 3) is False


def test_inputs_keep_symbolic_weights():
    """Symbolic replay's weights are symbols: the prompt's symbols read them without comparing them."""
    import sympy as sp

    from symcot.inputs.weighted import symbolic_weights

    g = symbolic_weights(Digraph(3, ((0, 1), (1, 2))), sp.Symbol)
    got = inputs((g, 0))
    assert (got["w"](0, 1), got["w"](1, 2), got["arc"](1, 0)) == (*g.weights, False)
    assert all(isinstance(w, sp.Symbol) for w in g.weights)


def test_an_unreachable_vertex_breaks_the_domain_fact_reachable():
    """Reachability is the domain's, in first-order form: the run of a graph without it violates ``reachable``."""
    inp = (Digraph.from_weighted_arcs(3, {(0, 1): 1}), 0)
    fail = check_facts(VOCABULARY, Concrete(VOCABULARY.interpret(inp, [])))  # no reference states: not in its domain
    assert fail is not None and fail.fact == "reachable" and fail.values == {"v": 2}


def test_a_wrong_definition_is_caught_on_a_small_run():
    # selecting the highest Dist among the unvisited finite vertices is another algorithm: the run disagrees
    least = next(f for f in VOCABULARY.facts if f.name == "sel:least")
    wrong = Fact("sel:least", least.vars, lambda c, t, j: c.implies(
        c.and_(c.not_(c.vis(t, j)), c.fin(t + 1, j)),
        c.and_(c.sel(t) != -1, c.dist(t + 1, c.sel(t)) >= c.dist(t + 1, j))), "definition")
    inp = (Digraph.from_weighted_arcs(3, {(0, 1): 1, (0, 2): 2}), 0)
    wrong_vocab = replaced(VOCABULARY, "sel:least", wrong)
    fail = check_facts(wrong_vocab, Concrete(VOCABULARY.interpret(inp, dijkstra_dynamic(*inp))))
    assert fail is not None and fail.fact == "sel:least" and fail.values == {"τ": 0, "j": 2}


def test_a_wrong_derived_fact_is_caught_on_a_small_run():
    shrinks = Fact("dist-cur-grows", (MOVE,), lambda c, t: dist_cur(c, t + 1) <= dist_cur(c, t), "derived", Direct())
    inp = (Digraph.from_weighted_arcs(2, {(0, 1): 1}), 0)
    fail = check_facts(replaced(VOCABULARY, "dist-cur-grows", shrinks),
                       Concrete(VOCABULARY.interpret(inp, dijkstra_dynamic(*inp))))
    assert fail is not None and fail.fact == "dist-cur-grows" and fail.values == {"τ": 0}


def test_a_false_fact_is_not_proved_and_a_fact_never_assumes_itself_or_a_later_one():
    # Dist^(τ)[cur^(τ)] non-increasing: false (a positive weight makes it grow)
    shrinks = Fact("shrinks", (MOVE,), lambda c, t: dist_cur(c, t + 1) <= dist_cur(c, t), "derived", Direct())
    # every visited vertex keeps Dist 0: false
    zero = Fact("zero", (MOVE, VERTEX), lambda c, t, v: c.implies(c.vis(t, v), c.dist(t, v) == 0), "derived",
                Direct())
    for false in (shrinks, zero):
        vocab = Vocabulary("Dkst+false", VOCABULARY.symbols, (*VOCABULARY.facts, false), VOCABULARY.views,
                           VOCABULARY.interpret)
        c = Symbolic(vocab)
        ctx = Context([], 5)
        ctx.kinds = c.kinds
        obs = prove_fact(ctx, vocab, c, false)
        assert obs and not all(o.ok for o in obs), false.name
    c = Symbolic(VOCABULARY)
    invariant = next(f for f in VOCABULARY.facts if f.name == "invariant")
    names = [n for n, _ in hypotheses_for(VOCABULARY, c, invariant)]
    assert "invariant" not in names and "monotone" not in names and "progress" in names and "reachable" in names


def test_no_fact_is_assumed_by_hand():
    assert not [f.name for f in VOCABULARY.facts if f.kind == "hand"]
    assert [f.name for f in VOCABULARY.facts if f.kind == "derived"] == DERIVED


@pytest.mark.slow
def test_dijkstra_facts_are_proved():
    obs = prove_vocabulary(VOCABULARY, 60)
    assert obs and all(o.ok for o in obs), [o.line() for o in obs if not o.ok]
    assert {o.where for o in obs} == set(DERIVED)
    assert any("induction hypothesis" in o.used for o in obs)


def test_the_statements_facts_hold_on_a_run():
    """thm:cotdijkstra's statement reads: τ + 1 visited at τ, all at T, cur^(τ+1) unvisited, candidates ≤ (n-1)·W."""
    inp = (Digraph.from_weighted_arcs(4, {(0, 1): 3, (1, 2): 1, (0, 2): 5, (2, 3): 2}), 0)
    c = Concrete(VOCABULARY.interpret(inp, dijkstra_dynamic(*inp)))
    assert [c.cnt(t, 4) for t in range(4)] == [1, 2, 3, 4] and c.T == 3
    assert all(c.vis(3, v) for v in range(4)) and not any(c.vis(t, c.cur(t + 1)) for t in range(3))
    cands = [dist_cur(c, t) + c.w(c.cur(t), v) for t in range(3) for v in range(4) if c.arc(c.cur(t), v)]
    assert max(cands) == 6 <= 3 * c.W == 15
