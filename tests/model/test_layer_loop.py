"""The layer loop over an algebra: the order of its operations; wrong algebras the comparison with generate catches."""

import random
from fractions import Fraction

import pytest

from symcot.model import Context, ExactAlgebra, generate, push_layers
from symcot.model.layer_loop import LayerMaps
from tests.fixtures.decoders import rational_decoder, tiny_decoder


class Tracing:
    """An algebra over plain lists that logs every operation (maps are the decoder's own)."""

    def __init__(self, n_heads):
        self.log = []
        self.keys = [[[] for _ in range(h)] for h in n_heads]
        self.inputs = [[] for _ in n_heads]

    def apply(self, m, x):
        self.log.append(("apply", m.name))
        return m(x)

    def append(self, k, h, head, key, z):
        self.log.append(("append", k, h))
        self.keys[k][h].append(key)
        if h == 0:
            self.inputs[k].append(z)

    def scores(self, k, h, q):
        self.log.append(("scores", k, h))
        return [sum(a * b for a, b in zip(key, q)) for key in self.keys[k][h]]

    def first_argmax(self, k, h, head, scores):
        self.log.append(("argmax", k, h))
        return scores.index(max(scores))

    def value(self, k, h, head, j):
        self.log.append(("value", k, h, j))
        return head.value(self.inputs[k][j])

    def concat(self, k, values):
        self.log.append(("concat", k))
        return [x for v in values for x in v]

    def add(self, k, attn, z):
        self.log.append(("add", k))
        return [a + b for a, b in zip(attn, z)]

    def relu(self, k, v):
        self.log.append(("relu", k))
        return [max(x, 0) for x in v]

    def layer_done(self, k, choices, attn, ffn_in, hidden, out):
        self.log.append(("done", k, tuple(choices)))


def _layers(dec):
    return [LayerMaps(None, None, lay.ffn.w1, lay.ffn.w2) if lay.attention is None else
            LayerMaps(lay.attention.heads, lay.attention.out, lay.ffn.w1, lay.ffn.w2) for lay in dec.layers]


def test_the_loop_runs_rules_one_to_four_in_order_and_equals_context_push():
    dec = tiny_decoder()
    alg = Tracing([len(lay.attention.heads) if lay.attention else 0 for lay in dec.layers])
    ctx = Context(dec)
    tokens = [[1, 2, 0], [2, 2, 1], [-1, 0, 2]]
    for tok in tokens:
        alg.log.clear()
        out, recs = ctx.push(tok)
        assert push_layers(alg, _layers(dec), list(tok)) == out
    # the last push: layer 0 has trivial attention (no add); layer 1 has heads p and q
    names = [(op[1] if op[0] == "apply" else op[0]) for op in alg.log]
    assert names == ["W_1", "relu", "W_2", "done",
                     "K_p", "append", "Q_p", "scores", "argmax", "value",
                     "K_q", "append", "Q_q", "scores", "argmax", "value",
                     "concat", "W_O", "add", "W_1", "relu", "W_2", "done"]
    chosen = tuple(op[3] for op in alg.log if op[0] == "value")
    assert alg.log[-1] == ("done", 1, chosen) and chosen == tuple(h.index for h in recs[1].heads)


class LastArgmax(ExactAlgebra):
    """Wrong on purpose: the *largest* index among the maximal scores."""

    def first_argmax(self, k, h, head, scores):
        choice = super().first_argmax(k, h, head, scores)
        j = choice.tied[-1]
        choice.index, choice.score = j, scores[j]
        return choice


class ResidualAroundFFN(ExactAlgebra):
    """Wrong on purpose: ``W_2 ReLU(W_1 u) + u`` (a residual around the FFN as well)."""

    def apply(self, m, x):
        out = m(x)
        if m.name.startswith("W_1"):
            self.ffn_in = x
        elif m.name.startswith("W_2"):
            out = [a + b for a, b in zip(out, self.ffn_in)]
        return out


def _generate(dec, prompt, steps, algebra):
    ctx = type("WrongContext", (Context,), {"algebra": algebra})(dec)
    y = None
    for tok in prompt:
        y, _ = ctx.push(tok)
    outs = [y]
    for _ in range(1, steps):
        y, _ = ctx.push(y)
        outs.append(y)
    return outs


def _prompts(rng, rational):
    def num():
        return Fraction(rng.randint(-6, 6), rng.choice([1, 2, 3])) if rational else rng.randint(-2, 2)
    return [[[num() for _ in range(3)] for _ in range(3)] for _ in range(40)]


@pytest.mark.parametrize("make, rational", [(tiny_decoder, False), (rational_decoder, True)])
def test_the_comparison_with_generate_accepts_the_exact_algebra_and_catches_wrong_ones(make, rational):
    dec = make()
    prompts = _prompts(random.Random(4), rational)
    want = [generate(dec, p, 4).outputs for p in prompts]
    assert [_generate(dec, p, 4, ExactAlgebra) for p in prompts] == want
    assert [_generate(dec, p, 4, ResidualAroundFFN) for p in prompts] != want
    if make is tiny_decoder:  # its heads tie: the smallest-index rule matters
        assert [_generate(dec, p, 4, LastArgmax) for p in prompts] != want
