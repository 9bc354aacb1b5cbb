"""BFS with the width fold and the source relaxed from ∞ (thm:cotwidoftree's as-written runs): the transition is the
as-written decoder's source distance, every fact holds on every run of every small rooted tree, a wrong statement is
caught, and the derived fact is proved for every n."""

import pytest

from proofs.cot_path_to_tree.algorithms.dfs_facts import STEP
from proofs.cot_path_to_tree.algorithms.dijkstra import (
    INF,
    WIDTH_BFS,
    WIDTH_BFS_SOURCE,
    bfs_dynamic,
    bfs_width_dynamic,
    weighted_input,
)
from proofs.cot_path_to_tree.algorithms.widthtree_aswritten_facts import VOCABULARY
from proofs.cot_path_to_tree.algorithms.widthtree_facts import VOCABULARY as WIDTH
from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction
from symcot.algorithms.logic import Concrete, Fact, Induction, Vocabulary, check_facts, check_views
from symcot.algorithms.transition import run
from symcot.inputs import Digraph, rooted_labeled_trees
from symcot.model.semantics import generate
from symcot.prove.alln.facts import prove_vocabulary
from tests.fixtures.vocabularies import added_facts, prove_one, replaced

FIELDS = ["dist", "cur", "vst", "dist_cur", "t", "dif", "twd", "mwd"]


def _back_oracle(g, r):
    """``(back, bdist)`` at every step: the least ``Dist[u] + 1`` over the current vertices ``u`` before ``τ`` with an
    arc into the root, written from the definition (not through the transition)."""
    states = bfs_dynamic(g, r)
    out, best = [], None
    for t in range(len(states)):
        out.append((best is not None, best if best is not None else 0))
        u = states[t].cur
        if (u, r) in set(g.arcs):
            cand = states[t].dist[u] + 1
            best = cand if best is None else min(best, cand)
    return out


def test_the_transition_extends_the_width_fold_with_the_relaxed_back_distance():
    for size in range(1, 6):
        for g, r in rooted_labeled_trees(size):
            got = run(WIDTH_BFS_SOURCE, weighted_input(g, r)).states
            base = run(WIDTH_BFS, weighted_input(g, r)).states
            assert [{k: v for k, v in s.items() if k not in ("back", "bdist")} for s in got] == base
            assert [(s["back"], s["bdist"]) for s in got] == _back_oracle(g, r), (g, r)


def test_it_is_the_as_written_decoders_source_distance_on_every_rooted_tree_to_five_vertices():
    """π_dis(y_τ) of the as-written decoder is Dist^(τ) (∞ ↦ λ) but at the root: bdist(τ) where back(τ), else λ."""
    cons = WidthTreeConstruction("as-written")
    for size in range(2, 6):
        for g, r in rooted_labeled_trees(size):
            inp = (g, r)
            states, lam = bfs_dynamic(g, r), cons.lam_value(inp)
            src = run(WIDTH_BFS_SOURCE, weighted_input(g, r)).states
            dec = cons.concrete(inp)
            outs = generate(dec, cons.prompt(inp).tokens, size - 1).outputs
            for t, y in enumerate(outs, start=1):
                want = [lam if d is INF else d for d in states[t].dist]
                want[r] = src[t]["bdist"] if src[t]["back"] else lam
                assert dec.layout.pi("dis", y) == want, (g, r, t)


def test_facts_and_views_hold_on_every_rooted_tree_to_five_vertices():
    count = 0
    for size in range(1, 6):
        for inp in rooted_labeled_trees(size):
            states = bfs_width_dynamic(*inp)
            c = Concrete(VOCABULARY.interpret(inp, states))
            assert check_facts(VOCABULARY, c) is None, inp
            assert check_views(VOCABULARY, c, states, FIELDS) is None, inp
            count += 1
    assert count == 1 + 2 + 9 + 64 + 625


def test_it_extends_the_width_vocabulary_with_back_and_no_hand_fact():
    added = added_facts(VOCABULARY, WIDTH)
    assert added == {"init:back": "definition", "init:bdist": "definition", "step:back": "definition",
                     "step:bdist": "definition", "back-range": "derived"}
    assert not [f.name for f in VOCABULARY.facts if f.kind == "hand"]


def test_the_relaxed_back_distance_on_a_run():
    """Root 0, children 1, 2, grandchild 3: the first child made current relaxes the arc back to 0 (Dist 1 + 1)."""
    inp = (Digraph.undirected(4, [(0, 1), (0, 2), (1, 3)]), 0)
    c = Concrete(VOCABULARY.interpret(inp, bfs_width_dynamic(*inp)))
    assert [(c.back(t), c.bdist(t)) for t in range(4)] == [(False, 0), (False, 0), (True, 2), (True, 2)]


def test_a_wrong_derived_fact_is_caught_on_a_small_run():
    # "bdist ≤ 1": false once the arc back from a child of the root is relaxed (Dist 1 + 1 = 2)
    tight = Fact("back-range", (STEP,), lambda c, t: c.implies(c.back(t), c.bdist(t) <= 1), "derived",
                 Induction("τ"))
    inp = (Digraph.undirected(3, [(0, 1), (0, 2)]), 0)
    wrong_vocab = replaced(VOCABULARY, "back-range", tight)
    fail = check_facts(wrong_vocab, Concrete(VOCABULARY.interpret(inp, bfs_width_dynamic(*inp))))
    assert fail is not None and fail.fact == "back-range" and fail.values == {"τ": 2}


def test_a_false_fact_is_not_proved():
    # the source's distance is never relaxed back: false (a child of the root relaxes the arc back)
    never = Fact("never", (STEP,), lambda c, t: c.not_(c.back(t)), "derived", Induction("τ"))
    vocab = Vocabulary("back+false", VOCABULARY.symbols, (*VOCABULARY.facts, never), VOCABULARY.views,
                       VOCABULARY.interpret)
    obs = prove_one(vocab, never)
    assert obs and not all(o.ok for o in obs)


@pytest.mark.slow
def test_the_derived_facts_are_proved():
    obs = prove_vocabulary(VOCABULARY, 60)
    assert obs and all(o.ok for o in obs), [o.line() for o in obs if not o.ok]
    derived = [f.name for f in VOCABULARY.facts if f.kind == "derived"]
    assert {o.where for o in obs} == set(derived) and "back-range" in derived
