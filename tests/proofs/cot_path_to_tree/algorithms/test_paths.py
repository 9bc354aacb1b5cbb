"""Reference algorithms on paths and ordered trees, the Dyck families, and the combinatorial claims.

Covers proofs/cot_path_to_tree/algorithms/paths.py, symcot/inputs/dyck_families.py and the PropertyChecks of
lem:bijectionpathtree, prop:heightpathtree, prop:widthpathtree, algo:pathtotree and intro:frv, each with a
deliberately false variant that must be refuted.
"""

import importlib
from collections import Counter

import pytest

from proofs.cot_path_to_tree.algorithms.bijection import phi_ordered, psi, psi_adjacency
from proofs.cot_path_to_tree.algorithms.paths import (
    algorithm1_states,
    binary_tree_strahler,
    binary_tree_word,
    fold,
    full_binary_strahler_values,
    full_binary_trees,
    height_class_distribution,
    level_sizes,
    log_height_class,
    partial_tree_adjacency,
    path_height,
    path_width,
    strahler,
    strahler_distribution,
    strahler_fold,
    strahler_of_children,
    tree_adjacency,
    tree_height,
    tree_width,
    up_counts,
    width_states,
)
from symcot.check.context import RunContext
from symcot.claims import PropertyCheck
from symcot.errors import InvalidInputError
from symcot.inputs.dyck import catalan, dyck_words, validate_dyck
from symcot.inputs.dyck_families import (
    DYCK_WORDS,
    NONEMPTY_DYCK_WORDS,
    ORDERED_TREES,
    describe_word,
    dyck_family,
    ordered_trees_by_forests,
    words_by_rank,
)
from symcot.inputs.trees import OrderedTree


@pytest.fixture(scope="module")
def mods(claims):
    return {name: importlib.import_module(f"proofs.cot_path_to_tree.{name}") for name in
            ("lem_bijectionpathtree", "prop_heightpathtree", "prop_widthpathtree", "algo_pathtotree", "frv_identity")}


# -- definitions on small hand-checked trees -----------------------------------------------------------

STAR = psi("UDUDUD")  # root with three leaves
PATH = psi("UUUDDD")  # a path of four vertices
BALANCED = psi("UUDUDDUUDUDD")  # root, two children with two leaves each


def test_tree_side_definitions_on_hand_checked_trees():
    assert (tree_height(STAR), tree_width(STAR), strahler(STAR)) == (1, 3, 1)
    assert (tree_height(PATH), tree_width(PATH), strahler(PATH)) == (3, 1, 0)
    assert (tree_height(BALANCED), tree_width(BALANCED), strahler(BALANCED)) == (2, 4, 2)
    assert level_sizes(BALANCED) == [1, 2, 4]
    assert strahler(STAR, leaf=1) == 2
    assert strahler_of_children([]) == 0 and strahler_of_children([1, 1, 0]) == 2 and strahler_of_children([2, 1]) == 2


def test_path_side_formulas():
    assert path_height("UUDUDD") == 2 and up_counts("UUDUDD") == {1: 1, 2: 2}
    assert path_width("UUDUDD") == 2 and path_width("UDUDUD") == 3
    with pytest.raises(InvalidInputError, match="n ≥ 2"):
        path_width("")
    with pytest.raises(InvalidInputError, match="below zero"):
        path_width("DU")


def test_algorithm1_trace_matches_partial_trees_and_the_printed_algorithm():
    for m in range(6):
        for w in dyck_words(m):
            states = algorithm1_states(w)
            assert len(states) == len(w) + 1
            for st in states:
                assert [list(r) for r in st.a] == partial_tree_adjacency(w, st.t, m + 1)
            assert [list(r) for r in states[-1].a] == psi_adjacency(w) == tree_adjacency(psi(w))
    st = algorithm1_states("UUDUDD")
    assert [(s.i, s.nl, s.par) for s in st] == [(0, 0, None), (1, 1, 0), (2, 2, 1), (1, 2, None), (3, 3, 1),
                                                 (1, 3, None), (0, 3, None)]


def test_width_states_follow_the_prefixes():
    ws = width_states("UUDUDD", 4)
    assert [(s.ht, s.p, s.wd) for s in ws] == [
        (0, (0, 0, 0, 0), 0), (1, (1, 0, 0, 0), 1), (2, (1, 1, 0, 0), 1), (1, (1, 1, 0, 0), 1),
        (2, (1, 2, 0, 0), 2), (1, (1, 2, 0, 0), 2), (0, (1, 2, 0, 0), 2)]
    for m in range(1, 7):
        for w in dyck_words(m):
            assert width_states(w, m + 1)[-1].wd == tree_width(psi(w))


def test_fold_is_eq_dynamicstrdfs_and_gives_the_recursive_strahler_number():
    assert fold(0, 0, 0) == (0, 1) and fold(0, 0, 1) == (1, 0) and fold(2, 1, 0) == (2, 1) and fold(0, 1, 1) == (1, 1)
    for m in range(8):
        for w in dyck_words(m):
            last = strahler_fold(w)[-1]
            assert last.m + (1 if last.c >= 2 else 0) == strahler(psi(w)), w
            assert all(st.c in (0, 1) for st in strahler_fold(w))  # the carry keeps c ≤ 1
    st = strahler_fold("UDUD")
    assert [(s.m, s.c) for s in st] == [(0, 0), (0, 0), (0, 1), (0, 0), (1, 0)]
    assert (st[4].str_v, st[4].m_u, st[4].c_u, st[4].d, st[4].parent_point) == (0, 0, 1, 0, 2)


def test_frv_helpers_enumerate_catalan_many_trees():
    for k in range(7):
        trees = list(full_binary_trees(k))
        assert len(trees) == len(full_binary_strahler_values(k)) == catalan(k)
        assert [binary_tree_strahler(t) for t in trees] == list(full_binary_strahler_values(k))
        assert sorted(binary_tree_word(t) for t in trees) == sorted(dyck_words(k))  # the preorder bijection
    assert [log_height_class(h) for h in range(8)] == [0, 1, 1, 2, 2, 2, 2, 3]
    assert strahler_distribution(4) == height_class_distribution(4) == {1: 8, 2: 6}


# -- families ------------------------------------------------------------------------------------------

def test_families_count_against_catalan_and_shard_by_rank():
    for size in range(1, 9):
        assert DYCK_WORDS.count(size) == len(list(DYCK_WORDS.inputs(size))) == catalan(size - 1)
        trees = list(ORDERED_TREES.inputs(size))
        assert len(trees) == len(set(trees)) == catalan(size - 1)
        assert Counter(phi_ordered(t) for t in trees) == Counter(dyck_words(size - 1))
    assert NONEMPTY_DYCK_WORDS.count(1) == 0 and list(NONEMPTY_DYCK_WORDS.inputs(1)) == []
    whole = list(words_by_rank(6))
    shard = dyck_family(start=10, stop=20)
    assert list(shard.inputs(6)) == whole[10:20] and shard.count(6) == 10 and shard.count(3) == 0
    assert describe_word("UUDD")["rank"] == 0 and describe_word("UDUD")["rank"] == 1
    assert all(isinstance(t, OrderedTree) for t in ordered_trees_by_forests(4))
    with pytest.raises(InvalidInputError):
        list(words_by_rank(0))
    with pytest.raises(InvalidInputError, match="below zero"):
        describe_word("UDDU")


# -- the property claims, and false variants that must be refuted -----------------------------------------

def test_combinatorial_claims_verified_at_small_sizes(mods):
    for name, cid in [("lem_bijectionpathtree", "lem:bijectionpathtree"),
                      ("prop_heightpathtree", "prop:heightpathtree"),
                      ("prop_widthpathtree", "prop:widthpathtree"), ("algo_pathtotree", "algo:pathtotree")]:
        claim = mods[name].CLAIMS[0]
        assert claim.id == cid and claim.default_max_size >= 10
        row = claim.run(max_size=7)[0]
        assert row.verdict == "verified" and row.max_size == 7, (cid, row.notes)
    lem = mods["lem_bijectionpathtree"].CLAIMS[0].run(max_size=5)[0]
    assert lem.inputs_checked == 2 * sum(catalan(k) for k in range(5))
    wid = mods["prop_widthpathtree"].CLAIMS[0].run(max_size=5)[0]
    assert wid.inputs_checked == 2 * sum(catalan(k) for k in range(1, 5))  # size 1 is outside n ≥ 2


def test_false_height_and_width_formulas_are_refuted(mods):
    def wrong_height(t):  # deliberately false: counts the vertices on the deepest path
        w = phi_ordered(t)
        if tree_height(t) + 1 == path_height(w):
            return None
        return {"kind": "property", "what": "hgt + 1", "expected": tree_height(t) + 1, "got": path_height(w)}

    row = PropertyCheck("false-height", [ORDERED_TREES], wrong_height).run(RunContext("demo", 6))
    assert row.verdict == "refuted" and row.counterexample["size"] == 1 and row.max_size is None

    def wrong_width(w):  # deliberately false: counts down steps ending at level l
        s = [0]
        for c in w:
            s.append(s[-1] + (1 if c == "U" else -1))
        downs = Counter(s[i] for i in range(1, len(s)) if s[i] < s[i - 1] and s[i] > 0)
        got = max((downs.get(lv, 0) for lv in range(1, path_height(w) + 1)), default=0)
        return None if got == tree_width(psi(w)) else {"word": w, "expected": tree_width(psi(w)), "got": got}

    row = PropertyCheck("false-width", [NONEMPTY_DYCK_WORDS], wrong_width).run(RunContext("demo", 6))
    assert row.verdict == "refuted" and row.counterexample["input"]["word"] == "UD" and row.max_size == 1


def test_false_bijection_is_refuted(mods):
    def psi_prepending(w):  # deliberately false ψ: a U attaches the new node as the *first* child
        children, parent, cur = [[]], [-1], 0
        for c in w:
            if c == "U":
                children.append([])
                parent.append(cur)
                children[cur].insert(0, len(parent) - 1)
                cur = len(parent) - 1
            else:
                cur = parent[cur]
        return children

    def check(w):
        kids = psi_prepending(w)
        return None if [list(c) for c in psi(w).children] == kids else {"expected": w, "got": kids}

    row = PropertyCheck("false-psi", [DYCK_WORDS], check).run(RunContext("demo", 6))
    assert row.verdict == "refuted" and row.counterexample["input"]["word"] == "UDUD" and row.max_size == 2


def test_the_proofs_line8_reading_is_refuted_by_uuddud():
    """docs/errata.md (c): the correctness proof's 'j < nl with A_w[j, nl] = 1' builds a different tree."""
    def proof_reading(w):
        size = len(w) // 2 + 1
        a = [[0] * size for _ in range(size)]
        nl = i = 0
        for c in w:
            if c == "U":
                nl += 1
                a[i][nl] = a[nl][i] = 1
                i = nl
            else:
                i = next(j for j in range(nl) if a[j][nl] == 1)
        return a

    def check(w):
        return None if proof_reading(w) == psi_adjacency(w) else {"expected": psi_adjacency(w), "got": proof_reading(w)}

    row = PropertyCheck("proof-line8", [DYCK_WORDS], check).run(RunContext("algo:pathtotree", 6))
    assert row.verdict == "refuted" and row.counterexample["input"]["word"] == "UUDDUD" and row.max_size == 3


def test_frv_identity_holds_only_under_the_papers_conventions(mods):
    rows = {r.variant: r for r in mods["frv_identity"].CLAIMS[0].run(max_size=8)}
    assert rows["as-written"].verdict == "verified" and rows["as-written"].max_size == 8
    assert rows["leaf-strahler-1"].verdict == "refuted"
    assert rows["leaf-strahler-1"].counterexample["expected"] == {"1": 1}
    assert rows["leaf-strahler-1"].counterexample["got"] == {"2": 1}
    assert rows["pointwise-preorder"].verdict == "refuted" and rows["pointwise-preorder"].counterexample["size"] == 3
    assert rows["ordered-trees-psi"].verdict == "refuted" and rows["ordered-trees-psi"].counterexample["size"] == 1


def test_words_are_validated_by_the_references():
    for bad in ["UUD", "DU", "UXD"]:
        with pytest.raises(InvalidInputError):
            algorithm1_states(bad)
        with pytest.raises(InvalidInputError):
            strahler_fold(bad)
        with pytest.raises(InvalidInputError):
            width_states(bad, 3)
    assert validate_dyck("") == ""


@pytest.mark.slow
def test_combinatorial_claims_at_12_vertices(mods):
    for name in ("lem_bijectionpathtree", "prop_heightpathtree", "prop_widthpathtree", "algo_pathtotree"):
        row = mods[name].CLAIMS[0].run(max_size=12)[0]
        assert row.verdict == "verified" and row.max_size == 12, name
    frv = mods["frv_identity"].CLAIMS[0].run(max_size=13, variants=["as-written"])[0]
    assert frv.verdict == "verified" and frv.max_size == 13


def test_points_and_the_explored_strahler_number_agree_with_the_tree_and_the_fold():
    from proofs.cot_path_to_tree.algorithms.paths import explored_strahler, finished, point_nodes, strahler_fold

    assert point_nodes("UUDUDD") == [0, 1, 2, 1, 3, 1, 0]
    for m in range(1, 7):
        for w in dyck_words(m):
            ex = explored_strahler(w)
            assert ex[-1] == strahler(psi(w)) and ex[0] == 0
            assert ex == [finished(st.m, st.c) for st in strahler_fold(w)]
