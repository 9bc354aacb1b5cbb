"""The native (generated C) kernel replays exactly as semantics.generate and detects what int64 cannot hold."""

import random
from fractions import Fraction

import numpy as np
import pytest

from proofs.cot_path_to_tree.algorithms.batched.dfs import STRAHLER_REFERENCE as strahler_reference
from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cotpathstrahler import StrahlerPathConstruction
from proofs.cot_path_to_tree.constructions.cotpathtotree import PathToTreeConstruction
from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from symcot.errors import DimensionError
from symcot.inputs import dyck_unrank, random_digraph, random_labeled_tree
from symcot.inputs.dyck import catalan
from symcot.ir import Map
from symcot.model import FFN, Decoder, Layer, generate
from symcot.replay.batched import BatchedDecoder
from symcot.replay.native import NativeDecoder, fast_threshold, generate_source, index_prompts, native_available
from symcot.replay.scaling import INT64_MAX
from tests.fixtures.decoders import L, huge_decoder, rational_decoder, tiny_decoder

pytestmark = pytest.mark.skipif(not native_available(),
                                reason="no working C compiler: the native kernel is unavailable")

_NATIVE: dict = {}


def native(dec, prompts, **kw):
    """``(NativeDecoder, toks, BatchedDecoder)`` for one decoder and its prompts (kernels cached per test session)."""
    bd = BatchedDecoder(dec)
    toks, scale = bd.tokens(prompts)
    sd = bd.scaled(scale)
    key = (id(dec), scale, tuple(sorted(kw.items())))
    if key not in _NATIVE:
        _NATIVE[key] = (NativeDecoder(sd, **kw), dec)  # keep dec alive so that its id is not reused
    return _NATIVE[key][0], toks


def exact(row: np.ndarray, scale: int) -> list:
    """``(T, d)`` outputs at ``scale`` as exact numbers (as ``generate`` gives them)."""
    return [[Fraction(int(v), scale) if scale > 1 else int(v) for v in y] for y in row]


def assert_as_generate(dec, prompts, steps, **kw):
    """Both entry points give status 0 and ``generate``'s outputs on every row; zeros past each row's steps."""
    nd, toks = native(dec, prompts, **kw)
    steps = np.asarray(steps, dtype=np.int64)
    outs, status = nd.run(toks, steps)
    table, index, scale = index_prompts(prompts)
    assert scale == nd.sd.s_token
    outs2, status2 = nd.run_indexed(table, index, steps)
    assert np.array_equal(outs, outs2) and np.array_equal(status, status2)
    assert outs.shape == (len(prompts), int(steps.max(initial=0)), dec.layout.dim)
    for b, p in enumerate(prompts):
        k = int(steps[b])
        assert status[b] == 0, b
        assert exact(outs[b, :k], nd.sd.s_out) == generate(dec, p, k).outputs, b
        assert not outs[b, k:].any()
    return outs, status


def test_dfs_on_random_digraphs_and_trees_of_every_size_to_9():
    rng = random.Random(1)
    cons = DfsConstruction()
    for n in range(1, 10):
        inps = [(random_digraph(n, rng, p=rng.choice([0.15, 0.4, 0.8])), rng.randrange(n)) for _ in range(10)]
        inps += [(random_labeled_tree(n, rng), rng.randrange(n)) for _ in range(10)]
        inps += [inps[0]] * 2 + [(inps[1][0], s) for s in range(n)]  # repeated prompts and shared prefixes
        steps = [rng.randint(0, 3 * n) for _ in inps]
        assert_as_generate(cons.concrete(inps[0]), [cons.prompt(i).tokens for i in inps], steps)


def test_rows_in_small_blocks_sharing_prefixes_across_blocks():
    """Blocks of 8 rows: every source of a few graphs, rows without steps among them (also at block ends)."""
    rng = random.Random(10)
    cons = DfsConstruction()
    graphs = [random_digraph(6, rng, p=0.4) for _ in range(5)]
    inps = [(g, s) for g in graphs for s in range(6)]
    steps = [0 if i % 8 in (6, 7) or i % 11 == 0 else rng.randint(1, 16) for i in range(len(inps))]
    assert_as_generate(cons.concrete(inps[0]), [cons.prompt(i).tokens for i in inps], steps, _block_bytes=8)


def random_words(rng, m, k):
    return [dyck_unrank(m, rng.randrange(catalan(m))) for _ in range(k)]


def test_path_to_tree_on_dyck_words():
    rng = random.Random(2)
    cons = PathToTreeConstruction()
    for m in (2, 3, 5, 7):
        words = sorted(random_words(rng, m - 1, 12))  # sorted: neighbours share prompt prefixes
        assert_as_generate(cons.concrete(words[0]), [cons.prompt(w).tokens for w in words],
                           [len(w) + rng.randint(0, 2) for w in words])


@pytest.mark.parametrize("variant", ["as-written", "repaired"])
def test_strahler_on_paths_with_an_output_scale_that_feedback_divides(variant):
    rng = random.Random(3)
    cons = StrahlerPathConstruction(variant)
    for m in (1, 3, 5):
        words = random_words(rng, m, 8)
        dec = cons.concrete(words[0])
        nd, _ = native(dec, [cons.prompt(words[0]).tokens])
        assert nd.sd.fb_den > 1  # y_t is at a finer scale than the tokens: each feedback is an exact division
        assert_as_generate(dec, [cons.prompt(w).tokens for w in words], [2 * len(w) + 2 for w in words])


def test_strahler_on_trees():
    rng = random.Random(4)
    cons = StrahlerTreeConstruction("repaired")
    for n in (1, 2, 4, 6):
        inps = [(random_labeled_tree(n, rng), rng.randrange(n)) for _ in range(8)]
        steps = [len(strahler_reference(i)) - 1 for i in inps]
        assert_as_generate(cons.concrete(inps[0]), [cons.prompt(i).tokens for i in inps], steps)


def test_hand_made_decoder_with_ties_biases_and_relu():
    rng = random.Random(5)
    prompts = [[[rng.randint(-2, 2) for _ in range(3)] for _ in range(3)] for _ in range(60)]
    assert_as_generate(tiny_decoder(), prompts, [rng.randint(0, 4) for _ in prompts])


def test_an_overflowing_score_abandons_the_row_although_every_output_fits():
    """Head q scores ``-b_i·b²``: at step 5 of this prompt b ≈ 1.25·10^9, so the scores leave int64."""
    dec = tiny_decoder()
    prompt = [[1, 0, -1], [-2, 1, 0], [2, 2, 2]]
    g = generate(dec, prompt, 5, record=True)
    assert max(abs(v) for y in g.outputs for v in y) <= INT64_MAX
    bs = [recs[0].out[1] for recs in g.prompt_records + g.records]  # b entering layer 2, at every position
    assert max(abs(b) * bs[-1] ** 2 for b in bs) > INT64_MAX
    nd, toks = native(dec, [prompt])
    outs, status = nd.run(toks, np.array([5]))
    assert status.tolist() == [1] and exact(outs[0, :4], 1) == g.outputs[:4] and not outs[0, 4].any()


def half_decoder():
    """``W_1`` halves, ``W_2`` doubles: output scale 2 at token scale 1, so every feedback divides by 2."""
    x = L.vars()
    half = FFN(Map("W_1", L, L, {"a": Fraction(1, 2) * x.a + Fraction(1, 2)}, keep=["b", "c"]),
               Map("W_2", L, L, {"a": 2 * x.a - 1, "b": 2 * x.a + x.b}, keep=["c"]))
    return Decoder("half", L, [Layer(None, half)]).instantiate({})


def test_rational_weights_at_integer_scales():
    rng = random.Random(6)
    prompts = [[[rng.randint(-5, 5) for _ in range(3)] for _ in range(2)] for _ in range(20)]
    dec = half_decoder()
    assert_as_generate(dec, prompts, [5] * len(prompts))
    assert native(dec, prompts)[0].sd.fb_den == 2


def test_inexact_feedback_abandons_the_row_with_status_2():
    """Rational weights and tokens: y_1 has denominators the token scale (6) cannot hold."""
    rng = random.Random(7)
    dec = rational_decoder()
    prompts = [[[Fraction(rng.randint(-6, 6), rng.choice([1, 2, 3])) for _ in range(3)] for _ in range(3)]
               for _ in range(25)]
    prompts.append([[0, 0, 0], [0, 0, 0], [0, 0, 0]])
    nd, toks = native(dec, prompts)
    assert nd.sd.s_token == 6 and nd.sd.fb_den > 1
    outs, status = nd.run(toks, np.full(len(prompts), 3))
    assert set(status.tolist()) >= {2}
    for b, p in enumerate(prompts):
        g = generate(dec, p, 3).outputs
        if status[b] == 0:
            assert exact(outs[b], nd.sd.s_out) == g
            continue
        assert status[b] == 2
        # the outputs up to the first that is not a multiple of 1/6 are exact; the rest are 0
        k = next(t for t, y in enumerate(g) if any(Fraction(v) * 6 % 1 for v in y)) + 1
        assert k < 3 and exact(outs[b, :k], nd.sd.s_out) == g[:k] and not outs[b, k:].any()


def test_int64_overflow_abandons_only_that_row_with_status_1():
    dec = huge_decoder()  # a ← 2^40·a·b
    prompts = [[[1, 3, 0], [2, 3, 1]], [[0, 0, 0], [0, 0, 1]], [[1, 2, 0], [1, 5, 0]], [[3, 0, 0], [2, 0, 2]]]
    nd, toks = native(dec, prompts)
    steps = np.array([4, 4, 4, 4])
    outs, status = nd.run(toks, steps)
    assert status.tolist() == [1, 0, 1, 0]
    for b, p in enumerate(prompts):
        g = generate(dec, p, 4).outputs
        if status[b] == 0:
            assert exact(outs[b], 1) == g
        else:
            k = next(t for t, y in enumerate(g) if max(map(abs, y)) > INT64_MAX)  # y_{k+1} leaves int64
            assert k >= 1 and exact(outs[b, :k], 1) == g[:k] and not outs[b, k:].any()


def test_rows_sharing_a_prefix_with_a_row_that_overflowed_in_its_prompt_recompute_it():
    """Row 0 overflows at prompt position 1, so row 1 (same first two tokens) may reuse only position 0."""
    dec = huge_decoder()
    big = 2**30
    prompts = [[[1, 1, 0], [big, big, 0], [1, 1, 0]], [[1, 1, 0], [big, big, 0], [0, 0, 0]],
               [[1, 1, 0], [1, 1, 0], [1, 2, 0]], [[1, 1, 0], [1, 1, 0], [1, 2, 0]], [[1, 1, 0], [1, 1, 0], [0, 1, 0]]]
    nd, toks = native(dec, prompts)
    for order in ([0, 1, 2, 3, 4], [2, 0, 3, 1, 4], [4, 3, 2, 1, 0]):
        outs, status = nd.run(toks[..., order], np.full(5, 1))
        assert status.tolist() == [1 if i < 2 else 0 for i in order]
        assert outs[:, 0, 0].tolist() == [0 if i < 2 else 2**40 * prompts[i][2][0] * prompts[i][2][1] for i in order]
    assert_as_generate(dec, prompts[2:], [1, 1, 2])


def test_plain_fast_path_is_taken_only_where_the_threshold_proves_it():
    """``a ← a·b``: the threshold is ⌊√(2^63 - 1)⌋; at it the product fits, one above it overflows."""
    x = L.vars()
    times = FFN(Map("W_1", L, L, {"a": x.a * x.b}, keep=["b", "c"]), Map("W_2", L, L, keep=["a", "b", "c"]))
    dec = Decoder("times", L, [Layer(None, times)]).instantiate({})
    u = fast_threshold(BatchedDecoder(dec).scaled(1))
    assert u == 3037000499 and u * u <= INT64_MAX < (u + 1) * (u + 1)
    prompts = [[[u, u, 0]], [[-u, -u, 1]], [[u + 1, u, 0]], [[u + 1, u + 1, 0]], [[2, 3, 0]]]
    nd, toks = native(dec, prompts)
    outs, status = nd.run(toks, np.full(5, 2))
    assert status.tolist() == [1, 0, 1, 1, 0]  # rows 0 and 2 overflow at y_2 = y_1·b, row 3 at y_1
    assert outs[0, 0].tolist() == [u * u, u, 0] and outs[2, 0].tolist() == [(u + 1) * u, u, 0]
    assert not outs[[0, 2], 1].any() and not outs[3].any()
    for b in (1, 4):
        assert exact(outs[b], 1) == generate(dec, prompts[b], 2).outputs
    assert outs[1, 0].tolist() == [u * u, 0, 1]  # y_2 has |a| = u² > u: its pass is checked, and fits


def test_checked_only_kernel_agrees_with_the_fast_one():
    rng = random.Random(8)
    cons = DfsConstruction()
    inps = [(random_digraph(6, rng, p=0.4), rng.randrange(6)) for _ in range(30)]
    dec = cons.concrete(inps[0])
    prompts = [cons.prompt(i).tokens for i in inps]
    fast, toks = native(dec, prompts)
    slow, _ = native(dec, prompts, _fast=False)
    assert "push_plain" in fast.source and "push_plain" not in slow.source
    steps = np.array([rng.randint(0, 18) for _ in inps])
    for a, b in zip(fast.run(toks, steps), slow.run(toks, steps)):
        assert np.array_equal(a, b)
    dec = huge_decoder()
    prompts = [[[1, 3, 0], [2, 3, 1]], [[0, 0, 0], [0, 0, 1]], [[1, 2, 0], [1, 5, 0]]]
    fast, toks = native(dec, prompts)
    slow, _ = native(dec, prompts, _fast=False)
    for a, b in zip(fast.run(toks, np.full(3, 4)), slow.run(toks, np.full(3, 4))):
        assert np.array_equal(a, b)


def test_a_kernel_taking_the_last_maximal_index_is_caught():
    """Negative test: the same comparison with ``generate`` detects a wrong argmax."""
    rng = random.Random(9)
    prompts = [[[rng.randint(-2, 2) for _ in range(3)] for _ in range(3)] for _ in range(60)]
    with pytest.raises(AssertionError):
        assert_as_generate(tiny_decoder(), prompts, [4] * len(prompts), _argmax_last=True)
    cons = DfsConstruction()
    inps = [(random_digraph(5, rng, p=0.4), rng.randrange(5)) for _ in range(20)]
    with pytest.raises(AssertionError):
        assert_as_generate(cons.concrete(inps[0]), [cons.prompt(i).tokens for i in inps], [15] * 20, _argmax_last=True)
    assert "WRONG ON PURPOSE" in generate_source(BatchedDecoder(tiny_decoder()).scaled(1), argmax_last=True)


def test_kernels_are_cached_by_the_hash_of_their_source(tmp_path, monkeypatch):
    monkeypatch.setenv("SYMCOT_CACHE", str(tmp_path))
    sd = BatchedDecoder(tiny_decoder()).scaled(1)
    first = NativeDecoder(sd)
    again = NativeDecoder(sd)
    assert first.compile_seconds > 0 and again.compile_seconds == 0.0 and first.library == again.library
    assert first.library.parent == tmp_path and len(first.library.stem) == 64
    assert sorted(p.name for p in tmp_path.iterdir()) == [first.library.name]  # no temporary file left behind


def test_shapes_steps_and_dtypes():
    dec = tiny_decoder()
    prompts = [[[1, 0, 2], [0, 1, 1]], [[2, 2, 0], [1, 0, 0]]]
    nd, toks = native(dec, prompts)
    outs, status = nd.run(toks, np.array([0, 0]))
    assert outs.shape == (2, 0, 3) and status.tolist() == [0, 0]
    outs, status = nd.run(toks[..., :0], np.zeros(0, dtype=np.int64))
    assert outs.shape == (0, 0, 3)
    with pytest.raises(DimensionError):
        nd.run(toks[:, :2], np.array([1, 1]))
    with pytest.raises(DimensionError):
        nd.run(toks, np.array([1, 1, 1]))
    with pytest.raises(TypeError):
        nd.run(toks.astype(object), np.array([1, 1]))
    with pytest.raises(ValueError):
        nd.run(toks, np.array([1, -1]))
    table, index, _ = index_prompts(prompts)
    with pytest.raises(IndexError):
        nd.run_indexed(table, index + 10, np.array([1, 1]))
