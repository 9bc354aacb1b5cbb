"""Deep mutants: the base's weights up to a size k, refuted by exact replay after it, never proved for all n."""

from collections import Counter

import pytest

from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction
from symcot.check.stepwise import check_input
from symcot.constructions.deep import KINDS, VANISHING, deep_mutants, lambda_at, same_weights, select, substituted
from symcot.constructions.mutant import sites
from symcot.errors import SymcotError
from symcot.ir import lam, n
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.prover import prove
from symcot.study.deep_mutants import (
    AllNOutcome,
    ReplayVerdict,
    Settings,
    base_control,
    chosen,
    inputs_at,
    replay,
    run_all_n,
    soundness_failure,
)


def _check(claims, claim_id, variant=None):
    checks = [c for c in claims[claim_id].checks if isinstance(c, AllNCheck)]
    return next(c for c in checks if variant is None or c.variant == variant)


@pytest.fixture(scope="module")
def dfs(claims):
    return _check(claims, "thm:cotdfs")


@pytest.fixture(scope="module")
def path_to_tree(claims):
    return _check(claims, "thm:cotpathtotree")


@pytest.fixture(scope="module")
def strahler(claims):
    return _check(claims, "thm:cottreestrahler", "repaired")


def _by_id(check, k):
    return {mu.id: mu for mu in deep_mutants(check.construction(), k)}


# -- the generator --------------------------------------------------------------------------------------------


def test_every_output_block_of_every_map_gets_the_vanishing_kinds(dfs, path_to_tree):
    ms = deep_mutants(dfs.construction(), 5)
    kinds = Counter(mu.kind for mu in ms)
    assert set(kinds) == {"shift", "max-unit", "max-block"}  # DFS's weights have neither n nor λ as a coefficient
    assert len({mu.id for mu in ms}) == len(ms) and all(mu.label.startswith("thm:cotdfs/as-written~") for mu in ms)
    assert not any(mu.two_index for mu in ms)
    pt = deep_mutants(path_to_tree.construction(), 9)
    two = [mu for mu in pt if mu.two_index]
    assert {mu.block for mu in two} == {"A", "A'"} and {mu.kind for mu in two} == set(VANISHING)
    shift_a = next(mu for mu in two if mu.id == "shift:1/W_2/A<-A@9")
    assert "Shift(m**2, 81)" in shift_a.term  # along the vec order, zero while m² ≤ 81


def test_a_mutant_keeps_the_base_statement_and_changes_one_map(dfs):
    mu = _by_id(dfs, 5)["shift:1/W_2/buf<-buf@5"]
    base = mu.base
    assert mu.all_n is base.all_n and mu.encoding is base.encoding and mu.stop is base.stop
    changed = [(k, label) for k in (1, 2) for (label, a), (_, b) in zip(mu.decoder.maps_of(k), base.decoder.maps_of(k))
               if a is not b]
    assert changed == [(1, "W_2")]
    assert base.decoder.maps_of(1)[-1][1].exprs["buf"] is not mu.decoder.maps_of(1)[-1][1].exprs["buf"]


def test_a_term_on_a_zeroed_block_makes_it_assigned(path_to_tree):
    mu = _by_id(path_to_tree, 9)["max-unit:1/V_D/A@9"]
    v_d = dict(mu.decoder.maps_of(1))["V_D"]
    assert "A" not in v_d.zeroed and "A" in v_d.exprs  # the prover reads the zeroed list first


@pytest.mark.parametrize(("name", "k", "ids"), [
    ("dfs", 5, ["shift:1/W_2/buf<-buf@5", "max-unit:2/W_O/vis@5", "max-block:2/V_B/cur<-cur@5",
                "shift:2/W_1/par<-par@5", "max-unit:1/W_2/flg1@5"]),
    ("path_to_tree", 3, ["shift:1/W_2/A<-A@3", "max-unit:1/W_2/A@3", "max-block:1/W_1/A<-A@3", "shift:1/W_2/pos<-pos@3",
                         "max-unit:1/W_1/pos@3", "max-unit:1/W_O/stp@3"]),
])
def test_vanishing_mutants_compile_to_the_base_up_to_k_and_differ_after(request, name, k, ids):
    check = request.getfixturevalue(name)
    base, ms = check.construction(), _by_id(check, k)
    for i in ids:
        mu = ms[i]
        assert all(same_weights(mu, base, s) for s in range(1, k + 1)), i
        assert not same_weights(mu, base, k + 1), i


def test_a_shift_moves_by_the_block_size_at_k(path_to_tree):
    ms = _by_id(path_to_tree, 4)
    assert "Shift(2*m - 2, 6)" in ms["shift:1/W_2/pos<-pos@4"].term
    assert "Shift(m**2, 16)" in ms["shift:1/W_2/A<-A@4"].term
    assert "max(0, m - 4)" in ms["max-block:1/W_1/A<-A@4"].term


@pytest.mark.parametrize(("name", "k", "ids", "at"), [
    ("dfs", 5, ["shift:1/W_2/buf<-buf@5", "max-unit:2/W_O/vis@5", "max-block:2/V_B/cur<-cur@5",
                "shift:2/W_1/par<-par@5", "max-unit:1/W_2/flg1@5"], 6),
    ("path_to_tree", 9, ["shift:1/W_2/A<-A@9", "max-unit:1/W_2/A@9", "max-block:1/W_1/A<-A@9",
                         "max-block:1/W_2/pos<-pos@9"], 10),
])
def test_exact_replay_refutes_them_just_after_k(request, name, k, ids, at):
    check = request.getfixturevalue(name)
    ms = _by_id(check, k)
    for i in ids:
        r = replay(ms[i], check.spec, check.families, k + 1, k + 2, per_size=40)
        assert r.status == "refuted" and r.refuted_at == at, (i, r.text())


def test_replay_equals_the_base_on_every_input_up_to_k(path_to_tree):
    # Dyck words to m = 5 are 23 inputs: every one, on the mutant's own (unshared) weights
    ms = _by_id(path_to_tree, 5)
    for i in ("shift:1/W_2/A<-A@5", "max-block:1/W_1/A<-A@5"):
        r = replay(ms[i], path_to_tree.spec, path_to_tree.families, 1, 5, per_size=100)
        assert r.status == "equivalent" and all(r.exhaustive.values()), (i, r.text())
        assert replay(ms[i], path_to_tree.spec, path_to_tree.families, 6, 6, per_size=50).refuted_at == 6


def test_a_term_on_a_block_the_next_map_does_not_read_is_inert_and_equivalent(dfs):
    ms = _by_id(dfs, 5)
    mu = ms["max-unit:1/W_1/buf@5"]
    assert mu.inert == "W_2 of layer 1 does not read the hidden block buf"
    assert ms["max-unit:1/W_2/buf@5"].inert is None
    assert replay(mu, dfs.spec, dfs.families, 6, 7, per_size=30).status == "equivalent"
    picked = select(list(ms.values()), 20, prefer=["cur", "vis", "par"])
    assert not any(m.inert for m in picked)


def test_a_term_on_a_block_nothing_reads_is_equivalent(dfs, path_to_tree):
    # head U's value zeroes A, so W_O's π_U.A is 0; head T selects prompt tokens, whose par is 0
    assert _by_id(path_to_tree, 9)["shift:1/W_O/A<-U.A@9"].inert == "π_U.A is zero: V_U of layer 1 zeroes A"
    for check, k, i in ((path_to_tree, 9, "shift:1/W_O/A<-U.A@9"), (dfs, 5, "max-block:2/W_O/par<-T.par@5")):
        r = replay(_by_id(check, k)[i], check.spec, check.families, k + 1, k + 2, per_size=30)
        assert r.status == "equivalent" and r.text().startswith(f"equivalent (not refuted by replay up to size {k + 2}")


def test_lambda_mutants_are_right_up_to_k_and_refuted_after(strahler):
    base = strahler.construction()
    assert lambda_at(base, 7) == 13
    ms = _by_id(strahler, 7)
    const, fixed = ms["lambda-const@7"], ms["lambda-fixed@7"]
    assert not any(lam in s.coeff.value.free_symbols for s in sites(const.decoder))
    assert fixed.decoder is fixed.base.decoder and fixed.lam_fixed == 13 and fixed.lam_value(None) == 13
    for mu in (const, fixed):
        for size in range(2, 8):  # λ = 13 ≥ 2n - 1 up to n = 7: the least working λ (2n - 3) is exceeded
            inputs, _ = inputs_at(strahler.families[0], size, 12)
            assert all(check_input(mu, strahler.spec, inp) is None for inp in inputs), (mu.id, size)
        r = replay(mu, strahler.spec, strahler.families, 8, 9, per_size=100)
        assert r.refuted_at == 9, (mu.id, r.text())  # λ = 13 = 2·8 - 3 still works at n = 8


def test_the_size_symbol_as_a_coefficient_becomes_the_constant_k():
    base = WidthTreeConstruction()
    held = [s for s in sites(base.decoder) if n in s.coeff.value.free_symbols]
    assert held
    dec, changed = substituted(base.decoder, n, 6)
    assert changed == len(held) and not any(n in s.coeff.value.free_symbols for s in sites(dec))
    (mu,) = [m for m in deep_mutants(base, 6) if m.kind == "size-const"]
    assert same_weights(mu, base, 6) and not same_weights(mu, base, 7) and not same_weights(mu, base, 5)
    assert [b.size for b in mu.decoder.layout.blocks] == [b.size for b in base.decoder.layout.blocks]


def test_selection_takes_every_kind_and_both_shapes_before_repeating(path_to_tree, strahler):
    base = path_to_tree.construction()
    picked = select(deep_mutants(base, 9), 6, seed=0, prefer=list(base.encoding.blocks))
    assert {mu.kind for mu in picked} == set(VANISHING)
    assert {mu.two_index for mu in picked} == {True, False}
    sb = strahler.construction()
    picked = select(deep_mutants(sb, 7), 5, prefer=list(sb.encoding.blocks))
    assert {mu.kind for mu in picked} == {"shift", "max-unit", "max-block", "lambda-const", "lambda-fixed"}
    assert [mu.id for mu in select(deep_mutants(sb, 7), 5)] == [mu.id for mu in select(deep_mutants(sb, 7), 5)]
    with pytest.raises(SymcotError, match="unknown deep-mutant kind"):
        deep_mutants(base, 9, kinds=["shfit"])
    assert KINDS[:3] == VANISHING


def test_chosen_by_id_and_an_unknown_id_is_named(dfs):
    base = dfs.construction()
    got = chosen(base, dfs, Settings(ids=("max-unit:2/W_O/vis@5",)))
    assert [mu.id for mu in got] == ["max-unit:2/W_O/vis@5"]
    with pytest.raises(SymcotError, match="no deep mutant 'nope@5' at k = 5"):
        chosen(base, dfs, Settings(ids=("nope@5",)))
    assert base_control(base, dfs, Settings(replay_sizes=1, replay_inputs=20)).status == "equivalent"


def test_a_proof_of_a_refuted_mutant_is_a_soundness_failure():
    refuted, equivalent = ReplayVerdict(refuted_at=6), ReplayVerdict(tried={8: 3})
    assert soundness_failure(refuted, AllNOutcome("proved"))
    assert not soundness_failure(equivalent, AllNOutcome("proved"))
    assert not soundness_failure(refuted, AllNOutcome("not proved"))
    assert equivalent.text() == "equivalent (not refuted by replay up to size 8)"


def test_a_fast_proof_of_a_refuted_mutant_is_decided_by_the_check_as_declared(dfs, monkeypatch):
    from symcot.study import deep_mutants as dm

    calls = []

    def fake(mu, check, timeout_s=None, full=False, claim_id=""):
        calls.append(full)
        return AllNOutcome("not proved", "the second solver disagrees", mode="full", seconds=2.0) if full else \
            AllNOutcome("proved", seconds=1.0)

    monkeypatch.setattr(dm, "run_all_n", fake)
    mu = _by_id(dfs, 5)["max-unit:2/W_O/vis@5"]
    (row,) = dm.study("thm:cotdfs", dfs, Settings(replay_sizes=1, replay_inputs=10), [mu])
    assert calls == [False, True]
    assert row.outcome.verdict == "not proved" and row.outcome.fast_verdict == "proved" and row.outcome.seconds == 3.0
    assert not row.soundness_failure and row.as_dict()["all_n"]["mode"] == "full"


# -- the all-n prover on them ------------------------------------------------------------------------------------


def test_two_deep_dfs_mutants_are_not_proved(dfs):
    ms = _by_id(dfs, 5)
    for i in ("max-block:1/W_2/buf<-buf@5", "max-unit:1/W_2/buf@5"):
        mu = ms[i]
        assert replay(mu, dfs.spec, dfs.families, 6, 6, per_size=20).status == "refuted", i
        r = prove(mu, facts=False, lemmas=False, stop_early=True, timeout_s=15)
        f = r.first_failure
        assert not r.proved and f is not None and f.phase == "step" and "block buf" in f.where, (i, f and f.line())


@pytest.mark.slow
def test_the_default_selection_of_each_proved_construction_is_never_proved(dfs, path_to_tree, strahler):
    for check in (dfs, path_to_tree, strahler):
        base = check.construction()
        for mu in chosen(base, check, Settings(limit=6)):
            r = replay(mu, check.spec, check.families, 1 if mu.kind not in VANISHING else mu.k + 1, mu.k + 3, 60)
            out = run_all_n(mu, check, timeout_s=15)
            assert out.verdict != "error", (mu.id, out.first_failure)
            assert not soundness_failure(r, out), (mu.id, r.text(), out.verdict)


def test_a_size_with_no_decoder_has_the_same_weights():
    from proofs.cot_path_to_tree.constructions.cotwidofpath import WidthPathConstruction

    base = WidthPathConstruction("repaired")
    mu = next(m for m in deep_mutants(base, 9) if m.kind == "max-unit" and m.block == "p")
    assert same_weights(mu, base, 1)  # |w| = 1: no layout (a block of |w|/2 + 1), so nothing differs
    assert same_weights(mu, base, 8) and not same_weights(mu, base, 10)
