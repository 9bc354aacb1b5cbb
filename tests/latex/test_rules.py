"""The model description's rules in LaTeX: masks, attention kinds, sublayers, layer norm, positional encodings."""

from fractions import Fraction

import pytest

from symcot.latex.rules import norm_tex, positional_tex, rules_tex, sublayers_tex, weights_tex
from symcot.model.description import AHAT, SMAT, UHAT, HeadRule, ModelDescription, Norm, Positional


def test_each_attention_kind_states_its_weights():
    assert r"j = \min M_i" in weights_tex(HeadRule("none", UHAT("leftmost")))
    assert r"j = \max M_i" in weights_tex(HeadRule("none", UHAT("rightmost")))
    assert r"\alpha_{ij} = 1/|M_i|" in weights_tex(HeadRule("none", AHAT()))
    soft = weights_tex(HeadRule("none", SMAT(Fraction(1, 2))))
    assert r"\exp(s_{ij}/\tau)" in soft and r"\tau = \frac{1}{2}" in soft

    def tau(n):
        return Fraction(1, n)

    assert r"\tau(2) = \frac{1}{2}" in weights_tex(HeadRule("none", SMAT(tau)))


def test_per_head_rules_and_masks():
    desc = ModelDescription("m", direction="encoder", head=HeadRule("none", AHAT()),
                            heads={(2, "T"): HeadRule("strict-past", UHAT("rightmost"))})
    text = "\n".join(rules_tex(desc, [(1, "T"), (2, "T")]))
    assert r"Layer 1, head $T$: mask $\text{every } j$; average hard" in text
    assert r"Layer 2, head $T$: mask $j > i$; unique hard attention, tie rule rightmost" in text
    same = "\n".join(rules_tex(ModelDescription("m", direction="encoder", head=HeadRule("future", AHAT())),
                               [(1, "a"), (1, "b")]))
    assert r"Every head: mask $j \le i$" in same and "an encoder" in same


@pytest.mark.parametrize(("placement", "residual", "expect"), [
    ("none", "attention", [r"y &= A(z) + z", r"z' &= W_2\,\mathrm{ReLU}(W_1 y)" + "\n"]),
    ("none", "both", [r"z' &= W_2\,\mathrm{ReLU}(W_1 y) + y"]),
    ("pre", "both", [r"y &= A(\mathrm{LN}(z)) + z", r"\mathrm{ReLU}(W_1\,\mathrm{LN}(y)) + y"]),
    ("post", "attention", [r"y &= \mathrm{LN}(A(z) + z)", r"z' &= \mathrm{LN}(W_2\,\mathrm{ReLU}(W_1 y))"]),
    ("selective", "attention", [r"y &= A(\mathrm{LN}(W_N z)) + z", "norm map"]),
])
def test_sublayers_follow_the_norm_placement_and_the_residual(placement, residual, expect):
    desc = ModelDescription("m", direction="encoder", residual=residual, norm=Norm(placement))
    text = "\n".join(sublayers_tex(desc)) + "\n"
    for e in expect:
        assert e in text, (e, text)


def test_layer_norm_formulas_carry_epsilon():
    assert r"\sqrt{\sigma^2 + \varepsilon}" in norm_tex(Norm("pre", "standard", Fraction(1, 8)))
    assert r"\varepsilon = \frac{1}{8}" in norm_tex(Norm("pre", "standard", Fraction(1, 8)))
    assert "(RMS)" in norm_tex(Norm("pre", "rms"))


def test_positional_encoding_as_a_formula_with_values():
    pe = Positional(lambda i, n: [Fraction(i + 1, n)], 1, "add", "(i+1)/n")
    text = positional_tex(pe, "")
    assert r"z^{(0)}_i = x_i + p(i, n)" in text and "added" in text and r"p(1, 4) = \frac{1}{2}" in text
    cat = positional_tex(Positional(lambda i, n: [i, i * i], 2, "concat", "(j, j²)"), " (blocks $j$, $jj$)")
    assert r"x_i \,\|\, p(i, n)" in cat and "p(2, 4) = (2, 4)" in cat and "j^{2}" in cat
    assert "No positional encoding." in rules_tex(ModelDescription("m", direction="encoder"), [])
