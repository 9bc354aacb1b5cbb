"""The LaTeX of every construction compiles with pdflatex, with no overfull box, symbolic and at n = 3.

These tests need ``pdflatex`` (Debian: ``texlive-latex-base``) and ``pdftoppm`` (``poppler-utils``);
``.ci/run`` installs them. Where they are missing the tests skip with one reason, except where ``CI=true``:
there they fail (:mod:`tests.latex.tex`).
"""

import re
import struct
import subprocess
from pathlib import Path

import pytest

from symcot.cli import main
from tests.latex.tex import require_tex

#: (claim, variant) of every construction the paper's claims check.
CONSTRUCTIONS = [
    ("thm:cotdfs", "as-written"), ("thm:cotdfs:phi", "as-written"), ("thm:cotdijkstra", "as-written"),
    ("thm:cotdijkstra", "repaired"), ("thm:cotpathstrahler", "as-written"), ("thm:cotpathstrahler", "repaired"),
    ("thm:cotpathtotree", "as-written"), ("thm:cottreestrahler", "as-written"), ("thm:cottreestrahler", "repaired"),
    ("thm:cotwidofpath", "as-written"), ("thm:cotwidofpath", "read-repaired"), ("thm:cotwidofpath", "repaired"),
    ("thm:cotwidoftree", "as-written"), ("thm:cotwidoftree", "repaired"),
]


#: Marks a test that runs pdflatex or pdftoppm (the ``tex`` fixture: skipped without them, except in CI).
needs_tex = pytest.mark.usefixtures("tex")


def _tool(name: str) -> str:
    return require_tex()[name]


def compile_tex(path: Path) -> str:
    """Run pdflatex on ``path``; return its log (the test fails on a TeX error)."""
    pdflatex = _tool("pdflatex")
    p = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error", path.name], cwd=path.parent,
                       capture_output=True, text=True, timeout=300)
    log = path.with_suffix(".log").read_text(errors="replace")
    assert p.returncode == 0, f"pdflatex failed on {path.name}:\n" + "\n".join(
        ln for ln in log.splitlines() if ln.startswith("!"))[:2000]
    return log


def overfull(log: str) -> list[str]:
    """The overfull-box warnings of a pdflatex log."""
    return re.findall(r"^Overfull \\[hv]box .*$", log, flags=re.M)


def _latex(tmp_path, claim, variant, *extra):
    out = tmp_path / (re.sub(r"\W", "_", f"{claim}_{variant}_{'_'.join(extra)}") + ".tex")
    assert main(["latex", claim, "--variant", variant, *extra, "-o", str(out)]) == 0
    return out


@needs_tex
@pytest.mark.parametrize(("claim", "variant"), CONSTRUCTIONS)
def test_symbolic_and_explicit_latex_compile_without_overfull_boxes(tmp_path, capsys, claim, variant):
    n = "4" if claim == "thm:cotwidofpath" else "3"  # its layout needs n even (tested below)
    for extra in ((), ("--n", n)):
        log = compile_tex(_latex(tmp_path, claim, variant, *extra))
        assert overfull(log) == [], (claim, variant, extra, overfull(log))
        assert "Output written on" in log


def test_odd_n_where_the_construction_needs_even_is_one_line(capsys):
    assert main(["latex", "thm:cotwidofpath", "--n", "3"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("symcot: error: thm:cotwidofpath [as-written] cannot be built at n = 3: block p has size "
                   "n/2 + 1 = 5/2, not a whole number of coordinates; try --n 2 or --n 4")


@needs_tex
@pytest.mark.parametrize("extra", [("--n", "8"), ("--n", "8", "--landscape"), ("--landscape",)])
def test_big_explicit_matrices_by_blocks_and_landscape(tmp_path, capsys, extra):
    # --n 8 of DFS is 51 x 51: printed by blocks, each labelled, breaking across pages
    path = _latex(tmp_path, "thm:cotdfs", "as-written", *extra)
    text = path.read_text()
    if "--n" in extra and "--landscape" not in extra:
        assert "By blocks" in text and r"W[\pi'_{cur}, \pi_{cur}] = I_{8}" in text
    log = compile_tex(path)
    assert overfull(log) == []
    assert ("landscape" in text.split(r"\begin{document}")[0]) == ("--landscape" in extra)


@needs_tex
def test_pages_are_portrait_unless_landscape(tmp_path, capsys):
    pdftoppm = _tool("pdftoppm")
    sizes = []
    for extra in ((), ("--landscape",)):
        path = _latex(tmp_path, "thm:cotwidofpath", "repaired", *extra)
        compile_tex(path)
        subprocess.run([pdftoppm, "-r", "20", "-png", "-f", "1", "-l", "1", path.with_suffix(".pdf").name,
                        path.stem], cwd=tmp_path, check=True, timeout=120)
        png = next(tmp_path.glob(f"{path.stem}*.png")).read_bytes()
        sizes.append(struct.unpack(">II", png[16:24]))  # IHDR: width, height
    (w0, h0), (w1, h1) = sizes
    assert w0 < h0 and w1 > h1


@needs_tex
def test_fragment_is_only_the_matrices_and_compiles_inside_a_paper(tmp_path, capsys):
    for extra in ((), ("--n", "3")):
        frag = _latex(tmp_path, "thm:cottreestrahler", "repaired", "--fragment", *extra).read_text()
        assert r"\documentclass" not in frag and r"\begin{document}" not in frag and r"\section" not in frag
        assert r"\paragraph" not in frag and frag.startswith("% symcot LaTeX fragment: needs")
        assert r"\begin{array}" in frag or r"\begin{bmatrix}" in frag
        paper = tmp_path / f"paper{len(extra)}.tex"
        paper.write_text("\\documentclass{article}\n\\usepackage[a4paper,margin=20mm]{geometry}\n"
                         "\\usepackage{amsmath,amssymb}\n\\allowdisplaybreaks\n\\begin{document}\n"
                         "Our construction:\n" + frag + "\n\\end{document}\n")
        assert overfull(compile_tex(paper)) == []


@needs_tex
def test_a_deliberately_too_wide_matrix_is_caught_by_the_overfull_check(tmp_path):
    # the check above must be able to fail: a 60-column bmatrix on a portrait page overflows
    from symcot.latex import Page, bmatrix

    path = tmp_path / "wide.tex"
    path.write_text(Page().wrap("\\[" + bmatrix([list(range(100, 160))]) + "\\]"))
    assert len(overfull(compile_tex(path))) == 1


@needs_tex
def test_sparse_block_lists_compile_without_overfull_boxes(tmp_path, capsys):
    # thm:cotpathtotree at m = 5: the 25-entry bias and the sparse 25 x 1 blocks are listed entry by entry
    log = compile_tex(_latex(tmp_path, "thm:cotpathtotree", "as-written", "--n", "5"))
    assert overfull(log) == []


#: (claim, variant) of encoder constructions: every attention kind, mask and positional encoding they use.
ENCODERS = [("sec:tie-breaking", "as-written"), ("ch4:quadratic-maximization", "SMAT"),
            ("ch4:predecessor", "causal-UHAT"), ("ch5:one-over-i", "as-written"),
            ("sec:identity-attention", "as-written")]


@needs_tex
@pytest.mark.parametrize(("claim", "variant"), ENCODERS)
def test_encoder_latex_with_its_rules_compiles_without_overfull_boxes(tmp_path, capsys, claim, variant):
    for extra in ((), ("--n", "3")):
        path = _latex(tmp_path, claim, variant, *extra)
        assert r"\paragraph{Model.}" in path.read_text()
        log = compile_tex(path)
        assert overfull(log) == [], (claim, variant, extra, overfull(log))
        assert "Output written on" in log


#: (claim, variant, point) of chapter 8's grid checks and the networks its custom checks run.
GRID_ENCODERS = [("ch8:dyck-uhat", "repaired", "k=2,D=2"), ("ch8:dyck-ahat", "as-written", "k=2,D=2"),
                 ("sec:multihead", "as-written", "H=3"), ("ch8:n-gram", "attend-t-minus-h", "n=3")]


@needs_tex
@pytest.mark.parametrize(("claim", "variant", "point"), GRID_ENCODERS)
def test_latex_at_a_grid_point_compiles_without_overfull_boxes(tmp_path, capsys, claim, variant, point):
    for extra in (("--at", point), ("--at", point, "--n", "3"), ()):
        path = _latex(tmp_path, claim, variant, *extra)
        assert r"\paragraph{Model.}" in path.read_text()
        log = compile_tex(path)
        assert overfull(log) == [], (claim, variant, extra, overfull(log))
        assert "Output written on" in log


@needs_tex
def test_the_rules_of_every_norm_placement_and_attention_kind_compile(tmp_path):
    from fractions import Fraction

    from symcot.latex import Page
    from symcot.latex.rules import rules_tex
    from symcot.model.description import AHAT, SMAT, UHAT, HeadRule, ModelDescription, Norm, Positional

    body = []
    for k, placement in enumerate(("none", "pre", "post", "selective")):
        desc = ModelDescription(f"d{k}", direction="recogniser", head=HeadRule("strict-past", SMAT(lambda n: n)),
                                heads={"T": HeadRule("future", UHAT("rightmost")), (2, "A"): HeadRule("none", AHAT())},
                                residual="both" if k % 2 else "attention",
                                norm=Norm(placement, "rms" if k % 2 else "standard", Fraction(1, 10**5)),
                                positional=Positional(lambda i, n: [Fraction(i, n), i], 2, "add", "(i/n, i)"))
        body += rules_tex(desc, [(1, "T"), (2, "A"), (2, "S")])
    path = tmp_path / "rules.tex"
    path.write_text(Page().wrap("\n\n".join(body)))
    assert overfull(compile_tex(path)) == []
