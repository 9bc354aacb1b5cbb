"""The DFS vocabulary: every fact holds on every run of every small digraph; its views are the reference's fields."""

from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic
from proofs.cot_path_to_tree.algorithms.dfs_facts import VOCABULARY
from symcot.algorithms.logic import Concrete, Fact, check_facts, check_views
from symcot.inputs import Digraph, digraphs_with_sources


def test_facts_and_views_hold_on_every_digraph_to_three_vertices():
    count = 0
    for size in range(1, 4):
        for inp in digraphs_with_sources(size):
            states = dfs_dynamic(*inp)
            c = Concrete(VOCABULARY.interpret(inp, states))
            assert check_facts(VOCABULARY, c) is None, inp
            assert check_views(VOCABULARY, c, states, ["cur", "vst", "par_cur", "has_cur"]) is None
            count += 1
    assert count == 1 * 1 + 2 * 4 + 3 * 64


def test_a_wrong_definition_is_caught_on_a_small_run():
    # traversing to the highest-index unvisited neighbour is another algorithm: the run disagrees
    lowest = next(f for f in VOCABULARY.facts if f.name == "nxt:lowest")
    wrong = Fact("nxt:lowest", lowest.vars, lambda c, t, j: c.implies(
        c.and_(c.adj(c.cur(t), j), c.not_(c.vis(t, j))), c.and_(c.tr(t), c.nxt(t) >= j)), "definition")
    facts = tuple(wrong if f.name == "nxt:lowest" else f for f in VOCABULARY.facts)
    vocab = type(VOCABULARY)("wrong", VOCABULARY.symbols, facts, VOCABULARY.views, VOCABULARY.interpret)
    inp = (Digraph.from_arcs(3, [(0, 1), (0, 2)]), 0)
    fail = check_facts(vocab, Concrete(vocab.interpret(inp, dfs_dynamic(*inp))))
    assert fail is not None and fail.fact == "nxt:lowest"
