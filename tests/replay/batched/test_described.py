"""The batched engine of rational descriptions against the exact engine: equal bit for bit, on random small
constructions of every description whose values stay rational; the rest refused with one line naming the rule."""

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcot.errors import UnsupportedDescription
from symcot.model.described import encode
from symcot.model.description import AHAT, SMAT, UHAT, HeadRule, ModelDescription, Norm, Positional
from symcot.model.positions import i_over_n, one_over_i, position, sinusoidal
from symcot.model.semantics import Context
from symcot.replay.batched.described import DescribedBatchedDecoder, require_rational
from symcot.replay.floating import described as fdesc
from tests.model.test_described import random_decoder, tokens


def _enc(name, mask="none", kind=None, **kw):
    return ModelDescription(name, direction=kw.pop("direction", "encoder"), head=HeadRule(mask, kind or UHAT()), **kw)


RATIONAL = [
    *[_enc(f"{m}-{k.label()}", m, k) for m in ("none", "future", "strict-future", "past", "strict-past")
      for k in (UHAT("leftmost"), UHAT("rightmost"), AHAT())],
    _enc("mixed-heads", "none", AHAT(), heads={"h1": HeadRule("strict-past", UHAT("rightmost")),
                                               (2, "h0"): HeadRule("future", UHAT())}),
    _enc("both-residual", "past", AHAT(), residual="both"),
    _enc("pe-i-over-n", positional=i_over_n()),
    _enc("pe-one-over-i", "future", AHAT(), positional=one_over_i()),
    _enc("pe-position", "none", UHAT("rightmost"), positional=position()),
    _enc("pe-add", "none", AHAT(), positional=Positional(lambda i, n: [Fraction(i, n), 0, 1], 3)),
    _enc("recogniser", "strict-future", AHAT(), direction="recogniser"),
]
DECODERS = [
    ModelDescription("dec-rightmost", head=HeadRule("future", UHAT("rightmost"))),
    ModelDescription("dec-strict-avg", head=HeadRule("strict-future", AHAT()), residual="both"),
    ModelDescription("dec-pe", heads={"h1": HeadRule("future", AHAT())},
                     positional=Positional(lambda i, n: [Fraction(i, n), Fraction(1, 2), 0], 3)),
]


def _inputs(rng, desc, n, count):
    pe = desc.positional
    keep = 3 - pe.width if pe is not None and pe.combine == "concat" else 3
    return [[t[:keep] for t in tokens(rng, n)] for _ in range(count)]


def _choices(heads):
    return [(s.index, s.score, s.margin, list(s.tied), [(j, w) for j, w in s.weights]) for s in heads]


def _mismatches(dec, inputs):
    """The inputs on which the batched engine's outputs or head choices differ from the exact engine's."""
    run = DescribedBatchedDecoder(dec).encode(inputs)
    bad = []
    for b, toks in enumerate(inputs):
        ex = encode(dec, toks)
        same = run.outputs[:, b, :].tolist() == ex.outputs and all(
            _choices(er.heads) == _choices([hs[b] for hs in br.heads])
            for i in range(len(toks)) for er, br in zip(ex.records[i], run.records[i]))
        if not same:
            bad.append(toks)
    return bad


@pytest.mark.parametrize("desc", RATIONAL, ids=[d.name for d in RATIONAL])
@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_batched_engine_equals_the_exact_engine(desc, seed):
    rng = random.Random(seed)
    dec = random_decoder(rng, layers=rng.randint(1, 2), description=desc)
    assert not _mismatches(dec, _inputs(rng, desc, rng.randint(1, 4), 5))


@pytest.mark.parametrize("desc", DECODERS, ids=[d.name for d in DECODERS])
@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_decoders_batched_chain_of_thought_equals_the_exact_engine(desc, seed):
    rng = random.Random(seed)
    dec = random_decoder(rng, description=desc)
    prompts = _inputs(rng, desc, rng.randint(1, 3), 4)
    run = DescribedBatchedDecoder(dec).generate(prompts, 3)
    for b, p in enumerate(prompts):
        ctx = Context(dec, record=True, n=len(p))
        outs, recs = [], []
        y = None
        for tok in p:
            y, r = ctx.push(tok)
            recs.append(r)
        for _ in range(3):
            outs.append(y)
            y, r = ctx.push(y)
            recs.append(r)
        assert run.outputs[:, b, :].tolist() == outs
        for er, br in zip(recs, run.records):
            assert [_choices(e.heads) for e in er] == [_choices([hs[b] for hs in x.heads]) for x in br]


def test_ties_and_average_weights_are_exercised():
    rng = random.Random(4)
    desc = _enc("avg", "none", AHAT())
    dec = random_decoder(rng, description=desc)
    run = DescribedBatchedDecoder(dec).encode(_inputs(rng, desc, 4, 6))
    ws = [w for recs in run.records for r in recs for hs in r.heads for s in hs for _, w in s.weights]
    assert any(isinstance(w, Fraction) and w.denominator > 1 for w in ws)


@pytest.mark.parametrize("swap", ["leftmost", "rightmost"])
def test_a_swapped_tie_rule_in_the_batched_engine_is_caught(monkeypatch, swap):
    """One engine only (the batched one) runs the other tie rule: the comparison must see it."""
    real = fdesc.select

    def swapped(rule, head, scores, i, tau=None, num=None):
        if rule.attention.kind == "unique":
            rule = dataclasses.replace(rule, attention=UHAT("rightmost" if rule.attention.tie == "leftmost"
                                                            else "leftmost"))
        return real(rule, head, scores, i, tau, num)

    monkeypatch.setattr(fdesc, "select", swapped)
    rng = random.Random(21)
    desc = _enc(swap, "none", UHAT(swap))
    assert sum(len(_mismatches(random_decoder(rng, description=desc), _inputs(rng, desc, 4, 4)))
               for _ in range(8)) > 0


@pytest.mark.parametrize("desc, named", [
    (_enc("soft", "none", SMAT(2)), "softmax attention"),
    (_enc("pre", norm=Norm("pre")), "pre-norm"),
    (_enc("post-rms", norm=Norm("post", "rms")), "post-norm \\(rms"),
    (_enc("selective", heads={"h0": HeadRule("none", SMAT(1))}, norm=Norm("selective")), "softmax attention"),
])
def test_a_description_with_irrational_values_is_refused_naming_the_rule(desc, named):
    with pytest.raises(UnsupportedDescription, match=f"runs rational rules only, not {named}") as e:
        DescribedBatchedDecoder(random_decoder(random.Random(0), description=desc))
    assert "\n" not in str(e.value)
    require_rational(_enc("ok", "past", AHAT()), "fine")


def test_a_sinusoidal_encoding_is_refused_when_it_is_evaluated():
    desc = _enc("sin", positional=sinusoidal(2, 10, "concat"))
    bd = DescribedBatchedDecoder(random_decoder(random.Random(0), description=desc))
    with pytest.raises(UnsupportedDescription, match="positional value that is not rational"):
        bd.encode([[[1], [0]]])
