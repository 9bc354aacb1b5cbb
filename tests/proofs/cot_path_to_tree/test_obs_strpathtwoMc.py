"""obs:strpathtwoMc: the printed condition does not determine t'; the intended t' does, a wrong one is refuted."""

from __future__ import annotations

import importlib

import pytest

from symcot.inputs.dyck import dyck_words, heights


@pytest.fixture(scope="module")
def OBS():
    return importlib.import_module("proofs.cot_path_to_tree.obs_strpathtwoMc")


def test_verdicts_of_the_three_readings(claims):
    rows = {r.variant: r for r in claims["obs:strpathtwoMc"].run(max_size=8)}
    lit, prev, intended = rows["as-written"], rows["t-minus-1"], rows["intended"]
    assert lit.verdict == "refuted" and lit.counterexample["input"]["word"] == "UD"
    assert lit.counterexample["step"] == 2 and lit.counterexample["got"] == [0, 1]
    assert prev.verdict == "refuted" and prev.counterexample["input"]["word"] == "UUDD"
    assert (prev.counterexample["step"], prev.counterexample["expected"], prev.counterexample["got"]) == (4, 0, 1)
    assert intended.verdict == "verified" and intended.max_size == 8


def test_t_minus_1_always_satisfies_the_printed_condition(OBS):
    for m in range(1, 7):
        for w in dyck_words(m):
            s = heights(w)
            for t in range(1, len(w) + 1):
                if s[t] < s[t - 1]:
                    cands = OBS.literal_candidates(s, t)
                    assert t - 1 in cands and OBS.parents_last_point(s, t)[0] in cands


def test_a_wrong_choice_of_the_parents_point_is_refuted(OBS):
    """The first point ever at the parent's height forgets the children folded since: UDUD loses the first child."""
    fails = [w for m in range(1, 6) for w in dyck_words(m) if OBS.rule_failure(w, OBS.first_point_at_height)]
    assert fails and all(OBS.rule_failure(w, OBS.parents_last_point) is None for w in dyck_words(5))
    assert min(fails, key=lambda w: (len(w), w)) == "UDUD"
