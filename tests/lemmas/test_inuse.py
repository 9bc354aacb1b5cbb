"""Lemmas where the decoders use them: the decoder's own gadget weights, the domain confirmed by replay."""

import importlib

import pytest

from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress
from symcot.ir import n
from symcot.lemmas import Override, each
from symcot.lemmas.inuse import InUseCheck

QUIET = Progress(False)


def mod(stem):
    return importlib.import_module(f"proofs.cot_path_to_tree.{stem}")


def test_widsupffn_where_the_width_decoder_uses_it_is_verified(claims):
    v = mod("lem_widsupffn").in_use("repaired").run(RunContext("lem:widsupffn", 4, QUIET))
    assert v.verdict == "verified" and v.variant == "in:thm:cotwidoftree/repaired" and v.max_size == 4
    assert v.inputs_checked == 1 + 2 + 9 + 64  # every labeled tree with every root, n = 1..4
    (inst,) = v.details["instances"]
    assert inst["layer"] == 3 and inst["proof"]["status"] == "proved"
    assert inst["proof"]["dimension"].startswith("every n")  # V_max = n symbolic
    assert "v_2 ≤ n - 1" in inst["proof"]["core"]
    assert inst["fed"]["ranges"]["v1"] == [0, 1] and inst["fed"]["hypotheses_failing"] == {}
    assert "domain confirmed" in v.notes[-1]


def test_a_changed_gadget_coefficient_is_refuted_with_a_value_the_decoder_feeds(claims):
    # h2 = v2 - 1·v1 instead of v2 - n·v1: on dif = 1 the ReLU no longer clears twd.
    wrong = Override("W_1", ("h2", 0), (("v1", 0),), -1)
    v = mod("lem_widsupffn").in_use("repaired", overrides=(wrong,)).run(RunContext("lem:widsupffn", 4, QUIET))
    assert v.verdict == "refuted"
    c = v.counterexample
    assert c["kind"] == "fed" and c["layer"] == 3 and c["step"] >= 1
    assert c["values"]["v1"] == [1] and c["values"]["v2"][0] >= 2  # twd ≥ 2 then a deeper vertex
    assert c["block"].startswith("v2[0]") and c["expected"] == 1 and c["got"] == c["values"]["v2"][0]
    assert c["violates"] == []  # inside the stated domain: the lemma itself (with this weight) is wrong there
    assert "tree" in c["input"]["text"]


def test_a_too_narrow_domain_is_caught_by_the_replay(claims):
    m = mod("lem_widsupffn")
    narrow = (*m.TREE_USE_HYPS, each("v_2 ≤ 1", "v2", lambda v, K: v <= 1))
    v = m.in_use("repaired", hyps=narrow).run(RunContext("lem:widsupffn", 4, QUIET))
    assert v.verdict == "unknown"
    out = v.details["outside_domain"]
    assert out["violates"] == ["v_2 ≤ 1"] and out["values"]["v2"] == [2]
    # twd is fed before the update: twd = 2 reaches layer 3 first when a third vertex joins a level (a root with
    # three children, size 4)
    assert out["size"] == 4 and out["step"] == 3
    assert "outside the stated domain" in v.notes[-1]


def test_a_failure_the_decoder_never_feeds_is_not_a_refutation(claims):
    m = mod("lem_widsupffn")
    wide = tuple(h for h in m.TREE_USE_HYPS if h.name != "v_2 ≤ n - 1")  # twd unbounded: λ = n no longer clears it
    v = m.in_use("repaired", hyps=wide).run(RunContext("lem:widsupffn", 4, QUIET))
    assert v.verdict == "unknown" and v.counterexample is None
    (inst,) = v.details["instances"]
    assert inst["proof"]["status"] == "refuted" and inst["fed"]["target_failures"] == 0
    assert any("never fed such a value" in note for note in v.notes)


def test_the_height_lemma_as_printed_misses_p1_at_the_first_step(claims):
    m = mod("lem_addonetospecificheight")
    v = m.in_use("read-repaired").run(RunContext("lem:addonetospecificheight", 3, QUIET))
    assert v.verdict == "refuted" and v.variant == "in:thm:cotwidofpath/read-repaired"
    c = v.counterexample
    assert c["input"]["word"] == "UD" and (c["step"], c["layer"]) == (1, 1)
    assert c["values"] == {"m": [1], "h": [0], "p": [0, 0]} and (c["expected"], c["got"]) == (1, 0)
    assert c["block"].startswith("p[0]") and c["violates"] == []
    z3 = v.details["instances"][0]["proof"]["counterexample"]  # the solver's, on the stated domain: the same value
    assert z3["input"]["blocks"] == {"m": [1], "h": [0], "p": [0, 0]} and z3["input"]["sizes"] == {"n": 2}


def test_the_repaired_height_lemma_is_verified_where_it_is_used(claims):
    v = mod("lem_addonetospecificheight").in_use("repaired").run(RunContext("lem:addonetospecificheight", 4, QUIET))
    assert v.verdict == "verified" and v.max_size == 4
    proof = v.details["instances"][0]["proof"]
    assert proof["status"] == "proved" and proof["dimension"].startswith("every n")  # H = n/2 + 1, symbolic n


def test_a_w2_only_gate_reads_the_hidden_vector(claims):
    v = mod("gates").par_in_use("thm:cotdfs").run(RunContext("thm:cotdfs:pargate", 3, QUIET))
    assert v.verdict == "verified"
    fed = v.details["instances"][0]["fed"]
    assert fed["ranges"]["flg1"] == [0, 1] and fed["ranges"]["buf"] == [0, 1] and fed["ranges"]["par"] == [0, 1]


def test_the_target_covers_only_the_outputs_the_decoder_uses(claims):
    chk = mod("lem_mMc").in_use()
    cons = chk._construction_check().construction()
    (mmc,) = [g for layer in cons.decoder.layers for g in layer.ffn.gadgets if g.kind == "mmc"]
    lem = chk.instance_lemma("lem:mMc", mmc)
    assert sorted(lem.target) == ["M", "c"]  # lem:mMc's own m output is not written (q is committed from tmp_q)
    assert lem.has_lam and not lem.dims  # λ free; the replay checks M, c ≤ λ at the decoder's λ = n + 2


def test_a_label_the_decoder_does_not_use_is_an_error(claims):
    chk = mod("lem_widsupffn").in_use()
    bad = InUseCheck("lem:mMc", chk.using, chk.target, dims={n: 2})
    v = bad.run(RunContext("lem:mMc", 2, QUIET))
    assert v.verdict == "error" and "builds no FFN from lem:mMc" in v.notes[-1]


@pytest.mark.slow
def test_default_sizes_of_every_in_use_row(claims):
    for cid in ("lem:widsupffn", "lem:mMc", "lem:shiftonehot", "lem:addwidplus1", "lem:addonetospecificheight"):
        for chk in claims[cid].checks:
            if chk.variant.startswith("in:"):
                v = chk.run(RunContext(cid, chk.default_max_size, QUIET))
                want = "refuted" if cid == "lem:addonetospecificheight" and not chk.variant.endswith("/repaired") \
                    else "verified"
                assert v.verdict == want, (cid, chk.variant, v.notes)


def test_in_use_rows_replay_the_using_claims_in_use_size(claims):
    rows = [(cid, chk) for cid in ("thm:cotdfs:pargate", "thm:cottreestrahler:indpos", "lem:mMc")
            for chk in claims[cid].checks if chk.variant.startswith("in:")]
    sizes = {(cid, chk.variant): chk.default_max_size for cid, chk in rows}
    assert sizes[("thm:cotdfs:pargate", "in:thm:cotdfs")] == 4 == claims["thm:cotdfs"].default_max_size
    assert sizes[("thm:cottreestrahler:indpos", "in:thm:cottreestrahler/repaired")] == 6 < claims[
        "thm:cottreestrahler"].default_max_size
    assert sizes[("lem:mMc", "in:thm:cotpathstrahler")] == 8 < claims["thm:cotpathstrahler"].default_max_size
    assert sizes[("thm:cotdfs:pargate", "in:thm:cotdfs:phi")] == claims["thm:cotdfs:phi"].default_max_size
    pinned = InUseCheck("lem:mMc", claims["thm:cotpathstrahler"], {}, survey_size=3)
    assert pinned.default_max_size == 3  # a row's own survey size comes first
