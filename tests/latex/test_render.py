"""LaTeX of weight matrices: golden symbolic output and an exact parse round-trip of explicit matrices."""

import re
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from proofs.cot_path_to_tree.constructions.cotdfs import build_decoder
from symcot.cli import main
from symcot.ir import Layout, Map, bcast, lam, n
from symcot.latex import bmatrix, decoder_explicit, decoder_symbolic, map_symbolic

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "dfs_symbolic.tex"


def test_symbolic_dfs_matches_golden_file():
    text = decoder_symbolic(build_decoder(), "thm:cotdfs [as-written]")
    assert text == GOLDEN.read_text()


def test_symbolic_block_matrix_names_blocks_and_lists_bilinear_terms():
    text = decoder_symbolic(build_decoder())
    assert r"buf\,(n) & I_{n} & 0" in text  # W_2^(1) copies cur into buf
    assert r"\pi'_{par} &\mathrel{+}= \pi_{flg_1}\,\pi_{buf}" in text  # the W_2^(2) gate
    assert text.startswith(r"\documentclass{article}") and text.rstrip().endswith(r"\end{document}")
    assert all(ord(c) < 128 for c in text)  # compiles with plain pdflatex (no Unicode)
    assert text.count(r"\begin{array}") == text.count(r"\end{array}")


def _matrices(text: str) -> list[str]:
    return re.findall(r"W = \n(\\begin\{bmatrix\}.*?\\end\{bmatrix\})", text, flags=re.S)


def test_explicit_matrices_round_trip_through_sympy_latex_parser():
    pytest.importorskip("lark")
    from sympy.parsing.latex import parse_latex

    dec = build_decoder().instantiate({n: 1})
    text = decoder_explicit(dec)
    mats = _matrices(text)
    maps = [dec.layers[0].ffn.w1, dec.layers[0].ffn.w2]
    for h in dec.layers[1].attention.heads:
        maps += [h.query, h.key, h.value]
    maps += [dec.layers[1].attention.out, dec.layers[1].ffn.w1, dec.layers[1].ffn.w2]
    assert len(mats) == len(maps) == 11
    # SymPy's lark parser is slow on big matrices: parse the maps with the most structure
    # (the layer-1 FFN with its bias and gate, the keys, W_O routing two heads, the layer-2 FFN).
    picked = [0, 4, 7, 8, 9]
    for tex, mp in [(mats[i], maps[i]) for i in picked]:
        parsed = parse_latex(tex, backend="lark")
        assert parsed == sp.Matrix(mp.dense()[1]), mp.name


def test_exact_rationals_and_lambda_round_trip():
    pytest.importorskip("lark")
    from sympy.parsing.latex import parse_latex

    L = Layout("t", [("a", n), ("s", 1)])
    x = L.vars()
    mp = Map("W", L, L, {"a": Fraction(-3, 4) * x.a + lam * bcast(x.s, n)}, keep=["s"])
    for subs, want in (({lam: Fraction(7, 2)}, sp.Rational(7, 2)), ({}, sp.Symbol("lambda"))):
        w = mp.instantiate({n: 2}, subs).dense()[1]
        parsed = parse_latex(bmatrix(w), backend="lark")
        assert parsed[0, 0] == sp.Rational(-3, 4) and sp.simplify(parsed[0, 2] - want) == 0
    assert r"\lambda" in map_symbolic(mp)


def test_cli_latex(tmp_path, capsys):
    out = tmp_path / "w.tex"
    assert main(["latex", "thm:cotdfs", "--n", "2", "-o", str(out)]) == 0
    assert r"\begin{bmatrix}" in out.read_text()
    for argv in (["latex", "thm:cotdfs", "--n", "100"], ["latex", "thm:cotdfs", "--n", "2", "--lam", "x"],
                 ["latex", "thm:nosuch"], ["latex", "thm:cotdfs", "--variant", "nope"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("symcot: error:") and "\n" not in err


def test_quadratic_terms_are_formulas_with_signs():
    dec = build_decoder().instantiate({n: 2})
    text = decoder_explicit(dec)
    assert r"\pi_{flg_1} &\mathrel{+}= -\pi_{vis}[0]\,\pi_{nbr}[0] - \pi_{vis}[1]\,\pi_{nbr}[1] \\" in text
    assert "+ -" not in text and r"-1\," not in text and r" 1\,\pi" not in text


def test_singular_and_plural():
    from symcot.model import FFN, Decoder, Layer

    L = Layout("one", [("a", n)])
    dec = Decoder("one", L, [Layer(None, FFN(Map("W_1", L, L, keep=["a"]), Map("W_2", L, L, keep=["a"])))])
    assert "; 1 layer;" in decoder_symbolic(dec) and "; 2 layers;" in decoder_symbolic(build_decoder())


def test_a_big_explicit_matrix_is_printed_by_labelled_blocks_that_reassemble_it():
    from symcot.latex import Page, map_explicit

    dec = build_decoder().instantiate({n: 8})  # d = 51
    w1 = dec.layers[0].ffn.w1
    text = map_explicit(w1, Page())
    assert "By blocks" in text and "W = " not in text
    # every non-zero block appears, labelled, and the pieces give back W exactly
    _, w, _ = w1.dense()
    got = [[0] * w1.d_in for _ in range(w1.d_out)]
    for ob, ib, scale in re.findall(r"W\[\\pi'_\{([^}]*)\}, \\pi_\{([^}]*)\}\] = (-|[^$]*?\\,)?I_\{\d+\}", text):
        names = {b.replace("_", ""): b for b in w1.src.names}
        o, i = w1.dst.slice(names[ob.replace("_", "")]), w1.src.slice(names[ib.replace("_", "")])
        c = -1 if scale == "-" else 1
        for k in range(o.stop - o.start):
            got[o.start + k][i.start + k] = c
    for ob, ib, body in re.findall(r"W\[\\pi'_\{([^}]*)\}, \\pi_\{([^}]*)\}\] = \n\\begin\{bmatrix\}\n(.*?)\n"
                                   r"\\end\{bmatrix\}", text, flags=re.S):
        names = {b.replace("_", ""): b for b in w1.src.names}
        o, i = w1.dst.slice(names[ob.replace("_", "")]), w1.src.slice(names[ib.replace("_", "")])
        for r, line in enumerate(body.split(" \\\\\n")):
            for c, v in enumerate(line.split(" & ")):
                got[o.start + r][i.start + c] = int(v)
    assert got == w


def test_a_block_too_large_for_the_page_is_refused_with_a_hint(capsys):
    assert main(["latex", "thm:cotpathtotree", "--n", "8"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("symcot: error: map W_2: its block from A' to A is 64x64 with 120 non-zero entries, "
                          "too large to print readably")
    assert "use --symbolic" in err and "\n" not in err


def test_sparse_blocks_and_constant_biases_too_wide_for_a_row_are_listed(tmp_path, capsys):
    out = tmp_path / "p.tex"
    assert main(["latex", "thm:cotpathtotree", "--n", "5", "-o", str(out)]) == 0
    text = out.read_text()
    assert r"b[\pi'_{A'}] = -\mathbf{1}_{25}" in text  # the bias -1 on every entry of A' (m = 5)
    assert "Non-zero entries of the larger sparse blocks" in text


def test_latex_options_that_exclude_each_other(tmp_path, capsys):
    for argv, msg in ((["latex", "thm:cotdfs", "--symbolic", "--n", "3"], "--symbolic and --n exclude each other"),
                      (["latex", "thm:cotdfs", "--lam", "3"], "--lam only applies with --n"),
                      (["latex", "thm:cotdfs", "-o", str(tmp_path / "no" / "w.tex")], "does not exist"),
                      (["latex", "thm:cotdfs", "-o", str(tmp_path)], "is a directory")):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert msg in err and "\n" not in err, err
