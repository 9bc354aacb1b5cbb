import numpy as np
import pytest

torch = pytest.importorskip("torch")

from symcot.export import load_npz, load_torch, save_npz, state_dict, torch_api  # noqa: E402
from symcot.model import generate as exact_generate  # noqa: E402
from symcot.registry import load_claims  # noqa: E402
from symcot.study.precision.batches import batches  # noqa: E402
from symcot.study.precision.run import construction_checks  # noqa: E402

tm = torch_api()


def _checks():
    seen = set()
    for claim in load_claims(None).values():
        for chk in construction_checks(claim):
            key = (type(chk.construction()).__name__, chk.variant)
            if key not in seen:
                seen.add(key)
                yield pytest.param(chk, id=f"{claim.id}/{chk.variant}")


def _inputs(chk, top=3, limit=300):
    for fam in chk.families:
        if fam.exhaustive:
            for size in range(fam.min_size, top + 1):
                if (fam.max_size is not None and size > fam.max_size) or fam.count(size) > limit:
                    break
                yield from fam.inputs(size)


def _model(dec, cache):
    if id(dec) not in cache:
        state, meta = state_dict(dec)
        cache[id(dec)] = tm.CoTDecoder(state, meta)
    return cache[id(dec)]


@pytest.mark.parametrize("chk", list(_checks()))
def test_torch_float64_hard_reproduces_exact_replay_step_by_step(chk):
    _round_trip(chk, _inputs(chk))


@pytest.mark.slow
@pytest.mark.parametrize("chk", list(_checks()))
def test_torch_round_trip_at_larger_sizes(chk):
    _round_trip(chk, _inputs(chk, top=6, limit=20_000))


def _round_trip(chk, inputs):
    cons, spec = chk.construction(), chk.spec
    models: dict = {}
    rows = 0
    for b in batches(cons, spec, inputs):
        model = _model(b.decoder, models)
        prompt = torch.from_numpy(b.prompt_float().transpose(1, 0, 2).copy())
        got = model.generate(prompt, b.steps).numpy()
        for r in range(b.rows):
            want = exact_generate(b.decoder, b.prompts[r], b.steps).outputs
            assert np.array_equal(got[r], np.array(want, dtype=float)), (b.inputs[r], "step",
                                                                           np.flatnonzero((got[r] != want).any(1)))
        rows += b.rows
    assert rows > 0


def _dfs():
    from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
    from symcot.inputs.graphs import Digraph

    cons = DfsConstruction()
    inp = (Digraph(3, ((0, 1), (0, 2), (1, 2))), 0)
    return cons, inp, cons.concrete(inp)


def test_a_changed_weight_breaks_the_round_trip():
    cons, inp, dec = _dfs()
    state, meta = state_dict(dec)
    prompt = torch.tensor([cons.prompt(inp).tokens], dtype=torch.float64)
    want = np.array(exact_generate(dec, cons.prompt(inp).tokens, 5).outputs, dtype=float)
    assert np.array_equal(tm.CoTDecoder(state, meta).generate(prompt, 5)[0].numpy(), want)
    state["blocks.1.attn.W_K.0.weight"] = state["blocks.1.attn.W_K.0.weight"][[1, 0, 2]]  # keys of two vertices swapped
    assert not np.array_equal(tm.CoTDecoder(state, meta).generate(prompt, 5)[0].numpy(), want)


def test_npz_and_pt_load_back_the_same_weights(tmp_path):
    _, _, dec = _dfs()
    state, meta = state_dict(dec)
    model = tm.CoTDecoder(state, meta)
    assert set(model.state_dict()) == set(state)
    save_npz(tmp_path / "d.npz", state, meta)
    tm.save(tmp_path / "d.pt", model)
    back, _ = load_npz(tmp_path / "d.npz")
    loaded = load_torch(tmp_path / "d.pt")
    for k, v in state.items():
        assert np.array_equal(back[k], v)
        assert np.array_equal(loaded.state_dict()[k].numpy(), v)
        assert np.array_equal(model.state_dict()[k].numpy(), v)
    assert isinstance(model.blocks[1].attn.W_K[0], torch.nn.Linear)
    assert isinstance(model.blocks[1].attn.W_Q[0], tm.Bilinear)  # (1 - vis) ⊙ nbr has degree 2
    assert model.blocks[0].attn is None  # trivial attention in layer 1


def test_softmax_mode_and_blocks():
    cons, inp, dec = _dfs()
    state, meta = state_dict(dec)
    model = tm.CoTDecoder(state, meta)
    prompt = torch.tensor([cons.prompt(inp).tokens], dtype=torch.float64)
    hard = model.generate(prompt, 1)
    soft = model.generate(prompt, 1, beta=50.0)
    assert model.block("cur", hard).shape[-1] == 3
    # DFS relies on ties (head B's default at a traverse step): softmax averages them, so y_1 differs
    assert not torch.allclose(hard, soft, atol=1e-3)
    with pytest.raises(KeyError, match="no block"):
        model.block("nope", hard)
