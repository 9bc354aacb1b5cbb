from fractions import Fraction

import sympy as sp

from symcot.ir.symbols import lam, n
from symcot.prove.lam.fit import first_exceeding, fit


def test_lowest_degree_formula_certified_on_every_size():
    f = fit({1: 0, 2: 1, 3: 3, 4: 5, 5: 7})  # 2n - 3 from n = 2 on
    assert f is not None and sp.expand(f.expr - (2 * n - 3)) == 0
    assert f.sizes == [2, 3, 4, 5] and "n ≥ 2" in f.text
    assert fit({1: 1, 2: 4, 3: 9, 4: 16}).expr == n**2
    assert fit({3: 4, 5: 6, 9: 10}).expr == n + 1  # sizes need not be consecutive
    g = fit({3: 3, 5: 7, 7: 11}, lam)
    assert sp.expand(g.expr - (2 * lam - 3)) == 0 and "λ" in g.text


def test_no_formula_without_a_point_to_confirm_it():
    assert fit({1: 1, 2: 4, 3: 9}) is None  # a quadratic needs a fourth point
    assert fit({1: 1, 2: 2}) is None
    assert fit({1: 1, 2: 3, 3: 4, 4: 8, 5: 16}) is None  # no polynomial of degree ≤ 3 through all but two
    assert fit({1: 5, 2: 5}).expr == 5


def test_first_exceeding():
    f = fit({1: 1, 2: 3, 3: 5})  # 2n - 1
    assert first_exceeding(f, 256, 4) == 129
    assert first_exceeding(f, Fraction(1, 2), 1) == 1
    assert first_exceeding(fit({1: 3, 2: 3}), 10, 1) is None
