"""Dyck-(k, D) by D + 1 UHAT layers: refuted as written at w = [] (k = 1, D = 1); the guard and sentinel-blind repair
holds on the (k, D) grid; each reference is checked against a plain brute force."""

import itertools
import re

import pytest

from proofs.transformer_cookbook.dyck_uhat import (
    DYCK_UHAT,
    GRID,
    REPAIRED,
    VARIANTS,
    alphabet,
    check_of,
    grid_check,
    member,
    plain_family,
    wrapped_family,
)
from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress


def _rows(size=None):
    return {chk.variant: DYCK_UHAT.run_check(chk, size) for chk in DYCK_UHAT.checks}


def _cex(row):
    c = row.counterexample
    return c["k"], c["D"], c["input"]["text"], c["position"], c.get("layer")


def brute_member(w, k, depth):
    """Membership by the grammar S -> [_i S ]_i S | ε, depth ≤ D, without a stack: erase innermost pairs."""
    innermost = re.compile("|".join(re.escape(o + c) for o, c in zip(alphabet(k)[:k], alphabet(k)[k:])))
    s, rounds = "".join(w), 0
    while s:
        t = innermost.sub("", s)  # one round: every innermost pair at once
        if t == s:
            return False
        s, rounds = t, rounds + 1
    return rounds <= depth


@pytest.mark.parametrize("k", [1, 2, 3])
def test_the_stack_reference_is_the_pair_erasing_brute_force(k):
    for depth in (1, 2, 3):
        for n in range(7 if k < 3 else 5):
            for w in itertools.product(alphabet(k), repeat=n):
                assert member(w, depth) == brute_member(w, k, depth), ("".join(w), depth)


def test_erasing_counts_the_depth():
    assert brute_member("[[]]", 1, 2) and not brute_member("[[]]", 1, 1)
    assert brute_member("[()]", 2, 2) and not brute_member("[(])", 2, 3)


def test_verdicts_of_every_variant_at_the_default_size():
    rows = _rows()
    assert {v: r.verdict for v, r in rows.items()} == {
        "as-written": "refuted", "guard": "refuted", "blind": "refuted", "no-sentinels": "refuted",
        "no-sentinels-guard": "verified", "repaired": "verified", "repaired-rightmost": "verified",
        "future-masks": "refuted", "key-p": "refuted"}
    # the smallest counterexamples: the sentinels need a round of their own (k = 1, D = 1: BOS and EOS stay
    # unmatched), a matched bracket takes an error from EOS (D = 2), and from ] in [()] without sentinels
    assert _cex(rows["as-written"]) == (1, 1, "w = []", 3, 2)
    assert _cex(rows["guard"]) == (1, 1, "w = []", 3, 2)
    assert _cex(rows["blind"]) == (1, 2, "w = []", 3, 3)
    assert _cex(rows["no-sentinels"]) == (2, 2, "w = [()]", 3, 3)
    assert _cex(rows["future-masks"])[:3] == (1, 1, "w = []")
    assert _cex(rows["key-p"])[:3] == (1, 2, "w = [[]]")
    assert rows["repaired"].inputs_checked == 3 * (126 + 340 + 258)  # 1 ≤ |w| ≤ 6, 4, 3 for k = 1, 2, 3
    assert rows["repaired"].max_size == 6
    assert DYCK_UHAT.readings["key-p"].kind == "mutant" and DYCK_UHAT.readings["repaired"].kind == "repair"


def test_the_as_written_failure_is_the_sentinels_and_the_guard_is_its_second():
    opt_guard = VARIANTS["guard"][0]
    row = check_of("guard", opt_guard)((1, 2), 4).run(RunContext("x", 4, Progress(False)))
    assert row.verdict == "refuted" and row.counterexample["input"]["string"] == "^[[]]$"
    # with the blind final head alone, the unguarded update errs a matched [ against EOS at D = 2
    row = check_of("blind", VARIANTS["blind"][0])((1, 2), 4).run(RunContext("x", 4, Progress(False)))
    assert row.counterexample["input"]["string"] == "^[]$" and row.counterexample["layer"] == 3


def test_the_grid_reports_the_first_failing_cell():
    grid = grid_check("g", VARIANTS["as-written"][0])
    grid.points = [(2, 1)]
    row = grid.run(RunContext("x", 4, Progress(False)))
    assert row.verdict == "refuted" and (row.counterexample["k"], row.counterexample["D"]) == (2, 1)
    assert row.notes[0] == "k = 2, D = 1"


def test_families():
    fam = wrapped_family(2, 3)
    assert fam.count(2) == 16 and next(iter(fam.inputs(0))) == ("^", "$")
    assert plain_family(1, 3).count(3) == 8


def test_the_empty_word_is_accepted_by_the_repair_and_rejected_without_sentinels_matched():
    for k, depth in GRID:
        check = check_of("repaired", REPAIRED)((k, depth), 1)
        cons = check.construction()
        assert check.per_input(cons, ("^", "$")) is None  # accepted, and ε ∈ Dyck-(k, D)
    cons = check_of("as-written", VARIANTS["as-written"][0])((1, 1), 1).construction()
    assert cons.read(cons.concrete(("^", "$")), cons.run(("^", "$")).outputs[-1]) is True  # BOS, EOS match


@pytest.mark.slow
def test_the_repair_at_larger_sizes():
    for k, depth, length in ((1, 3, 10), (2, 2, 6), (2, 3, 6), (3, 2, 4)):
        row = check_of("repaired", REPAIRED)((k, depth), length).run(RunContext("x", length, Progress(False)))
        assert row.verdict == "verified", (k, depth)


def _bits(variant, k, depth, w, block):
    cons = check_of(variant, VARIANTS[variant][0])((k, depth), len(w)).construction()
    s = ("^", *w, "$")
    enc, dec = cons.run(s), cons.concrete(s)
    return [[dec.layout.pi(block, enc.records[i][layer].out)[0] for i in range(len(s))] for layer in range(depth)]


def test_why_as_written_fails_the_sentinels_stay_unmatched_and_a_matched_bracket_errs():
    # D = 1: [ and ] match in the one round; BOS and EOS, which wrap them, would match in a second
    assert _bits("as-written", 1, 1, "[]", "m") == [[0, 1, 1, 0]]
    # D = 2, the final head blind to the sentinels: in round 2 the matched [ sees EOS as its nearest unmatched
    # close, of another kind, and the matched ] sees BOS: both take an error (no guard ¬m_i)
    assert _bits("blind", 1, 2, "[]", "e") == [[0, 0, 0, 0], [0, 1, 1, 0]]
    assert _bits("repaired", 1, 2, "[]", "e") == [[0, 0, 0, 0], [0, 0, 0, 0]]
    assert _bits("repaired", 1, 2, "[]", "m") == [[0, 1, 1, 0], [1, 1, 1, 1]]
