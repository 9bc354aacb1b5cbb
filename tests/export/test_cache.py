"""``CoTDecoder.run_with_cache`` agrees with the exact replay's per-layer records, layer by layer and block by block."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction  # noqa: E402
from symcot.export import state_dict, torch_api  # noqa: E402
from symcot.inputs.graphs import Digraph  # noqa: E402
from symcot.model.semantics import generate  # noqa: E402

tm = torch_api()
STEPS = 5


@pytest.fixture(scope="module")
def run():
    """The DFS decoder on the path 0→1→2 (source 0): the exact run with records, the module, its cache."""
    cons = DfsConstruction()
    inp = (Digraph.from_arcs(3, [(0, 1), (1, 2)]), 0)
    dec = cons.concrete(inp)
    prompt = cons.prompt(inp).tokens
    gen = generate(dec, prompt, STEPS, record=True)
    assert len(gen.outputs) == STEPS
    seq = [list(t) for t in prompt] + gen.outputs[:-1]  # every position that produced a token
    x = torch.tensor([[[float(v) for v in t] for t in seq]], dtype=torch.float64)
    model = tm.CoTDecoder(*state_dict(dec))
    out, cache = model.run_with_cache(x)
    records = gen.prompt_records + gen.records  # one list of layer records per position
    assert len(records) == x.shape[1]
    return dec, model, x, out, cache, records, gen


def _vec(v):
    return np.array([float(c) for c in v])


def _close(got, want):
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=0, atol=1e-9)


def test_the_output_is_forwards_and_ends_with_the_generated_tokens(run):
    _, model, x, out, _, _, gen = run
    assert torch.equal(out, model(x))
    prompt_len = x.shape[1] - STEPS + 1
    _close(out[0, prompt_len - 1:], np.array([_vec(y) for y in gen.outputs]))


def test_each_heads_pattern_picks_the_replays_index(run):
    dec, _, x, _, cache, records, _ = run
    length = x.shape[1]
    heads_seen = 0
    for k, layer in enumerate(dec.layers):
        if layer.attention is None:
            assert not [n for n in cache if n.startswith(f"blocks.{k}.attn.")]
            continue
        stacked = cache[f"blocks.{k}.attn.hook_pattern"]
        assert stacked.shape == (1, len(layer.attention.heads), length, length)
        for h in range(len(layer.attention.heads)):
            pattern = cache[f"blocks.{k}.attn.{h}.pattern"]
            scores = cache[f"blocks.{k}.attn.{h}.scores"]
            assert torch.equal(stacked[:, h], pattern)
            assert torch.equal(pattern.sum(-1), torch.ones(1, length, dtype=pattern.dtype))
            assert torch.isinf(scores[0].triu(1)[torch.ones(length, length).triu(1).bool()]).all()
            for pos, recs in enumerate(records):
                choice = recs[k].heads[h]
                assert int(pattern[0, pos].argmax()) == choice.index == int(cache[f"blocks.{k}.attn.{h}.index"][0, pos])
                assert float(scores[0, pos, choice.index]) == pytest.approx(float(choice.score))
                heads_seen += 1
    assert heads_seen > 0


def test_every_site_and_block_of_every_layer_equals_the_replay(run):
    dec, _, x, _, cache, records, _ = run
    lay = dec.layout
    for k, layer in enumerate(dec.layers):
        hidden = layer.ffn.w1.dst
        for pos, recs in enumerate(records):
            rec = recs[k]
            x_in = _vec(records[pos][k - 1].out) if k else x[0, pos].numpy()
            attn = np.zeros(lay.dim) if rec.attn is None else _vec(rec.attn)
            _close(cache[f"blocks.{k}.hook_resid_pre"][0, pos], x_in)
            _close(cache[f"blocks.{k}.hook_attn_out"][0, pos], attn)
            _close(cache[f"blocks.{k}.hook_resid_mid"][0, pos], _vec(rec.ffn_in))
            _close(cache[f"blocks.{k}.hook_mlp_post"][0, pos], _vec(rec.hidden))
            _close(torch.relu(cache[f"blocks.{k}.hook_mlp_pre"][0, pos]), _vec(rec.hidden))
            _close(cache[f"blocks.{k}.hook_resid_post"][0, pos], _vec(rec.out))
            for name in lay.names:
                cut = slice(lay.offsets[name], lay.offsets[name] + lay.sizes[name])
                _close(cache.block("resid_post", k, name)[0, pos], _vec(rec.out)[cut])
                _close(cache.block("resid_mid", k, name)[0, pos], _vec(rec.ffn_in)[cut])
                _close(cache.block("attn_out", k, name)[0, pos], attn[cut])
            for name in hidden.names:
                cut = slice(hidden.offsets[name], hidden.offsets[name] + hidden.sizes[name])
                _close(cache.block("mlp_post", k, name)[0, pos], _vec(rec.hidden)[cut])
        assert list(cache.blocks("resid_post", k)) == list(lay.names)


def test_softmax_patterns_and_bad_names(run):
    _, model, x, _, cache, _, _ = run
    out, soft = model.run_with_cache(x, beta=50.0)
    assert torch.equal(out, model(x, beta=50.0))
    pattern = soft["blocks.1.attn.0.pattern"]
    assert torch.allclose(pattern.sum(-1), torch.ones_like(pattern.sum(-1)))
    assert "blocks.1.attn.0.index" not in soft and "blocks.1.attn.0.index" in cache
    assert not any(v.requires_grad for v in cache.values())
    with pytest.raises(KeyError, match="no block 'nope'"):
        cache.block("resid_post", 0, "nope")
    with pytest.raises(KeyError, match="no site"):
        cache.block("resid", 0, "cur")
    with pytest.raises(KeyError, match="no activation"):
        cache["blocks.9.hook_resid_post"]
