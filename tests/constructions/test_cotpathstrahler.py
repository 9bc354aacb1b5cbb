"""thm:cotpathstrahler: the completed sketch refuted at UDUD (the layer-2 key), the repaired key verified."""

import importlib

import pytest
import sympy as sp

from symcot.algorithms.bijection import psi
from symcot.algorithms.paths import strahler
from symcot.check.exhaustive import run_construction_check
from symcot.check.trace import replay
from symcot.constructions.cotpathstrahler import PAPER_D, StrahlerPathConstruction, build_decoder
from symcot.constructions.mutant import Mutant
from symcot.errors import InvalidInputError
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS, words_by_rank


@pytest.fixture(scope="module")
def proofs(claims):
    return importlib.import_module("proofs.thm_cotpathstrahler")


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


@pytest.mark.slow
def test_repaired_on_every_word_up_to_9_vertices(proofs):
    row = run(proofs, StrahlerPathConstruction("repaired"), 9)
    assert row.verdict == "verified" and row.max_size == 9 and row.inputs_checked == sum(
        [1, 2, 5, 14, 42, 132, 429, 1430])


def test_readings_of_q_and_of_the_lemmas_m():
    """The printed tmp_q is wrong under the letter reading and right under the printed q_τ (and π_q the other
    way round); the layer-2 key defect survives both readings; the printed q_τ loses the last step."""
    import importlib

    from symcot.check.exhaustive import run_construction_check
    from symcot.constructions.cotpathstrahler import StrahlerPathConstruction
    from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS

    P = importlib.import_module("proofs.thm_cotpathstrahler")

    def cex(variant):
        row = run_construction_check("x", StrahlerPathConstruction(variant), P.SPEC, [NONEMPTY_DYCK_WORDS], 6)
        c = row.counterexample
        return None if c is None else (c["input"]["word"], c["step"], c["layer"], c.get("block") or c.get("head"))

    key = ("UDUD", 4, 2, "par")
    assert cex("as-written") == key and cex("q-literal-last-repaired") == key
    assert cex("repaired") is None and cex("q-literal-repaired") is None
    assert cex("tmp-q") == ("UD", 1, 1, "tmp_ht") and cex("q-literal-repaired-m-from-q") == ("UD", 2, 1, "tmp_ht")
    assert cex("q-literal") == ("UD", 2, 1, "read") == cex("q-literal-key-repaired")
