"""thm:cotwidofpath: encoding and sizes; as written refuted (reading, then the k = 0 pulse); repaired verified."""

import importlib

import pytest
import sympy as sp

from proofs.cot_path_to_tree.constructions.cotwidofpath import PAPER_D, WidthPathConstruction, build_decoder
from symcot.check.exhaustive import run_construction_check
from symcot.check.stepwise import check_input
from symcot.check.trace import replay
from symcot.constructions.mutant import Mutant
from symcot.errors import InvalidInputError
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS, words_by_rank
from symcot.ir import n


@pytest.fixture(scope="module")
def proofs(claims):
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotwidofpath")


def run(proofs, cons, size):
    return run_construction_check("thm:cotwidofpath", cons, proofs.SPEC, [NONEMPTY_DYCK_WORDS], size,
                                  proofs.PAPER_SIZES)


@pytest.mark.parametrize("variant", ["as-written", "read-repaired", "repaired"])
def test_sizes_match_the_theorem(variant):
    s = build_decoder(variant).sizes()
    assert sp.expand(s.d - PAPER_D) == 0 and sp.expand(s.d - (3 * n / 2 + 4)) == 0
    assert s.layers == 2 and s.heads == [1, 0]
    assert all(d == 1 for d in s.degrees.values())  # the lemmas' FFNs are linear + ReLU


def test_prompt_is_the_papers_encoding_and_bad_words_are_rejected():
    p = WidthPathConstruction().prompt("UD")
    # blocks: pos 2, q 1, ht 1, p 2, wd 1  (d = 3n/2 + 4 = 7)
    assert p.labels == ["x_0", "x_1", "y_0"]
    assert p.tokens == [[1, 0, 1, 0, 0, 0, 0], [0, 1, -1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0]]
    c = WidthPathConstruction("repaired")
    for bad, msg in [("DU", "below zero"), ("UUD", "unbalanced"), ("UdD", "letter 'd'"), ("", "non-empty")]:
        with pytest.raises(InvalidInputError, match=msg):
            c.prompt(bad)


def test_as_written_reads_the_wrong_letter(proofs):
    row = run(proofs, WidthPathConstruction("as-written"), 5)
    c = row.counterexample
    assert row.verdict == "refuted" and row.max_size == 1
    assert (c["input"]["word"], c["step"], c["layer"], c["kind"], c["head"]) == ("UD", 1, 1, "head", "read")
    assert (c["expected"], c["got"]) == ("x_0", "x_1")


def test_lemma_as_written_never_counts_level_one(proofs):
    row = run(proofs, WidthPathConstruction("read-repaired"), 5)
    c = row.counterexample
    assert row.verdict == "refuted" and row.max_size == 1
    assert (c["input"]["word"], c["step"], c["layer"], c["block"]) == ("UD", 1, 1, "p")
    assert c["expected"] == [1, 0] and c["got"] == [0, 0]
    assert "p_{h+1}" in c["proof_says"]


def test_repaired_verified_and_every_invariant_holds(proofs):
    cons = WidthPathConstruction("repaired")
    row = run(proofs, cons, 8)
    assert row.verdict == "verified" and row.max_size == 8 and row.inputs_checked == sum([1, 2, 5, 14, 42, 132, 429])
    for w in words_by_rank(5):
        assert replay(cons, w, proofs.SPEC).ok, w
    y = replay(cons, "UDUDUUDD", proofs.SPEC).steps[-1].token
    lay = cons.concrete("UDUDUUDD").layout
    assert lay.pi("wd", y) == [3] and lay.pi("p", y) == [3, 1, 0, 0, 0]  # wid(ψ(w)) = 3 at depth 1


def test_a_broken_width_update_is_refuted(proofs):
    # lem:addwidplus1: wd ← wd + Σ tmp_i; drop tmp_1 (the p_2 indicator).
    mut = Mutant(WidthPathConstruction("repaired"), 2, "W_2", ("wd", 0), [("tmp", 1)], 0)
    row = run(proofs, mut, 5)
    c = row.counterexample
    assert row.verdict == "refuted" and c["input"]["word"] == "UUDUDD" and (c["step"], c["block"]) == (4, "wd")
    assert (c["expected"], c["got"]) == ([2], [1])
    assert "eq:addwidplus1" in c["proof_says"]


def test_claim_rows(claims):
    rows = claims["thm:cotwidofpath"].run(max_size=5)
    assert [(r.variant, r.verdict) for r in rows] == [
        ("as-written", "refuted"), ("read-repaired", "refuted"), ("repaired", "verified"), ("q-literal", "refuted"),
        ("q-literal-read-last-repaired", "refuted"), ("q-literal-pulse-last-repaired", "refuted"),
        ("q-literal-pulse-read-repaired", "refuted"), ("q-literal-repaired", "verified")]
    assert rows[2].max_size == 5
    width = {r.variant: r.verdict for r in claims["thm:cotwidofpath:width"].run(max_size=5)}
    assert width == {"as-written": "refuted", "read-repaired": "refuted", "repaired": "verified",
                     "q-literal": "refuted", "q-literal-read-last-repaired": "refuted",
                     "q-literal-pulse-last-repaired": "refuted", "q-literal-pulse-read-repaired": "verified",
                     "q-literal-repaired": "verified"}


def test_the_empty_word_would_give_width_zero(proofs):
    """Outside the family: a one-vertex tree has width 1, but y_0 carries wd = 0 and no step runs."""
    cons = WidthPathConstruction("repaired")
    assert check_input(cons, proofs.SPEC, "UD") is None
    with pytest.raises(InvalidInputError):
        cons.prompt("")


@pytest.mark.slow
def test_repaired_on_every_word_up_to_11_vertices(proofs):
    row = run(proofs, WidthPathConstruction("repaired"), 11)
    assert row.verdict == "verified" and row.max_size == 11 and row.inputs_checked == 23713


def test_each_literal_defect_is_isolated_by_repairing_the_other_two():
    """Under the printed q_τ: no k = 0 pulse, π_pos never advanced, and no token for the last step."""
    import importlib

    from proofs.cot_path_to_tree.constructions.cotwidofpath import WidthPathConstruction
    from symcot.check.exhaustive import run_construction_check
    from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS

    P = importlib.import_module("proofs.cot_path_to_tree.thm_cotwidofpath")

    def cex(variant):
        row = run_construction_check("x", WidthPathConstruction(variant), P.SPEC, [NONEMPTY_DYCK_WORDS], 6)
        c = row.counterexample
        return None if c is None else (c["input"]["word"], c["step"], c["layer"], c.get("block") or c.get("head"),
                                       c["expected"], c["got"])

    assert cex("q-literal") == ("UD", 1, 1, "p", [1, 0], [0, 0])  # step 1 reads x_1 = w_0 = U, rightly
    assert cex("q-literal-read-last-repaired") == ("UD", 1, 1, "p", [1, 0], [0, 0])
    assert cex("q-literal-pulse-last-repaired") == ("UD", 2, 1, "read", "x_0", "x_1")
    assert cex("q-literal-pulse-read-repaired") == ("UD", 2, 1, "read", "none: no input token carries q_n", "x_0")
    assert cex("q-literal-repaired") is None
    # the last step lost only costs ht: p, wd and q are right, and so is π_wd(y_n) = wid(ψ(w))
    row = run_construction_check("x", WidthPathConstruction("q-literal-pulse-read-repaired"), P.WIDTH_ONLY_SPEC,
                                 [NONEMPTY_DYCK_WORDS], 7)
    assert row.verdict == "verified"


# -- the statement for every n ------------------------------------------------------------------------------


def test_the_statement_is_written_for_the_repairs_and_every_variant_states_its_prompt_by_segments():
    from proofs.cot_path_to_tree.constructions.cotwidofpath import STATED, VARIANTS

    assert STATED == ("repaired", "q-literal-repaired")
    for v in VARIANTS:
        cons = WidthPathConstruction(v)
        assert (cons.all_n is not None) == (v in STATED), v
        assert cons.stated_prompt() is not None and (cons.all_n is None or cons.stated_prompt() == cons.all_n.prompt)
    stmt = WidthPathConstruction("repaired").all_n
    assert set(stmt.token.blocks) == set(build_decoder("repaired").layout.names)
    assert [(ch.layer, ch.head) for ch in stmt.choices] == [(1, "read")] and set(stmt.cuts) == {1, 2}
    # the printed q_τ with x_0 carrying the last step: x_0 = [e_0 ‖ -1 ‖ 0 ‖ 0 0 ‖ 0] on UD
    assert WidthPathConstruction("q-literal-repaired").prompt("UD").tokens[0] == [1, 0, -1, 0, 0, 0, 0]


@pytest.mark.parametrize("variant", ["repaired", "q-literal-repaired"])
def test_the_statement_holds_on_every_word_to_six_vertices(proofs, variant):
    from symcot.prove.alln.concrete import check_statement

    cons = WidthPathConstruction(variant)
    rep = check_statement(cons, cons.all_n, proofs.SPEC.reference, [NONEMPTY_DYCK_WORDS], 6, 4)
    assert rep.failure is None and rep.max_size == 6 and rep.inputs == 1 + 2 + 5 + 14 + 42
    assert rep.z3_reading_inputs == 1 + 2 + 5


def test_the_printed_lemma_fails_the_repaired_statement_at_the_first_up_step(proofs):
    """read-repaired (no k = 0 pulse) under the repaired statement: the cut after layer 1 misses p_1 on UD."""
    from proofs.cot_path_to_tree.constructions.cotwidofpath import all_n_statement
    from symcot.prove.alln.concrete import check_statement

    rep = check_statement(WidthPathConstruction("read-repaired"), all_n_statement("repaired"), proofs.SPEC.reference,
                          [NONEMPTY_DYCK_WORDS], 4, 3)
    f = rep.failure
    assert f is not None and f.input["word"] == "UD" and f.step == 0 and "layer 1" in f.what and "p" in f.what
    assert (f.expected, f.got) == ([1, 0], [0, 0])


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["repaired", "q-literal-repaired"])
def test_the_repaired_decoders_are_proved_for_every_n(proofs, variant):
    from symcot.check.context import RunContext

    chk = next(c for c in proofs.CLAIMS[0].checks if type(c).__name__ == "AllNCheck" and c.variant == variant)
    row = chk.run(RunContext("thm:cotwidofpath", 8))
    assert row.verdict == "proved" and row.scope.startswith("all n"), row.notes
    assert row.details["concrete"]["inputs"] == 625 and all(o["status"] == "proved" for o in row.details["obligations"])
    assert "prop:widthpathtree" in " ".join(row.notes)
