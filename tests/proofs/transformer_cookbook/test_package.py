"""The package's protocol: literal TITLE/SUBJECT/LABELS/MODULES, every label claimed, only the stable API imported."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from symcot.registry import load

ROOT = Path(__file__).resolve().parents[3]
PKG = ROOT / "proofs" / "transformer_cookbook"
SOURCE = Path("/work/shared/papers/transformer-cookbook/03_feed-forward.tex")
SOURCE4 = SOURCE.parent / "04_self-attention.tex"
SOURCE5 = SOURCE.parent / "05_positional_encodings.tex"
SOURCE6 = SOURCE.parent / "06_layernorm.tex"
SOURCE8 = SOURCE.parent / "08_assembly.tex"
#: chapter 8's recipes with no construction in the draft: listed, not checkable, with the reason
EMPTY8 = {"ch8:induction-heads", "ch8:eliza"}
#: chapter 5's sections with no label: ids ours (sinusoids, RoPE, ALiBi: claims; powers of i, learned: listed, no claim)
OURS5 = {"ch5:sinusoidal", "ch5:rope", "ch5:alibi", "ch5:powers-of-i", "ch5:learned"}
OURS8 = {"ch8:n-gram", "ch8:mod", "ch8:dyck-smat", "ch8:dyck-uhat", "ch8:dyck-ahat"} | EMPTY8
ALLOWED = ("symcot.claims", "symcot.ir", "symcot.lemmas", "symcot.gadgets.base", "symcot.errors", "symcot.model",
           "symcot.check.encoder", "symcot.check.grid", "symcot.inputs.strings", "symcot.inputs.family",
           "symcot.study.temperature")


def _literals() -> dict:
    tree = ast.parse((PKG / "__init__.py").read_text(encoding="utf-8"))
    out = {}
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and node.value is not None:
            out[target.id] = ast.literal_eval(node.value)
    return out


def test_init_states_the_protocol_as_literals():
    lits = _literals()
    assert lits["TITLE"] == "The Transformer Cookbook (draft)"
    assert "582e0e1" in lits["SUBJECT"] and "4 February 2025" in lits["SUBJECT"] and "chapter 3" in lits["SUBJECT"]
    assert "chapter 8" in lits["SUBJECT"]
    assert all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], bool) for v in lits["LABELS"].values())
    assert sorted(lits["MODULES"]) == sorted(p.stem for p in PKG.glob("*.py")
                                             if p.stem not in ("__init__", "recipes"))


def test_every_label_has_its_claim_and_every_claim_a_label():
    proofs, claims = load(PKG)
    labels = _literals()["LABELS"]
    uncovered = proofs.uncovered()
    assert all(not checkable and why for _, why, checkable in uncovered), uncovered  # each says why it has none
    assert EMPTY8 <= {label for label, _, _ in uncovered}
    assert all("no construction in this draft" in labels[k][0] for k in EMPTY8)
    for cid, claim in claims.items():
        assert cid.split(":")[0] + ":" + cid.split(":")[1] in labels, cid
        assert "582e0e1" in claim.where
        assert claim.variant_names()[0] == "as-written"
        assert set(claim.variant_names()) == set(claim.readings), cid


@pytest.mark.skipif(not SOURCE.is_file(), reason="the draft's LaTeX source is not on this machine")
def test_every_label_of_the_chapter_is_listed():
    found = set(re.findall(r"\\label\{([^}]*)\}", SOURCE.read_text(encoding="utf-8")))
    listed = {k for k in _literals()["LABELS"] if k in found or not SOURCE4.is_file()}
    assert found == listed


@pytest.mark.skipif(not SOURCE4.is_file() or not SOURCE6.is_file(), reason="the draft's LaTeX source is not here")
def test_chapter_4s_6s_and_8s_listed_labels_are_their_own_or_ours():
    found = {label for src in (SOURCE4, SOURCE5, SOURCE6, SOURCE8) if src.is_file()
             for label in re.findall(r"\\label\{([^}]*)\}", src.read_text(encoding="utf-8"))}
    ch3 = set(re.findall(r"\\label\{([^}]*)\}", SOURCE.read_text(encoding="utf-8")))
    rest = set(_literals()["LABELS"]) - ch3
    # ids ours (unlabelled sections)
    assert rest - found == {"ch4:quadratic-maximization", "ch4:predecessor", "ch4:layernorm-hash", "ch5:one-over-i",
                            "ch5:i-over-n", "ch6:zero-mean", "ch6:normalize-pm1"} | OURS5 | OURS8


@pytest.mark.skipif(not all(p.is_file() for p in (SOURCE4, SOURCE5, SOURCE6)),
                    reason="the draft's LaTeX source is not here")
def test_every_label_of_chapters_4_to_6_is_listed():
    labels = _literals()["LABELS"]
    for src in (SOURCE4, SOURCE5, SOURCE6):
        found = set(re.findall(r"\\label\{([^}]*)\}", src.read_text(encoding="utf-8")))
        assert found <= set(labels), (src.name, found - set(labels))
    for label in ("eq:att_logit", "eq:att_weight"):  # the definition of scaled dot-product softmax attention
        text, checkable = labels[label]
        assert not checkable and "a definition, run by every SMAT claim" in text, label


@pytest.mark.skipif(not SOURCE8.is_file(), reason="the draft's LaTeX source is not here")
def test_every_label_of_chapter_8_is_listed():
    found = set(re.findall(r"\\label\{([^}]*)\}", SOURCE8.read_text(encoding="utf-8")))
    assert found <= set(_literals()["LABELS"]), found - set(_literals()["LABELS"])


@pytest.mark.skipif(not SOURCE8.is_file(), reason="the draft's LaTeX source is not here")
def test_chapter_8s_dyck_section_has_no_label_so_its_ids_are_ours():
    text = SOURCE8.read_text(encoding="utf-8")
    section = text[text.index("\\section{Dyck Language}"):text.index("\\section{ELIZA}")]
    assert "\\label" not in section
    for sub in ("SMAT for Dyck-1", "UHAT for Dyck-k-D", "AHAT Dyck-k-D"):
        assert f"\\subsection{{{sub}}}" in section


def test_only_the_stable_api_is_imported():
    for path in PKG.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
            for name in names:
                if name.startswith("symcot"):
                    assert any(name == a or name.startswith(a + ".") for a in ALLOWED), (path.name, name)
