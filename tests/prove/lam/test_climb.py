"""The supremum of λ over one region (symcot.prove.lam.climb.region_sup)."""

from __future__ import annotations

from fractions import Fraction

from symcot.prove.lam.climb import Sup, region_sup
from symcot.replay.symbolic import LAMBDA, Atom, Poly

LAM = Poly.var(LAMBDA)


def test_a_closed_bound_is_attained_and_an_open_one_is_not():
    closed = region_sup([Atom(LAM, ">"), Atom(3 - LAM, ">=")])
    assert closed.found and closed.value == Fraction(3) and closed.attained
    opened = region_sup([Atom(LAM, ">"), Atom(Fraction(5, 2) - LAM, ">")])
    assert opened.found and opened.value == Fraction(5, 2) and not opened.attained


def test_an_empty_region_has_no_supremum_and_an_unbounded_one_says_so():
    assert not region_sup([Atom(LAM - 2, ">"), Atom(1 - LAM, ">")]).found
    up = region_sup([Atom(LAM - 2, ">")])
    assert up.found and up.unbounded


def test_better_prefers_a_larger_value_then_an_attained_one():
    two_open, two_closed, three = Sup(Fraction(2), found=True), Sup(Fraction(2), attained=True, found=True), \
        Sup(Fraction(3), found=True)
    assert two_open.better(three) and not three.better(two_closed)
    assert two_open.better(two_closed) and not two_closed.better(two_open)
    assert not two_open.better(Sup())


def test_a_climb_row_reads_as_an_answer():
    import proofs.cot_path_to_tree.thm_cotwidoftree as width_proof
    from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction
    from symcot.prove.lam.climb import answer, lambda_min
    from symcot.prove.symbolic_target import SymbolicTarget

    target = SymbolicTarget("thm:cotwidoftree", lambda: WidthTreeConstruction("repaired"), width_proof.SPEC,
                            width_proof.TREES)
    row = lambda_min(target, 3)
    a = answer(row)
    # λ > 2 works, λ = 2 fails: the value is the supremum of the failing λ, not itself a working one
    assert (a.value, a.scope, a.at, a.holds_at_value, a.certified) == (2, "size", "n = 3", False, True)
    assert a.certificate.at["verdict"] == "proved" and a.certificate.below["numeric_replay"] is not None


def test_answers_of_rows_without_a_value():
    from symcot.prove.lam.climb import answer

    none = answer({"n": 4, "lambda_min": None, "certified": True, "counterexample_large_lambda": {"point": "λ=1000"}})
    assert none.value is None and none.holds_at_value is None and none.certificate.below == {"point": "λ=1000"}
    free = answer({"n": 2, "lambda_min": 0, "certified": True, "statement": "every λ > 0 works"})
    assert free.value == 0 and free.holds_at_value is None and free.certificate.at == "every λ > 0 works"
