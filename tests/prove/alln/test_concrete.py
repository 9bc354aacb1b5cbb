"""The statement on concrete runs: it holds for the constructions, and a wrong statement is caught with its input."""

import dataclasses
import importlib

from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT as DFS
from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import STATEMENT as TREE
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from symcot.constructions.alln import Choice
from symcot.prove.alln.concrete import check_statement


def _dfs():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")


def test_the_dfs_statement_holds_on_every_digraph_to_three_vertices():
    m = _dfs()
    rep = check_statement(DfsConstruction(), DFS, m.SPEC.reference, [m.DIGRAPHS], 3, 3, reading_size=2)
    assert rep.failure is None and rep.max_size == 3 and rep.inputs == 1 + 8 + 192
    assert rep.z3_reading_inputs == 1 + 8
    assert rep.fact_instances["monotone"] > 0


def test_a_wrong_head_choice_is_caught_with_input_and_step():
    m = _dfs()
    wrong = Choice(2, "T", lambda c, t: [(True, "x_⊥", 0)])  # "head T always defaults to x_⊥"
    stmt = dataclasses.replace(DFS, choices=(wrong, DFS.choices[1]))
    rep = check_statement(DfsConstruction(), stmt, m.SPEC.reference, [m.DIGRAPHS], 3, 1)
    f = rep.failure
    assert f is not None and f.kind == "choice" and f.step == 0 and f.input["n"] == 2 and not f.decoder_departs


def test_a_wrong_token_block_is_caught():
    from symcot.constructions.encoding import const

    m = _dfs()
    stmt = dataclasses.replace(DFS, token=DFS.token.extended(tmp=const(1)))
    f = check_statement(DfsConstruction(), stmt, m.SPEC.reference, [m.DIGRAPHS], 2, 1).failure
    assert f is not None and (f.kind, f.step, f.what, f.expected, f.got) == ("token", 1, "block tmp of y_1", [1, 1],
                                                                               [0, 0])


def test_tree_strahler_as_written_departs_from_the_statement_on_the_final_backtrack():
    m = importlib.import_module("proofs.cot_path_to_tree.thm_cottreestrahler")
    ok = check_statement(StrahlerTreeConstruction("repaired"), TREE, m.SPEC.reference, [m.TREES], 4, 3)
    assert ok.failure is None
    bad = check_statement(StrahlerTreeConstruction("as-written"), TREE, m.SPEC.reference, [m.TREES], 4, 3).failure
    assert bad is not None and bad.kind == "choice" and bad.input["n"] == 2 and "head B" in bad.what



def test_the_prover_reading_of_a_choice_at_the_prompt_tokens_is_compared():
    """A choice at ``x_i`` is read at every ``i`` in both readings: ``i / 2`` is 0.5 in Python and 0 in Z3 at i = 1."""
    from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic
    from symcot.constructions.alln import Choice
    from symcot.inputs import Digraph
    from symcot.prove.alln.pinned import check_z3_reading

    g = Digraph.from_arcs(2, [(0, 1)])
    values = DFS.vocabulary.interpret((g, 0), dfs_dynamic(g, 0))
    halves = dataclasses.replace(DFS, choices=(*DFS.choices, Choice(2, "T", lambda c, i: [(True, "x", i / 2)],
                                                                    cls="x")))
    diff = check_z3_reading(halves, values, facts=False)
    assert diff is not None and diff.what == "the choice of head T at layer 2 at x_1"
    assert diff.python == ["x", 0.5] and diff.z3 == ["x", 0]
    whole = dataclasses.replace(DFS, choices=(*DFS.choices, Choice(2, "T", lambda c, i: [(True, "x", i)], cls="x")))
    assert check_z3_reading(whole, values, facts=False) is None


def _with_x_token(enc):
    """The DFS statement with ``x_i`` encoded by ``enc``."""
    x = DFS.segment("x")
    return dataclasses.replace(DFS, segments=(DFS.segments[0], dataclasses.replace(x, encoding=enc)))


def test_a_wrong_segment_encoding_gives_a_prompt_the_concrete_phase_refutes():
    """The prompt is read from the segments: a wrong ``x_i`` is the construction's prompt, and its run departs."""
    from proofs.cot_path_to_tree.constructions.cotdfs import X_TOKEN
    from symcot.constructions.encoding import const
    from symcot.inputs import Digraph

    m = _dfs()
    for enc, kind, step in ((X_TOKEN.extended(nbr=const(0)), "token", 1),  # x_i without A_{i,:}: y_1 has no nbr
                            (X_TOKEN.extended(flg3=const(1)), "choice", 0)):  # head B's key then matches x_0
        wrong = _with_x_token(enc)
        cons = DfsConstruction()
        cons.all_n = wrong
        inp = (Digraph.from_arcs(2, [(0, 1)]), 0)
        assert cons.prompt(inp).tokens[1] != DfsConstruction().prompt(inp).tokens[1]  # x_0 read from the segment
        f = check_statement(cons, wrong, m.SPEC.reference, [m.DIGRAPHS], 3, 1).failure
        assert f is not None and (f.kind, f.step) == (kind, step), f


def test_a_statement_whose_prompt_is_not_the_constructions_is_caught_at_the_prompt():
    from proofs.cot_path_to_tree.constructions.cotdfs import X_TOKEN
    from symcot.constructions.encoding import const

    m = _dfs()
    wrong = _with_x_token(X_TOKEN.extended(nbr=const(0)))  # handed to a construction that reads its own statement
    f = check_statement(DfsConstruction(), wrong, m.SPEC.reference, [m.DIGRAPHS], 3, 1).failure
    assert f is not None and (f.kind, f.what, f.step) == ("prompt", "token 1", None)


def test_a_traced_statement_reads_infinity_as_the_runs_lambda_in_views_prompt_and_tokens():
    """Dijkstra's ∞ is the prover's λ once traced: the concrete phase binds the run's λ, never a second reading."""
    from proofs.cot_path_to_tree.constructions.cotdijkstra import STATEMENT as DKST
    from proofs.cot_path_to_tree.constructions.cotdijkstra import DijkstraConstruction
    from symcot.prove.alln.kernel import traced

    m = importlib.import_module("proofs.cot_path_to_tree.thm_cotdijkstra")
    cons = DijkstraConstruction("repaired")
    kcons, own, _ = traced(cons, None)
    assert own.prompt.reads_lam and not DKST.prompt.reads_lam  # the view of ∞ is λ in the term
    inputs = list(m.WEIGHTED.inputs(2))[:4]
    for inp in inputs:
        assert kcons.prompt(inp).tokens == cons.prompt(inp).tokens
    rep = check_statement(kcons, own, m.SPEC.reference, [m.WEIGHTED], 2, 2, reading_size=1)
    assert rep.failure is None and rep.inputs > 0
