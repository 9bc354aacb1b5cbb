"""Readings: a variant's kind and one-line description, and the readings the constructions state."""

from __future__ import annotations

import pytest

from proofs.cot_path_to_tree.constructions import (
    cotdijkstra,
    cotpathstrahler,
    cottreestrahler,
    cotwidofpath,
    cotwidoftree,
)
from symcot.constructions.readings import KINDS, Reading, as_written, in_use, mutant, reading, repair


def test_kinds_and_helpers():
    assert KINDS == ("as-written", "reading", "repair", "mutant")
    assert [f("x").kind for f in (as_written, reading, repair, mutant)] == list(KINDS)


@pytest.mark.parametrize("kind, text", [("fix", "a change"), ("repair", ""), ("reading", "two\nlines")])
def test_a_bad_kind_or_description_is_rejected(kind, text):
    with pytest.raises(ValueError):
        Reading(kind, text)  # type: ignore[arg-type]


def test_in_use_rows_are_described_by_their_name():
    r = in_use("in:thm:cotwidoftree")
    assert r is not None and r.kind == "reading" and "thm:cotwidoftree" in r.text
    assert in_use("repaired") is None


@pytest.mark.parametrize("module", [cotdijkstra, cotwidoftree, cotwidofpath, cotpathstrahler, cottreestrahler])
def test_each_construction_describes_its_variants(module):
    names = getattr(module, "VARIANTS", None) or tuple(getattr(module, "VARIANT_ENCODINGS", {})) or ("as-written",
                                                                                                     "repaired")
    assert set(names) <= set(module.READINGS)
    assert module.READINGS["as-written"].kind == "as-written"
    assert all(r.kind != "as-written" for v, r in module.READINGS.items() if v != "as-written")
