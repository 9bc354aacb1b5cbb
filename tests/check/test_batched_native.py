"""BatchedDecoder.run with the compiled kernel: the same rows, steps, stops and outputs as the numpy engine.

Rows the kernel abandons (an int64 overflow) are rerun on the numpy engine and stay exact; the certificate
says so. Skipped where no C compiler works (then the numpy engine runs everywhere).
"""

import random

import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import STOP, DfsConstruction
from symcot.check.batched_check import run_batched_check
from symcot.inputs import random_digraph, rooted_labeled_trees
from symcot.model import generate
from symcot.replay.batched import BatchedDecoder
from symcot.replay.native import native_available
from tests.fixtures.decoders import huge_decoder

pytestmark = pytest.mark.skipif(not native_available(), reason="no working C compiler: native replay unavailable")


def _dfs(n, k, seed):
    rng = random.Random(seed)
    cons = DfsConstruction()
    inps = [(random_digraph(n, rng, p=0.4), rng.randrange(n)) for _ in range(k)]
    dec = cons.concrete(inps[0])
    return dec, [cons.prompt(i).tokens for i in inps]


def test_native_and_numpy_runs_agree_on_steps_stops_and_outputs():
    dec, prompts = _dfs(6, 40, 1)
    eng = BatchedDecoder(dec)
    steps = [random.Random(b).randrange(0, 14) for b in range(len(prompts))]
    seen: dict[str, list] = {"native": [], "numpy": []}

    def runner(native):
        def on_step(view):  # end every row whose cur block is vertex 2 (an arbitrary caller rule)
            seen["numpy" if native is False else "native"].append((view.t, view.rows.tolist()))
            return view.block("cur")[2] != 0

        return eng.run(prompts, steps, stop_batched=STOP.fires_batched, on_step=on_step,
                       keep_outputs=True, native=native)

    a, b = runner(None), runner(False)
    assert a.certificate.mode == "native-checked" and b.certificate.mode != "native-checked"
    assert a.steps.tolist() == b.steps.tolist() and a.stopped.tolist() == b.stopped.tolist()
    assert [list(o) for o in a.outputs] == [list(o) for o in b.outputs]
    assert seen["native"] == seen["numpy"]  # the callback saw the same rows at the same steps
    # and both are exact replay
    for p, s, out in zip(prompts, steps, a.outputs):
        g = generate(dec, p, s, stop=lambda y: STOP.fires(dec.layout, y),
                     on_step=lambda t, y, r: dec.layout.pi("cur", y)[2] == 0)
        assert list(out) == g.outputs


def test_rows_the_kernel_abandons_are_rerun_exactly_on_the_numpy_engine():
    dec = huge_decoder()  # a ← 2^40·a·b overflows int64 within a few steps
    prompts = [[[1, 3, 0], [2, 3, 1]], [[1, 2, 0], [1, 5, 0]], [[0, 1, 0], [0, 1, 2]]]
    run = BatchedDecoder(dec).run(prompts, 4, keep_outputs=True)
    assert [list(o) for o in run.outputs] == [generate(dec, p, 4).outputs for p in prompts]
    cert = run.certificate
    assert cert.mode == "native-checked" and cert.path == "object"
    assert cert.promotions and cert.promotions[0]["rows"] == 2 and "overflow" in cert.promotions[0]["reason"]


def test_native_can_be_required_or_refused():
    dec, prompts = _dfs(4, 3, 2)
    eng = BatchedDecoder(dec)
    assert eng.run(prompts, 3, native=True).certificate.mode == "native-checked"
    with pytest.raises(ValueError, match="native replay is not available"):
        eng.run(prompts, 3, native=True, record_heads=True)
    assert eng.run(prompts, 3, record_heads=True).head_index is not None  # heads: the numpy engine


def test_switched_off_by_environment(monkeypatch):
    monkeypatch.setenv("SYMCOT_NATIVE", "0")
    dec, prompts = _dfs(4, 3, 3)
    assert BatchedDecoder(dec).run(prompts, 3).certificate.mode != "native-checked"


def test_the_batched_checker_gives_the_same_row_with_and_without_the_kernel(dfs_proofs):
    def strip(v):
        d = v.as_dict()
        return {k: x for k, x in d.items() if k not in ("seconds", "details")}

    fams = [dfs_proofs.TREES, dfs_proofs.ORDERED]
    rows = [run_batched_check("thm:cotdfs:tree", DfsConstruction(), dfs_proofs.TREE_SPEC, fams, 5,
                              dfs_proofs.PAPER_SIZES, batch=300, native=native) for native in (None, False)]
    assert strip(rows[0]) == strip(rows[1]) and rows[0].verdict == "verified"
    assert rows[0].details["certificate"]["mode"] == "native-checked"
    assert rows[0].inputs_checked == sum(k ** (k - 1) for k in range(1, 6)) + 1 + 1 + 2 + 5 + 14
    assert len(list(rooted_labeled_trees(3))) == 9


def test_a_kernel_that_cannot_be_built_leaves_the_numpy_engine(monkeypatch):
    import symcot.replay.native as native

    def broken(*a, **k):
        raise native.NativeError("cc failed (simulated)")

    monkeypatch.setattr(native, "NativeDecoder", broken)
    dec, prompts = _dfs(4, 3, 5)
    run = BatchedDecoder(dec).run(prompts, 3, keep_outputs=True)
    assert run.certificate.mode != "native-checked"
    assert [list(o) for o in run.outputs] == [generate(dec, p, 3).outputs for p in prompts]
