"""Batched tables, cached prompts and faster references of the tree-side constructions (thm:cottreestrahler,
thm:cotdijkstra, thm:cotwidoftree): the two readings of each encoding agree exactly, prompts are the paper's
tokens, and the references are the literal dynamics."""

from __future__ import annotations

import copy
import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import proofs.cot_path_to_tree.thm_cotdijkstra as dijkstra_proof
import proofs.cot_path_to_tree.thm_cottreestrahler as strahler_proof
import proofs.cot_path_to_tree.thm_cotwidoftree as width_proof
import symcot.check.batched_check as batched_check
from proofs.cot_path_to_tree.algorithms import strahler as strahler_alg
from proofs.cot_path_to_tree.algorithms.bijection import psi
from proofs.cot_path_to_tree.algorithms.dijkstra import INF, dijkstra_dynamic, tree_depths, validate_dijkstra_input
from proofs.cot_path_to_tree.constructions import cotdijkstra as dijkstra_cons
from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT as DFS_STATEMENT
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction
from symcot.check.batched_check import BatchedChecker, EngineDisagreement, run_batched_check, table_disagreements
from symcot.check.exhaustive import run_construction_check
from symcot.constructions import base as construction_base
from symcot.constructions.base import Construction
from symcot.inputs import Digraph, random_labeled_tree, rooted_labeled_trees
from symcot.inputs.dyck import dyck_words
from symcot.inputs.weighted import connected_digraphs_with_sources, random_weighted_digraph

#: Every rooted labeled tree up to n = 5 and every ordered tree ψ(w) rooted at 0 up to n = 8.
TREES = ([inp for k in range(1, 6) for inp in rooted_labeled_trees(k)]
         + [(psi(w).to_digraph(), 0) for m in range(8) for w in dyck_words(m)])


def _weighted_inputs() -> list[tuple[Digraph, int]]:
    """thm:cotdijkstra's own families (weights {1,2,3} to n = 3, BFS weights to n = 3, every 9th at n = 4),
    integer weights up to 10^6 at n = 5..7, and the rational random family (whose table is ``None``)."""
    rng = random.Random(7)
    out = [inp for k in (1, 2, 3) for inp in dijkstra_proof.WEIGHTED.inputs(k)]
    out += [inp for k in (1, 2, 3) for inp in connected_digraphs_with_sources(k)]
    out += list(connected_digraphs_with_sources(4))[::9]
    for k in (5, 6, 7):
        for _ in range(10):
            g, s = random_weighted_digraph(k, rng, p=0.4)
            out.append((Digraph(g.n, g.arcs, tuple(rng.randint(1, 10**6) for _ in g.arcs)), s))
    out += [inp for k in range(4, 8) for inp in dijkstra_proof.RANDOM.inputs(k)]
    return out


WEIGHTED = _weighted_inputs()
STRAHLER = strahler_proof.SPEC
WIDTH = width_proof.SPEC
DIJKSTRA = dijkstra_proof.SPEC
#: (construction, spec) per parametrised case.
CASES = {"strahler": (lambda: StrahlerTreeConstruction("repaired"), STRAHLER),
         "width": (lambda: WidthTreeConstruction("repaired"), WIDTH),
         "dijkstra": (lambda: dijkstra_cons.DijkstraConstruction("repaired"), DIJKSTRA)}


def _expected_ints(cons: Construction, spec: Any, inp: Any) -> bool:
    """Whether every value the encoding gives for ``inp`` is a Python ``int``."""
    return all(type(v) is int for t, st in enumerate(spec.reference(inp))
               for vals in cons.expected(inp, st, t).values() for v in vals)


def _covered(cons: Construction, spec: Any, inputs: list[Any]) -> int:
    """How many inputs the table covers (does not hand back to the per-step values with ``None``)."""
    return sum(cons.expected_table(inp, spec.reference(inp)) is not None for inp in inputs)


# -- the two readings of the encoding agree ----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CASES))
def test_tables_agree_with_expected_on_every_small_tree(name: str) -> None:
    make, spec = CASES[name]
    cons = make()
    assert _covered(cons, spec, TREES) == len(TREES)  # no silent fallback
    assert table_disagreements(cons, spec, TREES) == []


@pytest.mark.parametrize("fixed", [None, 3], ids=["lambda-rule", "fixed-lambda"])
def test_dijkstra_tables_agree_on_weighted_digraphs(fixed: Any) -> None:
    cons = dijkstra_cons.DijkstraConstruction("repaired")
    cons = cons if fixed is None else cons.with_lambda(fixed)
    assert table_disagreements(cons, DIJKSTRA, WEIGHTED) == []
    # the table covers exactly the inputs whose expected values are all ints (Fractions: expected decides)
    covered = [cons.expected_table(inp, DIJKSTRA.reference(inp)) is not None for inp in WEIGHTED]
    all_int = [_expected_ints(cons, DIJKSTRA, inp) for inp in WEIGHTED]
    assert covered == all_int
    assert 0 < sum(covered) < len(WEIGHTED)


def test_dijkstra_table_gives_up_beyond_int64() -> None:
    g = Digraph(3, ((0, 1), (1, 2)), (2**62, 2**62))
    inp = (g, 0)
    cons = dijkstra_cons.DijkstraConstruction("repaired")
    assert cons.expected_table(inp, DIJKSTRA.reference(inp)) is None  # λ = 1 + 2·2^62 > int64
    assert table_disagreements(cons, DIJKSTRA, [inp]) == []


def test_all_strahler_variants_share_the_spec() -> None:
    claim = next(c for c in strahler_proof.CLAIMS if c.id == "thm:cottreestrahler")
    specs = [c.spec for c in claim.checks if hasattr(c, "construction")]
    assert len(specs) == 4 and all(s is STRAHLER for s in specs)  # exhaustive and all-n, both variants


# -- a wrong table is detected --------------------------------------------------------------------------


def _corrupt(cons: Construction, change: Any) -> Construction:
    """``cons`` whose batched table is passed through ``change(table)`` (a deliberately wrong interpreter)."""
    base = type(cons)

    class Corrupt(base):  # type: ignore[valid-type, misc]
        def expected_table(self, inp: Any, states: Any) -> dict[str, Any] | None:
            got = base.expected_table(self, inp, states)
            if got is None:
                return None
            out = {b: (v[0].copy(), v[1].copy()) if isinstance(v, tuple) else v.copy() for b, v in got.items()}
            change(out)
            return out

    c = copy.copy(cons)
    c.__class__ = Corrupt
    return c


def _add_one(block: str, row: int, col: int) -> Any:
    def change(table: dict[str, Any]) -> None:
        a = table[block][0] if isinstance(table[block], tuple) else table[block]
        a[row, col] += 1

    return change


def _present_everywhere(block: str) -> Any:
    def change(table: dict[str, Any]) -> None:
        table[block] = (table[block][0], np.ones_like(table[block][1]))

    return change


@pytest.mark.parametrize("name, change, why", [
    ("strahler", _add_one("M", -1, 0), "block M"),
    ("strahler", _add_one("flg4", 1, 0), "block flg4"),
    ("strahler", _add_one("tmp_cbuf", 0, 0), "block tmp_cbuf"),
    ("strahler", _present_everywhere("par"), "blocks"),  # par is not compared at the final φ step
    ("width", _add_one("mwd", -1, 0), "block mwd"),
    ("width", lambda t: t.pop("twd"), "blocks"),
    ("dijkstra", _add_one("crd", -1, 0), "block crd"),
    ("dijkstra", _present_everywhere("dis"), "blocks"),  # dis is not compared at t = 0 (choice 5)
], ids=["M", "flg4", "tmp", "par-present", "mwd", "no-twd", "crd", "dis-present"])
def test_wrong_tables_are_detected(name: str, change: Any, why: str) -> None:
    make, spec = CASES[name]
    inputs = [inp for inp in TREES if inp[0].n >= 2]
    bad = table_disagreements(_corrupt(make(), change), spec, inputs)
    assert len(bad) == len(inputs)
    assert all(why in msg for _, msg in bad)


def test_batched_checker_spot_checks_the_table() -> None:
    cons = _corrupt(StrahlerTreeConstruction("repaired"), _add_one("c", 0, 0))
    with pytest.raises(EngineDisagreement):
        BatchedChecker(cons, STRAHLER).check(list(rooted_labeled_trees(4)))


def test_batched_checker_uses_the_table_after_the_spot_check() -> None:
    calls: list[int] = []

    class Counting(WidthTreeConstruction):
        def expected(self, inp: Any, state: Any, t: int) -> dict[str, list[Any]]:
            calls.append(t)
            return super().expected(inp, state, t)

    inputs = list(rooted_labeled_trees(5))
    results, err = BatchedChecker(Counting("repaired"), WIDTH).check(inputs)
    assert err is None and results == [None] * len(inputs)
    assert len(calls) == batched_check.SPOT_CHECK * 5  # only the spot-checked rows call expected (5 states each)


# -- batched verdicts are unchanged ---------------------------------------------------------------------


def _row(v: Any) -> dict[str, Any]:
    d = v.as_dict()
    d.pop("seconds", None)
    d.pop("details", None)
    d["method"] = d["method"].replace(" [batched engine]", "")
    return d


@pytest.mark.parametrize("mod, cid", [(strahler_proof, "thm:cottreestrahler"), (width_proof, "thm:cotwidoftree")])
def test_batched_and_exact_verdicts_agree(mod: Any, cid: str) -> None:
    claim = next(c for c in mod.CLAIMS if c.id == cid)
    exact = [_row(v) for v in claim.run(max_size=5, engine="exact")]
    batched = [_row(v) for v in claim.run(max_size=5, engine="batched")]
    assert [r["verdict"] for r in exact] == ["refuted", "verified"]
    assert exact == batched


@pytest.mark.parametrize("variant", ["as-written", "missing-arc-0", "repaired"])
def test_batched_and_exact_dijkstra_verdicts_agree(variant: str) -> None:
    cons = dijkstra_cons.DijkstraConstruction(variant)
    fams = [dijkstra_proof.WEIGHTED, dijkstra_proof.TREES, dijkstra_proof.RANDOM]
    a = run_construction_check("thm:cotdijkstra", cons, DIJKSTRA, fams, 4, dijkstra_proof.PAPER_SIZES)
    b = run_batched_check("thm:cotdijkstra", dijkstra_cons.DijkstraConstruction(variant), DIJKSTRA, fams, 4,
                          dijkstra_proof.PAPER_SIZES)
    assert a.verdict == ("verified" if variant == "repaired" else "refuted")
    assert _row(a) == _row(b)


# -- cached prompts are the paper's tokens --------------------------------------------------------------


def _dfs_prompt(cons: Construction, inp: Any) -> tuple[list[list[Any]], list[str]]:
    """The DFS prompt assembled afresh, token by token (no cache)."""
    keys = DFS_STATEMENT.prompt.keys(inp)
    cl = cons.concrete(inp).layout
    return [DFS_STATEMENT.prompt.token(cl, k) for _, k in keys], [label for label, _ in keys]


def test_strahler_prompts_are_the_dfs_tokens() -> None:
    cons = StrahlerTreeConstruction("repaired")
    for inp in TREES:
        p = cons.prompt(inp)
        tokens, labels = _dfs_prompt(cons, inp)
        assert p.tokens == tokens and p.labels == labels, inp
    inp = TREES[-1]
    a, b = cons.prompt(inp), cons.prompt(inp)
    assert all(x is y for x, y in zip(a.tokens, b.tokens))  # shared token objects
    assert a.labels is not b.labels
    wrong = [row[:] for row in a.tokens]
    wrong[1][0] += 1
    assert wrong != _dfs_prompt(cons, inp)[0]  # the comparison above can fail


def _uncached(cons: Any, inp: tuple[Digraph, int]) -> list[list[Any]]:
    """The prompt assembled token by token from the proof's formulas and ``Encoding.matrix`` (no cache)."""
    g, s = inp
    cl, lam_v, nv = cons.concrete(inp).layout, cons.lam_value(inp), g.n
    x_extra: dict[str, Any] = {}
    y_extra: dict[str, Any] = {}
    if isinstance(cons, WidthTreeConstruction):
        x_extra, y_extra = {"dif": 0, "twd": 0, "mwd": 0}, {"dif": 0, "twd": 1, "mwd": 1}
    a = cons.arcs.matrix(g, lam_v)
    e = [[1 if j == i else 0 for j in range(nv)] for i in range(nv)]
    toks = [cl.assemble({"cur": e[i], "crd": -lam_v, "wei": a[i], "dis": [lam_v] * nv, **x_extra}) for i in range(nv)]
    return toks + [cl.assemble({"cur": e[s], "crd": 0, "vis": e[s], "dis": [lam_v] * nv, **y_extra})]


@pytest.mark.parametrize("make, inputs", [
    (lambda: dijkstra_cons.DijkstraConstruction("as-written"), WEIGHTED),
    (lambda: dijkstra_cons.DijkstraConstruction("repaired"), WEIGHTED),
    (lambda: dijkstra_cons.DijkstraConstruction("repaired").with_lambda(Fraction(15, 2)), WEIGHTED[:300]),
    (lambda: WidthTreeConstruction("as-written"), TREES),
    (lambda: WidthTreeConstruction("repaired"), TREES),
], ids=["dijkstra-as-written", "dijkstra-repaired", "dijkstra-fraction-lambda", "width-as-written",
        "width-repaired"])
def test_dijkstra_prompts_are_the_papers_tokens(make: Any, inputs: list[Any]) -> None:
    cons = make()
    for inp in inputs:
        p, want = cons.prompt(inp), _uncached(cons, inp)
        assert p.tokens == want and p.labels == [*(f"x_{i}" for i in range(inp[0].n)), "y_0"], inp
        # same types too: a Fraction λ or weight is never replaced by an equal int from the cache
        assert [[type(v) for v in tok] for tok in p.tokens] == [[type(v) for v in tok] for tok in want]
    wrong = [row[:] for row in p.tokens]
    wrong[0][0] += 1
    assert wrong != want  # the comparison above can fail
    a, b = cons.prompt(inputs[-1]), cons.prompt(inputs[-1])
    assert a.labels is not b.labels
    assert all(x is y for x, y in zip(a.tokens, b.tokens)) == (type(cons.lam_value(inputs[-1])) is int)


def test_token_cache_starts_over_beyond_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(construction_base, "TOKEN_CACHE_LIMIT", 3)
    cons = WidthTreeConstruction("repaired")
    for inp in TREES[::5]:
        assert cons.prompt(inp).tokens == _uncached(cons, inp)
        assert len(cons._tokens) <= 3 + inp[0].n + 1


# -- the faster references give the same states -----------------------------------------------------------


def _literal_dijkstra(g: Digraph, s: int) -> list[Any]:
    """The dynamic exactly as written before (full relaxation over the weight matrix)."""
    from proofs.cot_path_to_tree.algorithms.dijkstra import DkstState, weight_matrix

    validate_dijkstra_input(g, s)
    a, n = weight_matrix(g), g.n
    dist: list[Any] = [INF] * n
    dist[s] = 0
    vst, cur = frozenset({s}), s
    states = [DkstState(0, tuple(dist), cur, vst)]
    for t in range(1, n):
        i = cur
        dist = [min(dist[j], dist[i] + a[i][j]) for j in range(n)]
        best = None
        for j in range(n):
            if j not in vst and (best is None or dist[j] < dist[best]):
                best = j
        cur = best
        vst = vst | {cur}
        states.append(DkstState(t, tuple(dist), cur, vst))
    return states


def test_dijkstra_dynamic_is_the_literal_dynamic() -> None:
    for g, s in WEIGHTED:
        got, want = dijkstra_dynamic(g, s), _literal_dijkstra(g, s)
        assert got == want
        assert [[type(d) for d in st.dist] for st in got] == [[type(d) for d in st.dist] for st in want]
    bad = Digraph(3, ((0, 1), (1, 0)))
    with pytest.raises(Exception, match="unreachable") as e1:
        dijkstra_dynamic(bad, 0)
    with pytest.raises(Exception) as e2:
        _literal_dijkstra(bad, 0)
    assert str(e1.value) == str(e2.value)


def test_tree_depths_children_and_fold_are_unchanged() -> None:
    rng = random.Random(3)
    inputs = TREES + [(t, rng.randrange(12)) for t in (random_labeled_tree(12, rng) for _ in range(30))]
    for g, r in inputs:
        parent: dict[int, Any] = {r: None}
        stack = [r]
        while stack:
            u = stack.pop()
            for v in g.out_neighbors(u):
                if v not in parent:
                    parent[v] = u
                    stack.append(v)
        depths = []
        for v in range(g.n):
            d, p = 0, parent[v]
            while p is not None:
                d, p = d + 1, parent[p]
            depths.append(d)
        assert tree_depths(g, r) == depths
        assert strahler_alg.children_lists(g, r) == [[v for v in range(g.n) if parent[v] == u] for u in range(g.n)]
        checked = strahler_alg.strahler_dynamic(g, r, lambda sv, acc: strahler_alg.fold_case(sv, acc))
        assert strahler_alg.strahler_dynamic(g, r) == checked
        assert checked[-1].acc[0] == strahler_alg.strahler_number(g, r)


def test_lambda_rule_is_what_the_dijkstra_table_encodes() -> None:
    g = Digraph.undirected(4, [(0, 1), (1, 2), (1, 3)])
    inp = (g, 0)
    cons = dijkstra_cons.DijkstraConstruction("repaired")
    table = cons.expected_table(inp, DIJKSTRA.reference(inp))
    assert table is not None and cons.lam_value(inp) == 4 == dijkstra_cons.LAMBDA_RULE.value({dijkstra_cons.n: 4}, 1)
    dis, present = table["dis"]
    assert dis[1].tolist() == [0, 1, 4, 4] and present.tolist() == [False, True, True, True]
