"""The exact engine under every description: against Section 3's fast loop, an independent brute-force
encoder, the decoder's own incremental loop, and the formulas of layer norm and uniform attention."""

import dataclasses
import random
from fractions import Fraction

import pytest

from symcot.errors import DescriptionError, Undecided, UnsupportedDescription
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Context, Decoder, Head, Layer, value_space
from symcot.model.described import DescribedAlgebra, encode, layer_norm
from symcot.model.description import (
    AHAT,
    SECTION3,
    SMAT,
    UHAT,
    HeadRule,
    ModelDescription,
    Norm,
    Positional,
)
from symcot.model.interval import Ball, is_ball
from symcot.replay.batched import BatchedDecoder
from symcot.replay.floating.engine import FloatDecoder
from tests.fixtures.decoders import rational_decoder, tiny_decoder
from tests.model.test_attention import reference

L = Layout("tiny", [("a", 1), ("b", 1), ("c", 1)])
K1 = Layout("tiny.key", [("k", 1)])
BLOCKS = ["a", "b", "c"]


def _lin(rng, x, bias=True):
    terms = sum(rng.randint(-2, 2) * getattr(x, b) for b in BLOCKS)
    return terms + (rng.randint(-1, 1) if bias else 0)


def random_decoder(rng: random.Random, layers: int = 2, description=SECTION3, norm_map=False):
    """Random small integer weights on three coordinates, one or two heads per layer (the first layer's may be none)."""
    x = L.vars()
    out = []
    for k in range(layers):
        att = None
        if k > 0 or rng.random() < 0.7:
            heads = [Head(f"h{h}", Map(f"Q_h{h}", L, K1, {"k": _lin(rng, x)}),
                          Map(f"K_h{h}", L, K1, {"k": _lin(rng, x)}),
                          Map(f"V_h{h}", L, L, {b: _lin(rng, x, False) for b in BLOCKS}))
                     for h in range(rng.randint(1, 2))]
            vs = value_space(heads)
            o = vs.vars()
            w_o = {b: sum(rng.randint(-1, 1) * o[n] for n in vs.names) + 0 * o[vs.names[0]] for b in BLOCKS}
            att = Attention(heads, Map("W_O", vs, L, w_o))
        ffn = FFN(Map("W_1", L, L, {b: _lin(rng, x) for b in BLOCKS}),
                  Map("W_2", L, L, {b: _lin(rng, x) for b in BLOCKS}))
        w_n = Map("W_N", L, L, {"a": x.a, "b": 1 + 0 * x.a, "c": 0 * x.a}) if norm_map else None
        out.append(Layer(att, ffn, w_n))
    return Decoder("random", L, out, description).instantiate({})


def tokens(rng, n):
    return [[Fraction(rng.randint(-2, 2), rng.randint(1, 2)) for _ in BLOCKS] for _ in range(n)]


def test_the_general_loop_gives_section3s_results_bit_for_bit():
    rng = random.Random(0)
    for trial in range(60):
        dec = random_decoder(rng) if trial % 3 else (rational_decoder() if trial % 2 else tiny_decoder())
        a, b = Context(dec, record=True), Context(dec, record=True, general=True)
        for tok in tokens(rng, 5):
            (oa, ra), (ob, rb) = a.push(tok), b.push(tok)
            assert oa == ob and [type(v) for v in oa] == [type(v) for v in ob]
            for la, lb in zip(ra, rb):
                assert [(h.index, h.score, h.margin, h.tied) for h in la.heads] == \
                    [(h.index, h.score, h.margin, h.tied) for h in lb.heads]


def brute_encoder(dec, toks, desc):
    """Every position of every layer from the definitions (hard kinds, no layer norm), matrices in full."""
    zs = [list(t) for t in toks]
    n = len(zs)
    for k, lay in enumerate(dec.layers, 1):
        new = []
        for i in range(n):
            x = zs[i]
            if lay.attention is None:
                y = x
            else:
                outs = []
                for head in lay.attention.heads:
                    rule = desc.rule(k, head.name)
                    q = head.query(x)
                    scores = [sum(p * r for p, r in zip(head.key(zs[j]), q)) for j in range(n)]
                    kind = rule.attention.tie if rule.attention.kind == "unique" else "average"
                    w = reference(kind, rule.mask, scores, i)
                    v = [Fraction(0)] * head.value.d_out
                    for j, wj in w.items():
                        v = [s + wj * t for s, t in zip(v, head.value(zs[j]))]
                    outs += v
                y = [s + t for s, t in zip(lay.attention.out(outs), x)]
            f = lay.ffn.w2([max(0, h) for h in lay.ffn.w1(y)])
            new.append([s + t for s, t in zip(f, y)] if desc.residual == "both" else f)
        zs = new
    return zs


MASK_KINDS = [(m, a) for m in ("none", "future", "strict-future", "past", "strict-past")
              for a in (UHAT("leftmost"), UHAT("rightmost"), AHAT())]


@pytest.mark.parametrize("mask, kind", MASK_KINDS, ids=[f"{m}-{a.label()}" for m, a in MASK_KINDS])
def test_the_encoder_equals_a_brute_force_encoder_for_every_mask_and_hard_kind(mask, kind):
    rng = random.Random(hash((mask, kind.label())) % 1000)
    for trial in range(12):
        desc = ModelDescription("enc", direction="encoder", head=HeadRule(mask, kind),
                                residual="both" if trial % 2 else "attention")
        dec = random_decoder(rng, description=desc)
        toks = tokens(rng, rng.randint(1, 5))
        assert encode(dec, toks).outputs == brute_encoder(dec, toks, desc)


class WrongAverage(DescribedAlgebra):
    """A deliberately wrong engine: average hard attention reads only the leftmost maximal position."""

    def attend(self, k, h, head, a, i):
        out, sel = super().attend(k, h, head, a, i)
        if sel.kind == "average" and len(sel.weights) > 1:
            return head.value(self.ains[k][sel.weights[0][0]]), sel
        return out, sel


def test_the_brute_force_comparison_catches_a_wrong_engine():
    rng = random.Random(5)
    desc = ModelDescription("enc", direction="encoder", head=HeadRule("none", AHAT()))
    caught = 0
    for _ in range(30):
        dec = random_decoder(rng, description=desc)
        toks = tokens(rng, 4)
        caught += encode(dec, toks, algebra=WrongAverage).outputs != brute_encoder(dec, toks, desc)
    assert caught > 0


DESCRIPTIONS = [
    ModelDescription("rightmost", head=HeadRule("future", UHAT("rightmost"))),
    ModelDescription("strict-avg", head=HeadRule("strict-future", AHAT())),
    ModelDescription("softmax", head=HeadRule("future", SMAT(Fraction(1, 2)))),
    ModelDescription("pre", norm=Norm("pre")),
    ModelDescription("post-rms-both", norm=Norm("post", "rms"), residual="both"),
    ModelDescription("selective", norm=Norm("selective"), heads={"h1": HeadRule("future", AHAT())}),
    ModelDescription("pos", positional=Positional(lambda i, n: [Fraction(i, n), Fraction(1, i + 1), 0], 3)),
]


@pytest.mark.parametrize("desc", DESCRIPTIONS, ids=[d.name for d in DESCRIPTIONS])
def test_a_decoders_prompt_outputs_equal_its_future_masked_encoder(desc):
    """The incremental loop (one position at a time, cached) against the whole-sequence loop."""
    rng = random.Random(len(desc.name))
    decided = 0
    for _ in range(20):
        dec = random_decoder(rng, description=desc, norm_map=desc.norm.placement == "selective")
        toks = tokens(rng, 4)
        enc = dataclasses.replace(dec, description=dataclasses.replace(desc, direction="encoder"))
        try:
            want = encode(enc, toks).outputs
        except Undecided:
            continue
        ctx = Context(dec, n=len(toks))
        for i, tok in enumerate(toks):
            got = ctx.push(tok)[0]
            assert [str(v) for v in got] == [str(v) for v in want[i]]
        decided += 1
    assert decided >= 4  # hard attention on balls: real ties stay undecided


def test_other_engines_refuse_a_non_default_description_and_run_the_default():
    dec = random_decoder(random.Random(1), description=DESCRIPTIONS[0])
    for engine in (BatchedDecoder, FloatDecoder):
        with pytest.raises(UnsupportedDescription, match="runs Section 3's rules only"):
            engine(dec)
    BatchedDecoder(random_decoder(random.Random(1)))
    with pytest.raises(DescriptionError, match="is an encoder: run it with"):
        Context(dataclasses.replace(dec, description=ModelDescription(direction="encoder")))


def test_layer_norm_is_the_drafts_formula_exact_where_rational():
    std = Norm("pre", "standard", Fraction(1, 10**5))
    assert layer_norm(Norm("pre", eps=Fraction(3, 4)), [1, 1, 1, 1]) == [0, 0, 0, 0]
    # σ² + ε = 1 + 0 exactly representable: x = (2, 0): μ = 1, σ² = 1, √(1 + 3) = 2
    assert layer_norm(Norm("pre", eps=3), [2, 0]) == [Fraction(1, 2), Fraction(-1, 2)]
    out = layer_norm(std, [3, 1, -3, -1])  # the layer-norm hash of 3: x / √((2·9 + 2)/4 + ε)
    assert all(is_ball(v) for v in out)
    assert (out[0] * out[0] * (5 + std.eps)).contains(9) and (out[1] * out[1] * (5 + std.eps)).contains(1)
    assert out[0].upper - out[0].lower < Fraction(1, 10**30) and (out[0] + out[2]).contains(0)
    rms = layer_norm(Norm("pre", "rms", Fraction(1, 2)), [3, 4])  # √(25/2) + 1/2 is not rational
    assert isinstance(rms[0], Ball) and rms[0].lower < Fraction(3) / (Fraction(35355, 10**4) + Fraction(1, 2))


def test_uniform_attention_averages_exactly_under_softmax_and_average_hard():
    x = L.vars()
    head = Head("u", Map("Q", L, K1, zero=["k"]), Map("K", L, K1, zero=["k"]),
                Map("V", L, L, {"a": x.a}, zero=["b", "c"]))
    vs = value_space([head])
    lay = Layer(Attention([head], Map("W_O", vs, L, {"c": vs.vars()["u.a"]}, zero=["a", "b"])),
                FFN(Map("W_1", L, L, keep=BLOCKS), Map("W_2", L, L, keep=BLOCKS)))
    for kind in (AHAT(), SMAT(7)):
        desc = ModelDescription("u", direction="encoder", head=HeadRule("none", kind))
        out = encode(Decoder("u", L, [lay], desc).instantiate({}), [[1, 0, 0], [0, 0, 0], [5, 0, 0]]).outputs
        assert [o[2] for o in out] == [2, 2, 2] and [o[0] for o in out] == [1, 0, 5]


def test_export_refuses_a_non_default_description():
    from symcot.export.state import state_dict

    with pytest.raises(UnsupportedDescription, match="symcot export runs Section 3's rules only"):
        state_dict(random_decoder(random.Random(2), description=DESCRIPTIONS[1]))
    assert state_dict(random_decoder(random.Random(2)))[0]
