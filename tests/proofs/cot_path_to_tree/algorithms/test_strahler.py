"""Reference level of obs:dynamicstrdfs: the recursive str, each fold equation, and their property checks."""

import importlib

import pytest

from proofs.cot_path_to_tree.algorithms import phi_ordered, psi
from proofs.cot_path_to_tree.algorithms.strahler import (
    EMPTY,
    combine,
    fold_case,
    fold_reduced,
    fold_strahler,
    footnote_accumulator,
    str_of,
    strah_c,
    strah_c_repaired,
    strah_m,
    strahler_dynamic,
    strahler_number,
    strahler_ordered,
)
from symcot.check.context import RunContext
from symcot.claims import PropertyCheck
from symcot.errors import InvalidInputError
from symcot.inputs import Digraph, catalan, ordered_trees, random_labeled_tree

GRID = [(s, (m, c)) for s in range(7) for m in range(7) for c in (0, 1)]


@pytest.fixture(scope="module")
def obs(claims):
    return importlib.import_module("proofs.cot_path_to_tree.obs_dynamicstrdfs")


def binary_rank(word):
    """str of psi(word) for a tree whose internal nodes have at most two children, by the binary formula."""
    tree = psi(word)

    def rec(v):
        ks = [rec(c) for c in tree.children[v]]
        if not ks:
            return 0
        if len(ks) == 1:
            return ks[0]
        a, b = ks
        return max(min(a, b) + 1, max(a, b))

    return rec(0)


def test_recursive_definition_on_known_trees():
    assert strahler_ordered(psi("")) == 0  # a single vertex (leaf)
    assert strahler_ordered(psi("UUUDDD")) == 0  # a path
    assert strahler_ordered(psi("UDUD")) == 1  # a cherry
    assert strahler_ordered(psi("UDUDUD")) == 1  # a star: the max is attained thrice, still +1 only
    assert strahler_ordered(psi("UUDUDDUUDUDD")) == 2  # complete binary tree of depth 2
    assert strahler_ordered(psi("UUDUDDUD")) == 1  # children with str 1 and 0
    # labeled trees: the root matters
    g = Digraph.undirected(3, [(0, 1), (1, 2)])
    assert strahler_number(g, 1) == 1 and strahler_number(g, 0) == 0


def test_recursive_definition_matches_the_binary_formula():
    # Section 2.2: for binary trees str = max(min(str τ1, str τ2) + 1, max(str τ1, str τ2)).
    for k in range(1, 9):
        for t in ordered_trees(k):
            if all(len(c) <= 2 for c in t.children):
                w = phi_ordered(t)
                assert strahler_ordered(t) == binary_rank(w), w


def test_case_form_and_its_reduced_form_agree_on_a_grid():
    for s, acc in GRID:
        assert fold_case(s, acc) == fold_reduced(s, acc), (s, acc)
        assert strah_m(s, acc) == fold_case(s, acc)[0]
        assert strah_c_repaired(s, acc) == fold_case(s, acc)[1]


def test_strahc_as_printed_swaps_the_two_strict_cases():
    # D > 0 (a larger child) with c_u = 0: the count must become 1; eq:strahc keeps c_u = 0.
    assert fold_case(2, (1, 0)) == (2, 1) and strah_c(2, (1, 0)) == 0
    # D < 0 (a smaller child) with c_u = 0 after a carry: the count must stay 0; eq:strahc gives 1.
    assert fold_case(0, (1, 0)) == (1, 0) and strah_c(0, (1, 0)) == 1
    # D = 0 is untouched.
    assert all(strah_c(s, (s, c)) == fold_case(s, (s, c))[1] for s in range(4) for c in (0, 1))


def test_the_carry_and_the_footnote():
    # Two children with str 0: the second (D = 0, c_u = 1) lifts M to 1 and resets c to 0.
    acc = fold_case(0, fold_case(0, EMPTY))
    assert acc == (1, 0) and str_of(acc) == 1 == footnote_accumulator([0, 0])[0]
    assert footnote_accumulator([]) == (0, 0) and footnote_accumulator([2, 1]) == (2, 1)
    assert footnote_accumulator([1, 1, 1]) == (2, 0) and footnote_accumulator([0, 0, 1]) == (1, 1)


def test_fold_along_dfs_matches_recursive_str_on_random_labeled_trees():
    import random

    rng = random.Random(7)
    for _ in range(60):
        k = rng.randrange(1, 14)
        g = random_labeled_tree(k, rng)
        r = rng.randrange(k)
        states = strahler_dynamic(g, r)
        assert len(states) == 2 * k and states[-1].dfs.cur is None
        assert fold_strahler(g, r) == strahler_number(g, r)
        assert states[-1].acc == (strahler_number(g, r), 1)  # str(s) folded into φ's empty accumulator


def test_bad_inputs_are_rejected():
    with pytest.raises(InvalidInputError, match="non-negative"):
        fold_case(-1, (0, 0))
    with pytest.raises(InvalidInputError, match="pair"):
        fold_reduced(0, (0, 0, 0))
    with pytest.raises(InvalidInputError, match="cycle"):
        strahler_number(Digraph.undirected(3, [(0, 1), (1, 2), (2, 0)]), 0)
    with pytest.raises(InvalidInputError, match="disconnected"):
        strahler_dynamic(Digraph.undirected(3, [(0, 1)]), 0)


def test_claims_verdicts(claims):
    """Every ordered tree up to 8 vertices here (626 trees); ``symcot verify`` goes to 10 (6918)."""
    assert all(claims[c].default_max_size == 10 for c in ("obs:dynamicstrdfs", "eq:strahc"))
    total = sum(catalan(k - 1) for k in range(1, 9))
    assert total == 626
    for cid in ("obs:dynamicstrdfs", "eq:dynamicstrdfs", "eq:dynamicstrdfs:reduced", "eq:strahM"):
        (row,) = claims[cid].run(8)
        assert row.verdict == "verified" and row.max_size == 8 and row.inputs_checked == total, cid
    written, repaired = claims["eq:strahc"].run(8)
    assert repaired.variant == "repaired" and repaired.verdict == "verified" and repaired.max_size == 8
    assert written.variant == "as-written" and written.verdict == "refuted" and written.max_size == 6
    c = written.counterexample
    assert c["size"] == 7 and c["input"]["word"] == "UUDUDDUUDUDD"
    assert (c["step"], c["what"], c["expected"], c["got"]) == (13, "str(τ_v0)", 2, 1)


def test_strahc_breaks_the_observations_meaning_already_at_four_vertices(obs):
    row = PropertyCheck("as-written", [obs.ORDERED], obs.observation(combine(c_rule=strah_c))).run(RunContext("x", 10))
    c = row.counterexample
    assert row.verdict == "refuted" and c["size"] == 4 and c["input"]["word"] == "UUDUDD"
    assert (c["step"], c["expected"], c["got"]) == (6, [1, 1], [1, 0])


def test_a_deliberately_false_equation_is_refuted(obs):
    # No carry: M = max(str(τ_v), M_u); two equal children then never lift M.
    no_carry = combine(m_rule=lambda s, acc: max(s, acc[0]))
    row = PropertyCheck("false", [obs.ORDERED], obs.against_recursive(no_carry)).run(RunContext("x", 10))
    c = row.counterexample
    assert row.verdict == "refuted" and c["size"] == 3 and c["input"]["word"] == "UDUD"
    assert (c["expected"], c["got"]) == (1, 0)
    # and a reduced form that differs from the case form only in c (never 0 after a carry) is caught too
    bad_reduced = combine(c_rule=lambda s, acc: max(fold_case(s, acc)[1], 1))
    row = PropertyCheck("false", [obs.ORDERED], obs.agrees_with_case_form(bad_reduced)).run(RunContext("x", 10))
    c = row.counterexample
    assert row.verdict == "refuted" and c["input"]["word"] == "UDUD" and c["kind"] == "accumulator"
    assert (c["step"], c["expected"], c["got"]) == (4, [1, 0], [1, 1])


def test_the_count_never_reaches_two():
    # The proof's "c ∈ {0, 1, 2}": with the carry the fold keeps c ∈ {0, 1}, so 1[c_v ≥ 2] is always 0.
    seen = {st.acc[1] for k in range(1, 10) for t in ordered_trees(k) for st in strahler_dynamic(t.to_digraph(), 0)}
    assert seen == {0, 1}


def test_the_report_fields_on_the_cherry():
    states = strahler_dynamic(psi("UDUD").to_digraph(), 0)
    assert [st.acc for st in states] == [(0, 0), (0, 0), (0, 1), (0, 0), (1, 0), (1, 1)]
    assert [(st.finished, st.child_str, st.parent_before, st.children_str) for st in states] == [
        (None, None, None, ()), (None, None, None, ()), (1, 0, (0, 0), (0,)), (None, None, None, ()),
        (2, 0, (0, 1), (0, 0)), (0, 1, (0, 0), (1,))]


def test_a_python_update_runs_the_same_transition():
    """``strahler_dynamic`` runs STRAHLER for ``fold_case`` and the transition of a Python update otherwise."""
    for k in range(1, 8):
        for t in ordered_trees(k):
            g = t.to_digraph()
            ref = strahler_dynamic(g, 0)
            assert strahler_dynamic(g, 0, lambda s, acc: fold_case(s, acc)) == ref
            assert strahler_dynamic(g, 0, fold_reduced) == ref
