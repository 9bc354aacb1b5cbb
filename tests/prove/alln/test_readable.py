"""Z3 terms of an obligation printed as a person writes them."""

import z3

from symcot.prove.alln.readable import applications, constants, name_of, relu_arg, relus, show


def _relu(a):
    return z3.If(a > 0, a, 0)


def test_a_block_value_reads_with_relus_and_without_zeros_units_and_casts():
    acc, bit = z3.Function("acc", z3.IntSort(), z3.IntSort()), z3.Function("bit", z3.IntSort(), z3.IntSort())
    t = z3.Int("t!")
    a = 1 * z3.ToReal(acc(t)) + 0 + 1 * z3.ToReal(z3.IntVal(0)) + 1 * z3.ToReal(bit(t)) + 0
    goal = _relu(a) + -1 * _relu(a + -1 * 5) == 1 * z3.ToReal(acc(t + 1)) + 0
    assert show(goal) == "ReLU(acc(t) + bit(t)) - ReLU(acc(t) + bit(t) - 5) = acc(t + 1)"
    assert [show(x) for x in applications(goal)] == ["acc(t)", "t", "bit(t)", "acc(t + 1)"]
    assert [show(x) for x in relus(goal)] == ["acc(t) + bit(t)", "acc(t) + bit(t) - 5"]
    assert [show(c) for c in constants(goal)] == ["t"]


def test_an_if_that_is_not_a_relu_is_printed_as_a_case():
    x = z3.Int("x")
    assert relu_arg(z3.If(x > 0, x, 1)) is None and relu_arg(z3.If(x > 1, x, 0)) is None
    assert relu_arg(z3.If(x >= 0, x, 0)) is not None
    assert show(z3.If(x > 1, x, 0)) == "(if x > 1 then x else 0)"
    assert show(z3.And(x >= 0, z3.Not(x == 2))) == "(x ≥ 0) ∧ (¬(x = 2))"
    assert show(2 * (x + 1)) == "2·(x + 1)" and show(x - (x + 1)) == "x - x - 1"  # signs distributed
    assert show(z3.RealVal("1/2") * x) == "1/2·x"


def test_the_provers_own_names_lose_their_marks():
    assert name_of(z3.Int("t!").decl()) == "t" and name_of(z3.Int("sum_i0!11").decl()) == "sum_i0"
