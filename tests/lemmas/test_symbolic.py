"""The all-dimension proof through the shared walker: local rows proved, wrong values not, whole-block rows refused."""

import sympy as sp
import z3

from symcot.ir import IndexMatrix, Layout, Map, Shift
from symcot.lemmas import Lemma, LocalIndexMatrix, each
from symcot.lemmas.solver import terms
from symcot.lemmas.symbolic import prove_all_sizes

d = sp.Symbol("d", integer=True, positive=True)
L = Layout("sym.in", [("h", d)])
OUT = Layout("sym.out", [("y", d)])
S_FN = lambda i, j, env: 1 if i == j + 1 else 0  # noqa: E731 - the shift's entries


def _all_sizes(expr, row, out=OUT):
    lem = Lemma("t:sym", L, Map("W_2", L, out, {b: expr for b in out.names}), {b: row for b in out.names},
                relu=False, hyps=(each("h ≥ 0", "h", lambda v, K: v >= 0),), dims={d: 1})
    return prove_all_sizes(lem, *terms(lem))


def test_a_local_row_is_proved_for_every_size():
    r = _all_sizes(Shift(d) @ L.vars().h, lambda x, i, K: K.ite(i >= 1, x.h(i - 1), 0))
    assert r["status"] == "proved" and r["queries"] == 1


def test_a_wrong_block_value_is_not_proved():
    r = _all_sizes(Shift(d) @ L.vars().h, lambda x, i, K: x.h(i))
    assert r["status"] == "sat" and r["model_sizes"][d] >= 1


def test_an_index_matrix_is_proved_by_its_stated_row_and_refused_without_one():
    local = LocalIndexMatrix(d, d, S_FN, "S", sym_row=lambda i, s: [(1, i - 1, z3.And(i >= 1, i - 1 < s[d]))])
    ok = _all_sizes(local @ L.vars().h, lambda x, i, K: K.ite(i >= 1, x.h(i - 1), 0))
    assert ok["status"] == "proved"
    bare = _all_sizes(IndexMatrix(d, d, S_FN, "S") @ L.vars().h, lambda x, i, K: K.ite(i >= 1, x.h(i - 1), 0))
    assert bare["status"] == "nonlocal" and "no symbolic row" in bare["reason"]


def test_a_row_summing_a_block_of_symbolic_size_is_nonlocal():
    r = _all_sizes(L.vars().h.sum(), lambda x, i, K: K.sum(x.vec("h")), out=Layout("sym.s", [("s", 1)]))
    assert r["status"] == "nonlocal" and "sums over d coordinates" in r["reason"]


def test_a_matrix_stated_as_a_sum_is_nonlocal_here():
    from symcot.lemmas.symbolic import SummedIndexMatrix

    J = SummedIndexMatrix(d, d, lambda i, j, env: 1, "J", lambda i, s, summer, col: summer(s[d], col, "row of J"))
    r = _all_sizes(J @ L.vars().h, lambda x, i, K: 0)
    assert r["status"] == "nonlocal" and "sums over the columns" in r["reason"]
