"""thm:cotpathstrahler's all-n statement: right on real runs, caught where it is wrong, and how far the prover gets.

The statement (``cotpathstrahler.all_n_statement``) holds on every non-empty Dyck word of the concrete phase for the
six variants exact replay verifies, and the as-written decoder (printed layer-2 key, layer-4 commit) departs from it
at ``UD``, head ``par``. It is not wired into the claim: the prover cannot state head ``read``'s choice at an input
token (layer 2's key reads ``x_u^{(1)}``, the output of layer 1 at ``x_u``), so every obligation that reads an input
token after layer 1 is ``unsupported`` and nothing else fails. With that one choice supplied (the tests marked slow
patch :meth:`symcot.prove.alln.engine.Engine.cases` for the test only, and prove the choice separately), every
obligation of the repaired decoder is proved.
"""

import dataclasses
import importlib

import pytest
import z3

from proofs.cot_path_to_tree.constructions.cotpathstrahler import (
    VARIANTS,
    StrahlerPathConstruction,
    all_n_statement,
)
from symcot.constructions.alln import Y
from symcot.constructions.encoding import scalar
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS
from symcot.prove.alln.concrete import check_statement, check_witness

#: The variants exact replay verifies (``symcot verify --proofs proofs/cot_path_to_tree thm:cotpathstrahler -v``).
VERIFIED = ("repaired", "q-literal-repaired", "pos-sc-layer-1", "repaired-pos-sc-layer-1",
            "q-literal-last-repaired-pos-sc-layer-1", "q-literal-repaired-pos-sc-layer-1")
#: The printed key with the layer-4 commit: the statement is the repair's, which they do not satisfy.
PRINTED_KEY = ("as-written", "q-literal-last-repaired")
UNSTATED = "no stated choice for head read of layer 1 at a token of class x"


@pytest.fixture(scope="module")
def thm():
    return importlib.import_module("proofs.cot_path_to_tree.thm_cotpathstrahler")


def _concrete(thm, variant, stmt=None, size=5, facts=4):
    stmt = stmt or all_n_statement(variant)
    return check_statement(StrahlerPathConstruction(variant), stmt, thm.SPEC.reference, [NONEMPTY_DYCK_WORDS], size,
                           facts, reading_size=4)


def test_which_variants_have_a_statement():
    have = {v for v in VARIANTS if all_n_statement(v) is not None}
    assert have == {*VERIFIED, *PRINTED_KEY}


def test_the_statement_is_not_wired_while_the_prover_cannot_prove_it():
    assert all(StrahlerPathConstruction(v).all_n is None for v in VARIANTS)


@pytest.mark.parametrize("variant", VERIFIED)
def test_the_statement_holds_on_every_word_of_the_concrete_phase(thm, variant):
    rep = _concrete(thm, variant)
    assert rep.failure is None and rep.max_size == 5 and rep.inputs == 1 + 2 + 5 + 14
    assert rep.z3_reading_inputs == 1 + 2 + 5 and rep.fact_instances["fold-step"] > 0
    wit = check_witness(StrahlerPathConstruction(variant), all_n_statement(variant), thm.SPEC.reference,
                        [NONEMPTY_DYCK_WORDS], 6)
    assert wit.failure is None and wit.input["n"] == 6


@pytest.mark.parametrize("variant", PRINTED_KEY)
def test_the_printed_key_departs_from_the_statement_at_the_parent_lookup(thm, variant):
    f = _concrete(thm, variant).failure
    assert f is not None and f.kind == "choice" and f.step == 1 and f.input["word"] == "UD"
    assert f.what == "layer 2 head par" and f.expected == "y[0]" and not f.decoder_departs


def test_a_wrong_cut_is_caught_by_the_concrete_phase(thm):
    stmt = all_n_statement("repaired")
    cuts = {**stmt.cuts, 2: stmt.cuts[2].extended(**{"tmp_D": scalar("d", offset=1)})}  # "tmp_D carries D + 1"
    f = _concrete(thm, "repaired", dataclasses.replace(stmt, cuts=cuts)).failure
    assert f is not None and (f.kind, f.step, f.what) == ("cut", 0, "layer 2 block tmp_D") and not f.decoder_departs
    assert f.expected == [f.got[0] + 1]


def test_a_wrong_choice_is_caught_by_the_concrete_phase(thm):
    from symcot.constructions.alln import Choice

    stmt = all_n_statement("repaired")
    wrong = Choice(2, "par", lambda c, t: [(True, "x", c.T - 1)])  # "par always falls back to x_{n-1}"
    f = _concrete(thm, "repaired", dataclasses.replace(stmt, choices=(stmt.choices[0], wrong))).failure
    assert f is not None and f.kind == "choice" and f.what == "layer 2 head par" and f.input["word"] == "UD"


# -- the prover ------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_prover_stops_only_at_the_input_tokens_after_layer_1():
    from symcot.prove.alln.prover import prove

    res = prove(StrahlerPathConstruction("repaired"), all_n_statement("repaired"), facts=False, lemmas=False,
                timeout_s=30, derive_lambda=False)
    assert not res.proved
    bad = [o for o in res.obligations if not o.ok]
    assert bad and all(o.status == "unsupported" and UNSTATED in o.detail for o in bad)
    assert [(o.layer, o.where) for o in bad][:2] == [(2, "head par, case 1"), (2, "head par, case 2")]
    assert sum(o.ok for o in res.obligations) >= 45  # base, layer 1, head par's cover and range


def _with_input_read(monkeypatch):
    """The prover given the one choice it cannot state: x_u's own layer-1 read selects x_0 (proved below)."""
    from symcot.prove.alln import engine

    cases = engine.Engine.cases

    def patched(self, k, head, cls, p):
        if cls != Y and (k, head) == (1, "read"):
            return [(True, "x", 0)]
        return cases(self, k, head, cls, p)

    monkeypatch.setattr(engine.Engine, "cases", patched)


@pytest.mark.slow
def test_the_missing_choice_holds_for_every_input_token():
    """At ``x_u`` the query ``S e_u = e_{u+1}`` meets the keys ``e_0 … e_u`` of ``x_0 … x_u``: every score is 0."""
    from symcot.prove.alln.context import Context
    from symcot.prove.alln.engine import Engine
    from symcot.prove.alln.ops import Symbolic, fresh_int, quantified
    from symcot.prove.alln.sums import Summer

    cons = StrahlerPathConstruction("repaired")
    stmt = all_n_statement("repaired")
    c = Symbolic(stmt.vocabulary)
    ctx = Context([(f.name, quantified(c, f)) for f in stmt.vocabulary.facts], 30)
    ctx.kinds = c.kinds
    t = z3.Int("t!")
    eng = Engine(stmt, cons.decoder, c, Summer(ctx), {}, t, [("0 ≤ t < T", z3.And(t >= 0, t < c.T))])
    head = cons.decoder.layers[0].attention.heads[0]
    u, v = fresh_int("u"), fresh_int("v")
    local = [("x_u", z3.And(u >= 0, u < c.T)), ("x_v before x_u", z3.And(v >= 0, v <= u))]
    ev = eng.evaluator(local)
    q = ev.apply(head.query, eng.rep("x", u, 0))
    s0 = eng.score(q, ev.apply(head.key, eng.rep("x", 0, 0)), head.key.dst, local, "x_0")
    sv = eng.score(q, ev.apply(head.key, eng.rep("x", v, 0)), head.key.dst, local, "x_v")
    ob = ctx.check(z3.And(s0 == 0, sv <= s0), "step", "head read at x_u", "x_0 wins", local, 1)
    assert ob.ok and all(o.ok for o in ctx.log), [o.line() for o in ctx.log if not o.ok]


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["repaired", "pos-sc-layer-1"])
def test_with_the_input_tokens_read_every_obligation_is_proved(monkeypatch, variant):
    from symcot.prove.alln.prover import prove

    _with_input_read(monkeypatch)
    res = prove(StrahlerPathConstruction(variant), all_n_statement(variant), facts=False, lemmas=False,
                timeout_s=60, derive_lambda=False)
    assert res.proved, res.first_failure and res.first_failure.line()
    assert res.counts() == {"proved": 104}


@pytest.mark.slow
def test_with_the_input_tokens_read_the_printed_key_is_not_proved(monkeypatch):
    from symcot.prove.alln.prover import prove

    _with_input_read(monkeypatch)
    res = prove(StrahlerPathConstruction("as-written"), all_n_statement("as-written"), facts=False, lemmas=False,
                timeout_s=20, derive_lambda=False, stop_early=True)
    first = res.first_failure
    assert not res.proved and first is not None
    assert (first.layer, first.where) == (2, "head par, case 1") and "every x[u] scores" in first.statement
