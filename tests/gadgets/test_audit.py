"""No gadget weight is stated twice: every construction's FFN maps are its gadgets' rows, exactly."""

import pytest

from proofs.cot_path_to_tree.constructions import (
    cotdfs,
    cotdfs_phi,
    cotdijkstra,
    cotpathstrahler,
    cotpathtotree,
    cottreestrahler,
    cotwidofpath,
    cotwidoftree,
)
from proofs.cot_path_to_tree.gadgets import ind_pos_at, widsupffn
from symcot.gadgets.audit import audit, audit_at, rows, undeclared_relu_rows
from symcot.ir import Layout, Map, lam, m, n
from symcot.model import FFN, Decoder, Layer

# (decoder builder, size symbol, sizes, λ); path constructions need an even word length.
DECODERS = {
    "thm:cotdfs": (cotdfs.build_decoder, n, (1, 2, 4), None),
    "thm:cotdfs:phi": (cotdfs_phi.build_decoder, n, (1, 3), None),
    "thm:cotdijkstra": (cotdijkstra.build_decoder, n, (2, 3), 7),
    "thm:cotwidoftree": (cotwidoftree.build_decoder, n, (1, 2, 5), 5),
    "thm:cotpathtotree": (cotpathtotree.build_decoder, m, (1, 2, 4), None),
    **{f"thm:cottreestrahler/{v}": (lambda v=v: cottreestrahler.build_decoder(v), n, (1, 3, 5), 9)
       for v in cottreestrahler.VARIANTS},
    **{f"thm:cotpathstrahler/{v}": (lambda v=v: cotpathstrahler.build_decoder(v), n, (2, 6), 8)
       for v in cotpathstrahler.VARIANTS},
    **{f"thm:cotwidofpath/{v}": (lambda v=v: cotwidofpath.build_decoder(v), n, (2, 4, 8), None)
       for v in cotwidofpath.VARIANTS},
}

#: ReLU combinations written by hand that are no lemma of the paper, each stated once (thm:cotdijkstra's layers,
#: reused by thm:cotwidoftree): the relaxation dis - ReLU(dis - crd - wei) = min(dis, crd + wei) and the
#: selection Σ_i ReLU(γ_i) of the newly visited vertex's distance.
NOT_LEMMAS = {("layer 1", "dis"), ("layer 2", "crd"), ("layer 2", "dif")}


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_every_gadget_row_of_every_construction_is_the_gadgets_own(name):
    build, sym, sizes, lam_v = DECODERS[name]
    dec = build()
    for size in sizes:
        subs = {lam: lam_v} if lam_v is not None else None
        found = audit_at(dec, {sym: size}, subs)
        assert not found, "\n".join(f.text() for f in found)


def test_the_decoders_declare_the_gadgets_the_paper_uses_there():
    def labels(dec):
        return [(k, g.label) for k, layer in enumerate(dec.layers, start=1) for g in layer.ffn.gadgets]

    assert ("thm:cottreestrahler:indpos") in dict(labels(cotdfs.build_decoder())).values()
    assert labels(cotwidoftree.build_decoder()) == [(3, "lem:widsupffn")]
    assert labels(cotwidofpath.build_decoder("repaired")) == [(1, "lem:addonetospecificheight"),
                                                            (2, "lem:addwidplus1")]
    ps = labels(cotpathstrahler.build_decoder())
    assert (1, "lem:shiftonehot") in ps and (4, "lem:mMc") in ps
    ts = labels(cottreestrahler.build_decoder())
    assert ts.count((3, "thm:cottreestrahler:ind0")) == 2 and ts.count((3, "thm:cottreestrahler:indpos")) == 3
    assert (4, "eq:gatingTBstrahlertree") in ts and (2, "thm:cotdfs:pargate") in ts
    assert [lbl for _k, lbl in labels(cotpathtotree.build_decoder())] == ["eq:proprelu"] * 5


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_no_relu_identity_is_written_by_hand(name):
    build, sym, sizes, lam_v = DECODERS[name]
    dec = build()
    subs = {lam: lam_v} if lam_v is not None else None
    found = undeclared_relu_rows(dec, {sym: sizes[-1]}, subs)
    allowed = [f for f in found if name in ("thm:cotdijkstra", "thm:cotwidoftree")
               and any(f" {where} W_2 {block}" in f or f"{where} W_2 {block}[" in f for where, block in NOT_LEMMAS)]
    assert found == allowed, "\n".join(found)
    if name in ("thm:cotdijkstra", "thm:cotwidoftree"):
        assert allowed  # the detector does fire on a ReLU combination written by hand


# -- negative tests --------------------------------------------------------------------------------------------


def test_one_changed_coefficient_in_a_compiled_decoder_is_caught():
    dec = cotwidoftree.build_decoder()
    cdec = dec.instantiate({n: 4}, {lam: 4})
    w1 = cdec.get_map(3, "W_1")
    o = w1.dst.offsets["h2"]
    i = w1.src.offsets["dif"]
    assert w1.coefficient(o, i) == -4  # -V_max = -n
    bad = cdec.with_map(3, "W_1", w1.with_coefficient(o, (i,), -3))
    (f,) = audit(dec, bad)
    assert (f.layer, f.map, f.coordinate) == (3, "W_1", "h2")
    assert f.expected == {"dif": -4, "twd": 1} and f.got == {"dif": -3, "twd": 1}
    assert "lem:widsupffn" in f.gadget


def test_a_dropped_bias_in_w2_is_caught():
    dec = cotpathstrahler.build_decoder("repaired")
    cdec = dec.instantiate({n: 4}, {lam: 6})
    w2 = cdec.get_map(3, "W_2")
    o = w2.dst.offsets["tmp_D"]
    row = rows(w2)[o]
    unit = next(mono for mono, c in row.items() if c == -2)  # 1[D = 0]: the -2 on ReLU(-D)
    bad = cdec.with_map(3, "W_2", w2.with_coefficient(o, unit, -1))
    found = audit(dec, bad)
    assert [(f.layer, f.map, f.coordinate) for f in found] == [(3, "W_2", "tmp_D")]


def test_a_hand_made_decoder_that_misstates_its_gadget_is_caught():
    # A width layer that claims lem:widsupffn but writes h4 with bias 2 (the paper's b_1 has 1).
    L = Layout("hand", [("dif", 1), ("twd", 1), ("mwd", 1)])
    x = L.vars()
    g = widsupffn(x.dif, x.twd, x.mwd, n, writes={"v1": "dif", "v2": "twd", "v3": "mwd"})
    hid = Layout("hand.hid", g.units())
    pre = g.w1()
    pre["h4"] = x.twd - x.mwd - n * x.dif + 2
    dec = Decoder("hand", L, [Layer(None, FFN(Map("W_1", L, hid, pre), Map("W_2", hid, L, g.w2(hid.vars())),
                                              gadgets=(g,)))])
    (f,) = audit_at(dec, {n: 3})
    assert (f.map, f.coordinate) == ("W_1", "h4") and f.expected["1"] == 1 and f.got["1"] == 2


def test_a_relu_identity_written_by_hand_is_caught():
    # 1[v > 0] = ReLU(v) - ReLU(v - 1) typed into a layer without the gadget: flagged; with it: not.
    L = Layout("flag", [("v", 1), ("a", 1), ("b", 1)])
    x = L.vars()
    hid = Layout("flag.hid", [("a", 1), ("b", 1)])
    h = hid.vars()
    by_hand = FFN(Map("W_1", L, hid, {"a": x.v, "b": x.v - 1}), Map("W_2", hid, L, {"v": h.a - h.b}, zero=["a", "b"]))
    (msg,) = undeclared_relu_rows(Decoder("hand", L, [Layer(None, by_hand)]), {})
    assert "W_2 v combines the units a and b" in msg
    g = ind_pos_at(x.v, units=("a", "b"), writes={"ind": "v"})
    declared = FFN(Map("W_1", L, hid, g.w1()), Map("W_2", hid, L, g.w2(h), zero=["a", "b"]), gadgets=(g,))
    dec = Decoder("declared", L, [Layer(None, declared)])
    assert undeclared_relu_rows(dec, {}) == [] and audit_at(dec, {}) == []
