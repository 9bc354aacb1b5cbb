import json

import numpy as np
import pytest

from symcot.errors import SymcotError
from symcot.export import FORMAT, load_npz, map_arrays, save_npz, state_dict
from tests.fixtures.toys import ToyConstruction, ToyInput


def test_map_arrays_by_hand():
    from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
    from symcot.inputs.graphs import Digraph

    dec = DfsConstruction().concrete((Digraph(2, ((0, 1),)), 0))
    q_t = dec.get_map(2, "Q_T")  # (1 - vis) ⊙ nbr: nbr_i - vis_i nbr_i
    a = map_arrays(q_t)
    lay = dec.layout
    nbr, vis = lay.offsets["nbr"], lay.offsets["vis"]
    assert a["weight"].shape == (2, lay.dim) and a["bias"].tolist() == [0, 0]
    assert a["weight"][0, nbr] == 1 and a["weight"][1, nbr + 1] == 1 and a["weight"].sum() == 2
    assert sorted(map(tuple, a["bilinear_index"].tolist())) == [(vis, nbr), (vis + 1, nbr + 1)]
    assert sorted(a["bilinear_weight"].sum(axis=1).tolist()) == [-1, -1]


def test_names_and_npz_round_trip(tmp_path):
    cons = ToyConstruction()
    state, meta = state_dict(cons.concrete(ToyInput(((1, 2),))))
    assert set(state) == {f"blocks.0.{m}.{p}" for m in ("attn.W_Q.0", "attn.W_K.0", "attn.W_V.0", "attn.W_O",
                                                         "mlp.W_in", "mlp.W_out") for p in ("weight", "bias")}
    assert meta["layers"][0]["heads"] == ["A"] and meta["weights_exact_in_float64"]
    assert [b["name"] for b in meta["blocks"]] == ["k", "v", "q", "out"]
    path = tmp_path / "toy.npz"
    save_npz(path, state, {**meta, "claim": "toy"})
    back, meta2 = load_npz(path)
    assert meta2["claim"] == "toy" and meta2["format"] == FORMAT
    assert set(back) == set(state)
    for k in state:
        assert back[k].dtype == state[k].dtype and np.array_equal(back[k], state[k])


def test_load_refuses_other_files(tmp_path):
    p = tmp_path / "plain.npz"
    np.savez(p, a=np.zeros(2))
    with pytest.raises(SymcotError, match="not a symcot decoder export"):
        load_npz(p)
    q = tmp_path / "junk.npz"
    q.write_text("junk")
    with pytest.raises(SymcotError, match="not a readable"):
        load_npz(q)
    r = tmp_path / "other.npz"
    np.savez(r, meta=np.array(json.dumps({"format": "else"})))
    with pytest.raises(SymcotError, match="not a symcot decoder export"):
        load_npz(r)
