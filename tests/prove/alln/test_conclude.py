"""A claim's conclusions as facts of a narrower vocabulary: only an extension is accepted, a misstated conclusion is an
error row, a conclusion is proved only with every fact it rests on, and a false one never comes out proved."""

import dataclasses
import importlib

import pytest

from proofs.cot_path_to_tree.algorithms.dfstree_facts import VOCABULARY as DFS_TREE
from proofs.cot_path_to_tree.algorithms.dijkstra_facts import VOCABULARY as DKST
from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT, DfsConstruction
from symcot.algorithms.logic import Direct, Fact
from symcot.check.context import RunContext
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.conclude import Concluded, check_concludes, concluded, narrowed, trusted_items
from symcot.prove.alln.context import Obligation
from tests.fixtures.vocabularies import replaced

M = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")
STEPS = "the stop rule fires at step 2(n-1) + 1"


def test_the_statement_is_read_over_an_extension_of_its_vocabulary():
    stmt = narrowed(STATEMENT, DFS_TREE)
    assert stmt.vocabulary is DFS_TREE and stmt.token is STATEMENT.token and stmt.choices is STATEMENT.choices


def test_a_vocabulary_that_does_not_extend_the_statements_is_refused():
    with pytest.raises(ValueError, match="does not extend"):
        narrowed(STATEMENT, DKST)
    views = dataclasses.replace(DFS_TREE, views={**DFS_TREE.views, "cur": lambda c, t: c.src})
    with pytest.raises(ValueError, match=r"changes the statement's views \['cur'\]"):
        narrowed(STATEMENT, views)


def test_misstated_conclusions_are_refused_with_what_is_wrong():
    with pytest.raises(ValueError, match="the spec's conclusions are"):
        check_concludes([Concluded("T is small", ("tree-steps",), "")], M.TREE_SPEC, DFS_TREE)
    with pytest.raises(ValueError, match="no fact 'h1'"):
        check_concludes([Concluded(STEPS, ("h1",), "")], M.TREE_SPEC, DFS_TREE)
    with pytest.raises(ValueError, match="'reachable' is a domain fact"):
        check_concludes([Concluded(STEPS, ("reachable",), "")], M.TREE_SPEC, DFS_TREE)
    check_concludes(M.TREE_CONCLUDES, M.TREE_SPEC, DFS_TREE)


def test_a_misstated_check_is_an_error_row():
    row = AllNCheck(DfsConstruction, M.TREE_SPEC, [M.TREES], concrete_size=2, facts_size=2, vocabulary=DFS_TREE,
                    concludes=[Concluded(STEPS, ("h1",), "")]).run(RunContext("thm:cotdfs:tree", 2))
    assert row.verdict == "error" and "no fact 'h1'" in row.notes[-1]


def test_a_conclusion_is_proved_only_with_every_fact_before_it():
    c = Concluded(STEPS, ("tree-steps",), "T = 2n - 1")
    steps = Obligation("fact", "tree-steps", "T = 2n - 1", "proved")
    earlier = Obligation("fact", "count-full", "cnt(T, k) = k", "unknown")
    assert concluded([c], [steps])[0]["proved"]
    assert not concluded([c], [earlier, steps])[0]["proved"]  # tree-steps rests on count-full
    assert not concluded([c], [Obligation("fact", "clock", "…", "proved")])[0]["proved"]  # no obligation of its own
    assert STEPS in trusted_items([c])[0]


def test_a_false_conclusion_is_not_proved():
    """A conclusion fact one step off (T = 2n): false on the smallest tree, so the concrete phase stops the row."""
    wrong = Fact("tree-steps", (), lambda c: c.T == 2 * c.n, "derived", Direct())
    row = AllNCheck(DfsConstruction, M.TREE_SPEC, [M.TREES], concrete_size=2, facts_size=2,
                    vocabulary=replaced(DFS_TREE, "tree-steps", wrong), concludes=M.TREE_CONCLUDES,
                    ).run(RunContext("thm:cotdfs:tree", 2))
    assert row.verdict != "proved" and "tree-steps" in row.notes[-1]
