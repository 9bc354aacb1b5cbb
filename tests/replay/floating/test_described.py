"""The float replay of every model description against the exact engine, on random small constructions.

float64 must give the exact engine's outputs within ``TOL`` (relative to ``1 + |value|``) and take every hard
decision the exact engine takes, on every input whose every exact hard decision is clear: one maximal position,
ahead of every other allowed one by more than ``BOUND`` (far above float64's error on these sizes, ~1e-12).
Where every value is a dyadic rational (unique hard attention, integer weights, halves as tokens) float64 is
exact, and must equal the exact engine bit for bit, ties and tie rules included.
"""

import dataclasses
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcot.errors import Undecided
from symcot.model.attention import allowed
from symcot.model.described import DescribedAlgebra, _dot, encode
from symcot.model.description import AHAT, SMAT, UHAT, HeadRule, ModelDescription, Norm, Positional
from symcot.model.interval import Ball
from symcot.model.positions import i_over_n, sinusoidal
from symcot.model.semantics import generate as exact_generate
from symcot.replay.floating import described as fdesc
from symcot.replay.floating.described import DescribedFloatDecoder, generate, run_rows
from symcot.replay.floating.described import encode as float_encode
from tests.model.test_described import random_decoder, tokens

TOL = 1e-9
BOUND = 1e-6


def _f(x):
    return float(x.a.mid()) if isinstance(x, Ball) else float(x)


def _lower(x):
    return float(x.a.lower()) if isinstance(x, Ball) else float(x)


def _enc(name, mask="none", kind=None, **kw):
    return ModelDescription(name, direction=kw.pop("direction", "encoder"), head=HeadRule(mask, kind or UHAT()), **kw)


#: One description per rule of the statement (encoders: every mask is allowed).
KINDS = [
    *[_enc(f"{m}-{k.label()}", m, k) for m in ("none", "future", "strict-future", "past", "strict-past")
      for k in (UHAT("leftmost"), UHAT("rightmost"), AHAT())],
    _enc("softmax-half", "none", SMAT(Fraction(1, 2))),
    _enc("softmax-n", "past", SMAT(lambda n: Fraction(1, n))),
    _enc("pre-standard", norm=Norm("pre", "standard", Fraction(1, 10))),
    _enc("pre-rms", kind=AHAT(), norm=Norm("pre", "rms", Fraction(1, 1000))),
    _enc("post-both", norm=Norm("post"), residual="both"),
    _enc("post-rms", "future", UHAT("rightmost"), norm=Norm("post", "rms")),
    _enc("selective", norm=Norm("selective"), heads={"h1": HeadRule("strict-past", AHAT())}),
    _enc("both-residual", "none", AHAT(), residual="both"),
    _enc("pe-i-over-n", positional=i_over_n()),
    _enc("pe-sinusoidal", "future", SMAT(1), positional=sinusoidal(2, 10, "concat")),
    _enc("pe-add", "none", UHAT("rightmost"), positional=Positional(lambda i, n: [Fraction(i, n), 0, 1], 3)),
    _enc("recogniser", "none", AHAT(), direction="recogniser", norm=Norm("pre")),
]


def _decoder(rng, desc):
    return random_decoder(rng, description=desc, norm_map=desc.norm.placement == "selective")


def _inputs(rng, desc, n, count):
    """``count`` inputs of ``n`` random tokens (``3 - width`` coordinates under a concatenated encoding)."""
    pe = desc.positional
    keep = 3 - pe.width if pe is not None and pe.combine == "concat" else 3
    return [[t[:keep] for t in tokens(rng, n)] for _ in range(count)]


class _Gaps(DescribedAlgebra):
    """The exact engine, also keeping each hard decision's gap (lower bound of ``s_{j0} - max others``)."""

    made: list["_Gaps"] = []

    def __init__(self, *a):
        super().__init__(*a)
        self.gaps: list[float] = []
        _Gaps.made.append(self)

    def attend(self, k, h, head, a, i):
        out, sel = super().attend(k, h, head, a, i)
        if sel.kind != "softmax" and sel.tied:
            q = head.query(a)
            scores = [_dot(key, q) for key in self.keys[k][h]]
            others = [j for j in allowed(self.rules[k][h].mask, i, len(scores)) if j not in sel.tied]
            gap = 0.0 if len(sel.tied) > 1 else min((_lower(scores[sel.tied[0]] - scores[j]) for j in others),
                                                    default=math.inf)
            self.gaps.append(gap)
        return out, sel


def _picks(heads):
    return [[j for j, _ in s.weights] if s.kind != "softmax" else None for s in heads]


def compare(dec, inputs, fmt="float64"):
    """``(clear, bad)``: inputs whose exact decisions are all clear, and those of them the float run gets wrong."""
    fd = DescribedFloatDecoder(dec, fmt)
    fl = float_encode(fd, np.transpose(fd.fmt.array(inputs), (1, 0, 2)))
    got = np.transpose(fl.outputs, (1, 0, 2))
    clear, bad = 0, []
    for b, toks in enumerate(inputs):
        _Gaps.made.clear()
        try:
            ex = encode(dec, toks, algebra=_Gaps)
        except Undecided:
            continue
        if min(_Gaps.made[0].gaps, default=math.inf) <= BOUND:
            continue
        clear += 1
        want = np.array([[_f(v) for v in row] for row in ex.outputs])
        decisions = all(_picks(er.heads) == _picks([hs[b] for hs in fr.heads])
                        for i in range(len(toks)) for er, fr in zip(ex.records[i], fl.records[i]))
        if not decisions or np.max(np.abs(got[b] - want) / (1 + np.abs(want))) > TOL:
            bad.append(toks)
    return clear, bad


@pytest.mark.parametrize("desc", KINDS, ids=[d.name for d in KINDS])
@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_float64_agrees_with_the_exact_engine_wherever_decisions_are_clear(desc, seed):
    rng = random.Random(seed)
    dec = _decoder(rng, desc)
    n = rng.randint(1, 4)
    clear, bad = compare(dec, _inputs(rng, desc, n, 6))
    assert not bad, f"{desc.name}: float64 differs from the exact engine on {bad[0]} ({clear} clear inputs)"


def test_the_comparison_is_not_vacuous():
    """Enough inputs of every kind are clear for the comparison to mean something (seeded)."""
    rng = random.Random(3)
    for desc in KINDS:
        total = sum(compare(_decoder(rng, desc), _inputs(rng, desc, 3, 6))[0] for _ in range(4))
        assert total >= 3, desc.name


DYADIC = [_enc(f"{m}-{t}", m, UHAT(t), positional=p) for m in ("none", "strict-future", "past")
          for t in ("leftmost", "rightmost") for p in (None, Positional(lambda i, n: [i, 0, Fraction(i, 2)], 3))]


@pytest.mark.parametrize("desc", DYADIC, ids=[f"{d.name}{'-pe' if d.positional else ''}" for d in DYADIC])
def test_float64_is_the_exact_engine_bit_for_bit_on_dyadic_values_ties_included(desc):
    rng = random.Random(7)
    ties = 0
    for _ in range(8):
        dec = _decoder(rng, desc)
        inputs = [tokens(rng, 4) for _ in range(4)]
        got = run_rows(DescribedFloatDecoder(dec), inputs)
        fl = float_encode(DescribedFloatDecoder(dec), np.transpose(DescribedFloatDecoder(dec).fmt.array(inputs),
                                                                   (1, 0, 2)))
        for b, toks in enumerate(inputs):
            ex = encode(dec, toks)
            assert got[b].tolist() == [[float(v) for v in row] for row in ex.outputs]
            for i in range(4):
                for er, fr in zip(ex.records[i], fl.records[i]):
                    assert [s.index for s in er.heads] == [hs[b].index for hs in fr.heads]
                    ties += sum(s.tie for s in er.heads)
    assert ties > 0  # the tie rules were exercised


def test_a_wrong_tie_rule_in_the_float_engine_is_caught(monkeypatch):
    """Leftmost swapped for rightmost in the float engine only: the comparison must see it."""
    real = fdesc.select

    def swapped(rule, head, scores, i, tau=None, num=None):
        if rule.attention.kind == "unique":
            flip = "rightmost" if rule.attention.tie == "leftmost" else "leftmost"
            rule = dataclasses.replace(rule, attention=UHAT(flip))
        return real(rule, head, scores, i, tau, num)

    monkeypatch.setattr(fdesc, "select", swapped)
    rng = random.Random(11)
    caught = 0
    for _ in range(10):
        dec = _decoder(rng, _enc("none-left", "none", UHAT("leftmost")))
        inputs = [tokens(rng, 4) for _ in range(4)]
        got = run_rows(DescribedFloatDecoder(dec), inputs)
        caught += any(got[b].tolist() != [[float(v) for v in row] for row in encode(dec, toks).outputs]
                      for b, toks in enumerate(inputs))
    assert caught > 0


def test_average_weights_off_by_one_in_the_float_engine_are_caught(monkeypatch):
    """A wrong rule (average hard attention over the maximal set plus one) is caught where decisions are clear."""
    real = fdesc.select

    def wrong(rule, head, scores, i, tau=None, num=None):
        sel = real(rule, head, scores, i, tau, num)
        if sel.kind == "average":
            sel.weights = [(j, w * len(sel.weights) / (len(sel.weights) + 1)) for j, w in sel.weights]
        return sel

    monkeypatch.setattr(fdesc, "select", wrong)
    rng = random.Random(12)
    bad = sum(len(compare(_decoder(rng, _enc("avg", "none", AHAT())), [tokens(rng, 3) for _ in range(6)])[1])
              for _ in range(5))
    assert bad > 0


DECODERS = [
    ModelDescription("dec-rightmost", head=HeadRule("future", UHAT("rightmost"))),
    ModelDescription("dec-strict-left", head=HeadRule("strict-future", UHAT())),
    ModelDescription("dec-pe", positional=Positional(lambda i, n: [i, Fraction(1, 2), 0], 3)),
]


@pytest.mark.parametrize("desc", DECODERS, ids=[d.name for d in DECODERS])
def test_a_decoders_float_chain_of_thought_is_exact_on_dyadic_values(desc):
    rng = random.Random(5)
    for _ in range(6):
        dec = _decoder(rng, desc)
        prompts = [tokens(rng, 3) for _ in range(3)]
        fl = generate(DescribedFloatDecoder(dec), np.transpose(DescribedFloatDecoder(dec).fmt.array(prompts),
                                                               (1, 0, 2)), 3)
        for b, p in enumerate(prompts):
            want = exact_generate(dec, p, 3).outputs
            assert fl.outputs[:, b, :].tolist() == [[float(v) for v in row] for row in want]


def test_a_softmax_decoder_agrees_within_the_tolerance():
    desc = ModelDescription("dec-soft", head=HeadRule("future", SMAT(Fraction(1, 3))), norm=Norm("pre", "rms"))
    rng = random.Random(9)
    for _ in range(4):
        dec = _decoder(rng, desc)
        prompts = [tokens(rng, 3) for _ in range(3)]
        fl = generate(DescribedFloatDecoder(dec), np.transpose(DescribedFloatDecoder(dec).fmt.array(prompts),
                                                               (1, 0, 2)), 2)
        for b, p in enumerate(prompts):
            want = np.array([[_f(v) for v in row] for row in exact_generate(dec, p, 2).outputs])
            assert np.max(np.abs(fl.outputs[:, b, :] - want) / (1 + np.abs(want))) <= TOL


@pytest.mark.parametrize("fmt", ["float32", "float16", "bfloat16"])
def test_narrow_formats_hold_every_output_in_their_storage_type(fmt):
    desc = _enc("pre-soft", "none", SMAT(Fraction(1, 2)), norm=Norm("pre"))
    dec = _decoder(random.Random(2), desc)
    fd = DescribedFloatDecoder(dec, fmt)
    out = run_rows(fd, [tokens(random.Random(b), 3) for b in range(4)])
    assert np.array_equal(fd.fmt.round(out), out) and out.dtype == fd.fmt.accum


def test_the_wrong_direction_and_the_exact_format_are_one_line_errors():
    enc = _decoder(random.Random(1), KINDS[0])
    with pytest.raises(Exception, match="is an encoder: run it with"):
        generate(DescribedFloatDecoder(enc), [[[0, 0, 0]]], 1)
    with pytest.raises(Exception, match="takes a floating format"):
        DescribedFloatDecoder(enc, "exact")
