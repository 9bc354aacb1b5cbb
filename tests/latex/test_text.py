"""Text fragments for LaTeX: prose escaped, docstring formulas as math, width estimates close to TeX's."""

import re
import subprocess

import pytest

from symcot.latex.text import UNMAPPED, escape_text, math_width, plural, prose
from symcot.registry import load_claims


def _docstrings():
    docs = set()
    for c in load_claims().values():
        for chk in c.checks:
            if hasattr(chk, "construction"):
                dec = chk.construction().decoder
                for k in range(1, len(dec.layers) + 1):
                    docs |= {mp.doc for _, mp in dec.maps_of(k)}
    return sorted(docs)


def test_every_docstring_of_the_paper_renders_without_unmapped_characters():
    UNMAPPED.clear()
    out = [prose(d) for d in _docstrings()]
    assert len(out) > 50 and not UNMAPPED
    assert all("?" not in o for o in out)
    for o in out:  # math delimiters balanced, no bare underscore or ^ in text mode
        assert o.count("$") % 2 == 0, o
        text = re.sub(r"\$[^$]*\$", "", o)
        assert not re.search(r"(?<!\\)[_^]", text), o


@pytest.mark.parametrize(("source", "want"), [
    ("1[D>0], 1[D=0]", "$1[D>0], 1[D=0]$"),  # not 1[D¿0]
    ("λ Σ_j π_buf[j]", r"$\lambda  \Sigma _{j} \pi _{buf}[j]$"),  # not ?\_j
    ("copies π_cur into the buffer register", r"copies $\pi _{cur}$ into the buffer register"),
    ("π_par ← π_flg1 π_buf", r"$\pi _{par} \leftarrow  \pi _{flg_1} \pi _{buf}$"),
    ("V^(1) as identity", r"$V^{(1)}$ as identity"),
    ("W_O ∈ {0,1}^{d×2d} sums", r"$W_{O} \in  \{0,1\}^{d\times 2d}$ sums"),
    ("lem:mMc's W_2 (M, c kept", r"lem:mMc's $W_{2} (M, c$ kept"),
    ("α''_B's accumulator", r"$\alpha ''_{B}$'s accumulator"),
    ("tmp_{c_buf-1} ← c_buf - 1", r"$\mathit{tmp}_{c\_buf-1} \leftarrow  c_{buf} - 1$"),
    ("naïve café, 100% & #1", r"na\"{i}ve caf\'{e}, $100\% \& \#1$"),
])
def test_prose(source, want):
    assert prose(source) == want


def test_escape_text():
    assert escape_text("a_b & c% {d} $ # ~ ^ \\ < > |") == (
        r"a\_b \& c\% \{d\} \$ \# \~{} \^{} \textbackslash{} \textless{} \textgreater{} \textbar{}")
    assert escape_text("thm:cotdfs [as-written]") == "thm:cotdfs [as-written]"
    UNMAPPED.clear()
    assert escape_text("\u2a01") == "[U+2A01]" and UNMAPPED == {"\u2a01"}
    UNMAPPED.clear()


def test_plural():
    assert plural(1, "layer") == "1 layer" and plural(4, "layer") == "4 layers"


SAMPLES = [r"\pi_{cur}", r"I_{n}", r"-\mathbf{1}_{\frac{n}{2} + 1}", r"\left(1 -\pi_{flg_1}\right)\,\pi_{par}",
           r"\lambda\,I_{n} - \lambda\,\mathbf{1}_{n}\,\mathbf{1}_{n}^\top", r"W_2^{(3)}", r"tmp\_cbuf+1\,(1)",
           r"\frac{1}{2}", r"-\frac{\lambda}{2}", r"\pi_{tmp\_D}\,\pi_{tmp\_c\_buf-1}", r"\pi_{c\_buf^{(B)}}"]


def test_width_estimates_are_close_to_what_pdflatex_sets(tex):
    pdflatex = tex["pdflatex"]
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        tex = Path(d) / "w.tex"
        tex.write_text("\\documentclass{article}\\usepackage{amsmath,amssymb}\\begin{document}\n" + "\n".join(
            f"\\setbox0\\hbox{{${s}$}}\\typeout{{W{i}:\\the\\wd0}}" for i, s in enumerate(SAMPLES))
            + "\n\\end{document}\n")
        subprocess.run([pdflatex, "-interaction=nonstopmode", tex.name], cwd=d, capture_output=True, timeout=120)
        real = {int(i): float(w) for i, w in re.findall(r"W(\d+):([\d.]+)pt", (Path(d) / "w.log").read_text())}
    assert len(real) == len(SAMPLES)
    for i, s in enumerate(SAMPLES):
        est = math_width(s)
        assert real[i] - 5.0 <= est <= real[i] * 1.35 + 5.0, (s, real[i], est)
