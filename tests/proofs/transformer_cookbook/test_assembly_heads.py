"""Heads for layers: the draft's blocks with the identity sublayer hold; the doubled stream and the mutants fail."""

import itertools
from fractions import Fraction

from proofs.transformer_cookbook import assembly_heads as m
from tests.proofs.transformer_cookbook.helpers import rows


def _relu(v):
    return v if v > 0 else Fraction(0)


def _mat(a, x):
    return [sum((r[c] * x[c] for c in range(len(x))), Fraction(0)) for r in a]


def _head(w, rule, xs, i):
    """The head with weights ``w`` at position ``i``, computed directly: its mask, scores, tie rule or average."""
    allowed = {"future": range(i + 1), "none": range(len(xs)), "strict-future": range(i)}[rule.mask]
    if not allowed:
        return [Fraction(0)] * m.D
    q = _mat(w["Q"], xs[i])
    scores = {j: sum(a * b for a, b in zip(q, _mat(w["K"], xs[j]))) for j in allowed}
    best = max(scores.values())
    top = [j for j in allowed if scores[j] == best]
    if rule.attention.kind == "average":
        vals = [_mat(w["V"], xs[j]) for j in top]
        return [sum(col, Fraction(0)) / len(top) for col in zip(*vals)]
    j = top[0] if rule.attention.tie == "leftmost" else top[-1]
    return _mat(w["V"], xs[j])


def brute_force(h_count, s):
    """The multi-head layer by hand: y = x + W_O[a_1 ‖ … ‖ a_H], output y + W_2 ReLU(W_1 y)."""
    w = m.weights(h_count)
    xs = [m.SYMBOLS[a] for a in s]
    out = []
    for i in range(len(s)):
        heads = []
        for h in range(h_count):
            heads += _head(w["heads"][h], m.RULES[h], xs, i)
        y = [a + b for a, b in zip(xs[i], _mat(w["W_O"], heads))]
        f = _mat(w["W_2"], [_relu(v) for v in _mat(w["W_1"], y)])
        out.append([a + b for a, b in zip(y, f)])
    return out


def test_the_reference_is_the_multi_head_layer_computed_directly():
    for h_count in (1, 2, 3):
        for n in range(1, 5):
            for s in itertools.product("abc", repeat=n):
                assert m.original_output(h_count, s) == brute_force(h_count, s), (h_count, s)


def test_verdicts_of_every_variant():
    got = rows(m.HEADS_FOR_LAYERS, 3)
    assert {v: r.verdict for v, r in got.items()} == {
        "as-written": "verified", "mlp-identity": "refuted", "attention-residual": "verified",
        "slot-of-previous": "refuted", "no-combine": "refuted", "block-algebra": "verified"}
    assert got["as-written"].inputs_checked == 3 * (3 + 9 + 27)
    assert got["block-algebra"].max_size == 3


def test_the_doubled_stream_is_the_smallest_counterexample():
    cex = rows(m.HEADS_FOR_LAYERS, 2)["mlp-identity"].counterexample
    assert (cex["H"], cex["string"], cex["position"]) == (2, "a", 0)
    assert [Fraction(v) for v in cex["got"]] == [2 * Fraction(v) for v in cex["expected"]]


def test_the_block_algebra_refutes_a_misplaced_value_block():
    assert m.block_algebra_failure(2) is None
    bad = m.block_algebra_failure(2, offset=-1)
    assert bad is not None and bad["layer"] == 1 and "slot h" in bad["what"]


def test_the_inputs_reach_ties_and_every_rule():
    """The seeded heads are not trivial: some inputs tie (the tie rules and AHAT's average matter), some do not."""
    from symcot.model.described import encode

    dec = m.original_decoder(3)
    assert [dec.description.rule(1, f"h{h}") for h in (1, 2, 3)] == list(m.RULES)
    conc = dec.instantiate({})
    tied = {False: set(), True: set()}
    for s in itertools.product("abc", repeat=3):
        for recs in encode(conc, [m.SYMBOLS[a] for a in s], record=True).records:
            for sel in recs[0].heads:
                tied[len(sel.tied) > 1].add(sel.head)
    assert tied[True] == tied[False] == {"h1", "h2", "h3"}
    assert m.layered_decoder(3, "as-written").layout.dim == 4 * m.D
