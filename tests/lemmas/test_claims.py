"""The paper's lemma claims through the registry: verdicts, cores, λ, and one refuted mutation per lemma."""

import importlib
from fractions import Fraction

import pytest

from symcot.ir import lam
from symcot.lemmas import Override, prove
from symcot.lemmas.encode import replay
from symcot.lemmas.kit import ExactKit
from symcot.lemmas.lemma import ConcreteX

LEMMA_CLAIMS = ["eq:proprelu", "thm:cottreestrahler:ind0", "thm:cottreestrahler:indpos", "lem:shiftonehot",
                "lem:mMc", "lem:widsupffn", "lem:widsupffn:note", "lem:addonetospecificheight", "lem:addwidplus1",
                "eq:gatingTBstrahlertree", "thm:cotdfs:pargate"]


def mod(stem):
    return importlib.import_module(f"proofs.cot_path_to_tree.{stem}")


@pytest.fixture(scope="module")
def rows(claims):
    out = {}
    for cid in LEMMA_CLAIMS:
        stated = [c.variant for c in claims[cid].checks if not c.variant.startswith("in:")]
        for v in claims[cid].run(variants=stated):  # each claim's default size (16 where there is a dimension)
            out[(cid, v.variant)] = v
    return out


def test_every_lemma_has_a_row_where_each_decoder_uses_it(claims):
    uses = {cid: sorted(c.variant for c in claims[cid].checks if c.variant.startswith("in:")) for cid in LEMMA_CLAIMS}
    assert uses == {
        "eq:proprelu": ["in:thm:cotpathtotree"],
        "thm:cottreestrahler:ind0": ["in:thm:cotpathstrahler", "in:thm:cotpathstrahler/repaired",
                                     "in:thm:cottreestrahler", "in:thm:cottreestrahler/repaired"],
        "thm:cottreestrahler:indpos": ["in:thm:cotdfs", "in:thm:cotdfs:phi", "in:thm:cotpathstrahler",
                                       "in:thm:cotpathstrahler/repaired", "in:thm:cottreestrahler",
                                       "in:thm:cottreestrahler/repaired"],
        "lem:shiftonehot": ["in:thm:cotpathstrahler", "in:thm:cotpathstrahler/repaired"],
        "lem:mMc": ["in:thm:cotpathstrahler", "in:thm:cotpathstrahler/repaired"],
        "lem:widsupffn": ["in:thm:cotwidoftree", "in:thm:cotwidoftree/repaired"],
        "lem:widsupffn:note": [],
        "lem:addonetospecificheight": ["in:thm:cotwidofpath", "in:thm:cotwidofpath/read-repaired",
                                       "in:thm:cotwidofpath/repaired"],
        "lem:addwidplus1": ["in:thm:cotwidofpath", "in:thm:cotwidofpath/read-repaired",
                            "in:thm:cotwidofpath/repaired"],
        "eq:gatingTBstrahlertree": ["in:thm:cottreestrahler", "in:thm:cottreestrahler/repaired"],
        "thm:cotdfs:pargate": ["in:thm:cotdfs", "in:thm:cotdfs:phi", "in:thm:cottreestrahler",
                               "in:thm:cottreestrahler/repaired"],
    }


def test_verdicts_as_computed(rows):
    got = {k: v.verdict for k, v in rows.items()}
    assert got == {
        ("eq:proprelu", "as-written"): "proved",
        ("thm:cottreestrahler:ind0", "as-written"): "proved",
        ("thm:cottreestrahler:indpos", "as-written"): "proved",
        ("lem:shiftonehot", "as-written"): "proved",
        ("lem:mMc", "as-written"): "proved",
        ("lem:widsupffn", "as-written"): "proved",
        ("lem:widsupffn:note", "as-written"): "proved",
        ("lem:addonetospecificheight", "as-written"): "proved",
        ("lem:addonetospecificheight", "repaired"): "proved",
        ("lem:addwidplus1", "as-written"): "refuted",
        ("lem:addwidplus1", "repaired"): "verified",
        ("eq:gatingTBstrahlertree", "as-written"): "proved",
        ("thm:cotdfs:pargate", "as-written"): "proved",
    }


def test_dimensions_cores_and_unused_hypotheses(rows):
    sh = rows[("lem:shiftonehot", "as-written")]
    assert sh.max_size == 16 and sh.details["dimension"].startswith("every d")
    assert set(sh.details["core"]) == {"h_i ≥ 0", "h_i ≤ 1"}
    assert "h one-hot (Σ h_i = 1)" in sh.details["unused_hypotheses"]
    ind = rows[("thm:cottreestrahler:ind0", "as-written")]
    assert ind.details["core"] == ["v ∈ ℤ"]
    assert ind.details["relaxations"][0]["status"] == "refuted"  # v real: a too-weak domain
    pr = rows[("eq:proprelu", "as-written")]
    assert set(pr.details["core"]) == {"v ≥ 0", "v ≤ 1"} and pr.details["unused_hypotheses"] == ["v ∈ ℤ"]
    assert [r["status"] for r in pr.details["relaxations"]] == ["proved", "refuted"]
    wid = rows[("lem:addwidplus1", "repaired")]
    assert wid.max_size == 16 and "not proved for all H" in wid.details["dimension"]
    pg = rows[("thm:cotdfs:pargate", "as-written")]
    assert pg.details["core"] == [] and pg.details["dimension"].startswith("every n")
    ad = rows[("lem:addonetospecificheight", "as-written")]
    assert ad.details["dimension"].startswith("every H")
    assert ad.details["relaxations"][0]["status"] == "proved"  # p_i ≥ 0 suffices


def test_refutations_carry_exact_counterexamples(rows):
    aw = rows[("lem:addwidplus1", "as-written")].counterexample
    assert aw["input"]["blocks"] == {"p": ["1/2"], "wd": [0]}
    assert (aw["block"], aw["expected"], aw["got"]) == ("wd[0]", 0, "1/2")


def test_lambda_analysis(rows):
    mmc = rows[("lem:mMc", "as-written")].details["lambda"]
    assert mmc["lambda_star"] == 0 and mmc["certificate"]["at_lambda_star"] == "proved"
    assert mmc["certificate"]["at_below"].startswith("vacuous")
    dec = mmc["decoupled"]
    assert dec["lambda_star"] == "B" and dec["sufficient_for_every_B"] == "proved"
    assert dec["necessary_for_every_B"] == "proved"
    cert = dec["certificate"]
    assert (cert["lambda_star"], cert["at_lambda_star"], cert["below"], cert["at_below"]) == (3, "proved", "299/100",
                                                                                               "refuted")
    assert cert["counterexample_below"]["input"]["lambda"] == "299/100"
    wsup = rows[("lem:widsupffn", "as-written")].details["lambda"]["decoupled"]
    assert wsup["lambda_star_by_B"] == {"1": 1, "2": 2, "3": 3} and wsup["sufficient_for_every_B"] == "proved"
    assert wsup["certificate"]["at_below"] == "refuted"


def _assert_refuted_exactly(lem, r, env):
    """The counterexample replays exactly: same maps, ReLU = max(0, x), target by the exact kit."""
    assert r.status == "refuted", r
    cex = r.counterexample
    from symcot.ir.layout import ConcreteLayout

    vec = ConcreteLayout(lem.inputs, env).assemble(cex.inputs)
    _h, out = replay(lem, env, cex.lam, vec)
    co = ConcreteLayout(lem.w2.dst, env)
    m = cex.mismatches[0]
    got = co.pi(m["block"], out)[m["index"]]
    want = lem.target[m["block"]](ConcreteX(cex.inputs), m["index"], ExactKit(cex.lam, cex.bound))
    assert got == m["got"] and want == m["expected"] and got != want
    for vals in cex.inputs.values():
        assert all(isinstance(v, (int, Fraction)) for v in vals)


MUTATIONS = [  # (module, lemma builder, override, size bound)
    ("eq_proprelu", "lemma", Override("W_1", ("up", 0), (), 0), None),
    ("ind_identities", "ind0", Override("W_2", ("ind", 0), (("v0", 0),), -1), None),
    ("ind_identities", "indpos", Override("W_1", ("vm1", 0), (), -2), None),
    ("lem_shiftonehot", "lemma", Override("W_1", ("z_plus", 0), (), Fraction(-1, 4)), 4),
    ("lem_mMc", "lemma", Override("W_1", ("M_gate", 0), (("m", 0),), lam / 4), None),
    ("lem_widsupffn", "lemma", Override("W_2", ("v2", 0), (), 0), None),
    ("lem_addonetospecificheight", "as_written", Override("W_2", ("p", 1), (("pls1", 0),), -1), 4),
    ("lem_addwidplus1", "repaired", Override("W_2", ("wd", 0), (("tmp", 0),), 2), 4),
    ("gates", "gating_tb", Override("W_2", ("M", 0), (("flg1", 0), ("M", 0)), 0), None),
    ("gates", "par_gate", Override("W_2", ("par", 0), (("flg1", 0), ("buf", 0)), 0), 4),
]


@pytest.mark.parametrize("stem,builder,ov,size", MUTATIONS, ids=[f"{m[0]}.{m[1]}" for m in MUTATIONS])
def test_one_changed_weight_or_bias_is_refuted(claims, stem, builder, ov, size):
    base = getattr(mod(stem), builder)()
    assert prove(base, size).status in ("proved", "verified")
    mut = base.mutate(ov)
    r = prove(mut, size)
    env = {s: r.counterexample.sizes[str(s)] for s in base.dims} if r.counterexample else {}
    _assert_refuted_exactly(mut, r, env)


def test_widsupffn_note_mutant_is_the_remark(claims):
    # The remark's W_2[0,0] = 0 is itself an Override of the as-written lemma; undoing it must fail the target.
    note = mod("lem_widsupffn").note()
    undone = note.mutate(Override("W_2", ("v1", 0), (("h1", 0),), 1))
    r = prove(undone)
    _assert_refuted_exactly(undone, r, {})
