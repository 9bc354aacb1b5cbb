"""Model descriptions: the defaults, SECTION3, and one clear error per description that states no model."""

from fractions import Fraction

import pytest

from symcot.errors import DescriptionError, UnsupportedDescription
from symcot.model.description import (
    AHAT,
    MASKS,
    SECTION3,
    SMAT,
    UHAT,
    AttentionKind,
    HeadRule,
    ModelDescription,
    Norm,
    Positional,
    require_section3,
)


def test_section3_is_the_default_and_its_rules_are_recognised_under_any_name():
    assert ModelDescription() == ModelDescription("custom")
    assert SECTION3.section3 and ModelDescription("mine").section3
    assert SECTION3.head == HeadRule("future", UHAT("leftmost"))
    assert SECTION3.rational
    for other in (ModelDescription(head=HeadRule("future", UHAT("rightmost"))), ModelDescription(residual="both"),
                  ModelDescription(norm=Norm("pre")), ModelDescription(heads={"T": HeadRule("strict-future")}),
                  ModelDescription(direction="encoder")):
        assert not other.section3
        with pytest.raises(UnsupportedDescription, match="the exact engine runs it"):
            require_section3(other, "toy", "the batched engine")
    require_section3(SECTION3, "toy", "the batched engine")


@pytest.mark.parametrize("desc, named", [
    (ModelDescription(head=HeadRule("future", UHAT("rightmost"))), "the rightmost tie rule"),
    (ModelDescription(heads={"T": HeadRule("strict-future")}), "the strict-future mask"),
    (ModelDescription(heads={(2, "T"): HeadRule("future", SMAT(2))}), "softmax attention"),
    (ModelDescription(head=HeadRule("future", AHAT())), "average hard attention"),
    (ModelDescription(norm=Norm("post", "rms")), "post-norm"),
    (ModelDescription(residual="both"), "the residual around both sublayers"),
    (ModelDescription(direction="recogniser"), "the recogniser direction"),
])
def test_a_refusal_names_the_first_rule_the_engine_cannot_run(desc, named):
    with pytest.raises(UnsupportedDescription, match=f"runs Section 3's rules only, not {named}"):
        require_section3(desc, "toy", "the batched engine")


def test_per_head_rules_by_name_and_by_layer():
    d = ModelDescription(direction="encoder", head=HeadRule("none", AHAT()),
                         heads={"T": HeadRule("past", UHAT("rightmost")), (2, "T"): HeadRule("strict-past", SMAT(2))})
    assert d.rule(1, "B") == HeadRule("none", AHAT())
    assert d.rule(1, "T") == HeadRule("past", UHAT("rightmost"))
    assert d.rule(2, "T").mask == "strict-past" and d.rule(2, "T").attention.tau(5) == 2
    assert not d.rational and "AHAT" in d.summary() and "SMAT (τ = 2)" in d.summary()


def test_temperature_may_depend_on_n_and_is_checked_where_it_is_evaluated():
    k = SMAT(lambda n: Fraction(1, n))
    assert k.tau(4) == Fraction(1, 4)
    assert SMAT("1/2").tau(3) == Fraction(1, 2)
    bad = SMAT(lambda n: 3 - n)
    assert bad.tau(2) == 1
    with pytest.raises(DescriptionError, match="positive, got 0 at n = 3"):
        bad.tau(3)


@pytest.mark.parametrize("make, message", [
    (lambda: HeadRule("causal"), "unknown mask 'causal'"),
    (lambda: AttentionKind("softmax", "leftmost"), "tie rule .* unique hard attention only"),
    (lambda: SMAT(0), "temperature must be positive, got 0"),
    (lambda: SMAT(-1), "temperature must be positive"),
    (lambda: SMAT(0.5), "exact"),
    (lambda: UHAT("middle"), "unknown tie rule 'middle'"),
    (lambda: AttentionKind("average", "leftmost"), "tie rule"),
    (lambda: AttentionKind("unique", "leftmost", 2), "temperature applies to softmax attention only"),
    (lambda: AttentionKind("hardmax"), "unknown attention kind"),
    (lambda: Norm("pre", eps=0), "ε must be positive, got 0"),
    (lambda: Norm("pre", eps=Fraction(-1, 2)), "ε must be positive"),
    (lambda: Norm("middle"), "unknown layer-norm placement"),
    (lambda: Norm("pre", "batch"), "unknown layer-norm kind"),
    (lambda: ModelDescription(direction="sideways"), "unknown direction"),
    (lambda: ModelDescription(residual="ffn"), "unknown residual placement"),
    (lambda: ModelDescription(head=HeadRule("none")), "causal decoder's heads see only earlier positions"),
    (lambda: ModelDescription(heads={"T": HeadRule("past")}), "'T' has the 'past' mask"),
    (lambda: ModelDescription(heads={3: HeadRule()}), "a head key is a name or"),
    (lambda: Positional(lambda i, n: [i], 0), "width must be a positive integer"),
    (lambda: Positional(lambda i, n: [i], 1, "stack"), "unknown positional combination"),
])
def test_bad_descriptions_are_one_error_line(make, message):
    with pytest.raises(DescriptionError, match=message) as e:
        make()
    assert "\n" not in str(e.value)


def test_every_mask_of_the_draft_is_stated():
    assert list(MASKS) == ["none", "future", "strict-future", "past", "strict-past"]

