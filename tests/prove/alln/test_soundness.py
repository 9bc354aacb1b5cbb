"""The all-n prover's own soundness: names, λ, the two readings, one view per name, the step count, coverage.

Each test states a wrong or adversarial statement or decoder that a careless prover would prove, and shows
that it is not proved (or is an error) and why.
"""

import dataclasses
import importlib

import pytest
import z3

from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT as DFS
from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from symcot.algorithms.logic import Fact, Sig, Var
from symcot.check.context import RunContext
from symcot.constructions.alln import AllNStatement
from symcot.inputs import Digraph
from symcot.ir import n
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.concrete import check_statement, check_witness
from symcot.prove.alln.ops import NameClash, Symbolic, SymbolicTruthiness, quantified, reading
from symcot.prove.alln.pinned import check_z3_reading
from symcot.prove.alln.prover import STEP_NAME, lambda_hypothesis, prove
from symcot.prove.alln.trust import trusted_base


def _dfs():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")


def _with_facts(stmt, *facts, symbols=()):
    vocab = stmt.vocabulary.extended(stmt.vocabulary.name, symbols=symbols, facts=facts)
    return dataclasses.replace(stmt, vocabulary=vocab)


def _cons(stmt):
    cons = DfsConstruction()
    cons.all_n = stmt
    return cons


def _row(stmt, concrete_size=3, facts_size=3, families=None):
    m = _dfs()
    chk = AllNCheck(lambda: _cons(stmt), m.SPEC, families or [m.DIGRAPHS], concrete_size=concrete_size,
                    facts_size=facts_size)
    return chk.run(RunContext("thm:cotdfs", concrete_size))


# -- names ------------------------------------------------------------------------------------------------

def test_a_vocabulary_constant_named_t_is_not_the_provers_step():
    stmt = _with_facts(DFS, symbols=(Sig("t", 0, doc="a constant named like the step"),))
    c = Symbolic(stmt.vocabulary)
    assert not c.t.eq(z3.Int(STEP_NAME)) and STEP_NAME != "t"


@pytest.mark.parametrize("name", ["ite", "vec", "lam", "kinds", "x!y", "_private"])
def test_a_symbol_that_would_be_shadowed_or_clash_is_an_error(name):
    stmt = _with_facts(DFS, symbols=(Sig(name, 0),))
    with pytest.raises(NameClash, match="reserved or not an identifier"):
        Symbolic(stmt.vocabulary)


def test_a_bound_variable_named_like_a_constant_does_not_capture_it():
    # ∀ n ∈ [0, 0]: (the constant) n = 5 -- with capture it would read ∀ n ∈ [0, 0]: n = 5, false at 0
    fact = Fact("pin", (Var("n", lambda c: 0, lambda c: 0),), lambda c, x: c.n == 5, "hand")
    c = Symbolic(_with_facts(DFS, fact).vocabulary)
    s = z3.Solver()
    s.add(quantified(c, fact), c.n == 5)
    assert s.check() == z3.sat


def test_binding_a_name_the_vocabulary_has_is_an_error():
    c = Symbolic(DFS.vocabulary)
    with pytest.raises(NameClash):
        c.bind("n", z3.Int("other"))


# -- λ -------------------------------------------------------------------------------------------------------

def test_a_fixed_lambda_is_the_hypothesis_not_the_rule():
    cons = StrahlerTreeConstruction("repaired")
    sizes = {n: z3.Int("n")}
    term, name, hyp = lambda_hypothesis(cons.with_lambda(12), None, sizes)
    assert name == "λ = 12" and hyp is None and z3.simplify(term == 12)
    term, name, hyp = lambda_hypothesis(cons, None, sizes)
    assert name == "λ ≥ 2*n - 1" and hyp is not None
    with pytest.raises(ValueError, match="another decoder"):
        lambda_hypothesis(cons.with_lambda(12), 2 * n - 1, sizes)


@pytest.mark.slow
def test_tree_strahler_with_lambda_12_is_not_proved_though_right_to_n_7():
    m = importlib.import_module("proofs.cot_path_to_tree.thm_cottreestrahler")
    chk = AllNCheck(lambda: StrahlerTreeConstruction("repaired").with_lambda(12), m.SPEC, [m.TREES],
                    concrete_size=6, facts_size=3, timeout_s=20)
    row = chk.run(RunContext("thm:cottreestrahler", 6))
    assert row.verdict != "proved", row.notes
    assert row.details["concrete"]["sizes_complete"] == 6  # right on every tree the concrete phase ran


# -- two readings ----------------------------------------------------------------------------------------

def test_python_or_on_a_symbolic_term_is_an_error_naming_the_fact():
    fact = Fact("sloppy", (), lambda c: (c.n >= 1) or (c.n <= 0), "hand", source="written with Python's or")
    c = Symbolic(_with_facts(DFS, fact).vocabulary)
    with pytest.raises(SymbolicTruthiness, match="fact sloppy"):
        quantified(c, fact)


def test_python_equality_branch_is_refused_but_literals_are_fine():
    x, y = z3.Int("x"), z3.Int("y")
    with reading("view v"):
        assert bool(z3.BoolVal(True)) and not bool(z3.BoolVal(False))
        with pytest.raises(SymbolicTruthiness, match="view v"):
            bool(x == y)
    assert bool(x == x)  # outside a reading, z3's own behaviour is back


def test_a_row_whose_fact_uses_python_or_is_an_error_not_proved():
    fact = Fact("sloppy", (), lambda c: (c.n >= 1) or (c.n <= 0), "hand", source="written with Python's or")
    row = _row(_with_facts(DFS, fact), concrete_size=2, facts_size=2)
    assert row.verdict == "error" and "fact sloppy" in row.notes[-1]


def test_a_view_read_otherwise_by_z3_is_caught_on_a_real_run():
    # on Python integers / is exact (5 / 2 = 2.5); on Z3 integers it is integer division (2)
    stmt = dataclasses.replace(DFS, views={**DFS.views, "half": lambda c, t: c.n / 2})
    m = _dfs()
    inp = (Digraph.from_arcs(5, []), 0)
    diff = check_z3_reading(stmt, stmt.vocabulary.interpret(inp, m.SPEC.reference(inp)))
    assert diff is not None and "view half" in diff.what and (diff.python, diff.z3) == (2.5, 2)


def test_the_z3_reading_of_the_dfs_statement_agrees_on_real_runs():
    m = _dfs()
    for inp in [(Digraph.from_arcs(3, [(0, 1), (1, 2), (2, 0)]), 1), (Digraph.from_arcs(2, []), 0)]:
        assert check_z3_reading(DFS, DFS.vocabulary.interpret(inp, m.SPEC.reference(inp))) is None


def test_a_hidden_bound_on_n_leaves_no_witness_and_no_proof():
    fact = Fact("small", (), lambda c: c.n <= 2, "domain", source="a hypothesis that bounds the size")
    stmt = _with_facts(DFS, fact)
    m = _dfs()
    assert check_statement(_cons(stmt), stmt, m.SPEC.reference, [m.DIGRAPHS], 2, 2).failure is None
    wit = check_witness(_cons(stmt), stmt, m.SPEC.reference, [m.DIGRAPHS], [3])
    assert wit.input is None and wit.failure is not None and "small" in wit.failure.what
    row = _row(stmt, concrete_size=2, facts_size=2)
    assert row.verdict == "error" and "small" in " ".join(row.notes)
    assert row.details["obligations"] == []


# -- one view per name -----------------------------------------------------------------------------------

def test_a_statement_view_shadowing_a_vocabulary_view_is_an_error():
    with pytest.raises(ValueError, match="one view per name: step_sign"):
        dataclasses.replace(DFS, views={"step_sign": lambda c, t: 1})


def test_a_segment_view_shadowing_a_view_is_an_error():
    seg = dataclasses.replace(DFS.segments[-1], views={**DFS.segments[-1].views, "cur": lambda c, i: i})
    with pytest.raises(ValueError, match=r"cur \(segment"):
        dataclasses.replace(DFS, segments=(*DFS.segments[:-1], seg))


# -- the step count --------------------------------------------------------------------------------------

def test_a_statement_one_step_short_is_caught_against_the_reference_run():
    stmt = dataclasses.replace(DFS, steps=lambda c: c.T - 1)
    m = _dfs()
    f = check_statement(_cons(stmt), stmt, m.SPEC.reference, [m.DIGRAPHS], 2, 1).failure
    assert f is not None and f.kind == "steps" and (f.expected, f.got) == (0, 1)


# -- coverage ------------------------------------------------------------------------------------------

def test_a_row_whose_concrete_phase_ran_nothing_is_not_proved():
    m = _dfs()
    sample = dataclasses.replace(m.DIGRAPHS, name="a random sample", exhaustive=False)
    row = _row(DFS, families=[sample])
    assert row.verdict == "unknown" and "checked no input" in row.notes[-1]
    assert row.details["concrete"]["families_skipped"] == ["a random sample"]
    assert any("not in the concrete phase" in x for x in row.notes)


def test_the_trusted_base_names_every_assumed_item():
    concrete = {"inputs": 3, "facts_size": 3, "sizes_complete": 4, "z3_reading_size": 3,
                "fact_instances": {"ends": 7}, "witness": {"size": 7, "sizes": [5, 6, 7], "inputs": 9,
                                                         "input": {"text": "Digraph(n=5; ), source 0"}}}
    base = trusted_base(DFS, concrete, "λ = 12 (fixed)", "the step bound O(|V| + |E|)")
    text = "\n".join(base)
    for f in DFS.vocabulary.facts:
        if f.kind in ("definition", "domain", "hand"):
            assert f" {f.name} (" in text
    for item in ("views ", "the prompt", "the step count T", "traced once", "sizes 5, 6, 7", "λ = 12",
                 "not proved here: the step bound"):
        assert item in text
    assert "holds at 7 assignments" in text


def test_the_shipped_statements_pass_their_witness_runs():
    m = _dfs()
    wit = check_witness(DfsConstruction(), DFS, m.SPEC.reference, [m.DIGRAPHS], [4, 5])
    assert wit.failure is None and wit.sizes == [4, 5] and len(wit.inputs) == 6


def test_a_proof_that_reads_the_step_as_a_python_branch_cannot_happen():
    # the prover runs with truthiness refused: its own code never lets a Python branch decide a Z3 question
    r = prove(DfsConstruction(), facts=False, lemmas=False, only=("base",))
    assert r.obligations and all(o.phase == "base" and o.ok for o in r.obligations)
    assert isinstance(DFS, AllNStatement)


def test_the_trusted_base_says_how_the_run_ends():
    concrete = {"inputs": 3, "facts_size": 3, "sizes_complete": 4, "z3_reading_size": 3, "fact_instances": {}}
    assert any("stop rule is proved to fire exactly at T" in x for x in trusted_base(DFS, concrete))
    without = "\n".join(trusted_base(DFS, concrete, stops=False))
    assert "no stop rule: the decoder is run for exactly T steps" in without and "proved to fire" not in without
