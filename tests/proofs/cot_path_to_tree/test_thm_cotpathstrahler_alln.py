"""thm:cotpathstrahler's all-n statement: right on real runs, caught where it is wrong, and proved for all n.

The statement (``cotpathstrahler.all_n_statement``, the construction's ``all_n``) holds on every non-empty Dyck word
of the concrete phase for the six variants exact replay verifies, and the as-written decoder (printed layer-2 key,
layer-4 commit) departs from it at ``UD``, head ``par``. Layer 2's key reads every input token after layer 1
(``x_u^{(1)}``), so the statement also says what head ``read`` selects at an input token (``x_0``: every score is 0):
that choice is an obligation of its own, proved for every ``u``, and compared with the recorded pass over the prompt;
a wrong one is caught by the concrete phase and not proved by the prover.
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
from symcot.constructions.encoding import scalar
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS
from symcot.prove.alln.concrete import check_statement, check_witness

#: The variants exact replay verifies (``symcot verify --proofs proofs/cot_path_to_tree thm:cotpathstrahler -v``).
VERIFIED = ("repaired", "q-literal-repaired", "pos-sc-layer-1", "repaired-pos-sc-layer-1",
            "q-literal-last-repaired-pos-sc-layer-1", "q-literal-repaired-pos-sc-layer-1")
#: The printed key with the layer-4 commit: the statement is the repair's, which they do not satisfy.
PRINTED_KEY = ("as-written", "q-literal-last-repaired")


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


def test_the_statement_is_wired_for_the_variants_it_is_written_for():
    for v in VARIANTS:
        wired = StrahlerPathConstruction(v).all_n
        assert (wired is not None) == (v in {*VERIFIED, *PRINTED_KEY})
        assert wired is None or wired.choice(1, "read", "x") is not None
    stmt = all_n_statement("repaired")
    at_x = stmt.choice(1, "read", "x")
    assert at_x is not None and at_x.cls == "x" and stmt.choice(1, "read") is not at_x
    assert stmt.choice(2, "par", "x") is None


@pytest.mark.parametrize("variant", VERIFIED)
def test_the_statement_holds_on_every_word_of_the_concrete_phase(thm, variant):
    rep = _concrete(thm, variant)
    assert rep.failure is None and rep.max_size == 5 and rep.inputs == 1 + 2 + 5 + 14
    assert rep.z3_reading_inputs == 1 + 2 + 5 and rep.fact_instances["fold-step"] > 0
    wit = check_witness(StrahlerPathConstruction(variant), all_n_statement(variant), thm.SPEC.reference,
                        [NONEMPTY_DYCK_WORDS], [6, 7])
    assert wit.failure is None and wit.sizes == [6, 7] and wit.input["n"] == 7


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
    f = _concrete(thm, "repaired", dataclasses.replace(stmt, choices=(*stmt.choices[:2], wrong))).failure
    assert f is not None and f.kind == "choice" and f.what == "layer 2 head par" and f.input["word"] == "UD"


def _wrong_read(stmt, cases):
    """``stmt`` with head ``read``'s choice at the input tokens replaced by ``cases``."""
    from symcot.constructions.alln import Choice

    wrong = Choice(1, "read", cases, "wrong on purpose", cls="x")
    return dataclasses.replace(stmt, choices=tuple(wrong if ch.cls == "x" else ch for ch in stmt.choices))


#: Wrong choices of head ``read`` at ``x_u``: ``x_1`` (not in ``x_0``'s context), ``x_u`` itself (in the context, but
#: ``x_0`` ties it and comes first).
WRONG_READS = {"x_1": lambda c, u: [(True, "x", 1)], "x_u": lambda c, u: [(True, "x", u)]}


@pytest.mark.parametrize("wrong", sorted(WRONG_READS))
def test_a_wrong_choice_at_an_input_token_is_caught_by_the_concrete_phase(thm, wrong):
    stmt = _wrong_read(all_n_statement("repaired"), WRONG_READS[wrong])
    f = _concrete(thm, "repaired", stmt).failure
    at = {"x_1": "x_0", "x_u": "x_1"}[wrong]
    assert f is not None and f.kind == "choice" and f.step is None and f.input["word"] == "UD"
    assert f.what == f"layer 1 head read at {at}" and f.got == "position 0" and not f.decoder_departs


# -- the prover ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("wrong", sorted(WRONG_READS))
def test_a_wrong_choice_at_an_input_token_is_not_proved(wrong):
    """Handed straight to the prover (no concrete phase): the obligation of the choice at ``x[u]`` fails."""
    from symcot.prove.alln.prover import prove

    stmt = _wrong_read(all_n_statement("repaired"), WRONG_READS[wrong])
    res = prove(StrahlerPathConstruction("repaired"), stmt, facts=False, lemmas=False, timeout_s=10,
                derive_lambda=False, stop_early=True, only=("step",))
    f = res.first_failure
    assert not res.proved and f is not None and f.status in ("failed", "unknown"), f and f.line()
    assert (f.layer, f.where) == (1, "head read of layer 1 at x[u], case 1")
    want = {"x_1": "the selected token x[1] is in the context",
            "x_u": "every x[u] scores ≤ x[u], and < when it comes before"}[wrong]
    assert f.statement == want


def _input_head(stmt, timeout_s=30):
    """The obligations of head ``read``'s choice at ``x[u]`` alone (layer 1 reads only the tokens themselves)."""
    from symcot.prove.alln.context import Context
    from symcot.prove.alln.engine import Engine
    from symcot.prove.alln.ops import Symbolic, quantified
    from symcot.prove.alln.step import prove_input_head
    from symcot.prove.alln.sums import Summer

    cons = StrahlerPathConstruction("repaired")
    c = Symbolic(stmt.vocabulary)
    ctx = Context([(f.name, quantified(c, f)) for f in stmt.vocabulary.facts], timeout_s)
    ctx.kinds = c.kinds
    t = z3.Int("t!")
    base = [("0 ≤ t < T", z3.And(t >= 0, t < c.T))]
    eng = Engine(stmt, cons.decoder, c, Summer(ctx), {}, t, base)
    prove_input_head(eng, ctx, 1, cons.decoder.layers[0].attention.heads[0], "x", base)
    return [o for o in ctx.log if o.phase == "step"]


def test_the_choice_at_the_input_tokens_is_proved_for_every_u():
    """At ``x_u`` the query ``S e_u = e_{u+1}`` meets the keys ``e_0 … e_u`` of ``x_0 … x_u``: every score is 0."""
    obs = _input_head(all_n_statement("repaired"))
    assert [(o.where, o.statement) for o in obs] == [
        ("head read of layer 1 at x[u]", "the stated cases cover every x[u]"),
        ("head read of layer 1 at x[u], case 1", "the selected token x[0] is in the context"),
        ("head read of layer 1 at x[u], case 1", "every x[u] scores ≤ x[0], and < when it comes before"),
        ("head read of layer 1 at x[u], case 1", "no y[u] is in the context")]
    assert all(o.ok for o in obs), [o.line() for o in obs if not o.ok]


def test_the_negative_control_of_the_choice_at_the_input_tokens():
    """``x_u`` stated for every ``x_u``: ``x_0`` ties it and comes first, so the strict inequality is not proved."""
    obs = _input_head(_wrong_read(all_n_statement("repaired"), WRONG_READS["x_u"]), timeout_s=10)
    bad = [o for o in obs if not o.ok]
    assert [(o.where, o.statement) for o in bad] == [
        ("head read of layer 1 at x[u], case 1", "every x[u] scores ≤ x[u], and < when it comes before")]


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["repaired", "pos-sc-layer-1"])
def test_every_obligation_is_proved(variant):
    from symcot.prove.alln.prover import prove

    res = prove(StrahlerPathConstruction(variant), facts=False, lemmas=False, timeout_s=60, derive_lambda=False)
    assert res.proved, res.first_failure and res.first_failure.line()
    at_x = [o for o in res.obligations if o.where.startswith("head read of layer 1 at x[u]")]
    assert len(at_x) == 4 and all(o.ok for o in at_x)


@pytest.mark.slow
def test_the_printed_key_is_not_proved_by_the_prover():
    from symcot.prove.alln.prover import prove

    res = prove(StrahlerPathConstruction("as-written"), facts=False, lemmas=False, timeout_s=20,
                derive_lambda=False, stop_early=True)
    first = res.first_failure
    assert not res.proved and first is not None
    assert (first.layer, first.where) == (2, "head par, case 1") and "every x[u] scores" in first.statement
