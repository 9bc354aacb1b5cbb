"""The input families against the statement's domain facts: exactly the inputs the domain admits, or an error."""

import dataclasses
import itertools

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from proofs.cot_path_to_tree.thm_cotdfs import DIGRAPHS, SPEC
from symcot.algorithms.logic import Fact
from symcot.check.context import RunContext
from symcot.inputs import digraph_count, digraphs_with_sources
from symcot.inputs.family import Family
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.domain import assumptions_of, check_domain, fact_symbols
from symcot.prove.alln.kernel import ASSUMING, traced
from tests.fixtures.examples import example

TOY = example("prefix_sum")


def _bits(k, letters=(0, 1)):
    return itertools.product(letters, repeat=k)


def _family(inputs, name="bit strings", universe=lambda k: _bits(k, (0, 1, 2)), **kw):
    return Family(name, inputs, lambda k: sum(1 for _ in inputs(k)), universe=universe, **kw)


def _stmt(stmt=None):
    cons = TOY.as_written()
    if stmt is not None:
        cons.all_n = stmt
    return traced(cons, None)[2]


def _row(families, stmt=None, **kw):
    def make():
        cons = TOY.as_written()
        if stmt is not None:
            cons.all_n = stmt
        return cons

    kw.setdefault("timeout_s", 10)
    return AllNCheck(make, TOY.SPEC, families, **kw).run(RunContext("demo:prefixsum", 4))


def _text(row):
    return " ".join(row.notes)


# -- the check itself ------------------------------------------------------------------------------------------

def test_the_toy_s_family_is_exactly_its_domain_within_its_universe():
    rep = check_domain(_stmt(), TOY.SPEC.reference, [TOY.BIT_STRINGS], 4)
    assert rep.failure is None and rep.assumed == [] and rep.capped_at is None
    assert rep.sizes == [1, 2, 3, 4]
    assert rep.universe_inputs == 3 + 9 + 27 + 81 and rep.in_domain == rep.family_inputs == 2 + 4 + 8 + 16


def test_the_domain_facts_are_read_from_the_traced_terms():
    facts = {f.name: f for f in _stmt().vocabulary.facts if f.kind == "domain"}
    assert fact_symbols(facts["nonempty"]) == {"n"} and fact_symbols(facts["bits"]) == {"n", "bit"}


def test_a_family_omitting_the_strings_ending_in_1_is_an_assumption_naming_one():
    fam = _family(lambda k: (b for b in _bits(k) if b[-1] == 0), name="bit strings ending in 0")
    rep = check_domain(_stmt(), TOY.SPEC.reference, [fam], 4)
    assert rep.failure is None and "omit inputs of the domain, the first at size 1: 1 " in rep.omitted, rep.omitted
    assert "bit strings ending in 0" in rep.omitted and any("omit" in a for a in rep.assumed)


def test_a_family_yielding_an_input_outside_the_domain_is_an_error_naming_it():
    fam = _family(lambda k: itertools.chain(_bits(k), [(2,) * k] if k == 4 else []))
    rep = check_domain(_stmt(), TOY.SPEC.reference, [fam], 4)
    assert rep.failure is not None and "outside the domain at size 4: [2, 2, 2, 2]" in rep.failure, rep.failure
    assert "bits at i = 0" in rep.failure


def test_a_universe_that_misses_a_family_input_is_an_error():
    fam = _family(lambda k: _bits(k), universe=lambda k: (b for b in _bits(k) if b != (1,) * k))
    rep = check_domain(_stmt(), TOY.SPEC.reference, [fam], 3)
    assert rep.failure is not None and "no universe of the row holds: 1" in rep.failure, rep.failure


def test_a_reference_failing_on_an_input_the_input_facts_admit_is_an_error_naming_it():
    v = TOY.VOCABULARY
    start = Fact("starts", (), lambda c: c.acc(0) == 0, "domain", source="reads the run")
    stmt = dataclasses.replace(TOY.STATEMENT, vocabulary=dataclasses.replace(v, facts=(*v.facts, start)))

    def reference(bits):
        if bits == (1, 1):
            raise ValueError("no run of 11")
        return TOY.SPEC.reference(bits)

    rep = check_domain(_stmt(stmt), reference, [TOY.BIT_STRINGS], 3)
    assert rep.failure is not None and "11" in rep.failure and "reference fails" in rep.failure, rep.failure


def test_a_universe_past_the_cap_stops_the_check_where_it_says():
    rep = check_domain(_stmt(), TOY.SPEC.reference, [TOY.BIT_STRINGS], 4, cap=10)
    assert rep.failure is None and rep.sizes == [1, 2] and rep.capped_at == 3 and rep.cap == 10


def test_a_second_row_of_the_same_domain_reads_the_first_one_s_check_and_nothing_else_does():
    first = check_domain(_stmt(), TOY.SPEC.reference, [TOY.BIT_STRINGS], 3)
    again = check_domain(_stmt(), TOY.SPEC.reference, [TOY.BIT_STRINGS], 3)  # traced anew: the same terms
    assert again.cached and again.as_dict() | {"seconds": 0, "cached": False} == first.as_dict() | {"seconds": 0}
    other = dataclasses.replace(TOY.BIT_STRINGS, inputs=lambda k: (b for b in _bits(k) if b[-1] == 0))
    assert check_domain(_stmt(), TOY.SPEC.reference, [other], 3).omitted is not None
    v = TOY.VOCABULARY
    lead = Fact("lead", (), lambda c: c.or_(c.n <= 2, c.bit(0) == 0), "domain")
    stmt = dataclasses.replace(TOY.STATEMENT, vocabulary=dataclasses.replace(v, facts=(*v.facts, lead)))
    changed = check_domain(_stmt(stmt), TOY.SPEC.reference, [TOY.BIT_STRINGS], 3)
    assert not changed.cached and "outside the domain at size 3: 100" in changed.failure


def test_no_universe_or_a_restricted_one_is_an_assumption():
    bare = Family("bit strings", lambda k: _bits(k), lambda k: 2 ** k)
    rep = check_domain(_stmt(), TOY.SPEC.reference, [bare], 4)
    assert rep.failure is None and rep.in_domain == rep.universe_inputs == 0 and rep.family_inputs == 30
    assert len(rep.assumed) == 1 and "declare no universe" in rep.assumed[0]
    part = _family(lambda k: _bits(k), universe=lambda k: _bits(k), restricted="bits in {0, 1}")
    assert "beyond bits in {0, 1}" in assumptions_of([part])[0]
    outside = Family("bad", lambda k: [(2,) * k], lambda k: 1)
    assert "outside the domain" in check_domain(_stmt(), TOY.SPEC.reference, [outside], 2).failure


def test_dfs_digraphs_without_those_whose_source_has_no_out_arc_omit_one():
    fam = dataclasses.replace(
        DIGRAPHS, name="digraphs whose source has an out-arc",
        inputs=lambda n: ((g, s) for g, s in digraphs_with_sources(n) if any(u == s for u, _ in g.arcs)))
    stmt = traced(DfsConstruction("as-written"), None)[2]
    rep = check_domain(stmt, SPEC.reference, [fam], 3)
    assert rep.omitted is not None and "the first at size 1" in rep.omitted, rep.omitted
    whole = check_domain(stmt, SPEC.reference, [DIGRAPHS], 3)
    assert whole.failure is None and whole.omitted is None and whole.in_domain == whole.family_inputs == sum(
        k * digraph_count(k) for k in (1, 2, 3))


# -- the rows --------------------------------------------------------------------------------------------------

def test_the_toy_with_its_universe_is_proved_and_without_one_proved_assuming():
    row = _row([TOY.BIT_STRINGS])
    assert row.verdict == "proved", row.notes
    assert row.details["concrete"]["domain"]["sizes"] == [1, 2, 3, 4]
    assert any("the input families are the statement's domain: the concrete phase" in t
               for t in row.details["trusted_base"])
    bare = _row([Family("bit strings", lambda k: _bits(k), lambda k: 2 ** k)])
    assert bare.verdict == ASSUMING, bare.notes
    assert "declare no universe" in bare.scope and "declare no universe" in bare.details["assumptions"][0]


def test_a_row_whose_family_omits_part_of_the_domain_is_proved_assuming_naming_the_input():
    row = _row([_family(lambda k: (b for b in _bits(k) if b[-1] == 0), name="bit strings ending in 0")])
    assert row.verdict == ASSUMING, row.notes
    assert "the first at size 1: 1 " in row.scope and "bit strings ending in 0" in row.scope


def test_a_row_whose_family_yields_an_input_outside_the_domain_is_an_error_naming_it():
    # the concrete phase evaluates facts to size 3 only: a domain fact false on 1000 passes it, not the domain check
    v = TOY.VOCABULARY
    lead = Fact("lead", (), lambda c: c.or_(c.n <= 3, c.bit(0) == 0), "domain", source="adversarial")
    stmt = dataclasses.replace(TOY.STATEMENT, vocabulary=dataclasses.replace(v, facts=(*v.facts, lead)))
    row = _row([TOY.BIT_STRINGS], stmt, facts_size=3)
    assert row.verdict == "error", row.notes
    assert "yields an input outside the domain at size 4: 1000 (the domain fact lead is false)" in _text(row)
