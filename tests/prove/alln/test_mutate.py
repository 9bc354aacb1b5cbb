"""A single-weight mutant as an overlay: the symbolic maps then compile to the mutant's maps."""

import random

import z3

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cotpathtotree import PathToTreeConstruction
from symcot.constructions.mutant import Mutant
from symcot.inputs import Digraph
from symcot.ir import m, n
from symcot.prove.alln.mutate import coordinates, overlay, single_weight_mutants
from tests.prove.alln.test_blocks import symbolic_outputs


def _agrees(mut, inp, env):
    ov, least = overlay(mut, inp)
    dec = mut.concrete(inp)
    rng = random.Random(1)
    mp = dict(mut.base.decoder.maps_of(mut.layer))[mut.map_label]
    cm = dec.get_map(mut.layer, mut.map_label)
    for _ in range(4):
        x = [rng.randint(-2, 2) for _ in range(cm.d_in)]
        if symbolic_outputs(mp, env, {}, x, ov) != cm(x):
            return False
    return least


def test_overlay_compiles_to_the_mutant_map():
    inp = (Digraph.from_arcs(3, [(0, 1), (1, 2)]), 0)
    mut = Mutant(DfsConstruction(), 2, "W_2", ("par", 1), [("flg1", 0), ("buf", 1)], 0)
    assert _agrees(mut, inp, {n: 3}) == 2
    mut = Mutant(DfsConstruction(), 2, "W_O", ("vis", 2), [("T.cur", 2)], -3)
    assert _agrees(mut, inp, {n: 3}) == 3


def test_overlay_on_a_two_index_block():
    w = "UUDD"
    mut = Mutant(PathToTreeConstruction(), 1, "W_2", ("A", 5), [("A'", 7)], 0)  # (1, 2) from (2, 1) at m = 3
    assert _agrees(mut, w, {m: 3})


def test_sample_covers_every_map_and_each_mutant_changes_a_weight():
    inp = (Digraph.from_arcs(3, [(0, 1), (1, 2)]), 0)
    muts = single_weight_mutants(DfsConstruction(), inp)
    assert {(mu.layer, mu.map_label) for mu in muts} == {(k, lbl) for k in (1, 2)
                                                         for lbl, _ in DfsConstruction().decoder.maps_of(k)}
    for mu in muts:
        assert _agrees(mu, inp, {n: 3}), (mu.layer, mu.map_label)


def test_overlay_is_zero_elsewhere():
    inp = (Digraph.from_arcs(2, [(0, 1)]), 0)
    mut = Mutant(DfsConstruction(), 1, "W_2", ("flg1", 0), [("flg2", 0)], 0)
    ov, _ = overlay(mut, inp)
    other = dict(DfsConstruction().decoder.maps_of(2))["W_2"]
    assert z3.simplify(ov(other, "flg1", (0,), lambda b, i: z3.RealVal(1))).eq(z3.RealVal(0))


def test_coordinates_and_least_size_follow_each_block_extent():
    mut = Mutant(PathToTreeConstruction(), 1, "W_1", ("A'", 3), [("stp", 0)], 0)
    assert coordinates(mut, "UUDD") == [("A'", (1, 0)), ("stp", (0,))]  # m = 3: vec index 3 is (1, 0)
    assert coordinates(mut, "UUDDUD") == [("A'", (0, 3)), ("stp", (0,))]  # m = 4: another weight
    assert overlay(mut, "UUDD")[1] == 2
    mut = Mutant(PathToTreeConstruction(), 1, "W_1", ("pos", 3), [("stp", 0)], 0)
    assert overlay(mut, "UUDDUD")[1] == 3  # pos has 2m - 2 coordinates: index 3 needs m ≥ 3
