"""The batched tables and cached prompts of the path-side constructions (thm:cotpathtotree, thm:cotwidofpath,
thm:cotpathstrahler): the two readings of each encoding agree exactly, and prompts are the paper's tokens."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

import proofs.cot_path_to_tree.thm_cotpathstrahler as strahler_proof
import proofs.cot_path_to_tree.thm_cotpathtotree as pathtotree_proof
import proofs.cot_path_to_tree.thm_cotwidofpath as width_proof
from proofs.cot_path_to_tree.constructions.cotpathstrahler import StrahlerPathConstruction
from proofs.cot_path_to_tree.constructions.cotpathtotree import PathToTreeConstruction
from proofs.cot_path_to_tree.constructions.cotwidofpath import WidthPathConstruction
from symcot.check.batched_check import BatchedChecker, EngineDisagreement, table_disagreements
from symcot.constructions.base import Construction
from symcot.inputs.dyck import UP, dyck_words, heights

SPECS = {"pathtotree": pathtotree_proof.SPEC, "width": width_proof.SPEC, "strahler": strahler_proof.SPEC}
CONS = {"pathtotree": PathToTreeConstruction, "width": lambda: WidthPathConstruction("repaired"),
        "strahler": lambda: StrahlerPathConstruction("repaired")}
PROOFS = [pathtotree_proof, width_proof, strahler_proof]
#: Every Dyck word of ψ(w) with up to 9 vertices (semilength ≤ 8), the empty word included.
WORDS = [w for m in range(9) for w in dyck_words(m)]


def _e(size: int, i: int | None) -> list[int]:
    """One-hot ``e_i`` of length ``size`` (``0^size`` for ``None``)."""
    return [0] * size if i is None else [1 if j == i else 0 for j in range(size)]


def _corrupt(cons: Construction, change: Any) -> Construction:
    """``cons`` whose batched table is passed through ``change(table)`` (a deliberately wrong interpreter)."""
    base = type(cons)

    class Corrupt(base):  # type: ignore[valid-type, misc]
        def expected_table(self, inp: Any, states: Any) -> dict[str, Any]:
            out = {b: (v[0].copy(), v[1].copy()) if isinstance(v, tuple) else v.copy()
                   for b, v in base.expected_table(self, inp, states).items()}
            change(out)
            return out

    c = copy.copy(cons)
    c.__class__ = Corrupt
    return c


@pytest.mark.parametrize("name", sorted(SPECS))
def test_tables_agree_with_expected_on_every_small_word(name: str) -> None:
    spec, cons = SPECS[name], CONS[name]()
    words = [w for w in WORDS if w or name == "pathtotree"]
    assert all(cons.expected_table(w, spec.reference(w)) is not None for w in words)  # no silent fallback
    assert table_disagreements(cons, spec, words) == []


def _flip_cell(block: str, row: int, col: int) -> Any:
    def change(table: dict[str, Any]) -> None:
        a = table[block][0] if isinstance(table[block], tuple) else table[block]
        a[row, col] = 1 - a[row, col]

    return change


@pytest.mark.parametrize("name, change, why", [
    ("pathtotree", _flip_cell("A", -1, 1), "block A"),
    ("pathtotree", _flip_cell("par", 1, 0), "block par"),
    ("width", _flip_cell("p", -1, 0), "block p"),
    ("width", lambda t: t.pop("q"), "blocks"),
    ("strahler", _flip_cell("M", -1, 0), "block M"),
    ("strahler", lambda t: t.update(pos=t["pos"][0]), "blocks"),  # pos named at t = n too: wrong
])
def test_wrong_tables_are_detected(name: str, change: Any, why: str) -> None:
    cons = _corrupt(CONS[name](), change)
    words = [w for w in WORDS if w]
    bad = table_disagreements(cons, SPECS[name], words)
    assert len(bad) == len(words)
    assert all(why in msg for _, msg in bad)


def test_batched_checker_spot_checks_the_table() -> None:
    cons = _corrupt(WidthPathConstruction("repaired"), _flip_cell("wd", -1, 0))
    with pytest.raises(EngineDisagreement):
        BatchedChecker(cons, width_proof.SPEC).check(list(dyck_words(4)))


def _paper_prompt(cons: Any, word: str) -> list[list[Any]]:
    """The prompt assembled token by token from the proofs' formulas (no caching)."""
    cl = cons.concrete(word).layout
    k, size, s = len(word), len(word) // 2 + 1, heights(word)
    q = [1 if c == UP else -1 for c in word]
    if isinstance(cons, PathToTreeConstruction):
        toks = [cl.assemble({"pos": _e(k, t), "stp": q[t]}) for t in range(k)]
        return toks + [cl.assemble({"cur": _e(size, 0), "nl": _e(size, 0), "pos": _e(k, 0 if k else None),
                                    "flg": 1})]
    if isinstance(cons, WidthPathConstruction):
        return [cl.assemble({"pos": _e(k, t), "q": q[t]}) for t in range(k)] + [cl.assemble({"pos": _e(k, 0)})]
    toks = [cl.assemble({"pos": _e(k, t), "pos_sc": t + 1, "q": q[t], "ht": _e(k, s[t])}) for t in range(k)]
    return toks + [cl.assemble({"pos": _e(k, 0), "pos_sc": 1, "q": 1, "ht": _e(k, 0), "flg": 1})]


@pytest.mark.parametrize("make", [PathToTreeConstruction, lambda: WidthPathConstruction("repaired"),
                                  lambda: StrahlerPathConstruction("repaired")])
def test_cached_prompts_are_the_papers_tokens(make: Any) -> None:
    cons = make()
    words = [w for m in range(7) for w in dyck_words(m) if w or isinstance(cons, PathToTreeConstruction)]
    for w in words:
        p = cons.prompt(w)
        assert p.tokens == _paper_prompt(cons, w), w
        assert p.labels == [f"x_{t}" for t in range(len(w))] + ["y_0"]
    a, b = cons.prompt("UDUD"), cons.prompt("UDUD")
    assert all(x is y for x, y in zip(a.tokens, b.tokens))  # shared token objects
    assert a.labels is not b.labels
    wrong = [row[:] for row in a.tokens]
    wrong[0][0] += 1
    assert wrong != _paper_prompt(cons, "UDUD")  # the comparison above can fail


def _rows(verdicts: list[Any]) -> list[dict[str, Any]]:
    out = []
    for v in verdicts:
        d = v.as_dict()
        d.pop("seconds", None)
        d.pop("details", None)
        d["method"] = d.get("method", "").replace(" [batched engine]", "")
        out.append(d)
    return out


@pytest.mark.parametrize("mod", PROOFS, ids=lambda m: m.__name__)
def test_batched_and_exact_verdicts_agree(mod: Any) -> None:
    for claim in mod.CLAIMS:
        exact = _rows(claim.run(max_size=6, engine="exact"))
        batched = _rows(claim.run(max_size=6, engine="batched"))
        assert exact and exact == batched


def test_batched_engine_is_used_for_pathtotree() -> None:
    claim = pathtotree_proof.CLAIMS[0]
    (row,) = claim.run(max_size=5, engine="batched")
    assert row.details and row.details.get("engine") == "batched"


def test_table_arrays_have_the_block_sizes() -> None:
    word = "UUDUDD"
    for cons, spec in [(PathToTreeConstruction(), pathtotree_proof.SPEC),
                       (WidthPathConstruction("repaired"), width_proof.SPEC),
                       (StrahlerPathConstruction("repaired"), strahler_proof.SPEC)]:
        layout = cons.concrete(word).layout
        for b, v in cons.expected_table(word, spec.reference(word)).items():
            a = np.asarray(v[0] if isinstance(v, tuple) else v)
            assert a.shape == (len(word) + 1, layout.sizes[b]) and a.dtype == np.int64, (cons.claim, b)
