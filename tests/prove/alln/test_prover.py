"""The all-n proofs: DFS, Algorithm 1 and tree Strahler (repaired) proved; mutants and the as-written Strahler not."""

import importlib

import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cotdfs_phi import DfsPhiConstruction
from proofs.cot_path_to_tree.constructions.cotpathtotree import PathToTreeConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from symcot.check.stepwise import check_input
from symcot.constructions.mutant import Mutant
from symcot.inputs import Digraph
from symcot.ir import n
from symcot.prove.alln.mutate import coordinates, overlay, single_weight_mutants
from symcot.prove.alln.prover import prove


def test_one_dfs_step_is_proved_for_every_n():
    r = prove(DfsConstruction(), facts=False, lemmas=False)
    assert r.proved, r.first_failure and r.first_failure.line()
    phases = {o.phase for o in r.obligations}
    assert {"size", "base", "step", "stop", "sum"} <= phases
    sizes = {o.where for o in r.obligations if o.phase == "size"}
    assert {"block dfs.cur", "the step count"} <= sizes, sizes  # the layout's n-blocks and the index bounds
    heads = {o.where.split(",")[0] for o in r.obligations if o.layer == 2 and o.where.startswith("head")}
    assert heads == {"head T", "head B"}


def test_a_dropped_parent_gate_weight_is_not_proved_and_the_block_is_named():
    inp = (Digraph.from_arcs(2, [(0, 1)]), 0)
    mut = Mutant(DfsConstruction(), 2, "W_2", ("par", 0), [("flg1", 0), ("buf", 0)], 0)
    ov, least = overlay(mut, inp)
    r = prove(mut.base, overlay=ov, min_size=least, facts=False, lemmas=False, stop_early=True, timeout_s=10)
    f = r.first_failure
    assert not r.proved and f is not None and f.phase == "step" and "block par" in f.where


def test_a_wrong_sign_weight_of_q_is_not_proved_and_q_is_named():
    inp = (Digraph.undirected(2, [(0, 1)]), 0)
    mut = Mutant(DfsPhiConstruction(), 2, "W_2", ("q", 0), [("flg1", 0)], 1)  # q ← flg1 - 1, not 2 flg1 - 1
    ov, least = overlay(mut, inp)
    r = prove(mut.base, overlay=ov, min_size=least, facts=False, lemmas=False, stop_early=True, timeout_s=10)
    f = r.first_failure
    assert not r.proved and f is not None and f.phase == "step" and "block q" in f.where


def refutes(mut, spec, families, least, size, own):
    """Whether exact replay refutes the mutant on an input of the families (sizes ``least .. size``).

    Only inputs where the mutant addresses the coordinates it has at ``own`` (the overlay's) count: a flat
    index into an ``m × m`` block is another weight at another size.
    """
    at = coordinates(mut, own)
    for k in range(least, size + 1):
        for fam in families:
            for inp in fam.inputs(k):
                if coordinates(mut, inp) == at and check_input(mut, spec, inp) is not None:
                    return True
    return False


def _soundness(cons, inp, spec, families, size):
    """Every sampled mutant the exhaustive checker refutes is not proved, and a failing obligation is named."""
    seen = 0
    for mut in single_weight_mutants(cons, inp):
        ov, least = overlay(mut, inp)
        if not refutes(mut, spec, families, least, size, inp):
            continue
        seen += 1
        r = prove(mut.base, overlay=ov, min_size=least, facts=False, lemmas=False, stop_early=True, timeout_s=15)
        f = r.first_failure
        assert not r.proved and f is not None and f.phase in ("base", "step", "stop", "sum"), (mut.layer, mut.map_label)
    return seen


@pytest.mark.slow
def test_every_refuted_dfs_mutant_of_the_sample_is_not_proved():
    m = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")
    inp = (Digraph.from_arcs(3, [(0, 1), (1, 2)]), 0)
    assert _soundness(DfsConstruction(), inp, m.SPEC, [m.DIGRAPHS], 3) >= 6


@pytest.mark.slow
def test_every_refuted_path_to_tree_mutant_of_the_sample_is_not_proved():
    m = importlib.import_module("proofs.cot_path_to_tree.thm_cotpathtotree")
    from symcot.inputs.dyck_families import DYCK_WORDS

    assert _soundness(PathToTreeConstruction(), "UUDD", m.SPEC, [DYCK_WORDS], 5) >= 4


@pytest.mark.slow
def test_every_refuted_tree_strahler_mutant_of_the_sample_is_not_proved():
    m = importlib.import_module("proofs.cot_path_to_tree.thm_cottreestrahler")
    inp = (Digraph.undirected(3, [(0, 1), (1, 2)]), 0)
    assert _soundness(StrahlerTreeConstruction("repaired"), inp, m.SPEC, [m.TREES], 4) >= 8


@pytest.mark.slow
def test_dfs_and_algorithm_1_are_proved_with_their_facts_and_lemmas():
    for cons in (DfsConstruction(), PathToTreeConstruction()):
        r = prove(cons)
        assert r.proved, (cons.label, r.first_failure and r.first_failure.line())
        assert any(o.phase == "fact" for o in r.obligations) and any(o.phase == "lemma" for o in r.obligations)


@pytest.mark.slow
def test_dfs_with_the_sign_component_is_proved():
    r = prove(DfsPhiConstruction(), facts=False, lemmas=False)
    assert r.proved, r.first_failure and r.first_failure.line()
    assert any(o.phase == "step" and "block q" in o.where for o in r.obligations)


@pytest.mark.slow
def test_tree_strahler_repaired_is_proved_and_its_lambda_rule_derived():
    r = prove(StrahlerTreeConstruction("repaired"), facts=False, lemmas=False)
    assert r.proved and r.lam_bound == "2*n - 1"
    assert r.lam_rule.rule == 2 * n - 3
    assert r.lam_rule.below["rule"] == "λ ≥ 2*n - 4" and r.lam_rule.below["status"] != "proved"


@pytest.mark.slow
def test_tree_strahler_as_written_is_not_proved():
    r = prove(StrahlerTreeConstruction("as-written"), facts=False, lemmas=False, stop_early=True, timeout_s=30)
    f = r.first_failure
    assert not r.proved and f is not None and f.layer == 2 and "head B" in f.where


def _path_to_tree_with_a_term_on_a(term):
    """Algorithm 1's decoder with ``max(0, m − 8) · term(h)`` added to block ``A`` of ``W_2`` (0 for every m ≤ 8)."""
    import dataclasses

    import sympy as sp

    from symcot.constructions.derived import Derived
    from symcot.ir import Map, m
    from symcot.ir.expr import Scale

    base = PathToTreeConstruction()
    layer = base.decoder.layers[0]
    w2 = layer.ffn.w2
    assign = {b: e for b, e in w2.exprs.items() if b not in w2.kept}
    assign["A"] = assign["A"] + Scale(sp.Max(0, m - 8), term(w2.src.vars()))
    w2m = Map(w2.name, w2.src, w2.dst, assign, keep=w2.kept, zero=w2.zeroed, max_degree=w2.max_degree, doc=w2.doc)
    layer_m = dataclasses.replace(layer, ffn=dataclasses.replace(layer.ffn, w2=w2m))
    decoder = dataclasses.replace(base.decoder, layers=[layer_m])
    return Derived(base, "A + max(0, m - 8) term", decoder, ["a term on A that is 0 up to m = 8"])


def _unit_1(h):
    from symcot.ir import UnitVector, m
    from symcot.ir.expr import Const

    return Const(UnitVector(m**2, 1))  # e_1 of the m × m block: coordinate (0, 1)


def _unit_m(h):
    from symcot.ir import UnitVector, m
    from symcot.ir.expr import Const

    return Const(UnitVector(m**2, m))  # e_m of the m × m block: coordinate (1, 0), not a row "a = m" out of range


def _shifted_a(h):
    from symcot.ir import Shift, m

    return Shift(m**2, 1) @ h.A


@pytest.mark.parametrize("term", [_unit_m, pytest.param(_unit_1, marks=pytest.mark.slow),
                                  pytest.param(_shifted_a, marks=pytest.mark.slow)], ids=["e_m", "e_1", "S A"])
def test_a_term_on_the_m_by_m_block_that_is_zero_up_to_m_8_is_not_proved_and_a_is_named(term):
    mut = _path_to_tree_with_a_term_on_a(term)
    r = prove(mut, facts=False, lemmas=False, stop_early=True, timeout_s=20)
    f = r.first_failure
    assert not r.proved and f is not None and f.phase == "step" and "block A" in f.where, f and f.line()


@pytest.mark.parametrize("term", [_unit_m, _unit_1, _shifted_a], ids=["e_m", "e_1", "S A"])
def test_exact_replay_refutes_the_term_on_a_beyond_m_8_only(term):
    spec = importlib.import_module("proofs.cot_path_to_tree.thm_cotpathtotree").SPEC
    mut = _path_to_tree_with_a_term_on_a(term)
    assert check_input(mut, spec, "UUUDDD") is None and check_input(mut, spec, "UDUDUDUDUDUDUD") is None  # m ≤ 8
    mm = check_input(mut, spec, "U" * 9 + "D" * 9)  # m = 10
    assert mm is not None and mm.kind == "block" and mm.name == "A"


def test_lemmas_are_not_hypotheses_of_the_step_obligations():
    """A vocabulary's lemmas serve the facts after them; the statement's obligations assume the rest."""
    from proofs.cot_path_to_tree.algorithms.strahler_facts import VOCABULARY
    from symcot.prove.alln.ops import Symbolic
    from symcot.prove.alln.prover import step_hypotheses

    names = [name for name, _ in step_hypotheses(VOCABULARY, Symbolic(VOCABULARY))]
    lemmas = [f.name for f in VOCABULARY.facts if f.lemma]
    assert {"stack-levels", "clock", "spread", "reachable", "step:lvl", "cnt:step"} <= set(lemmas)
    assert not set(names) & set(lemmas) and {"tree-steps", "bound", "fold-last", "ends"} <= set(names)
