"""The kernel: a `proved` row reads what runs, one reading of the statement, witnesses that witness.

Each adversarial case is a statement or construction a careless prover proves (the tutorial's prefix-sum toy,
right on the concrete phase's inputs): each must end refused, `error`, `refuted`, `unknown` or `proved assuming`,
never `proved`.
"""

import dataclasses

import pytest
import z3

from proofs.cot_path_to_tree.constructions.cottreestrahler import StrahlerTreeConstruction
from symcot.algorithms.logic import Fact
from symcot.check.context import RunContext
from symcot.check.verdict import Verdict, exit_status
from symcot.constructions.derived import Derived
from symcot.constructions.mutant import Mutant
from symcot.ir import n
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.concrete import witness_sizes
from symcot.prove.alln.kernel import ASSUMING, assumptions, refusal, traced
from symcot.prove.alln.prover import lambda_hypothesis
from symcot.prove.alln.trace import TermFn, TraceError, is_traced, trace_statement
from tests.fixtures.examples import example

TOY = example("prefix_sum")


def _stmt(**changes):
    return dataclasses.replace(TOY.STATEMENT, **changes)


def _with_fact(fact):
    v = TOY.VOCABULARY
    return _stmt(vocabulary=dataclasses.replace(v, facts=(*v.facts, fact)))


def _cons(stmt=None, cls=None, decoder=None):
    cons = (cls or TOY.PrefixSum)("demo:prefixsum", "as-written", decoder or TOY.DECODER)
    if stmt is not None:
        cons.all_n = stmt
    return cons


def _row(make, **kw) -> Verdict:
    kw.setdefault("timeout_s", 10)
    return AllNCheck(make, TOY.SPEC, [TOY.BIT_STRINGS], **kw).run(RunContext("demo:prefixsum", 4))


def _text(row):
    return " ".join(row.notes)


# -- the baseline, and `proved assuming` ---------------------------------------------------------------------

def test_the_toy_is_proved_and_without_the_second_solver_only_proved_assuming():
    row = _row(lambda: _cons())
    assert row.verdict == "proved", row.notes
    assert row.details["concrete"]["witness"]["sizes"] == [5, 6, 9]
    alone = _row(lambda: _cons(), second_solver=False)
    assert alone.verdict == ASSUMING and "Z3 alone" in alone.scope
    assert alone.details["assumptions"] == ["Z3 alone (the second solver was not run)"]
    assert exit_status([row, alone]) == 3 and exit_status([row]) == 0


def test_a_hand_fact_makes_the_row_proved_assuming():
    fact = Fact("small-bits", (TOY.INDEX,), lambda c, i: c.bit(i) <= 1, "hand", source="by hand")
    assert assumptions(_with_fact(fact), True, [5, 6, 9], 4) == [
        "the hand facts small-bits (proved by hand, used as given)"]
    row = _row(lambda: _cons(_with_fact(fact)))
    assert row.verdict == ASSUMING, row.notes


def test_the_saturating_decoder_right_to_length_5_is_not_proved():
    row = _row(TOY.saturating)
    assert row.verdict in ("unknown", "refuted"), row.notes


# -- mechanism 1: one reading --------------------------------------------------------------------------------

def _kind_branch(symbolic, concrete):
    """A function that gives ``symbolic`` on the prover's terms and ``concrete`` on numbers."""
    return lambda c, *xs: symbolic(c, *xs) if z3.is_expr(c.n) else concrete(c, *xs)


@pytest.mark.parametrize("body", [
    _kind_branch(lambda c: c.n <= 0, lambda c: c.n >= 1),  # a domain fact contradicting `nonempty` for the prover
    lambda c: c.n <= 0 if isinstance(c.n, z3.ArithRef) else True,
])
def test_a_fact_that_branches_on_the_kind_of_its_argument_is_read_one_way(body):
    row = _row(lambda: _cons(_with_fact(Fact("odd", (), body, "domain", source="adversarial"))))
    assert row.verdict not in ("proved", ASSUMING), row.notes
    assert "odd" in _text(row)


def test_a_fact_branching_on_its_bound_variable_is_read_one_way():
    body = lambda c, i: c.bit(i) == 7 if z3.is_expr(i) else c.bit(i) <= 1  # noqa: E731
    row = _row(lambda: _cons(_with_fact(Fact("wide", (TOY.INDEX,), body, "domain"))))
    assert row.verdict not in ("proved", ASSUMING) and "wide" in _text(row)


def test_a_view_that_branches_on_its_step_is_read_one_way():
    view = lambda c, t: c.acc(t) + 1 if z3.is_expr(t) else c.acc(t)  # noqa: E731
    stmt = _stmt(vocabulary=dataclasses.replace(TOY.VOCABULARY, views={"total": view}))
    row = _row(lambda: _cons(stmt))
    assert row.verdict not in ("proved", ASSUMING), row.notes
    assert "total" in _text(row)


def test_a_step_count_that_branches_on_its_kind_is_read_one_way():
    row = _row(lambda: _cons(_stmt(steps=lambda c: c.T - 1 if z3.is_expr(c.T) else c.T)))
    assert row.verdict not in ("proved", ASSUMING) and "step count" in _text(row)


def test_a_choice_branching_on_its_kind_is_read_one_way():
    ch = TOY.STATEMENT.choices[0]
    odd = dataclasses.replace(ch, cases=lambda c, t: [(True, "x", t + 1 if z3.is_expr(t) else t)])
    row = _row(lambda: _cons(_stmt(choices=(odd,))))
    assert row.verdict not in ("proved", ASSUMING), row.notes


def test_every_function_is_called_once():
    calls = []

    def view(c, t):
        calls.append(t)
        return c.acc(t)

    stmt = trace_statement(_stmt(vocabulary=dataclasses.replace(TOY.VOCABULARY, views={"total": view})))
    assert is_traced(stmt) and len(calls) == 1
    assert isinstance(stmt.vocabulary.views["total"], TermFn)


@pytest.mark.parametrize("value", [0.5, None, object()])
def test_what_cannot_be_traced_exactly_is_refused(value):
    stmt = _stmt(views={**TOY.STATEMENT.views, "none": lambda c, t: value})
    with pytest.raises(TraceError, match="view none"):
        trace_statement(stmt)
    row = _row(lambda: _cons(stmt))
    assert row.verdict == "error" and "traced" in _text(row)


def test_the_kernel_copy_runs_the_traced_prompt_the_same_as_the_original():
    cons, own, full = traced(_cons(), None)
    assert is_traced(own) and full is own and cons.all_n is own
    for bits in [(1,), (1, 0, 1, 1), (0, 0, 1)]:
        assert cons.prompt(bits).tokens == _cons().prompt(bits).tokens


# -- mechanism 2: witnesses that witness ---------------------------------------------------------------------

def test_witness_sizes_are_beyond_the_concrete_phase_whatever_is_asked():
    assert witness_sizes(4) == [5, 6, 9]
    assert witness_sizes(4, 2) == [5, 6, 9]  # below the concrete phase: ignored
    assert witness_sizes(4, 12) == [5, 6, 9, 12]


@pytest.mark.parametrize("bound", [5, 8])  # c + 1 and 2c for the concrete size c = 4
def test_a_domain_fact_bounding_the_size_is_an_error_naming_it(bound):
    fact = Fact("small", (), lambda c: c.n <= bound, "domain", source="adversarial")
    row = _row(lambda: _cons(_with_fact(fact)))
    assert row.verdict == "error" and "small" in _text(row), row.notes


def test_a_fact_false_on_a_later_witness_input_is_not_skipped():
    # true on the first input of size 5 (00000), false on the second (00001)
    fact = Fact("zeros", (), lambda c: c.or_(c.n <= 4, c.bit(c.n - 1) == 0), "domain")
    row = _row(lambda: _cons(_with_fact(fact)))
    assert row.verdict == "error" and "zeros" in _text(row), row.notes


# -- mechanism 3: the λ that runs ----------------------------------------------------------------------------

def test_a_derived_construction_runs_and_is_proved_at_its_base_s_lambda():
    base = StrahlerTreeConstruction("repaired").with_lambda(12)
    d = Derived(base, "derived", base.decoder, [])
    assert d.lam_fixed == 12 and d.lam_value(None) == 12
    _, name, hyp = lambda_hypothesis(d, None, {n: z3.Int("n")})
    assert name == "λ = 12" and hyp is None


def test_a_construction_computing_lambda_its_own_way_is_refused():
    class Constant(TOY.PrefixSum):
        def lam_value(self, inp):
            return 5

    assert "lam_value" in refusal(_cons(cls=Constant))
    row = _row(lambda: _cons(cls=Constant))
    assert row.verdict == "unknown" and "lam_value" in _text(row)
    inst = _cons()
    inst.lam_value = lambda inp: 5
    assert "lam_value" in refusal(inst)


def test_a_derived_construction_with_its_own_lambda_is_refused():
    class Derived5(Derived):
        def lam_value(self, inp):
            return 5

    d = Derived5(_cons(), "v", TOY.DECODER, [])
    assert "lam_value" in refusal(d)


# -- mechanism 4: the prompt that runs -----------------------------------------------------------------------

def test_a_derived_construction_with_its_own_token_is_refused():
    class Odd(Derived):
        def token(self, cl, key, lam_value):
            return [0] * cl.d

    d = Odd(_cons(), "odd", TOY.DECODER, [])
    assert "token" in refusal(d)
    row = _row(lambda: Odd(_cons(), "odd", TOY.DECODER, []))
    assert row.verdict == "unknown" and "token" in _text(row)


def test_a_token_set_on_the_instance_is_refused():
    cons = _cons()
    cons.token_keys = lambda inp: []
    assert "token_keys" in refusal(cons)


def test_a_plain_derived_construction_passes():
    assert refusal(Derived(_cons(), "same", TOY.DECODER, [])) is None


def test_weights_compiled_another_way_are_refused():
    m = Mutant(_cons(), layer=1, map="W_1", output=("sum", 0), monomial=[("bit", 0)], value=2)
    assert "concrete" in refusal(m)


def test_a_derived_construction_whose_statement_is_not_its_base_s_is_refused():
    d = Derived(_cons(), "v", TOY.DECODER, [])
    d.all_n = _stmt(notes=("another",))
    assert "statement" in refusal(d)


def test_sizes_the_run_compiles_at_must_be_the_statement_s():
    class Capped(TOY.PrefixSum):
        def env(self, bits):
            return {"n": min(len(bits), 8)}

    row = _row(lambda: _cons(cls=Capped))
    assert row.verdict not in ("proved", ASSUMING), row.notes


def test_a_stop_rule_of_another_type_is_refused():
    from symcot.constructions.encoding import StopRule

    class Late(StopRule):
        def fires(self, layout, y):
            return False

    class WithStop(TOY.PrefixSum):
        stop = Late("flg", 1)

    assert "stop rule" in refusal(_cons(cls=WithStop))


def test_an_extending_vocabulary_whose_bounds_are_shared_at_two_positions_is_traced_once_per_arity():
    # DFS's vertex bound serves as a first and as a second variable: one trace per function and arity, so the
    # extension's first facts are the statement's own traced facts
    from proofs.cot_path_to_tree.thm_cotdfs import CLAIMS

    chk = next(c for c in CLAIMS[0].checks if isinstance(c, AllNCheck))
    _, own, full = traced(chk.construction(), chk.vocabulary)
    assert full.vocabulary.facts[:len(own.vocabulary.facts)] == own.vocabulary.facts


def test_a_decoder_under_another_model_description_is_refused():
    from symcot.model.description import AHAT, HeadRule, ModelDescription

    desc = ModelDescription("average hard", head=HeadRule(attention=AHAT()))
    dec = dataclasses.replace(TOY.DECODER, description=desc)
    why = refusal(_cons(decoder=dec))
    assert why is not None and "Section 3" in why
    row = _row(lambda: _cons(decoder=dec))
    assert row.verdict == "unknown" and "model description" in _text(row)


def test_weights_cached_on_the_construction_before_the_check_are_not_what_the_kernel_runs():
    from symcot.constructions.base import Construction

    cons = _cons()
    saturating = TOY.saturating()
    for k in range(1, 10):  # every size the concrete phase and the witnesses run, poisoned with the wrong weights
        bits = (1,) * k
        cons._cache[(frozenset(cons.env(bits).items()), frozenset())] = saturating.concrete(bits)
    assert Construction.concrete(cons, (1,) * 6) is saturating.concrete((1,) * 6)
    kcons, _, _ = traced(cons, None)
    assert kcons._cache == {} and kcons.concrete((1,) * 6) is not saturating.concrete((1,) * 6)
    row = _row(lambda: cons)
    assert row.verdict == "proved", row.notes  # the decoder the prover reads, run from its IR
