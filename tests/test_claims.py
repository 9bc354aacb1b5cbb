"""Claims: every variant of every claim has a reading (kind and description); undescribed variants show."""

from __future__ import annotations

from symcot.claims import Claim, PropertyCheck, Reading
from symcot.registry import load
from tests.conftest import ROOT


def _prop(variant: str) -> PropertyCheck:
    return PropertyCheck(variant, [], lambda inp: None)


def test_every_variant_of_every_claim_has_a_reading(claims):
    missing = [(c.id, v) for c in claims.values() for v in c.variant_names() if c.reading(v) is None]
    assert not missing
    for c in claims.values():
        for v in c.variant_names():
            kind = c.reading(v).kind
            assert (kind == "as-written") == (v == "as-written"), (c.id, v, kind)


def test_an_undescribed_reading_is_reported_as_such():
    c = Claim("x:y", "sentence", "s", "w", [_prop("as-written"), _prop("other")], 1)
    assert c.variant_names() == ["as-written", "other"]
    assert c.reading("other") is None and c.reading("as-written") is None  # two variants: as-written must say
    alone = Claim("x:z", "sentence", "s", "w", [_prop("as-written")], 1)
    assert alone.reading("as-written").kind == "as-written"
    described = Claim("x:w", "sentence", "s", "w", [_prop("as-written"), _prop("other")], 1,
                      readings={"as-written": Reading("as-written", "printed"), "other": Reading("reading", "r")})
    assert described.reading("other") == Reading("reading", "r")


def test_no_paper_label_without_a_claim_but_definitions_figures_and_unwritten_recipes():
    for package in ("cot_path_to_tree", "transformer_cookbook"):
        src, _ = load(ROOT / "proofs" / package)
        left = src.uncovered()
        labels = src.sources[0].paper.labels
        assert labels, package
        assert all(not checkable for _, _, checkable in left), left
        assert {label for label, _, _ in left} == {label for label, (_, ok) in labels.items() if not ok}
        reasons = ("definition", "no claim", "no construction in this draft", "figure: ")
        assert all(any(r in why for r in reasons) for _, why, _ in left), left


def test_a_default_run_has_one_row_per_claim_and_variant(claims):
    """Exhaustive, symbolic and all-n checks may share a variant name (they run in different runs), nothing else."""
    for c in claims.values():
        for symbolic, all_n in ((False, False), (True, False), (False, True)):
            names = [chk.variant for chk in c.selected(None, symbolic, all_n)]
            assert len(names) == len(set(names)), (c.id, names)
        assert sum(len(c.selected(None, s, a)) for s, a in ((False, False), (True, False), (False, True))) == \
            len(c.checks)  # every check runs in one of them
