"""Certified exactness: integer scaling, magnitude bounds, and the routing of large values to the exact path."""

import math
import random
from fractions import Fraction

import numpy as np
import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from symcot.inputs import random_digraph
from symcot.ir import Map
from symcot.model import FFN, Context, Decoder, Layer, generate
from symcot.replay.batched import BatchedDecoder, generate_batch
from symcot.replay.batched.compiled_map import compile_map
from symcot.replay.scaling import (
    FLOAT32_EXACT,
    FLOAT64_EXACT,
    INT64_MAX,
    Hulls,
    choose_path,
    merge,
    push_bound,
    scale_decoder,
    scale_map,
    static_certificate,
)
from tests.fixtures.decoders import L, huge_decoder


def test_choose_path_uses_half_of_each_limit_and_rejects_nan_and_inf():
    assert choose_path(0) == "float32"
    assert choose_path(FLOAT32_EXACT / 2) == "float32" and choose_path(FLOAT32_EXACT / 2 + 1) == "float64"
    assert choose_path(FLOAT64_EXACT / 2) == "float64" and choose_path(FLOAT64_EXACT) == "int64"
    assert choose_path(INT64_MAX / 2) == "int64" and choose_path(float(INT64_MAX)) == "object"
    assert choose_path(math.inf) == "object" and choose_path(math.nan) == "object"


def test_scale_map_turns_rational_coefficients_into_integers_at_the_stated_scale():
    x = L.vars()
    m = Map("W", L, L, {"a": Fraction(1, 3) * x.a * x.b + Fraction(1, 2), "b": Fraction(2, 5) * x.c}, keep=["c"])
    cm = m.instantiate({})
    rng = random.Random(0)
    for s_in in (1, 2, 6):
        im = scale_map(cm, s_in)
        assert im.s_out == 30 * s_in**2  # D = lcm(3, 2, 5), degree 2
        assert all(isinstance(c, int) for *_, c in im.const + im.lin + im.quad)
        ev = compile_map(im, object)
        for _ in range(20):
            z = [Fraction(rng.randint(-9, 9), s_in) for _ in range(3)]
            exact = cm(z)
            scaled = ev(np.array([[v * s_in] for v in z], dtype=object))[:, 0]
            assert [Fraction(v, im.s_out) for v in scaled] == exact


def test_bounds_hold_for_every_value_of_a_dfs_run():
    """The bound of each pass covers every stored value and every score that exact replay computes."""
    rng = random.Random(4)
    cons = DfsConstruction()
    for n in (3, 5):
        inp = (random_digraph(n, rng, p=0.5), rng.randrange(n))
        dec = cons.concrete(inp)
        sd = scale_decoder(dec)
        hulls = Hulls.empty(sd)
        ctx = Context(dec, record=True)
        gen = generate(dec, cons.prompt(inp).tokens, 3 * n)
        toks = cons.prompt(inp).tokens + gen.outputs[:-1]
        for tok in toks:
            _, top = push_bound(sd, np.array([abs(v) for v in tok], dtype=float), hulls)
            out, recs = ctx.push(tok)
            seen = [abs(v) for v in out] + [abs(h.score) for r in recs for h in r.heads]
            for r in recs:
                for vec in (r.attn or [], r.ffn_in or [], r.hidden or [], r.out or []):
                    seen += [abs(v) for v in vec]
            assert max(seen) <= top


def test_static_certificate_reaches_a_fixed_point_when_values_cannot_grow():
    x = L.vars()
    clip = FFN(Map("W_1", L, L, {"a": x.b, "b": x.a}, keep=["c"]), Map("W_2", L, L, keep=["a", "b", "c"]))
    sd = scale_decoder(Decoder("swap", L, [Layer(None, clip)]).instantiate({}))
    cert = static_certificate(sd, np.array([[3.0, 5.0, 1.0]]), 1000)
    assert cert.fixed_point and cert.path == "float32" and cert.bound == 5


def test_values_that_would_overflow_int64_are_routed_to_the_exact_path_and_stay_exact():
    dec = huge_decoder()
    prompts = [[[1, 3, 0], [2, 3, 1]], [[1, 2, 0], [1, 5, 0]], [[3, 1, 0], [2, 7, 2]]]
    steps = 4
    exact = [generate(dec, p, steps).outputs for p in prompts]
    assert max(abs(v) for out in exact for y in out for v in y) > INT64_MAX  # it really overflows int64
    # without the certificate, int64 arithmetic wraps around: the map evaluated on int64 gives a wrong value
    w1 = compile_map(scale_decoder(dec).layers[0].w1, np.int64)
    a, b = 2**30, 3
    with np.errstate(over="ignore"):
        wrapped = int(w1(np.array([[a], [b], [0]], dtype=np.int64))[0, 0])
    assert wrapped != 2**40 * a * b
    # the certified run: static bound beyond int64, so the exact path; every value equals exact replay
    br = generate_batch(dec, prompts, steps)
    assert br.outputs == exact
    c = br.certificate
    assert c.path == "object" and c.static_bound > INT64_MAX and c.as_dict()["limit"] is None
    # started on int64 by force, the per-pass guard widens to the exact path before the overflow
    forced = generate_batch(dec, prompts, steps, path="int64")
    assert forced.outputs == exact
    assert forced.certificate.path == "object"
    assert [p["to"] for p in forced.certificate.promotions] == ["object"]


def test_guarded_run_widens_step_by_step_and_records_why():
    x = L.vars()
    times = FFN(Map("W_1", L, L, {"a": x.a * x.b}, keep=["b", "c"]), Map("W_2", L, L, keep=["a", "b", "c"]))
    dec = Decoder("times", L, [Layer(None, times)]).instantiate({})
    prompts = [[[1, 1000, 0]], [[2, 999, 1]]]  # a_t = 1000^t: past 2^24, then 2^53, then 2^63
    br = generate_batch(dec, prompts, 8)
    assert br.outputs == [generate(dec, p, 8).outputs for p in prompts]
    path = [(p["from"], p["to"]) for p in br.certificate.promotions]
    assert path == [("float32", "float64"), ("float64", "int64"), ("int64", "object")]
    assert all("bound" in p["reason"] for p in br.certificate.promotions)


def test_certificates_merge_to_the_widest_path_and_largest_bound():
    dec = DfsConstruction().concrete((random_digraph(3, random.Random(1)), 0))
    eng = BatchedDecoder(dec)
    cons = DfsConstruction()
    rng = random.Random(2)
    prompts = [cons.prompt((random_digraph(3, rng), 0)).tokens for _ in range(5)]
    a = eng.run(prompts, 4, native=False).certificate
    b = eng.run(prompts, 4, path="object").certificate
    m = merge([a, b])
    assert m.path == "object" and m.runs == 2 and m.paths == {a.path: 1, "object": 1}
    assert merge([]) is None
    d = a.as_dict()
    assert d["path"] == a.path and isinstance(d["bound"], int) and "2^53" in d["rule"]


@pytest.mark.parametrize("bad", [1.5, "x"])
def test_non_exact_coefficients_are_refused(bad):
    from symcot.replay.scaling import NotNumericError, as_rational

    with pytest.raises(NotNumericError):
        as_rational(bad)
