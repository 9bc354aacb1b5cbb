"""An all-n row with an obligation not proved: explained, and refuted where a real counterexample exists."""

import dataclasses

import pytest

from symcot import AllNCheck
from symcot.check.context import RunContext
from symcot.constructions.deep import deep_mutants
from symcot.report.explain import render_obligations
from tests.prove.alln.prefix_toys import capped, positions, ps


def _run(make, timeout_s=2):
    return AllNCheck(make, ps.SPEC, [ps.BIT_STRINGS], timeout_s=timeout_s, second_solver=False).run(
        RunContext("demo:prefixsum", 8))


@pytest.mark.parametrize("k", [5, 8, 12])
def test_a_counter_capped_at_a_constant_is_refuted_at_its_first_wrong_length(k):
    row = _run(capped(k))
    assert row.verdict == "refuted" and row.counterexample["input"] == {"text": "1" * (k + 1)}
    assert row.counterexample["block"] == "sum" and row.max_size == k
    assert row.details["search"]["found"] and row.notes[-1].startswith(f"the decoder departs from the reference at "
                                                                       f"n = {k + 1}")
    failed = [o for o in row.details["obligations"] if o["status"] != "proved"]
    assert failed and all("explain" in o for o in failed)
    assert any(f"ReLU(acc(t) + bit(t) - {k})" in o["explain"]["equation"]["decoder"] for o in failed)


@pytest.mark.parametrize("mutant", ["shift:1/W_1/pos<-pos@8", "max-unit:1/W_1/sum@8", "max-block:1/W_1/sum<-sum@8",
                                    "max-block:1/W_O/bit<-R.bit@8"])
def test_deep_mutants_of_every_kind_right_up_to_8_are_refuted_at_9(mutant):
    """A ``Shift(n, 8)`` term, ``max(0, n - 8)`` on a unit or a block: the same weights as the base up to n = 8."""
    made = next(m for m in deep_mutants(ps.as_written(), 8) if m.variant == f"as-written~{mutant}")
    row = _run(lambda: made)
    assert row.verdict == "refuted" and len(row.counterexample["input"]["text"]) == 9


def test_a_decoder_with_a_constant_number_of_positions_is_refuted():
    row = _run(positions(8))
    assert row.verdict == "refuted" and row.counterexample["input"] == {"text": "000000001"}


def test_a_missing_derived_fact_is_explained_and_no_counterexample_is_claimed():
    voc = dataclasses.replace(ps.VOCABULARY, facts=tuple(f for f in ps.VOCABULARY.facts if f.name != "nonneg"))

    class WithoutNonneg(ps.PrefixSum):
        all_n = dataclasses.replace(ps.STATEMENT, vocabulary=voc)

    row = _run(lambda: WithoutNonneg("demo:prefixsum", "without nonneg", ps.DECODER))
    assert row.verdict == "unknown" and row.counterexample is None
    assert row.notes[-1].startswith("first obligation not proved: [unknown] step: output y_{t+1} (t + 1 < T)")
    assert row.notes[-3].startswith("no counterexample found: exact replay of every input (bit strings up to n = 14)")
    assert row.notes[-2].startswith("why: decoder ReLU(acc(t) + bit(t)) vs statement acc(t + 1); timed out after")
    sums = [o for o in row.details["obligations"] if o["where"].endswith("block sum") and o["phase"] == "step"]
    e = sums[0]["explain"]
    assert e["equation"] == {"decoder": "ReLU(acc(t) + bit(t))", "statement": "acc(t + 1)"}
    assert "nonneg" not in str(e["in_scope"]) and any(f.startswith("step:acc") for f in e["in_scope"]["facts"])
    values = (e.get("counter_model") or e["candidate_model"])["values"]
    acc_t = next(v for v in values if v.startswith("acc(t) ="))
    assert int(acc_t.rsplit(" = ", 1)[1]) < 0  # the value the missing fact rules out
    text = render_obligations([row])
    assert text.count("discharged by") == sum(o["status"] == "proved" for o in row.details["obligations"])
    assert "the equation that failed" in text and ("to raise the limit" in text or "counter-model" in text)
