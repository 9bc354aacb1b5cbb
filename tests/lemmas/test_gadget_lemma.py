"""A gadget as a lemma's maps: on the lemma's own inputs, and on the inputs of a use."""

from proofs.cot_path_to_tree.gadgets import mmc, parent_gate, widsupffn
from symcot.ir import Layout, lam, n
from symcot.lemmas import Gate, each, prove
from symcot.lemmas.gadget_lemma import gadget_maps, use_lemma


def test_gadget_maps_name_the_layouts_and_keep_the_units():
    L = Layout("v", [("v1", 1), ("v2", 1), ("v3", 1)])
    x = L.vars()
    w1, w2 = gadget_maps(widsupffn(x.v1, x.v2, x.v3, lam), L, "wid")
    assert w1.dst.name == "wid.hidden" and w1.dst.names == ("h1", "h2", "h3", "h4")
    assert w2.src is w1.dst and w2.dst.names == ("v1", "v2", "v3")


def test_a_w2_only_gadget_has_no_w1():
    L = Layout("b", [("flg1", 1), ("buf", n), ("par", n)])
    x = L.vars()
    w1, w2 = gadget_maps(parent_gate(x.flg1, x.buf, x.par), L, "pg")
    assert w1 is None and w2.src is L and w2.dst.names == ("par",)


def test_use_lemma_takes_the_decoders_parameters_and_sizes():
    # The use: v = [dif ‖ twd ‖ mwd] of a bigger layout, λ = n.
    big = Layout("model", [("cur", n), ("dif", 1), ("twd", 1), ("mwd", 1)])
    x = big.vars()
    g = widsupffn(x.dif, x.twd, x.mwd, n)
    target = {"v2": lambda x, i, K: K.ite(x.v1() == 0, x.v2() + 1, 1)}
    lem = use_lemma(g, "lem:widsupffn", target, gates=(Gate("v1", (0, 1)),),
                    hyps=(each("1 ≤ v_2 ≤ n - 1", "v2", lambda v, K: K.And(v >= 1, v <= K.sizes[n] - 1)),),
                    dims={n: 2})
    assert lem.inputs.names == ("v1", "v2", "v3") and not lem.has_lam and sorted(lem.target) == ["v2"]
    cm = lem.w1.instantiate({n: 5})
    assert cm.coefficient(1, 0) == -5  # h2 = v2 - n·v1 with n = 5
    r = prove(lem, 5)
    assert r.status == "proved" and r.dimension.startswith("every n")


def test_use_lemma_keeps_lambda_free_where_the_decoder_substitutes_it():
    L = Layout("q", [("q", 1), ("Mf", 1), ("cf", 1)])
    x = L.vars()
    lem = use_lemma(mmc(x.q, x.Mf, x.cf, lam, writes={"M": "M"}), "lem:mMc",
                    {"m": lambda x, i, K: x.m(), "M": lambda x, i, K: K.ite(x.m() == 1, 0, x.M())})
    assert lem.has_lam and list(lem.target) == ["M"]  # m is not written by this use
