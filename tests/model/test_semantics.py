"""Each rule of the Section-3 decoder semantics, on tiny hand-made decoders."""

from fractions import Fraction

import pytest

from symcot.ir import Layout, Map, const
from symcot.model import FFN, Attention, Context, Decoder, Head, Layer, generate, value_space

L = Layout("tiny", [("a", 1), ("b", 1), ("c", 1)])
K1 = Layout("tiny.key", [("k", 1)])
ALL = ["a", "b", "c"]


def identity_ffn(prefix: str = "") -> FFN:
    return FFN(Map(f"{prefix}W_1", L, L, keep=ALL), Map(f"{prefix}W_2", L, L, keep=ALL))


def argmax_head(name: str, key_block: str, value_keep=ALL) -> Head:
    """Query = 1, key = π_key_block: selects the position with the largest key_block."""
    x = L.vars()
    return Head(name,
                query=Map(f"Q_{name}", L, K1, {"k": const(1)}),
                key=Map(f"K_{name}", L, K1, {"k": x[key_block]}),
                value=Map(f"V_{name}", L, L, keep=value_keep))


def one_layer(head: Head, w_o_assign: dict, ffn: FFN | None = None) -> Decoder:
    vs = value_space([head])
    w_o = Map("W_O", vs, L, {k: v(vs.vars()) for k, v in w_o_assign.items()},
              zero=[b for b in ALL if b not in w_o_assign])
    return Decoder("tiny", L, [Layer(Attention([head], w_o), ffn or identity_ffn())])


def push_all(dec, tokens):
    ctx = Context(dec.instantiate({}), record=True)
    out = None
    for tok in tokens:
        out = ctx.push(tok)
    return ctx, out


def test_rule1_smallest_index_among_maximal_scores():
    dec = one_layer(argmax_head("h", "a"), {"c": lambda o: o["h.b"]})
    # a-scores 0, 2, 2, 1: positions 1 and 2 tie at the maximum -> position 1 wins.
    toks = [[0, 10, 0], [2, 11, 0], [2, 12, 0], [1, 13, 0]]
    _, (out, recs) = push_all(dec, toks)
    ch = recs[0].heads[0]
    assert ch.index == 1 and ch.score == 2 and ch.runner_up == 2
    assert ch.margin == 0 and ch.tie and ch.tied == [1, 2]
    assert out == [1, 13, 11]  # c = residual 0 + value b of position 1


def test_rule1_causal_prefix_includes_the_query_position_itself():
    dec = one_layer(argmax_head("h", "a"), {"c": lambda o: o["h.b"]})
    _, (out, recs) = push_all(dec, [[1, 5, 0], [3, 7, 0]])
    ch = recs[0].heads[0]
    assert ch.index == 1 and ch.margin == 2 and not ch.tie
    assert out == [3, 7, 7]


def test_rule2_multi_head_outputs_go_through_w_o():
    h1, h2 = argmax_head("p", "a"), argmax_head("q", "b")
    vs = value_space([h1, h2])
    o = vs.vars()
    w_o = Map("W_O", vs, L, {"c": o["p.b"] - o["q.a"] + 2 * o["q.b"]}, zero=["a", "b"])
    dec = Decoder("tiny", L, [Layer(Attention([h1, h2], w_o), identity_ffn())])
    # head p picks argmax a (pos 0: b=4), head q picks argmax b (pos 1: a=1, b=9)
    _, (out, recs) = push_all(dec, [[5, 4, 0], [1, 9, 100]])
    assert [c.index for c in recs[0].heads] == [0, 1]
    assert recs[0].attn == [0, 0, 4 - 1 + 18]
    assert out == [1, 9, 100 + 21]


def test_rule3_residual_around_attention_only_and_relu():
    x = L.vars()
    # W_1: a -> a - 10 (negative, ReLU kills it), b kept, c kept; W_2 drops b (no residual can restore it).
    ffn = FFN(Map("W_1", L, L, {"a": x.a - 10}, keep=["b", "c"]),
              Map("W_2", L, L, {"a": x.a, "c": x.c + x.b}, zero=["b"]))
    dec = one_layer(argmax_head("h", "a"), {"c": lambda o: o["h.b"]}, ffn)
    _, (out, recs) = push_all(dec, [[3, 2, 1]])
    assert recs[0].ffn_in == [3, 2, 1 + 2]  # α'' + x: the residual around attention
    assert recs[0].hidden == [0, 2, 3]  # ReLU(3 - 10) = 0
    assert out == [0, 0, 5]  # b is zero: no residual around the FFN


def test_rule3_bias_in_ffn():
    x = L.vars()
    ffn = FFN(Map("W_1", L, L, {"a": x.a + 7}, keep=["b", "c"]), Map("W_2", L, L, {"b": x.a - 1}, keep=["a", "c"]))
    dec = Decoder("tiny", L, [Layer(None, ffn)])
    _, (out, _) = push_all(dec, [[-2, 0, 0]])
    assert out == [5, 4, 0]


def test_rule2_trivial_attention_adds_nothing():
    dec = Decoder("tiny", L, [Layer(None, identity_ffn())])
    _, (out, recs) = push_all(dec, [[1, 2, 3]])
    assert out == [1, 2, 3] and recs[0].heads == [] and recs[0].attn is None


def test_rule4_every_token_passes_every_layer_and_later_layers_read_layer_outputs():
    x = L.vars()
    double = FFN(Map("W_1", L, L, {"a": 2 * x.a}, keep=["b", "c"]), Map("W_2", L, L, keep=ALL))
    layer1 = Layer(None, double)
    head = argmax_head("h", "a")
    vs = value_space([head])
    layer2 = Layer(Attention([head], Map("W_O", vs, L, {"c": vs.vars()["h.a"]}, zero=["a", "b"])), identity_ffn("2"))
    dec = Decoder("tiny", L, [layer1, layer2])
    ctx, (out, recs) = push_all(dec, [[5, 0, 0], [1, 0, 0]])
    # The input token at position 0 went through layer 1: layer 2 sees a = 10, not 5.
    assert ctx.reps[1][0] == [10, 0, 0]
    assert recs[1].heads[0].index == 0 and recs[1].heads[0].score == 10
    assert out == [2, 0, 10]


def test_rule4_causal_representations_do_not_depend_on_later_tokens():
    dec = one_layer(argmax_head("h", "a"), {"c": lambda o: o["h.b"]})
    ctx_short, _ = push_all(dec, [[1, 1, 0], [0, 2, 0]])
    ctx_long, _ = push_all(dec, [[1, 1, 0], [0, 2, 0], [9, 9, 9]])
    assert ctx_long.reps[1][:2] == ctx_short.reps[1]


def test_rule5_cot_appends_the_last_output():
    x = L.vars()
    inc = FFN(Map("W_1", L, L, {"a": x.a + 1}, keep=["b", "c"]), Map("W_2", L, L, keep=ALL))
    head = argmax_head("h", "a")
    vs = value_space([head])
    # The head reads the largest a seen so far: the latest generated token, which was appended.
    att = Attention([head], Map("W_O", vs, L, {"b": vs.vars()["h.a"]}, zero=["a", "c"]))
    dec = Decoder("tiny", L, [Layer(att, inc)])
    gen = generate(dec.instantiate({}), [[0, 0, 0]], max_steps=4, record=True)
    assert [y[0] for y in gen.outputs] == [1, 2, 3, 4]
    # b accumulates (residual) the a of the latest token, which the head finds among appended tokens.
    assert [y[1] for y in gen.outputs] == [0, 0 + 1, 1 + 2, 3 + 3]
    assert [r[0].heads[0].index for r in gen.records] == [0, 1, 2, 3]


def test_generate_stop_rule_and_on_step():
    x = L.vars()
    inc = FFN(Map("W_1", L, L, {"a": x.a + 1}, keep=["b", "c"]), Map("W_2", L, L, keep=ALL))
    dec = Decoder("tiny", L, [Layer(None, inc)]).instantiate({})
    gen = generate(dec, [[0, 0, 0]], max_steps=10, stop=lambda y: y[0] == 3)
    assert gen.stopped and len(gen.outputs) == 3
    seen = []
    gen = generate(dec, [[0, 0, 0]], max_steps=10, on_step=lambda t, y, r: seen.append(t) or t < 2)
    assert seen == [1, 2] and len(gen.outputs) == 2


def test_exact_arithmetic_fractions_and_big_integers():
    x = L.vars()
    ffn = FFN(Map("W_1", L, L, {"a": Fraction(1, 3) * x.a, "b": x.b * x.b}, keep=["c"]), Map("W_2", L, L, keep=ALL))
    dec = Decoder("tiny", L, [Layer(None, ffn)])
    big = 10**30 + 7
    _, (out, _) = push_all(dec, [[1, big, 0]])
    assert out[0] == Fraction(1, 3) and isinstance(out[0], Fraction)
    assert out[1] == big * big  # no overflow, no rounding


def test_floats_are_refused_in_constructions():
    x = L.vars()
    with pytest.raises(TypeError):
        Map("W", L, L, {"a": x.a + 0.5}, keep=["b", "c"])



def test_exact_replay_refuses_float_prompt_tokens():
    """A float would round silently; exact replay names the token instead (Fractions are fine)."""
    from symcot.errors import InvalidInputError

    dec = one_layer(argmax_head("h", "a"), {"c": lambda o: o["h.b"]}).instantiate({})
    with pytest.raises(InvalidInputError, match="prompt token 1 holds a float"):
        generate(dec, [[1, 0, 0], [0.5, 0, 0]], 1)
    assert generate(dec, [[1, 0, 0], [Fraction(1, 2), 0, 0]], 1).outputs == [[Fraction(1, 2), 0, 0]]
