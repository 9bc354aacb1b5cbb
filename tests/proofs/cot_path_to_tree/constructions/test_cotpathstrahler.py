"""thm:cotpathstrahler: the completion refuted at UDUD (layer-2 key); the repaired key, layer-1 commit verified."""

import importlib

import pytest
import sympy as sp

from proofs.cot_path_to_tree.algorithms.bijection import psi
from proofs.cot_path_to_tree.algorithms.paths import strahler
from proofs.cot_path_to_tree.constructions.cotpathstrahler import PAPER_D, StrahlerPathConstruction, build_decoder
from symcot.check.exhaustive import run_construction_check
from symcot.check.trace import replay
from symcot.constructions.mutant import Mutant
from symcot.errors import InvalidInputError
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS, words_by_rank


def cex(variant: str):
    """The smallest counterexample of ``variant`` to 6 vertices as ``(word, step, layer, block or head)``."""
    P = importlib.import_module("proofs.cot_path_to_tree.thm_cotpathstrahler")
    row = run_construction_check("x", StrahlerPathConstruction(variant), P.SPEC, [NONEMPTY_DYCK_WORDS], 6)
    c = row.counterexample
    return None if c is None else (c["input"]["word"], c["step"], c["layer"], c.get("block") or c.get("head"))


@pytest.fixture(scope="module")
def proofs(claims):
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotpathstrahler")


def run(proofs, cons, size):
    return run_construction_check("thm:cotpathstrahler", cons, proofs.SPEC, [NONEMPTY_DYCK_WORDS], size,
                                  proofs.PAPER_SIZES)


@pytest.mark.parametrize("variant", ["as-written", "repaired"])
def test_sizes_match_the_theorem(variant):
    s = build_decoder(variant).sizes()
    assert sp.expand(s.d - PAPER_D) == 0 and s.layers == 4 and s.heads == [1, 1, 0, 0]
    assert s.degrees["layer4.W_1"] == 2  # the bilinear fold
    assert s.degrees["layer2.K_par"] == (2 if variant == "repaired" else 1)


def test_prompt_is_the_sketchs_encoding_and_bad_words_are_rejected():
    cons = StrahlerPathConstruction()
    p = cons.prompt("UD")
    lay = cons.concrete("UD").layout
    assert p.labels == ["x_0", "x_1", "y_0"] and lay.dim == 3 * 2 + 15
    x1, y0 = lay.split(p.tokens[1]), lay.split(p.tokens[2])
    assert (x1["pos"], x1["pos_sc"], x1["q"], x1["ht"], x1["flg"]) == ([0, 1], [2], [-1], [0, 1], [0])
    assert (y0["pos"], y0["pos_sc"], y0["q"], y0["ht"], y0["flg"]) == ([1, 0], [1], [1], [1, 0], [1])
    assert cons.subs("UD") and list(cons.subs("UDUD").values()) == [6]  # λ = n + 2
    for bad, msg in [("DU", "below zero"), ("UDU", "unbalanced"), ("U D", "letter ' '"), ("", "non-empty")]:
        with pytest.raises(InvalidInputError, match=msg):
            cons.prompt(bad)


def test_completion_as_written_loses_the_parent_to_an_input_token(proofs):
    row = run(proofs, StrahlerPathConstruction("as-written"), 5)
    c = row.counterexample
    assert row.verdict == "refuted" and row.max_size == 2
    assert (c["input"]["word"], c["step"], c["layer"], c["kind"], c["head"]) == ("UDUD", 4, 2, "head", "par")
    assert (c["expected"], c["got"]) == ("y_2", "x_2")
    assert "final block M" in c["other_differences"]


def test_repaired_verified_and_every_invariant_holds(proofs):
    cons = StrahlerPathConstruction("repaired")
    row = run(proofs, cons, 7)
    assert row.verdict == "verified" and row.max_size == 7 and row.inputs_checked == sum([1, 2, 5, 14, 42, 132])
    for w in words_by_rank(5):
        tr = replay(cons, w, proofs.SPEC)
        assert tr.ok, (w, [s.mismatches for s in tr.steps])
    w = "UUDUDDUUDUDD"  # str = 2
    y = replay(cons, w, proofs.SPEC).steps[-1].token
    lay = cons.concrete(w).layout
    assert lay.pi("M", y) == [strahler(psi(w))] == [2]


def test_dropping_the_carry_is_refuted(proofs):
    # W_1^(4): M_f = M + tmp_D·tmp_c_buf; drop the product (no lift when two children tie).
    mut = Mutant(StrahlerPathConstruction("repaired"), 4, "W_1", ("M", 0), [("tmp_D", 0), ("tmp_c_buf", 0)], 0)
    row = run(proofs, mut, 5)
    c = row.counterexample
    assert row.verdict == "refuted" and c["input"]["word"] == "UDUD" and (c["step"], c["block"]) == (4, "M")
    assert (c["expected"], c["got"]) == ([1], [0])


def test_a_broken_shift_is_located_in_layer_1(proofs):
    # lem:shiftonehot: z+ = ReLU(m/2 + S_R h - 1/2); drop S_R's entry ht[0] -> z+[1].
    mut = Mutant(StrahlerPathConstruction("repaired"), 1, "W_1", ("z+", 1), [("ht", 0)], 0)
    row = run(proofs, mut, 4)
    c = row.counterexample
    assert row.verdict == "refuted" and c["input"]["word"] == "UD" and (c["step"], c["layer"], c["block"]) == (
        1, 1, "tmp_ht")


def test_claim_rows(claims):
    rows = {r.variant: r for r in claims["thm:cotpathstrahler"].run(max_size=4)}
    assert rows["as-written"].verdict == "refuted" and rows["repaired"].verdict == "verified"
    claim = claims["thm:cotpathstrahler"]
    assert rows["pos-sc-layer-1"].verdict == "verified" and claim.reading("pos-sc-layer-1").kind == "reading"
    assert {v for v in rows if v.endswith("pos-sc-layer-1")} == {
        v for v in claim.variant_names() if v.endswith("pos-sc-layer-1")} and len(rows) == 16


@pytest.mark.slow
def test_repaired_on_every_word_up_to_9_vertices(proofs):
    row = run(proofs, StrahlerPathConstruction("repaired"), 9)
    assert row.verdict == "verified" and row.max_size == 9 and row.inputs_checked == sum(
        [1, 2, 5, 14, 42, 132, 429, 1430])


def test_readings_of_q_and_of_the_lemmas_m():
    """The printed tmp_q is wrong under the letter reading and right under the printed q_τ (and π_q the other
    way round); with the layer-4 commit of pos_sc the layer-2 key defect survives both readings; the printed q_τ
    loses the last step."""
    key = ("UDUD", 4, 2, "par")
    assert cex("as-written") == key and cex("q-literal-last-repaired") == key
    assert cex("repaired") is None and cex("q-literal-repaired") is None
    assert cex("tmp-q") == ("UD", 1, 1, "tmp_ht") and cex("q-literal-repaired-m-from-q") == ("UD", 2, 1, "tmp_ht")
    assert cex("q-literal") == ("UD", 2, 1, "read") == cex("q-literal-key-repaired")


# -- choice 3: when pos_sc ← tmp_pos_sc is committed (layer 4, the default, or layer 1) ---------------------


def test_every_variant_has_a_layer_1_commit_twin_with_a_reading():
    from dataclasses import replace

    from proofs.cot_path_to_tree.constructions.cotpathstrahler import OPTIONS, READINGS, VARIANTS

    assert set(READINGS) == set(OPTIONS) == set(VARIANTS) and len(VARIANTS) == 16
    layer4 = [v for v in VARIANTS if OPTIONS[v].pos_sc_commit == "layer-4"]
    assert layer4[:2] == ["as-written", "repaired"] and len(layer4) == 8
    for v in layer4:
        twin = "pos-sc-layer-1" if v == "as-written" else f"{v}-pos-sc-layer-1"
        assert OPTIONS[twin] == replace(OPTIONS[v], pos_sc_commit="layer-1")
        # a twin is a reading when its layer-4 variant is one (or is as-written), else a repair
        assert READINGS[twin].kind == ("reading" if READINGS[v].kind in ("as-written", "reading") else "repair")
        assert READINGS[twin].text
    assert READINGS["pos-sc-layer-1"].kind == "reading"


@pytest.mark.parametrize("variant", ["pos-sc-layer-1", "repaired-pos-sc-layer-1"])
def test_layer_1_commit_sizes_match_the_theorem(variant):
    s = build_decoder(variant).sizes()
    assert sp.expand(s.d - PAPER_D) == 0 and s.layers == 4 and s.heads == [1, 1, 0, 0]
    assert s.degrees["layer2.K_par"] == (2 if variant.startswith("repaired") else 1)


def test_layer_1_commit_gives_input_tokens_pos_sc_1_and_the_printed_key_the_parent():
    """UDUD: the layer-4 commit loses step 4's parent to x_2 (a tie at λ + 3); the layer-1 commit selects y_2."""
    from symcot.model import Context

    w = "UDUD"
    cons = StrahlerPathConstruction("pos-sc-layer-1")
    dec, prompt = cons.concrete(w), cons.prompt(w)
    ctx = Context(dec)
    for tok in prompt.tokens:
        ctx.push(tok)
    lay = dec.layout
    # every x_τ's causal layer-1 read falls back to x_0 (π_pos_sc = 1); y_0 reads x_1 (π_pos_sc = 2)
    assert [lay.pi("pos_sc", z) for z in ctx.reps[1]] == [[1], [1], [1], [1], [2]]
    assert [lay.pi("pos_sc", z) for z in ctx.reps[0]] == [[1], [2], [3], [4], [1]]
    layer4 = StrahlerPathConstruction("as-written")
    ctx4 = Context(layer4.concrete(w))
    for tok in layer4.prompt(w).tokens:
        ctx4.push(tok)
    assert [lay.pi("pos_sc", z) for z in ctx4.reps[1]] == [[1], [2], [3], [4], [1]]  # unchanged in layer 1

    import importlib

    spec = importlib.import_module("proofs.cot_path_to_tree.thm_cotpathstrahler").SPEC
    tr = replay(cons, w, spec)
    assert tr.ok, [s.mismatches for s in tr.steps]
    par = tr.steps[3].layers[1].heads[0]
    lam = 6  # λ = n + 2
    assert (par.index, par.score, par.margin, par.tie) == (6, lam + 4, 2, False)  # y_2 (prompt x_0..x_3 y_0 y_1 y_2)
    assert lay.pi("M", tr.steps[-1].token) == [strahler(psi(w))] == [1]


def test_layer_1_commit_with_the_printed_key_verified(proofs):
    for variant in ["pos-sc-layer-1", "q-literal-last-repaired-pos-sc-layer-1"]:
        row = run(proofs, StrahlerPathConstruction(variant), 7)
        assert row.verdict == "verified" and row.max_size == 7 and row.inputs_checked == sum([1, 2, 5, 14, 42, 132])


def test_readings_by_commit_and_key():
    """q_τ reading × m × pos_sc commit × layer-2 key: the key defect is the layer-4 commit's."""
    key = ("UDUD", 4, 2, "par")
    last = ("UD", 2, 1, "read")
    expected = {
        "as-written": key, "pos-sc-layer-1": None,
        "repaired": None, "repaired-pos-sc-layer-1": None,
        "tmp-q": ("UD", 1, 1, "tmp_ht"), "tmp-q-pos-sc-layer-1": ("UD", 1, 1, "tmp_ht"),
        "q-literal": last, "q-literal-pos-sc-layer-1": last,
        "q-literal-key-repaired": last, "q-literal-key-repaired-pos-sc-layer-1": last,
        "q-literal-last-repaired": key, "q-literal-last-repaired-pos-sc-layer-1": None,
        "q-literal-repaired": None, "q-literal-repaired-pos-sc-layer-1": None,
        "q-literal-repaired-m-from-q": ("UD", 2, 1, "tmp_ht"),
        "q-literal-repaired-m-from-q-pos-sc-layer-1": ("UD", 2, 1, "tmp_ht"),
    }
    assert {v: cex(v) for v in expected} == expected


def test_a_layer_1_commit_that_drops_tmp_pos_sc_is_refuted(proofs):
    # W_2^(1): pos_sc ← tmp_pos_sc; set the coefficient to 0 (nothing committed, every π_pos_sc becomes 0).
    mut = Mutant(StrahlerPathConstruction("pos-sc-layer-1"), 1, "W_2", ("pos_sc", 0), [("tmp_pos_sc", 0)], 0)
    row = run(proofs, mut, 5)
    c = row.counterexample
    assert row.verdict == "refuted" and c["input"]["word"] == "UD"
    assert (c["step"], c["layer"], c["block"], c["expected"], c["got"]) == (1, 1, "pos_sc", [2], [0])


def test_a_layer_1_commit_whose_key_drops_pos_sc_is_refuted(proofs):
    # K^(2) = [λ π_ht ‖ π_pos_sc]: drop π_pos_sc; every token at the parent's height ties, x_0 wins by index
    # (at UD it copies x_0's (0, 0), the same as y_0's: the first wrong value is at UDUD).
    mut = Mutant(StrahlerPathConstruction("pos-sc-layer-1"), 2, "K_par", ("f", 0), [("pos_sc", 0)], 0)
    row = run(proofs, mut, 5)
    c = row.counterexample
    assert row.verdict == "refuted" and c["input"]["word"] == "UDUD"
    assert (c["step"], c["layer"], c["head"], c["expected"], c["got"]) == (4, 2, "par", "y_2", "x_0")
