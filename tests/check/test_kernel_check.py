"""Batches checked in the kernel: the same verdicts, counterexamples and counts as exact replay, input by input.

Also: every batch statement (prompts, encoding tables, conclusions) equals its per-input statement on every input
up to 9 vertices, and a batch path that goes wrong is caught (spot checks, exact re-checks), never a verdict.
"""

import dataclasses
import importlib

import numpy as np
import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.constructions.cotdfs_phi import DfsPhiConstruction
from symcot.check.batched_check import BatchedChecker, run_batched_check
from symcot.check.exhaustive import run_construction_check
from symcot.check.kernel_check import EngineDisagreement
from symcot.check.spec import BatchRunView, RunView, as_rows
from symcot.check.stepwise import check_input
from symcot.constructions.encoding import batch_field_arrays
from symcot.constructions.mutant import Mutant
from symcot.inputs.batch import DigraphColumns, tree_batch, word_batch
from symcot.model import generate
from symcot.replay.native import native_available
from tests.fixtures.reach import one_per_claim, reach_checks

pytestmark = pytest.mark.skipif(not native_available(), reason="no working C compiler: no kernel to check in")

CHECKS = reach_checks()
IDS = [f"{cid}/{cons.variant}" for cid, cons, _, _ in CHECKS]
ONE = one_per_claim()
ONE_IDS = [cid for cid, _, _, _ in ONE]
#: One variant per claim, and every variant whose prompt tokens differ (Dijkstra's readings of A).
PROMPTS = ONE + [c for c in CHECKS if c[0] == "thm:cotdijkstra" and c not in ONE]
PROMPT_IDS = [f"{cid}/{cons.variant}" for cid, cons, _, _ in PROMPTS]


def _batch(kind, size, start=0, stop=10**9):
    return (tree_batch if kind == "tree" else word_batch)(size, start, stop)


def _first_exact_failure(cons, spec, batch):
    for i in range(batch.count):
        mm = check_input(cons, spec, batch.item(i))
        if mm is not None:
            return i, mm.as_dict()
    return None


@pytest.mark.parametrize(("cid", "cons", "spec", "kind"), CHECKS, ids=IDS)
def test_verdicts_counterexamples_and_counts_equal_exact_replay(cid, cons, spec, kind):
    checker = BatchedChecker(cons, spec)
    for size in range(1, 7):
        batch = _batch(kind, size)
        if batch.count == 0 or (kind == "word" and size == 1 and cid != "thm:cotpathtotree"):
            continue
        got = checker.check_batch(batch)
        want = _first_exact_failure(cons, spec, batch)
        if want is None:
            assert got.failure is None and got.checked == batch.count, size
            continue
        assert got.checked == want[0] + 1 and got.failure[0] == want[0] and got.failure[2] == want[1], size
        return  # refuted at its smallest input, as the exact checker
    assert checker.certificates and all(c.mode == "native-checked" for c in checker.certificates)


@pytest.mark.parametrize(("cid", "cons", "spec", "kind"), PROMPTS, ids=PROMPT_IDS)
def test_batch_prompts_equal_the_prompts_on_every_input_up_to_9_vertices(cid, cons, spec, kind):
    for size in range(2, 10):
        batch = _batch(kind, size)
        first = batch.item(0)
        bp = cons.prompt_batch(batch, cons.concrete(first).layout, cons.lam_value(first))
        for r in range(batch.count):
            prompt = cons.prompt(batch.item(r))
            assert [bp.tokens[j] for j in bp.index[r].tolist()] == prompt.tokens, (size, r)
        assert bp.labels == prompt.labels


def _tables_agree(cons, spec, kind, sizes):
    """The encoding read on the batch reference's fields equals its table of every input's reference run."""
    for size in sizes:
        batch = _batch(kind, size)
        first = batch.item(0)
        block_sizes, lam = cons.concrete(first).layout.sizes, cons.lam_value(first)
        fields = spec.reference_batch(batch)
        arrays, bad = batch_field_arrays(fields, cons.encoding, block_sizes)
        blocks = cons.encoding.evaluate(arrays, fields.steps, block_sizes, lam)
        assert not bad.any() and not any(bv.unrepresentable.any() for bv in blocks.values())
        dense = {b: bv.dense() for b, bv in blocks.items()}
        for r in range(batch.count):
            inp = batch.item(r)
            states = spec.reference(inp)
            table = cons.expected_table(inp, states)
            assert set(table) == set(blocks), size
            for b, want in table.items():
                t = len(states)
                if isinstance(want, tuple):
                    assert np.array_equal(blocks[b].present[r, :t], want[1]), (size, r, b)
                    want = np.where(want[1][:, None], want[0], 0)
                    got = np.where(blocks[b].present[r, :t, None], dense[b][r, :t], 0)
                else:
                    got = dense[b][r, :t]
                assert np.array_equal(got, want), (size, r, b)


@pytest.mark.parametrize(("cid", "cons", "spec", "kind"), ONE, ids=ONE_IDS)
def test_batch_tables_equal_the_tables_on_every_input_up_to_8_vertices(cid, cons, spec, kind):
    _tables_agree(cons, spec, kind, range(2, 9))


@pytest.mark.slow
@pytest.mark.parametrize(("cid", "cons", "spec", "kind"), ONE, ids=ONE_IDS)
def test_batch_tables_equal_the_tables_on_every_input_of_9_vertices(cid, cons, spec, kind):
    _tables_agree(cons, spec, kind, [9])


def _row(v, r):
    if isinstance(v, tuple):
        return [_row(x, r) for x in v]
    return np.asarray(v)[r].tolist()


def _plain(v):
    """One input's read or answer as plain data comparable with a batch row."""
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return np.asarray(v).tolist()


@pytest.mark.parametrize(("cid", "cons", "spec", "kind"), ONE, ids=ONE_IDS)
def test_each_conclusion_read_once_gives_every_rows_value_on_a_batch(cid, cons, spec, kind):
    """The one read and answer on a batch (its runs, its stand-in) equal them row by row.

    Answers on every input up to 9 vertices (where the answer reads the stand-in); reads on every exact run up to 6.
    """
    for c in spec.conclusions:
        for size in range(2, 10):
            batch = _batch(kind, size)
            if c.steps is not None:
                assert (np.broadcast_to(c.steps(batch.stand_in), batch.count)
                        == [c.steps(batch.item(r)) for r in range(batch.count)]).all()
            if c.read is None:
                continue
            answers = as_rows(c.answer(batch.stand_in), batch.count)  # every theorem's answer reads the stand-in
            assert [_row(answers, r) for r in range(batch.count)] == \
                [_plain(c.answer(batch.item(r))) for r in range(batch.count)], size
            if size > 6:
                continue
            layout = cons.concrete(batch.item(0)).layout
            runs = [(batch.item(r), cons.prompt(batch.item(r)).tokens) for r in range(batch.count)]
            outs = [generate(cons.concrete(inp), p, len(spec.reference(inp)) - 1).outputs for inp, p in runs]
            steps = np.array([len(o) for o in outs])
            final = np.array([o[-1] if o else p[-1] for o, (_, p) in zip(outs, runs)], dtype=np.int64)
            y0 = np.array([p[-1] for _, p in runs], dtype=np.int64)
            cols = [j for b in c.trace for j in range(layout.offsets[b], layout.offsets[b] + layout.sizes[b])]
            trace = np.array([[[y[j] for j in cols] for y in o] for o in outs], dtype=np.int64)
            trace = trace.reshape(len(outs), int(steps.max()), len(cols))
            got = as_rows(c.read(BatchRunView(final, y0, trace, c.trace, steps, layout), batch.stand_in), batch.count)
            for r, (inp, p) in enumerate(runs):
                assert _row(got, r) == _plain(c.read(RunView(outs[r], p[-1], layout), inp)), (size, r)


def _strip(v):
    d = v.as_dict()
    d.pop("seconds")
    d.pop("details")
    return d


def test_rows_of_the_reach_families_equal_the_exact_rows(claims):
    """Whole checks: the batched rows (in-process and sharded) are the exact rows, verified and refuted."""
    from symcot.check import shard

    phi = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs_phi")
    ps = importlib.import_module("proofs.cot_path_to_tree.thm_cotpathstrahler")

    cases = [(phi.ORDERED, DfsPhiConstruction(), phi.SPEC, 5),
             (phi.ORDERED, Mutant(DfsPhiConstruction(), 2, "W_2", ("q", 0), [("flg1", 0)], 1), phi.SPEC, 5)]
    cases += [(ps.NONEMPTY_DYCK_WORDS, chk.make() if hasattr(chk, "make") else chk.construction(), ps.SPEC, 6)
              for chk in claims["thm:cotpathstrahler"].checks if not getattr(chk, "symbolic", False)]
    for fam, cons, spec, size in cases:
        exact = run_construction_check("c", cons, spec, [fam], size)
        assert _strip(run_batched_check("c", cons, spec, [fam], size, batch=50)) == _strip(exact)
        old = shard.SHARD_THRESHOLD, shard.MIN_SHARD, shard.MAX_SHARD
        shard.SHARD_THRESHOLD, shard.MIN_SHARD, shard.MAX_SHARD = 2, 2, 3  # shards of 2 or 3 inputs from n = 3 on
        try:
            sharded = run_batched_check("c", cons, spec, [fam], size, jobs=2, batch=2)
        finally:
            shard.SHARD_THRESHOLD, shard.MIN_SHARD, shard.MAX_SHARD = old
        assert _strip(sharded) == _strip(exact)
        if exact.counterexample is None or exact.counterexample["size"] >= 3:
            assert sharded.details["shards"]["shards"] >= 1


def test_a_conclusion_alone_refutes_in_batch_as_in_exact_replay(claims):
    """Negative: q never -1 and q left out of enc: only the φ conclusion sees it, read on the batch too."""
    phi = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs_phi")
    from proofs.cot_path_to_tree.constructions.cotdfs import ENCODING as DFS_ENCODING

    class Lenient(DfsPhiConstruction):
        encoding = DFS_ENCODING

    m = Mutant(Lenient(), 2, "W_2", ("q", 0), (), 1)
    exact = run_construction_check("c", m, phi.SPEC, [phi.ORDERED], 4)
    batched = run_batched_check("c", m, phi.SPEC, [phi.ORDERED], 4)
    assert exact.verdict == "refuted" and exact.counterexample["kind"] == "steps"
    assert _strip(batched) == _strip(exact)


def _spec_with(spec, **kw):
    # a batch reference other than the claim's: the per-input reference as a plain function beside it
    if "reference_batch" in kw:
        kw.setdefault("reference", lambda inp: spec.reference(inp))
    return dataclasses.replace(spec, **kw)


def _corrupt(row):
    """A batch reference of the DFS claims that moves row ``row``'s vertex at step 1 (a deliberate bug)."""
    dfs = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")

    def ref(batch):
        fields = dfs.SPEC.reference_batch(batch)
        fields.values["cur"][row, 1] = (fields.values["cur"][row, 1] + 1) % batch.size
        return fields
    return ref


def test_a_wrong_batch_reference_is_caught_by_the_spot_check(dfs_proofs):
    spec = _spec_with(dfs_proofs.TREE_SPEC, reference_batch=_corrupt(0))
    with pytest.raises(EngineDisagreement, match="batch reference"):
        BatchedChecker(DfsConstruction(), spec).check_batch(tree_batch(6, 0, 40))
    row = run_batched_check("c", DfsConstruction(), spec, [dfs_proofs.ORDERED], 6)
    assert row.verdict == "error" and "batch reference" in row.notes[-1]


def test_a_wrong_batch_reference_off_the_spot_rows_is_an_engine_disagreement(dfs_proofs):
    spec = _spec_with(dfs_proofs.TREE_SPEC, reference_batch=_corrupt(1))
    with pytest.raises(EngineDisagreement, match="exact replay accepts it"):
        BatchedChecker(DfsConstruction(), spec).check_batch(tree_batch(6, 0, 40))


def test_an_answer_on_the_stand_in_that_is_not_every_rows_is_an_engine_disagreement(dfs_proofs):
    """A deliberately wrong vectorized answer (every row's e_root rolled) whose per-input answer is right."""
    c = dfs_proofs.TREE_SPEC.conclusions[1]

    def answer(inp):
        right = c.answer(inp)
        if isinstance(inp[0], DigraphColumns):
            return tuple(np.roll(np.tile(x, (len(inp[0].parents), 1)), 1, axis=1) for x in right)  # not every row's
        return right

    wrong = dataclasses.replace(c, answer=answer)
    spec = _spec_with(dfs_proofs.TREE_SPEC, conclusions=(dfs_proofs.TREE_SPEC.conclusions[0], wrong))
    with pytest.raises(EngineDisagreement, match="stand-in"):
        BatchedChecker(DfsConstruction(), spec).check_batch(tree_batch(5, 0, 14))
    assert check_input(DfsConstruction(), spec, tree_batch(5, 0, 14).item(3)) is None


def test_a_read_the_batch_cannot_make_is_decided_by_exact_replay_with_the_same_verdict(dfs_proofs):
    """A read at a token the runs do not have: every row goes to exact replay, which refutes the first."""
    c = dfs_proofs.TREE_SPEC.conclusions[1]
    late = dataclasses.replace(c, read=lambda run, inp: run.block("cur", 2 * inp[0].n))
    spec = _spec_with(dfs_proofs.TREE_SPEC, conclusions=(late,))
    out = BatchedChecker(DfsConstruction(), spec).check_batch(tree_batch(4, 0, 10**9))
    assert out.failure is not None and out.failure[0] == 0 and out.exact_rows == 1
    assert out.failure[2] == check_input(DfsConstruction(), spec, tree_batch(4, 0, 1).item(0)).as_dict()
    assert out.reasons == {"a conclusion not read in batch": 5}


def test_without_batch_forms_the_batch_is_checked_input_by_input(dfs_proofs):
    spec = _spec_with(dfs_proofs.TREE_SPEC, reference_batch=None)
    checker = BatchedChecker(DfsConstruction(), spec)
    out = checker.check_batch(tree_batch(6, 0, 10**9))
    assert out.failure is None and out.checked == 42
    assert all(c.mode != "native-checked" or not c.promotions for c in checker.certificates)


def test_rows_the_kernel_cannot_hold_are_decided_by_exact_replay():
    """λ = 2^62 puts the Dijkstra decoder's sums beyond int64: those rows go to exact replay, same verdicts."""
    dk = importlib.import_module("proofs.cot_path_to_tree.thm_cotdijkstra")
    from proofs.cot_path_to_tree.constructions.cotdijkstra import DijkstraConstruction

    cons = DijkstraConstruction("repaired").with_lambda(2**62)
    checker = BatchedChecker(cons, dk.SPEC)
    for size in range(2, 5):
        batch = tree_batch(size, 0, 10**9)
        out = checker.check_batch(batch)
        assert (out.failure is None) == (_first_exact_failure(cons, dk.SPEC, batch) is None)
    assert checker.exact_fallbacks > 0
    assert any(p["to"] == "exact replay" for c in checker.certificates for p in c.promotions)


@pytest.mark.slow
@pytest.mark.parametrize(("cid", "cons", "spec", "kind"), CHECKS, ids=IDS)
def test_verdicts_equal_exact_replay_up_to_9_vertices(cid, cons, spec, kind):
    checker = BatchedChecker(cons, spec)
    for size in range(7, 10):
        batch = _batch(kind, size)
        got = checker.check_batch(batch)
        want = _first_exact_failure(cons, spec, batch)
        if want is None:
            assert got.failure is None and got.checked == batch.count
        else:
            assert got.failure[0] == want[0] and got.failure[2] == want[1]


def _per_input(what):
    def refuse(*args, **kwargs):
        raise AssertionError(f"the batched check called the per-input {what}")
    return refuse


def test_a_reach_family_is_checked_from_the_batch_readings_alone(monkeypatch):
    """No per-input reference, prompt, expected table or input object on the batched path of a passing family.

    The spot check (the few rows prepared per input on purpose) is switched off; everything else must come from
    the batch readings of the one statement. Only row 0 is made an input object (the decoder's sizes and λ).
    """
    from symcot.algorithms.reference import Reference
    from symcot.check import kernel_check
    from symcot.constructions.base import Construction
    from symcot.inputs.batch import TreeBatch, WordBatch

    passing = []
    for cid, cons, spec, kind in CHECKS:  # the variants whose families up to 7 vertices pass, found beforehand
        checker = BatchedChecker(cons, spec)
        if all(checker.check_batch(_batch(kind, size)).failure is None for size in range(2, 8)):
            passing.append((cid, cons, spec, kind))
    assert {cid for cid, *_ in passing} >= {cid for cid, *_ in ONE}  # every claim has a variant that passes
    items = []
    for cls in (TreeBatch, WordBatch):
        item = cls.item

        def counted(self, i, item=item):
            items.append(i)
            return item(self, i)
        monkeypatch.setattr(cls, "item", counted)
    monkeypatch.setattr(Reference, "__call__", _per_input("reference"))
    monkeypatch.setattr(Reference, "run", _per_input("reference run"))
    monkeypatch.setattr(Construction, "prompt", _per_input("prompt"))
    monkeypatch.setattr(Construction, "expected", _per_input("expected values"))
    monkeypatch.setattr(Construction, "expected_table", _per_input("expected table"))
    monkeypatch.setattr(kernel_check, "_spot_rows", lambda count: [])
    for cid, cons, spec, kind in passing:
        checker = BatchedChecker(cons, spec)
        for size in range(2, 8):
            batch = _batch(kind, size)
            dec = checker._concrete(batch.item(0))
            kernel = checker.engine(dec).native_kernel(1, "-O0")
            items.clear()
            out = kernel_check.check_input_batch(cons, spec, batch, dec, kernel)
            assert out.failure is None and out.checked == batch.count and out.exact_rows == 0, (cid, size)
            assert set(items) <= {0} and len(items) <= 2, (cid, cons.variant, size, items)

