"""check_indexed: the kernel compares every y_t with expected values and reports the first step that differs."""

import random

import numpy as np
import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from symcot.errors import DimensionError
from symcot.inputs import random_labeled_tree
from symcot.model import generate
from symcot.replay.batched import BatchedDecoder
from symcot.replay.native import NativeDecoder, StopSpec, Term, check_indexed, index_prompts, native_available
from tests.fixtures.decoders import huge_decoder, rational_decoder, tiny_decoder

pytestmark = pytest.mark.skipif(not native_available(),
                                reason="no working C compiler: the native kernel is unavailable")


def _kernel(dec, prompts, **kw):
    table, index, scale = index_prompts(prompts)
    return NativeDecoder(BatchedDecoder(dec).scaled(scale), **kw), table, index


def _expected(dec, prompts, steps):
    """``(B, S, d)``: y_0 (the prompt's last token) then generate's outputs, exact integers; S = max steps + 1."""
    s = max(steps) + 1
    out = np.zeros((len(prompts), s, dec.layout.dim), dtype=np.int64)
    for b, (p, k) in enumerate(zip(prompts, steps)):
        rows = [p[-1], *generate(dec, p, k).outputs]
        out[b, : len(rows)] = np.array(rows, dtype=np.int64)
    return out


def _tiny_case(seed=5, count=40):
    rng = random.Random(seed)
    prompts = [[[rng.randint(-2, 2) for _ in range(3)] for _ in range(3)] for _ in range(count)]
    steps = [rng.randint(0, 4) for _ in prompts]
    return tiny_decoder(), prompts, steps


def test_runs_equal_to_generate_pass_with_their_last_token_and_trace():
    dec, prompts, steps = _tiny_case()
    kernel, table, index = _kernel(dec, prompts)
    want = _expected(dec, prompts, steps)
    res = check_indexed(kernel, table, index, steps, [Term(0, 3, "int64", want)], want.shape[1], trace_cols=[2, 0])
    assert res.bad.tolist() == [-1] * len(prompts) and not res.status.any()
    for b, (p, k) in enumerate(zip(prompts, steps)):
        outs = generate(dec, p, k).outputs
        if k:
            assert res.final[b].tolist() == outs[-1]
        assert res.trace[b, :k].tolist() == [[y[2], y[0]] for y in outs]


def test_the_first_step_that_differs_is_reported_per_row():
    dec, prompts, steps = _tiny_case(seed=8)
    kernel, table, index = _kernel(dec, prompts)
    want = _expected(dec, prompts, steps)
    rng = random.Random(1)
    wrong = {}
    for b in range(0, len(prompts), 3):
        t = rng.randint(0, steps[b])
        want[b, t, rng.randrange(3)] += 1
        wrong[b] = t
    res = check_indexed(kernel, table, index, steps, [Term(0, 3, "int64", want)], want.shape[1])
    assert res.bad.tolist() == [wrong.get(b, -1) for b in range(len(prompts))]
    # a coordinate outside the compared block is not compared
    res2 = check_indexed(kernel, table, index, steps, [Term(0, 2, "int64", want[..., :2])], want.shape[1])
    assert all(res2.bad[b] in (-1, wrong[b]) for b in wrong)


def test_a_block_not_present_at_a_step_is_not_compared_there():
    dec, prompts, steps = _tiny_case(seed=9)
    kernel, table, index = _kernel(dec, prompts)
    want = _expected(dec, prompts, steps)
    want[:, 1] += 7  # every y_1 is wrong ...
    present = np.ones(want.shape[:2], dtype=bool)
    present[:, 1] = False  # ... where nothing is compared
    res = check_indexed(kernel, table, index, steps, [Term(0, 3, "int64", want, present)], want.shape[1])
    assert res.bad.tolist() == [-1] * len(prompts)
    res = check_indexed(kernel, table, index, steps, [Term(0, 3, "int64", want)], want.shape[1])
    assert res.bad.tolist() == [1 if k >= 1 else -1 for k in steps]


def _dfs_case():
    rng = random.Random(3)
    cons = DfsConstruction()
    inps = [(random_labeled_tree(6, rng), rng.randrange(6)) for _ in range(30)]
    prompts = [cons.prompt(i).tokens for i in inps]
    dec = cons.concrete(inps[0])
    steps = [2 * 6 - 1] * len(inps)
    return dec, prompts, steps


def test_index_int8_and_constant_forms_and_the_stop_rule():
    dec, prompts, steps = _dfs_case()
    lay = dec.layout
    kernel, table, index = _kernel(dec, prompts)
    full = _expected(dec, prompts, steps)
    cur = full[..., lay.slice("cur")]
    idx = np.where(cur.any(axis=2), cur.argmax(axis=2), -1)
    vis = full[..., lay.slice("vis")].astype(np.int8)
    col = lay.offsets
    terms = [Term(col["cur"], 6, "index", idx), Term(col["vis"], 6, "int8", vis),
             Term(col["flg2"], 1, "const", value=-1, present=np.arange(full.shape[1])[None, :].repeat(30, 0) == 0)]
    stop = StopSpec(col["cur"], 6, 0)
    res = check_indexed(kernel, table, index, steps, terms, full.shape[1], stop)
    assert res.bad.tolist() == [-1] * 30
    # the stop rule fires at step 11: a row told to stop at step 10 fails there (it does not fire yet)
    longer = np.concatenate([full, full[:, -1:]], axis=1)
    idx2 = np.concatenate([idx, idx[:, -1:]], axis=1)
    vis2 = np.concatenate([vis, vis[:, -1:]], axis=1)
    terms2 = [Term(col["cur"], 6, "index", idx2), Term(col["vis"], 6, "int8", vis2)]
    res = check_indexed(kernel, table, index, [11, 10] + steps[2:], terms2, longer.shape[1], stop)
    assert res.bad[0] == -1 and res.bad[1] == 10  # row 1 must stop at 10, but only stops at 11
    res = check_indexed(kernel, table, index, [11, 10] + steps[2:], terms2, longer.shape[1])
    assert res.bad[1] == -1  # without the stop rule, ten correct steps pass
    # a wrong constant and a wrong one-hot are found at their step
    bad_idx = idx.copy()
    bad_idx[4, 3] = (bad_idx[4, 3] + 1) % 6
    res = check_indexed(kernel, table, index, steps, [Term(col["cur"], 6, "index", bad_idx)], full.shape[1])
    assert res.bad[4] == 3 and (np.delete(res.bad, 4) == -1).all()
    res = check_indexed(kernel, table, index, steps, [Term(col["flg2"], 1, "const", value=-1)], full.shape[1])
    assert (res.bad == 1).all()  # flg2 is -1 in y_0 only


def test_an_expected_value_beyond_int64_at_the_output_scale_is_status_3():
    dec = rational_decoder()
    rng = random.Random(2)
    prompts = [[[rng.randint(-3, 3) for _ in range(3)] for _ in range(3)] for _ in range(6)]
    kernel, table, index = _kernel(dec, prompts)
    assert kernel.sd.s_out > 1
    want = np.zeros((6, 2, 3), dtype=np.int64)
    want[:, 0] = table[index[:, -1]]
    want[2, 1, 0] = 2**62
    res = check_indexed(kernel, table, index, [1] * 6, [Term(0, 3, "int64", want)], 2)
    assert res.status[2] == 3 and res.bad[2] == -1


def test_overflowing_rows_are_status_1_and_undecided():
    dec = huge_decoder()  # a ← 2^40·a·b
    prompts = [[[1, 3, 0], [2, 3, 1]], [[0, 0, 0], [0, 0, 1]], [[1, 2, 0], [1, 5, 0]], [[3, 0, 0], [2, 0, 2]]]
    kernel, table, index = _kernel(dec, prompts)
    want = np.zeros((4, 5, 3), dtype=np.int64)
    for b, p in enumerate(prompts):
        want[b, 0] = p[-1]
    res = check_indexed(kernel, table, index, [4] * 4, [Term(0, 3, "int64", want, np.arange(5)[None, :] == 0)], 5)
    assert res.status.tolist() == [1, 0, 1, 0] and res.bad.tolist() == [-1] * 4


def test_a_kernel_taking_the_last_maximal_index_is_caught():
    dec, prompts, steps = _tiny_case(seed=11, count=80)
    good, table, index = _kernel(dec, prompts)
    wrong, _, _ = _kernel(dec, prompts, _argmax_last=True)
    want = _expected(dec, prompts, steps)
    terms = [Term(0, 3, "int64", want)]
    assert (check_indexed(good, table, index, steps, terms, want.shape[1]).bad == -1).all()
    assert (check_indexed(wrong, table, index, steps, terms, want.shape[1]).bad >= 1).any()


def test_shapes_are_checked():
    dec, prompts, steps = _tiny_case(count=4)
    kernel, table, index = _kernel(dec, prompts)
    want = _expected(dec, prompts, steps)
    with pytest.raises(DimensionError):
        check_indexed(kernel, table, index, steps, [Term(0, 3, "int64", want[:, :, :2])], want.shape[1])
    with pytest.raises(DimensionError):
        check_indexed(kernel, table, index, steps, [Term(0, 3, "int64", want)], max(steps))
    with pytest.raises(IndexError):
        check_indexed(kernel, table, index + len(table), steps, [], want.shape[1])
    with pytest.raises(ValueError):
        check_indexed(kernel, table, index, steps, [Term(0, 3, "float", want)], want.shape[1])
