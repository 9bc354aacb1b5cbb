"""Batched exact replay agrees with symcot.model.semantics bit for bit, and the batched checker with the exact one."""

import random
from fractions import Fraction

import numpy as np
import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import STOP, DfsConstruction
from symcot.check.batched_check import BatchedChecker, run_batched_check
from symcot.check.exhaustive import Family, run_construction_check
from symcot.constructions.encoding import StopRule
from symcot.constructions.mutant import Mutant
from symcot.inputs import random_digraph, random_labeled_tree
from symcot.ir import Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, generate, value_space
from symcot.replay.batched import BatchedDecoder, generate_batch
from symcot.replay.batched import run as batched_run
from symcot.replay.batched.state import RunState
from tests.fixtures.decoders import ALL, K1, L, rational_decoder, tiny_decoder

PATHS = ("auto", "float32", "float64", "int64", "object")


def same_as_semantics(dec, prompts, steps, stop=None, path="auto"):
    """Every output, the stop flag, and every head's choice and score at every position, as generate()."""
    br = generate_batch(dec, prompts, steps, stop=stop, path=path)
    for b, p in enumerate(prompts):
        g = generate(dec, p, steps if isinstance(steps, int) else steps[b], stop=stop)
        assert br.outputs[b] == g.outputs, (b, path)
        assert bool(br.stopped[b]) == g.stopped and int(br.steps[b]) == len(g.outputs)
        for pos, recs in enumerate(g.prompt_records + g.records):
            heads = [h for lr in recs for h in lr.heads]
            assert list(br.head_index[b, pos]) == [h.index for h in heads], (b, pos, path)
            assert list(br.head_score[b, pos]) == [h.score for h in heads], (b, pos, path)
    return br


def dfs_batch(rng, n, k, trees=False):
    cons = DfsConstruction()
    if trees:
        inps = [(random_labeled_tree(n, rng), rng.randrange(n)) for _ in range(k)]
    else:
        inps = [(random_digraph(n, rng, p=rng.choice([0.15, 0.4, 0.8])), rng.randrange(n)) for _ in range(k)]
    dec = cons.concrete(inps[0])
    return dec, [cons.prompt(i).tokens for i in inps]


@pytest.mark.parametrize("path", PATHS)
def test_dfs_agrees_with_semantics_on_random_inputs_including_head_choices(path):
    rng = random.Random(7)
    for n in (1, 2, 3, 4, 6, 9):
        dec, prompts = dfs_batch(rng, n, 24, trees=n % 3 == 0)
        br = same_as_semantics(dec, prompts, 3 * n, stop=lambda y, d=dec: STOP.fires(d.layout, y), path=path)
        if path == "auto":
            assert br.certificate.path in ("float32", "float64")  # DFS values are tiny: a float path is certified


def test_rows_sharing_a_prompt_prefix_compute_it_once():
    """Every source of a few graphs: the positions before y_0 are computed once per graph and copied."""
    rng = random.Random(13)
    cons = DfsConstruction()
    graphs = [random_digraph(5, rng, p=0.4) for _ in range(4)]
    inps = [(g, s) for g in graphs for s in range(5)]
    dec = cons.concrete(inps[0])
    br = same_as_semantics(dec, [cons.prompt(i).tokens for i in inps], 12,
                           stop=lambda y: STOP.fires(dec.layout, y))
    assert br.prefix_classes == 4


def test_rows_with_fewer_steps_retire_and_the_rest_run_on():
    rng = random.Random(11)
    dec, prompts = dfs_batch(rng, 5, 30)
    steps = [rng.randint(0, 9) for _ in prompts]
    same_as_semantics(dec, prompts, steps)


@pytest.mark.parametrize("path", PATHS)
def test_hand_made_decoder_with_ties_biases_and_relu(path):
    rng = random.Random(3)
    prompts = [[[rng.randint(-2, 2) for _ in range(3)] for _ in range(3)] for _ in range(40)]
    same_as_semantics(tiny_decoder(), prompts, 4, path=path)


class LastArgmaxState(RunState):
    """Wrong on purpose: the *largest* index among the maximal scores."""

    def first_argmax(self, k, h, head, scores):
        j0 = scores.shape[0] - 1 - scores[::-1].argmax(axis=0)
        self._sel.append((j0, scores[j0, self._cols], head.s_k * head.s_q))
        return j0


@pytest.mark.parametrize("path", PATHS)
def test_a_state_taking_the_last_maximal_index_is_caught(path, monkeypatch):
    """Negative test: the comparison with ``generate`` detects a wrong argmax in the batched engine's algebra."""
    rng = random.Random(3)
    prompts = [[[rng.randint(-2, 2) for _ in range(3)] for _ in range(3)] for _ in range(40)]
    monkeypatch.setattr(batched_run, "RunState", LastArgmaxState)
    with pytest.raises(AssertionError):
        same_as_semantics(tiny_decoder(), prompts, 4, path=path)


@pytest.mark.parametrize("path", PATHS)
def test_rational_weights_and_tokens_are_exact(path):
    rng = random.Random(5)
    prompts = [[[Fraction(rng.randint(-6, 6), rng.choice([1, 2, 3])) for _ in range(3)] for _ in range(3)]
               for _ in range(25)]
    br = same_as_semantics(rational_decoder(), prompts, 3, path=path)
    assert br.certificate.scales["token"] == 6  # lcm of the prompt denominators
    if path != "object":
        # y_1 has denominators the token scale cannot hold: the run moved to the exact path, exactly
        assert any(p["to"] == "object" for p in br.certificate.promotions)


def test_scaled_integer_path_without_promotion():
    """W_1 halves, W_2 doubles: the integer-scaled path carries scale 2 through the layer and feeds back exactly."""
    x = L.vars()
    half = FFN(Map("W_1", L, L, {"a": Fraction(1, 2) * x.a + Fraction(1, 2)}, keep=["b", "c"]),
               Map("W_2", L, L, {"a": 2 * x.a - 1, "b": 2 * x.a + x.b}, keep=["c"]))
    dec = Decoder("half", L, [Layer(None, half)]).instantiate({})
    rng = random.Random(2)
    prompts = [[[rng.randint(-5, 5) for _ in range(3)] for _ in range(2)] for _ in range(20)]
    br = same_as_semantics(dec, prompts, 5)
    c = br.certificate
    assert c.path in ("float32", "float64") and not c.promotions and c.scales["layers"][0]["out"] == 2


def test_prompts_of_different_lengths_are_refused():
    from symcot.errors import DimensionError

    with pytest.raises(DimensionError, match="different lengths"):
        BatchedDecoder(tiny_decoder()).run([[[0, 0, 0]], [[0, 0, 0], [1, 1, 1]]], 2)


def test_floats_in_prompts_are_refused():
    from symcot.replay.scaling import NotNumericError

    with pytest.raises(NotNumericError):
        BatchedDecoder(tiny_decoder()).run([[[0.5, 0, 0]]], 2)


# -- the batched checker -------------------------------------------------------------------------------


def strip(v):
    d = v.as_dict()
    d.pop("seconds")
    d.pop("details")
    return d


MUTANTS = [
    (2, "W_2", ("par", 0), [("flg1", 0), ("buf", 0)], 0),  # parent gate: fails at n = 2
    (1, "W_2", ("flg1", 0), [("flg2", 0)], 0),  # flg1 = ReLU(γ): fails at n = 3
    (2, "K_T", ("v", 0), [("cur", 0)], 0),  # x_0 can no longer be found
    (2, "Q_B", ("f", 0), [("flg1", 0), ("flg3", 0)], 5),  # backtrack query scaled wrongly
]


def test_batched_check_gives_the_exact_checkers_verdict_counterexample_and_count(dfs_proofs):
    fams = [dfs_proofs.DIGRAPHS, dfs_proofs.RANDOM]
    good = run_batched_check("thm:cotdfs", DfsConstruction(), dfs_proofs.SPEC, fams, 3, dfs_proofs.PAPER_SIZES,
                             batch=50, native=False)
    ref = run_construction_check("thm:cotdfs", DfsConstruction(), dfs_proofs.SPEC, fams, 3, dfs_proofs.PAPER_SIZES)
    assert good.verdict == "verified" and strip(good) == strip(ref)
    cert = good.details["certificate"]
    assert cert["path"] in ("float32", "float64") and cert["bound"] is not None and cert["batches"] >= 4
    for m in MUTANTS:
        mut = Mutant(DfsConstruction(), *m)
        a = run_construction_check("thm:cotdfs", mut, dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 4)
        b = run_batched_check("thm:cotdfs", mut, dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 4, batch=97)
        assert a.verdict == b.verdict == "refuted", m
        assert strip(a) == strip(b), m


def test_batched_check_with_a_whole_run_check_and_a_vectorised_stop_rule(dfs_proofs):
    spec = dfs_proofs.TREE_SPEC
    a = run_construction_check("t", DfsConstruction(), spec, [dfs_proofs.TREES], 5)
    b = run_batched_check("t", DfsConstruction(), spec, [dfs_proofs.TREES], 5, batch=256)
    assert a.verdict == "verified" and strip(a) == strip(b)
    mut = Mutant(DfsConstruction(), 2, "K_T", ("v", 1), [("cur", 1)], 0)
    a = run_construction_check("t", mut, spec, [dfs_proofs.TREES], 5)
    b = run_batched_check("t", mut, spec, [dfs_proofs.TREES], 5, batch=256)
    assert a.verdict == "error" and strip(a) == strip(b)  # K_T v[1] does not exist at n = 1: same error


def test_a_wrong_vectorised_stop_rule_is_caught(dfs_proofs):
    from symcot.check.batched_check import EngineDisagreement

    class WrongStop(StopRule):
        def fires_batched(self, view):  # deliberately not the rule: fires on every row
            return np.ones(len(view.rows), dtype=bool)

    class WrongStopDfs(DfsConstruction):
        stop = WrongStop("cur", 0)

    chk = BatchedChecker(WrongStopDfs(), dfs_proofs.SPEC)
    inputs = list(dfs_proofs.DIGRAPHS.inputs(3))
    with pytest.raises(EngineDisagreement):
        chk.check(inputs)


def test_an_engine_disagreement_is_an_error_not_a_verdict(dfs_proofs, monkeypatch):
    """If the batched replay flags an input that exact replay accepts, the check reports an error."""
    from symcot.check import expected

    monkeypatch.setattr(expected.Expected, "mismatch",
                        lambda self, view, idx: np.ones(len(idx), dtype=bool))
    r = run_batched_check("thm:cotdfs", DfsConstruction(), dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 2)
    assert r.verdict == "error" and any("exact replay accepts" in x for x in r.notes)


def test_input_errors_surface_at_the_same_input_as_the_exact_checker(dfs_proofs):
    def bad_inputs(n):
        yield from list(dfs_proofs.DIGRAPHS.inputs(n))[:5]
        yield ("not a graph", 0)

    fam = Family("with a bad input", bad_inputs, lambda n: 6, dfs_proofs.describe)
    a = run_construction_check("c", DfsConstruction(), dfs_proofs.SPEC, [fam], 2)
    b = run_batched_check("c", DfsConstruction(), dfs_proofs.SPEC, [fam], 2)
    assert a.verdict == b.verdict == "error" and strip(a) == strip(b)


def test_a_head_whose_value_w_o_ignores_and_a_constant_map():
    x = L.vars()
    hp = Head("p", Map("Q_p", L, K1, {"k": x.a}), Map("K_p", L, K1, {"k": x.b}), Map("V_p", L, L, keep=ALL))
    hq = Head("q", Map("Q_q", L, K1, {"k": x.c}), Map("K_q", L, K1, {"k": x.a}), Map("V_q", L, L, keep=ALL))
    vs = value_space([hp, hq])
    w_o = Map("W_O", vs, L, {"a": vs.vars()["p.c"] + 2}, zero=["b", "c"])  # head q's value is never read
    ffn = FFN(Map("W_1", L, L, {"a": x.a, "b": x.b - x.a}, zero=["c"]), Map("W_2", L, L, {"c": 5}, keep=["a", "b"]))
    dec = Decoder("ignored", L, [Layer(Attention([hp, hq], w_o), ffn)]).instantiate({})
    rng = random.Random(9)
    prompts = [[[rng.randint(-3, 3) for _ in range(3)] for _ in range(3)] for _ in range(12)]
    for path in PATHS:
        same_as_semantics(dec, prompts, 3, path=path)
