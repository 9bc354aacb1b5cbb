"""thm:cotwidoftree and obs:dynamicwidbfs: sizes, encoding, the layer-3 completion, verdicts, mutants."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from pathlib import Path

import pytest
import sympy as sp

from proofs.cot_path_to_tree.algorithms.dijkstra import tree_width, widsup
from proofs.cot_path_to_tree.constructions.cotwidoftree import PAPER_D, WidthTreeConstruction, build_decoder
from symcot.check.context import RunContext
from symcot.check.exhaustive import Family, run_construction_check
from symcot.check.stepwise import StepwiseSpec, check_input
from symcot.claims import PropertyCheck
from symcot.constructions.mutant import Mutant
from symcot.errors import InvalidInputError
from symcot.inputs import Digraph, rooted_labeled_trees
from symcot.ir import n

ROOT = Path(__file__).resolve().parent.parent.parent


def _load(name: str):
    return importlib.import_module(f"proofs.cot_path_to_tree.{name}")


@pytest.fixture(scope="module")
def W():
    return _load("thm_cotwidoftree")


def small_trees(max_n: int) -> Family:
    return Family("labeled trees × every root", rooted_labeled_trees, lambda k: k ** (k - 1),
                  lambda inp: {"text": str(inp[0]), "root": inp[1]}, max_size=max_n)


def test_sizes_match_the_theorem():
    s = build_decoder().sizes()
    assert sp.expand(s.d - PAPER_D) == 0 and s.d == 5 * n + 4
    assert s.layers == 3 and s.heads == [1, 1, 0] and s.max_heads == 1
    assert s.ffn_hidden[2] == 5 * n + 5  # the Dijkstra blocks and the lemma's four hidden units


def test_prompt_appends_dif_twd_mwd_and_encodes_infinity_as_lambda():
    g = Digraph.undirected(2, [(0, 1)])
    lam = 2  # 1 + (n - 1)·1
    p = WidthTreeConstruction("as-written").prompt((g, 0))
    # x_0 = [e_0 ‖ -λ ‖ 0 ‖ (a_00 = λ, a_01 = 1) ‖ λ^2 ‖ 0 ‖ 0 ‖ 0 ‖ 0]
    assert p.tokens[0] == [1, 0, -lam, 0, 0, lam, 1, lam, lam, 0, 0, 0, 0, 0]
    assert p.tokens[2] == [1, 0, 0, 1, 0, 0, 0, lam, lam, 0, 0, 0, 1, 1]  # y_0 = [ỹ_0 ‖ 0 ‖ 1 ‖ 1]
    q = WidthTreeConstruction("repaired").prompt((g, 0))
    assert q.tokens[0][5:7] == [0, 1] and q.tokens[2] == p.tokens[2]  # repair: a_ii = 0 only


def test_invalid_inputs_are_rejected_clearly():
    c = WidthTreeConstruction("repaired")
    with pytest.raises(InvalidInputError, match="cycle"):
        c.prompt((Digraph.undirected(3, [(0, 1), (1, 2), (2, 0)]), 0))
    with pytest.raises(InvalidInputError, match="no reverse"):
        c.prompt((Digraph.from_arcs(2, [(0, 1)]), 0))
    with pytest.raises(InvalidInputError, match="A = {1, ∞}"):
        c.prompt((Digraph.from_weighted_arcs(2, {(0, 1): 2, (1, 0): 2}), 0))


def test_layer3_is_lemma_widsupffn_with_v_max_n():
    """The invented completion computes lem:widsupffn's f for every dif ∈ {0, 1}, 1 ≤ twd ≤ n-1, 1 ≤ mwd ≤ n-1."""
    for k in (2, 5, 8):
        dec = build_decoder().instantiate({n: k}, {sp.Symbol("lambda", positive=True): k})
        lay, w1, w2 = dec.layout, dec.get_map(3, "W_1"), dec.get_map(3, "W_2")
        for dif in (0, 1):
            for twd in range(1, k):
                for mwd in range(1, k):
                    y = lay.assemble({"dif": dif, "twd": twd, "mwd": mwd, "dis": [3] * k})
                    out = w2([v if v > 0 else 0 for v in w1(y)])
                    assert (lay.pi("twd", out)[0], lay.pi("mwd", out)[0]) == widsup(dif, twd, mwd)
                    assert lay.pi("dif", out) == [dif] and lay.pi("dis", out) == [3] * k


def test_as_written_is_refuted_at_the_source_distance(W):
    row = run_construction_check("thm:cotwidoftree", WidthTreeConstruction("as-written"), W.SPEC, [W.TREES], 6,
                                 W.PAPER_SIZES)
    c = row.counterexample
    assert row.verdict == "refuted" and row.max_size == 1 and c["input"]["text"] == "tree {0-1}, root 0"
    assert (c["step"], c["layer"], c["block"], c["expected"], c["got"]) == (1, 1, "dis", [0, 1], [2, 1])


def test_as_written_width_blocks_are_right_all_the_same(W):
    """Only π_dis[root] is wrong: every other compared block and the final width agree (thm:cotwidoftree:width)."""
    row = run_construction_check("x", WidthTreeConstruction("as-written"), W.WIDTH_SPEC, [small_trees(5)], 5)
    assert row.verdict == "verified" and row.inputs_checked == 1 + 2 + 9 + 64 + 625


def test_the_roots_distance_is_not_stuck_at_lambda(W):
    """π_dis(y_t)[root] is λ until a child of the root is the current vertex, then Dist[child] + 1 = 2 (≠ 0)."""
    from symcot.model.semantics import generate

    tree = (Digraph.undirected(3, [(0, 1), (0, 2)]), 0)
    cons = WidthTreeConstruction("as-written")
    dec = cons.concrete(tree)
    out = generate(dec, cons.prompt(tree).tokens, 2).outputs
    assert cons.lam_value(tree) == 3
    assert [dec.layout.pi("dis", y)[0] for y in out] == [3, 2]


def test_dif_is_the_difference_of_the_recorded_distances(W):
    from proofs.cot_path_to_tree.algorithms.dijkstra import bfs_width_dynamic, width_update_rule

    for g, r in rooted_labeled_trees(5):
        states = bfs_width_dynamic(g, r)
        assert [st.dif for st in states] == [d for d, _, _ in width_update_rule(states)]
        assert states[0].dif == 0 and all(st.dif in (0, 1) for st in states)


def test_repaired_is_verified_on_small_trees(W):
    row = run_construction_check("thm:cotwidoftree", WidthTreeConstruction("repaired"), W.SPEC, [W.TREES], 5,
                                 W.PAPER_SIZES)
    assert row.verdict == "verified" and row.max_size == 5 and row.inputs_checked == 701


def test_final_width_is_checked_from_the_definition(W):
    star = (Digraph.undirected(4, [(0, 1), (0, 2), (0, 3)]), 0)
    assert tree_width(*star) == 3
    assert check_input(WidthTreeConstruction("repaired"), W.SPEC, star) is None
    from symcot.check.spec import Conclusion
    from symcot.constructions.encoding import StateEncoding

    class Silent(WidthTreeConstruction):
        encoding = StateEncoding({})  # nothing compared step by step: only the conclusion

    wrong = Conclusion("π_mwd = wd(G_T) rooted at 1", read=lambda run, inp: run.block("mwd")[0],
                       answer=lambda inp: tree_width(inp[0], 1))
    lying = StepwiseSpec(W.SPEC.reference, W.SPEC.state_text, (wrong,))
    mm = check_input(Silent("repaired"), lying, star)  # root 1: wd = 2, the decoder says 3
    assert mm is not None and mm.kind == "steps" and "but 2 by the definition" in str(mm.got)


def test_mutant_in_layer3_is_refuted(W):
    m = Mutant(WidthTreeConstruction("repaired"), 3, "W_1", ("h4", 0), [], 0)  # drop b_1's 1: mwd ← max(mwd, twd)
    row = run_construction_check("thm:cotwidoftree", m, W.SPEC, [W.TREES], 5, W.PAPER_SIZES)
    c = row.counterexample
    assert row.verdict == "refuted" and c["input"]["text"] == "tree {0-1, 0-2}, root 0"
    assert (c["step"], c["layer"], c["block"], c["expected"], c["got"]) == (2, 3, "mwd", [2], [1])


def test_mutant_in_dif_is_located_in_layer2(W):
    m = Mutant(WidthTreeConstruction("repaired"), 2, "W_2", ("dif", 0), [("crd", 0)], 0)  # dif = Σ buf only
    row = run_construction_check("thm:cotwidoftree", m, W.SPEC, [W.TREES], 5, W.PAPER_SIZES)
    c = row.counterexample
    assert row.verdict == "refuted" and (c["step"], c["layer"], c["block"]) == (2, 2, "dif")
    assert c["expected"] == [0] and c["got"] == [1] and "depth difference" in c["proof_says"]


def test_observation_verdicts(W):
    rows = {r.variant: r for r in W.CLAIMS[0].run(max_size=8)}
    assert rows["repaired"].verdict == "verified" and rows["repaired"].max_size == 8
    aw = rows["as-written"].counterexample
    assert rows["as-written"].verdict == "refuted" and aw["input"]["dyck"] == "UDUD"
    assert aw["what"].startswith("S4") and (aw["expected"], aw["got"]) == (2, 1)
    assert rows["twd-repaired"].counterexample["input"]["dyck"] == "UDUD"
    mw = rows["mwd-repaired"].counterexample
    assert mw["input"]["dyck"] == "UUDDUD" and mw["what"].startswith("S3") and mw["got"] == [0, 1]


def test_observation_checker_refutes_a_false_width_statement(W):
    def false_width(inp):  # deliberately false: "mwd^(n-1) = ht(G_T) + 1"
        g, r, _ = inp
        states = W.SPEC.reference((g, r))
        h = max(W.tree_depths(g, r))
        return None if states[-1].mwd == h + 1 else {"expected": h + 1, "got": states[-1].mwd}

    row = PropertyCheck("false", [W.ORDERED], false_width).run(RunContext("demo", 6))
    assert row.verdict == "refuted" and row.counterexample["input"]["dyck"] == "UD"


def test_reading_a_tree_with_dijkstras_zero_reading_inherits_its_refutation(W):
    from proofs.cot_path_to_tree.constructions.cotdijkstra import MISSING_ARC_ZERO

    c = WidthTreeConstruction("0-for-non-arcs", encoding=MISSING_ARC_ZERO)
    row = run_construction_check("thm:cotwidoftree", c, W.SPEC, [W.TREES], 6, W.PAPER_SIZES)
    cx = row.counterexample
    assert row.verdict == "refuted" and cx["input"]["text"] == "tree {0-1, 0-2}, root 1"
    assert (cx["step"], cx["layer"], cx["block"], cx["expected"], cx["got"]) == (1, 1, "dis", [1, 0, 3], [1, 0, 0])


@pytest.mark.slow
def test_repaired_width_on_every_rooted_tree_up_to_7(W):
    row = run_construction_check("thm:cotwidoftree", WidthTreeConstruction("repaired"), W.SPEC,
                                 [dataclasses.replace(W.TREES, max_size=7)], 7, W.PAPER_SIZES, jobs=2)
    assert row.verdict == "verified" and row.max_size == 7
    assert row.inputs_checked == sum(k ** (k - 1) for k in range(1, 8))


@pytest.mark.slow
def test_repaired_observation_on_every_ordered_tree_up_to_12(W):
    row = W.CLAIMS[0].run(max_size=12, variants=["repaired"])[0]
    assert row.verdict == "verified" and row.max_size == 12


# -- the statement for every n ------------------------------------------------------------------------------

#: sha256 of ``repr((labels, tokens))`` of every prompt, tree by tree in the family's order, per variant and size:
#: the prompts as the construction wrote them token by token before it read them from the statement's segments.
PROMPT_DIGESTS = {
    "as-written": ["3605e4587f16c008c8352874ce018aec851a6bb010179b00dd57c50c47cee8b8",
                   "a56664eb42b24385be320ccff92ecbba7f56b776b620d371a6157c66f4df7300",
                   "d01fa84ac1715cde744083af87736d5f61da2fba87c806141ecc7772c57181b6",
                   "9c5d65084e5f174ce814fbc0c9e3eba01665e136577ca717b9f20044f331ea3c",
                   "89fd65482bd31005dfd9885004109e4a6f10ebdc39cf3a3bb949bcf529b67b26",
                   "a7c534ad012457a4be6d1c75501ca5041f12853e56ecbb8ac64d080c0e864e62"],
    "repaired": ["eb3b1fca84434ace4ca718a2036494790f63be3d34af8fbb65ef545bb6434c6a",
                 "03d42ad6e7913e50beccdbeaeceafab9bb66c346a81d030245cef5dd4e52b4cb",
                 "97ca830aec89bd52eb235f65f3a73521fc469c73bcdf9ad747a94b6d4f3ec130",
                 "dc7bbab031061b57db0d65cbad6f3a48410853f0ed0196a0d5c5b14983a608ac",
                 "38a69db3f8752a5c525d53e41308d8e3345b813554598cd383d8a1689a644666",
                 "229773c0f8f343b4c0f208405543f9e0be4cbd3256ec42a61ba69f7ac3278b68"],
}


@pytest.mark.parametrize("variant", ["as-written", "repaired"])
def test_the_prompt_read_from_the_segments_is_the_one_written_token_by_token(variant):
    import hashlib

    cons = WidthTreeConstruction(variant)
    for size, want in enumerate(PROMPT_DIGESTS[variant], start=1):
        h = hashlib.sha256()
        for inp in rooted_labeled_trees(size):
            p = cons.prompt(inp)
            h.update(repr((p.labels, p.tokens)).encode())
        assert h.hexdigest() == want, (variant, size)


def test_the_statement_is_the_repaired_readings_and_every_reading_states_its_prompt_by_segments():
    from proofs.cot_path_to_tree.constructions.cotdijkstra import MISSING_ARC_ZERO
    from proofs.cot_path_to_tree.constructions.cotdijkstra import STATEMENT as DKST_STATEMENT
    from proofs.cot_path_to_tree.constructions.cotwidoftree import STATEMENT, STATEMENT_AS_WRITTEN, WIDTH_BLOCKS

    # the repaired decoder with the printed V_max = n has a statement, and the as-written one where enc leaves dis out
    # (thm:cotwidoftree:width); every other reading states its prompt only
    for cons, stated in ((WidthTreeConstruction("as-written"), None),
                         (WidthTreeConstruction("as-written", compared=WIDTH_BLOCKS), STATEMENT_AS_WRITTEN),
                         (WidthTreeConstruction("repaired"), STATEMENT),
                         (WidthTreeConstruction("0-for-non-arcs", encoding=MISSING_ARC_ZERO), None),
                         (WidthTreeConstruction("repaired", v_max=3), None),
                         (WidthTreeConstruction("as-written", v_max=3, compared=WIDTH_BLOCKS), None)):
        assert cons.all_n is stated, cons.label
        assert cons.stated_prompt() is not None and (cons.all_n is None or cons.stated_prompt() == cons.all_n.prompt)
    stmt = WidthTreeConstruction("repaired").all_n
    assert set(stmt.token.blocks) == set(build_decoder().layout.names)
    assert stmt.choices == DKST_STATEMENT.choices and set(stmt.cuts) == {1, 2, 3}  # layer 3 has no head
    assert set(stmt.cuts[2].blocks) == {*DKST_STATEMENT.cuts[2].blocks, "dif"}
    assert set(stmt.cuts[3].blocks) == {"twd", "mwd"} and set(stmt.quotes) >= {(2, "dif"), (3, "twd"), (3, "mwd")}


def test_the_statement_holds_on_every_tree_to_five_vertices(W):
    from symcot.prove.alln.concrete import check_statement

    cons = WidthTreeConstruction("repaired")
    rep = check_statement(cons, cons.all_n, W.SPEC.reference, W.TREE_FAMILIES, 5, 4, 3)
    assert rep.failure is None and rep.max_size == 5
    assert rep.inputs == sum(k ** (k - 1) for k in range(1, 6)) + sum(1 for k in range(1, 6)
                                                                      for _ in W.ORDERED_ROOTED.inputs(k))
    assert rep.fact_instances["dif-range"] and rep.fact_instances["width-bound"]


def test_a_too_small_v_max_fails_the_statement_at_layer_3(W):
    """V_max = 1 < twd: on a deeper visit after two siblings h2 = ReLU(twd - V_max) = 1 survives, twd is not reset."""
    from symcot.prove.alln.concrete import check_statement

    stmt = WidthTreeConstruction("repaired").all_n
    rep = check_statement(WidthTreeConstruction("repaired", v_max=1), stmt, W.SPEC.reference, [W.TREES], 4, 1, 1)
    f = rep.failure
    assert f is not None and (f.kind, f.step, f.what) == ("cut", 2, "layer 3 block twd")
    assert (f.expected, f.got) == ([1], [2]) and f.input["text"] == "tree {0-1, 0-2, 1-3}, root 0"


def test_a_wrong_statement_fails_on_a_concrete_run(W):
    """A statement whose layer-2 cut says dif is the current step's (not the next one's) is caught at its first step."""
    from symcot.constructions.encoding import scalar
    from symcot.prove.alln.concrete import check_statement

    cons = WidthTreeConstruction("repaired")
    stmt = cons.all_n
    wrong = dataclasses.replace(stmt, cuts={**stmt.cuts, 2: stmt.cuts[2].extended(dif=scalar("dif"))})
    rep = check_statement(cons, wrong, W.SPEC.reference, [W.TREES], 3, 1, 1)
    f = rep.failure
    assert f is not None and (f.kind, f.step, f.what, f.expected, f.got) == ("cut", 0, "layer 2 block dif", [0], [1])


def test_the_as_written_statement_differs_from_the_repaired_one_in_dis_only():
    from proofs.cot_path_to_tree.constructions.cotwidoftree import STATEMENT, STATEMENT_AS_WRITTEN, WIDTH_BLOCKS

    aw, rep = STATEMENT_AS_WRITTEN, STATEMENT
    assert aw.choices == rep.choices and set(aw.cuts) == set(rep.cuts) and aw.y0 is rep.y0
    assert {b: t for b, t in aw.token.blocks.items() if b != "dis"} == {b: t for b, t in rep.token.blocks.items()
                                                                        if b != "dis"}
    assert aw.cuts[2] is rep.cuts[2] and aw.cuts[3] is rep.cuts[3] and aw.cuts[1].blocks["wei"] == rep.cuts[1].blocks[
        "wei"]
    assert aw.token.blocks["dis"] != rep.token.blocks["dis"] and aw.cuts[1].blocks["dis"] != rep.cuts[1].blocks["dis"]
    cons = WidthTreeConstruction("as-written", compared=WIDTH_BLOCKS)
    assert set(cons.encoding.blocks) == set(WIDTH_BLOCKS) and cons.all_n is aw
    assert "dis" in WidthTreeConstruction("as-written").encoding.blocks  # the instance's enc, not the class's


def test_the_as_written_statement_holds_on_every_tree_to_five_vertices(W):
    """π_dis is Dist but at the root (λ until a child of the root is current, then 2); enc every block but dis."""
    from proofs.cot_path_to_tree.constructions.cotwidoftree import WIDTH_BLOCKS
    from symcot.prove.alln.concrete import check_statement

    cons = WidthTreeConstruction("as-written", compared=WIDTH_BLOCKS)
    rep = check_statement(cons, cons.all_n, W.WIDTH_SPEC.reference, W.TREE_FAMILIES, 5, 4, 3)
    assert rep.failure is None and rep.max_size == 5
    assert rep.inputs == sum(k ** (k - 1) for k in range(1, 6)) + sum(1 for k in range(1, 6)
                                                                      for _ in W.ORDERED_ROOTED.inputs(k))
    assert rep.fact_instances["back-range"] and rep.fact_instances["width-bound"]


def test_the_as_written_decoder_departs_from_enc_on_dis_all_the_same(W):
    """With thm:cotwidoftree's enc (dis compared) the as-written statement holds but the decoder leaves enc at y_1."""
    from proofs.cot_path_to_tree.constructions.cotwidoftree import STATEMENT_AS_WRITTEN
    from symcot.prove.alln.concrete import check_statement

    cons = WidthTreeConstruction("as-written")
    f = check_statement(cons, STATEMENT_AS_WRITTEN, W.SPEC.reference, [W.TREES], 3, 2, 2).failure
    assert f is not None and f.decoder_departs and (f.kind, f.step, f.what) == ("encoding", 1, "block dis of y_1")
    assert (f.expected, f.got) == ([0, 1], [2, 1]) and f.input["text"] == "tree {0-1}, root 0"


def test_the_repaired_statement_fails_on_the_as_written_decoder_at_step_0(W):
    """The repaired statement with the as-written prompt: layer 1 leaves the root at λ, not Dist^(1)[root] = 0."""
    from proofs.cot_path_to_tree.constructions.cotdijkstra import AS_WRITTEN
    from proofs.cot_path_to_tree.constructions.cotwidoftree import STATEMENT, WIDTH_BLOCKS, prompt_segments
    from symcot.prove.alln.concrete import check_statement

    cons = WidthTreeConstruction("as-written", compared=WIDTH_BLOCKS)
    wrong = dataclasses.replace(STATEMENT, segments=prompt_segments(AS_WRITTEN))
    f = check_statement(cons, wrong, W.WIDTH_SPEC.reference, [W.TREES], 3, 1, 1).failure
    assert f is not None and not f.decoder_departs
    assert (f.kind, f.step, f.what, f.expected, f.got) == ("cut", 0, "layer 1 block dis", [0, 1], [2, 1])
    assert f.input["text"] == "tree {0-1}, root 0"


def _without_universe(chk):
    """The row with its families' universes left out: the proof runs, ``proved assuming`` they cover the domain."""
    return dataclasses.replace(chk, families=[dataclasses.replace(f, universe=None, universe_count=None)
                                              for f in chk.families])


def _domain_gap(row):
    """The shipped row: the domain (every digraph reachable from s, unit weights) is more than the trees."""
    assert row.verdict == "error", row.notes
    assert "omit an input of the domain at size 2" in " ".join(row.notes), row.notes


@pytest.mark.slow
def test_the_as_written_width_is_proved_for_every_n(W):
    claim = next(c for c in W.CLAIMS if c.id == "thm:cotwidoftree:width")
    chk = next(c for c in claim.checks if type(c).__name__ == "AllNCheck")
    assert chk.variant == "as-written" and chk.spec is W.WIDTH_SPEC
    _domain_gap(chk.run(RunContext("thm:cotwidoftree:width", 6)))
    row = _without_universe(chk).run(RunContext("thm:cotwidoftree:width", 6))
    assert row.verdict == "proved assuming" and row.scope.startswith("all n"), row.notes
    assert all(o["status"] == "proved" for o in row.details["obligations"])
    cuts = {(o["layer"], o["where"]) for o in row.details["obligations"] if o["phase"] == "step"}
    assert (1, "after the layer, block dis") in cuts and (3, "after the layer, block mwd") in cuts
    facts = {o["where"] for o in row.details["obligations"] if o["phase"] == "fact"}
    assert {"back-range", "frontier", "dif-range", "fold-range", "width-bound"} <= facts


@pytest.mark.slow
def test_the_repaired_decoder_is_proved_for_every_n(W):
    claim = next(c for c in W.CLAIMS if c.id == "thm:cotwidoftree")
    chk = next(c for c in claim.checks if type(c).__name__ == "AllNCheck" and c.variant == "repaired")
    _domain_gap(chk.run(RunContext("thm:cotwidoftree", 6)))
    row = _without_universe(chk).run(RunContext("thm:cotwidoftree", 6))
    assert row.verdict == "proved assuming" and row.scope.startswith("all n"), row.notes
    assert all(o["status"] == "proved" for o in row.details["obligations"])
    layers = {(o["layer"], o["where"]) for o in row.details["obligations"] if o["phase"] == "step"}
    assert (2, "after the layer, block dif") in layers and (3, "after the layer, block twd") in layers
    facts = {o["where"] for o in row.details["obligations"] if o["phase"] == "fact"}
    assert {"frontier", "dif-range", "fold-range", "width-bound"} <= facts
    aw = next(c for c in claim.checks if type(c).__name__ == "AllNCheck" and c.variant == "as-written")
    assert aw.run(RunContext("thm:cotwidoftree", 6)).verdict == "refuted"
