"""A claim's spec selects the encoding's blocks it compares; the exact, batched and symbolic checkers and replay
all honour the selection, and a wrong selection or a broken compared block is still caught."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from symcot.check.batched_check import run_batched_check
from symcot.check.exhaustive import Progress, run_construction_check
from symcot.check.stepwise import check_input
from symcot.check.symbolic_check import SymbolicCheck
from symcot.check.symbolic_target import SymbolicTarget
from symcot.check.trace import replay
from symcot.constructions.cotwidoftree import WIDTH_BLOCKS, WidthTreeConstruction
from symcot.constructions.mutant import Mutant
from symcot.inputs import Digraph


@pytest.fixture(scope="module")
def W():
    return importlib.import_module("proofs.thm_cotwidoftree")


def _trees(W, k):
    return [dataclasses.replace(W.TREES, max_size=k)]


def test_the_width_spec_compares_every_block_but_dis(W):
    cons = WidthTreeConstruction("as-written")
    assert set(cons.encoding.blocks) - set(WIDTH_BLOCKS) == {"dis"} and W.WIDTH_SPEC.compare == set(WIDTH_BLOCKS)
    state = W.SPEC.reference((Digraph.undirected(2, [(0, 1)]), 0))[1]
    inp = (Digraph.undirected(2, [(0, 1)]), 0)
    assert set(W.WIDTH_SPEC.expected(cons, inp, state, 1)) == set(WIDTH_BLOCKS)
    assert set(W.SPEC.expected(cons, inp, state, 1)) == set(WIDTH_BLOCKS) | {"dis"}
    assert W.WIDTH_SPEC.ignores(cons, "dis") and not W.WIDTH_SPEC.ignores(cons, "wei")  # wei is not in enc


@pytest.mark.parametrize("engine", ["exact", "batched"])
def test_both_engines_verify_the_width_and_refute_the_distances(W, engine):
    run = run_batched_check if engine == "batched" else run_construction_check
    cons = WidthTreeConstruction("as-written")
    assert run("x", cons, W.WIDTH_SPEC, _trees(W, 5), 5).verdict == "verified"
    row = run("x", cons, W.SPEC, _trees(W, 5), 5)
    assert row.verdict == "refuted" and row.counterexample["block"] == "dis"


@pytest.mark.parametrize("engine", ["exact", "batched"])
def test_a_broken_compared_block_is_refuted_under_the_selection(W, engine):
    """dif = Σ buf (the crd term dropped): the width spec locates it in layer 2, not at the ignored dis."""
    m = Mutant(WidthTreeConstruction("as-written"), 2, "W_2", ("dif", 0), [("crd", 0)], 0)
    run = run_batched_check if engine == "batched" else run_construction_check
    c = run("x", m, W.WIDTH_SPEC, _trees(W, 5), 5).counterexample
    assert c is not None and (c["step"], c["layer"], c["block"]) == (2, 2, "dif")


def test_a_selection_naming_a_block_the_encoding_lacks_is_an_error(W):
    bad = dataclasses.replace(W.SPEC, compare=frozenset({"cur", "nope"}))
    with pytest.raises(ValueError, match="nope"):
        check_input(WidthTreeConstruction("as-written"), bad, (Digraph.undirected(2, [(0, 1)]), 0))
    row = run_batched_check("x", WidthTreeConstruction("as-written"), bad, _trees(W, 2), 2)
    assert row.verdict == "error" and "nope" in row.notes[-1]


def test_symbolic_replay_honours_the_selection(W):
    def target(spec):
        return SymbolicTarget("thm:cotwidoftree", lambda: WidthTreeConstruction("as-written"), spec, W.TREES)

    width = SymbolicCheck("as-written", target(W.WIDTH_SPEC), lambda_min=False).run("x", 4, Progress(False))
    full = SymbolicCheck("as-written", target(W.SPEC), lambda_min=False).run("x", 4, Progress(False))
    assert width.verdict == "proved" and width.max_size == 4
    assert full.verdict == "refuted"


def test_replay_reports_no_mismatch_on_an_ignored_block(W):
    tree = (Digraph.undirected(3, [(0, 1), (0, 2)]), 0)
    cons = WidthTreeConstruction("as-written")
    assert replay(cons, tree, W.WIDTH_SPEC).ok
    full = replay(cons, tree, W.SPEC)
    assert not full.ok and any("dis" in m for st in full.steps for m in st.mismatches)
