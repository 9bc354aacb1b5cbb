"""``symcot latex`` on encoder constructions: every matrix of every layer and the model description's rules."""

import re

import pytest

from symcot.cli import main


def _latex(capsys, *argv):
    assert main(["latex", *argv]) == 0
    return capsys.readouterr().out


def test_every_matrix_and_the_rules(capsys):
    text = _latex(capsys, "sec:tie-breaking")
    assert r"\section*{sec:tie-breaking [as-written]}" in text
    for name in ("Q", "K", "V", "W_O", "W_1", "W_2"):
        assert f"\\paragraph{{${name}$}}" in text, name
    assert r"K & \pi_{b} & \pi_{p} \\" in text  # the key b_j + 1/(j+1)
    assert r"\paragraph{Model.}" in text and "an encoder" in text
    assert r"mask $\text{every } j$; average hard attention: $\alpha_{ij} = 1/|M_i|$" in text
    assert "residual around both sublayers, no layer norm" in text and r"z' &= W_2\,\mathrm{ReLU}(W_1 y) + y" in text
    assert r"$p$ = $1/(j+1)$ (block $p$)" in text and r"p(1, 4) = \frac{1}{2}" in text


def test_rules_follow_the_variant(capsys):
    soft = _latex(capsys, "ch4:quadratic-maximization", "--variant", "SMAT")
    assert r"softmax attention: $\alpha_{ij} = \exp(s_{ij}/\tau)" in soft and r"$\tau = 1$" in soft
    uhat = _latex(capsys, "ch4:predecessor", "--variant", "causal-UHAT")
    assert r"mask $j < i$; unique hard attention, tie rule leftmost: $\alpha_{ij} = 1$ at $j = \min M_i$" in uhat


def test_n_prints_the_weights_at_a_string_length(capsys):
    text = _latex(capsys, "sec:tie-breaking", "--variant", "rightmost", "--n", "3")
    assert r"\section*{sec:tie-breaking [rightmost] at n = 3}" in text
    assert len(re.findall(r"\\begin\{bmatrix\}", text)) >= 4
    assert "1 & 0 & 0 & -1" in text  # the key b_j - 1/(j+1), as a row of the explicit K


def test_decoders_keep_their_latex_without_rules(capsys):
    text = _latex(capsys, "thm:cotdfs")
    assert r"\paragraph{Model.}" not in text and r"\section*{thm:cotdfs [as-written]}" in text


@pytest.mark.parametrize(("argv", "message"), [
    (["sec:tie-breaking", "--lam", "3"], "--lam only applies with --n"),
    (["sec:tie-breaking", "--n", "3", "--lam", "3"], "--lam: sec:tie-breaking [as-written] is an encoder construction"),
    (["sec:tie-breaking", "--n", "0"], "--n must be at least 1"),
    (["sec:ffnn_minmax"], "sec:ffnn_minmax is a lemma about a network gadget, with no construction: nothing to print"),
])
def test_errors_are_one_line(capsys, argv, message):
    assert main(["latex", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "internal error" not in err and message in err, err
