import math
import random
from fractions import Fraction

import numpy as np
import pytest

from symcot.errors import SymcotError
from symcot.model import generate as exact_generate
from symcot.registry import load_claims
from symcot.replay.floating import FORMATS, FloatContext, FloatDecoder, Softmax, generate
from symcot.study.precision.batches import batches
from symcot.study.precision.run import construction_checks
from tests.fixtures.decoders import rational_decoder, tiny_decoder
from tests.fixtures.toys import ToyConstruction, ToyInput


def _checks():
    seen = set()
    for claim in load_claims(None).values():
        for chk in construction_checks(claim):
            key = (type(chk.construction()).__name__, chk.variant)
            if key not in seen:
                seen.add(key)
                yield pytest.param(chk, id=f"{claim.id}/{chk.variant}")


def _inputs(chk, limit=1500):
    for fam in chk.families:
        if not fam.exhaustive:
            continue
        for size in range(fam.min_size, 4):
            if fam.max_size is not None and size > fam.max_size:
                break
            if size == 3 and fam.count(size) > limit:
                break
            yield from fam.inputs(size)


@pytest.mark.parametrize("chk", list(_checks()))
def test_exact_and_float64_hard_replay_equal_the_semantics(chk):
    cons, spec = chk.construction(), chk.spec
    rows = 0
    for b in batches(cons, spec, _inputs(chk)):
        exact = generate(FloatDecoder(b.decoder, "exact"), b.prompt_array(), b.steps)
        f64 = generate(FloatDecoder(b.decoder, "float64"), b.prompt_float(), b.steps)
        for r in range(b.rows):
            want = exact_generate(b.decoder, b.prompts[r], b.steps).outputs
            assert len(want) == b.steps
            assert exact[:, r].tolist() == want
            assert (f64[:, r] == np.array(want, dtype=float)).all()
        rows += b.rows
    assert rows > 0


def _toy(pairs, v_y=0, fmt="float64", attention=None):
    cons = ToyConstruction()
    inp = ToyInput(tuple(pairs), v_y)
    fd = FloatDecoder(cons.concrete(inp), fmt)
    prompt = np.array([[t] for t in cons.prompt(inp).tokens], dtype=float)
    kw = {} if attention is None else {"attention": attention}
    return generate(fd, prompt, 1, **kw)[0, 0]


def test_formats_round_to_their_storage():
    assert _toy([(1, 257)], fmt="float16")[3] == 257
    assert _toy([(1, 257)], fmt="bfloat16")[3] == 256  # 257 is not a bfloat16: ties to even
    assert _toy([(1, 2049)], fmt="float16")[3] == 2048
    assert _toy([(1, 2049)], fmt="float32")[3] == 2049


def test_hard_attention_takes_the_smallest_index_among_ties():
    for fmt in ("exact", "float64", "bfloat16"):
        cons = ToyConstruction()
        inp = ToyInput(((3, 5), (3, 2)))
        fd = FloatDecoder(cons.concrete(inp), fmt)
        arr = FORMATS[fmt].array([[t] for t in cons.prompt(inp).tokens])
        assert generate(fd, arr, 1)[0, 0, 3] == 5


def test_softmax_output_is_the_closed_form():
    # scores [1, 0, 0, 0, 0] (winner first), values [0, D, D, D, D]: output (L-1)e^-β D / (1 + (L-1)e^-β)
    d, beta, others = 1000.0, 7.0, 4
    got = _toy([(1, 0)] + [(0, d)] * (others - 1), v_y=d, attention=Softmax(beta))[3]
    x = others * math.exp(-beta)
    assert got == pytest.approx(x * d / (1 + x), rel=1e-12)
    # and a large β gives the hard answer to within the rounding of float64
    assert _toy([(1, 0)] + [(0, d)] * 3, v_y=d, attention=Softmax(60.0))[3] == pytest.approx(0.0, abs=1e-20)


def test_softmax_averages_tied_positions():
    got = _toy([(3, 5), (3, 2)], attention=Softmax(50.0))[3]
    assert got == pytest.approx(3.5)


def test_softmax_needs_a_float_format_and_a_positive_beta():
    cons = ToyConstruction()
    inp = ToyInput(((1, 2),))
    with pytest.raises(SymcotError, match="floating format"):
        prompt = FORMATS["exact"].array([[t] for t in cons.prompt(inp).tokens])
        generate(FloatDecoder(cons.concrete(inp), "exact"), prompt, 1, Softmax(1.0))
    for bad in (0.0, -1.0, float("inf")):
        with pytest.raises(SymcotError, match="inverse temperature"):
            Softmax(bad)
    with pytest.raises(SymcotError, match="unknown number format"):
        FloatDecoder(cons.concrete(inp), "float8")


class LastArgmaxContext(FloatContext):
    """Wrong on purpose: hard attention takes the *largest* index among the maximal scores."""

    def first_argmax(self, k, h, head, scores):
        last = scores.shape[1] - 1 - np.argmax(scores[:, ::-1], axis=1)
        return scores, last


def _float_run(dec, prompts, steps, fmt, context=FloatContext):
    """``y_1 … y_steps`` of every prompt (a list per row), pushed through ``context``."""
    f = FORMATS[fmt]
    arr = f.array(np.array(prompts, dtype=object).transpose(1, 0, 2)) if f.exact else \
        np.array(prompts, dtype=float).transpose(1, 0, 2)
    ctx = context(FloatDecoder(dec, fmt), len(prompts))
    for p in range(arr.shape[0]):
        y = ctx.push(arr[p])
    outs = [y]
    for _ in range(1, steps):
        y = ctx.push(y)
        outs.append(y)
    return np.stack(outs).transpose(1, 0, 2).tolist()


@pytest.mark.parametrize("make, fmts", [(tiny_decoder, ("exact", "float64", "float32")),
                                        (rational_decoder, ("exact",))])
def test_hand_made_decoders_equal_the_semantics_and_a_wrong_argmax_is_caught(make, fmts):
    dec = make()
    rng = random.Random(6)
    rational = make is rational_decoder
    prompts = [[[Fraction(rng.randint(-6, 6), rng.choice([1, 2, 3])) if rational else rng.randint(-2, 2)
                 for _ in range(3)] for _ in range(3)] for _ in range(40)]
    want = [exact_generate(dec, p, 4).outputs for p in prompts]
    for fmt in fmts:
        assert _float_run(dec, prompts, 4, fmt) == want, fmt
        if make is tiny_decoder:  # its heads tie: the smallest-index rule matters
            assert _float_run(dec, prompts, 4, fmt, LastArgmaxContext) != want, fmt
