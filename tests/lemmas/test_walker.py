"""The shared Z3 walker of the IR: rows at a symbolic index, the same reading whatever the index shape, refusals."""

import pytest
import sympy as sp
import z3

from symcot.ir import Commutation, IndexMatrix, Layout, Map, Ones, Shift, UnitVector, dot, m
from symcot.ir.layout import ConcreteLayout
from symcot.lemmas.kit import NonLocal, z3_to_exact
from symcot.lemmas.walker import Unsupported, Walker, flat_shape, shape_of

d = sp.Symbol("d", integer=True, positive=True)


def _walker(sizes, **kw):
    return Walker(sizes, {}, kw.pop("summer", None), **kw)


def _fn(name):
    return z3.Function(name, z3.IntSort(), z3.RealSort())


def _proves(goal_differs, *side):
    """``unsat`` of ``side ∧ goal_differs``: the walker's row equals the claimed value everywhere."""
    s = z3.Solver()
    s.add(*side, goal_differs)
    return s.check() == z3.unsat


def test_a_shift_row_is_proved_for_every_size_and_a_wrong_value_is_not():
    L, Out = Layout("w.in", [("h", d)]), Layout("w.out", [("y", d)])
    mp = Map("W", L, Out, {"y": 2 * (Shift(d) @ L.vars().h)})
    dz, i, h = z3.Int("d"), z3.Int("i"), _fn("h")
    got = _walker({d: dz}, shape=flat_shape).block(mp, "y", lambda b, idx: h(idx[0]), (i,))
    side = (dz >= 1, i >= 0, i < dz)
    assert _proves(got != z3.If(i >= 1, 2 * h(i - 1), 0), *side)
    assert not _proves(got != 2 * h(i - 1), *side)  # row 0 reads nothing: h(-1) is not its value
    assert not _proves(got != z3.If(i >= 1, 2 * h(i), 0), *side)


def test_the_commutation_matrix_reads_the_same_coordinates_flat_and_by_index_pairs():
    L, Out = Layout("k.in", [("a", m**2)]), Layout("k.out", [("b", m**2)])
    mp = Map("P", L, Out, {"b": Commutation(m) @ L.vars().a})
    env = {m: 3}
    x = [z3.Real(f"x{k}") for k in range(9)]
    flat = _walker({m: z3.IntVal(3)}, shape=flat_shape)
    pairs = _walker({m: z3.IntVal(3)})
    assert shape_of(m**2) == (m, m) and flat_shape(m**2) == (m**2,)
    dense = ConcreteLayout(Out, env).dim
    for k in range(dense):
        want = x[(k % 3) * 3 + k // 3]
        by_flat = flat.block(mp, "b", lambda b, idx: x[z3.simplify(idx[0]).as_long()], (z3.IntVal(k),))
        by_pair = pairs.block(mp, "b", lambda b, idx: x[z3.simplify(idx[0] * 3 + idx[1]).as_long()],
                               tuple(z3.IntVal(v) for v in divmod(k, 3)))
        assert z3.simplify(by_flat - want) == 0 and z3.simplify(by_pair - want) == 0


def test_a_unit_vector_row_is_one_at_its_index_only():
    L, Out = Layout("u.in", [("s", 1)]), Layout("u.out", [("e", d)])
    mp = Map("E", L, Out, {"e": UnitVector(d, 2) @ L.vars().s})
    w = _walker({d: z3.IntVal(5)}, shape=flat_shape)
    vals = [z3_to_exact(z3.simplify(w.block(mp, "e", lambda b, idx: z3.RealVal(7), (z3.IntVal(k),))))
            for k in range(5)]
    assert vals == [0, 0, 7, 0, 0]


def test_an_index_matrix_without_a_symbolic_row_is_refused():
    ix = IndexMatrix(d, d, lambda i, j, env: 1 if i == j else 0, "D")
    L, Out = Layout("i.in", [("h", d)]), Layout("i.out", [("y", d)])
    mp = Map("W", L, Out, {"y": ix @ L.vars().h})
    h = _fn("h")
    with pytest.raises(Unsupported, match="no symbolic row for the matrix IndexMatrix"):
        _walker({d: z3.Int("d")}, shape=flat_shape).block(mp, "y", lambda b, idx: h(idx[0]), (z3.Int("i"),))


def test_an_index_matrix_is_read_through_the_row_its_owner_states():
    ix = IndexMatrix(d, d, lambda i, j, env: 1 if i == j else 0, "D")
    L, Out = Layout("i.in", [("h", d)]), Layout("i.out", [("y", d)])
    mp = Map("W", L, Out, {"y": ix @ L.vars().h})
    h, i = _fn("h"), z3.Int("i")
    w = _walker({d: z3.Int("d")}, shape=flat_shape,
                local_rows=lambda mat, idx: [(3, idx, True)] if mat is ix else None)
    got = w.block(mp, "y", lambda b, idx: h(idx[0]), (i,))
    assert _proves(got != 3 * h(i))


def test_a_sum_over_a_symbolic_size_goes_to_the_summer():
    L, Out = Layout("s.in", [("h", d), ("g", d)]), Layout("s.out", [("s", 1), ("t", 1)])
    x = L.vars()
    mp = Map("W", L, Out, {"s": Ones(1, d) @ x.h, "t": dot(x.h, x.g)})
    h, g = _fn("h"), _fn("g")
    read = {"h": lambda idx: h(idx[0]), "g": lambda idx: g(idx[0])}
    refusing = _walker({d: z3.Int("d")}, shape=flat_shape)
    with pytest.raises(NonLocal, match="sums over d coordinates"):
        refusing.block(mp, "s", lambda b, idx: read[b](idx), (0,))
    with pytest.raises(NonLocal, match="the dot product .* reads every coordinate"):
        refusing.block(mp, "t", lambda b, idx: read[b](idx), (0,))
    seen: list[str] = []

    def summer(size, body, what):
        seen.append(what)
        return z3.Real(f"sum{len(seen)}")

    w = _walker({d: z3.Int("d")}, shape=flat_shape, summer=summer)
    assert z3.eq(w.block(mp, "s", lambda b, idx: read[b](idx), (0,)), z3.Real("sum1"))
    assert z3.eq(w.block(mp, "t", lambda b, idx: read[b](idx), (0,)), z3.Real("sum2"))
    assert seen[0].startswith("1ᵀ") and "ᵀ" in seen[1]


def test_an_index_of_the_wrong_shape_and_a_size_without_a_shape_are_refused():
    L, Out = Layout("p.in", [("a", m**2)]), Layout("p.out", [("b", m**2)])
    mp = Map("P", L, Out, {"b": Commutation(m) @ L.vars().a})
    with pytest.raises(Unsupported, match="index with 1 components"):
        _walker({m: z3.Int("m")}).block(mp, "b", lambda b, idx: z3.Real("v"), (z3.Int("i"),))
    with pytest.raises(Unsupported, match="no index shape"):
        shape_of(m**2 + 1)


def test_a_matrix_stated_as_a_sum_over_its_columns_goes_to_the_summer():
    # a row of J (every entry 1) as an IndexMatrix, stated as Σ_j column(j): the summer names the sum
    L, Out = Layout("w.in", [("h", d)]), Layout("w.out", [("y", d)])
    J = IndexMatrix(d, d, lambda i, j, env: 1, "J")
    mp = Map("W", L, Out, {"y": J @ L.vars().h + 3})
    seen = []

    def summer(size, body, what):
        seen.append((size, what))
        return z3.Real("S")

    def local_sum(mat, idx, column):
        return summer(z3.Int("d"), lambda j: column((j,)), "row of J") if mat is J else None

    got = _walker({d: z3.Int("d")}, shape=flat_shape, summer=summer, local_sum=local_sum).block(
        mp, "y", lambda b, idx: _fn("h")(idx[0]), (z3.Int("i"),))
    assert _proves(got != z3.Real("S") + 3) and [w for _s, w in seen] == ["row of J"]
    with pytest.raises(Unsupported, match="no symbolic row"):  # without the hook: no form for the IndexMatrix
        _walker({d: z3.Int("d")}, shape=flat_shape).block(mp, "y", lambda b, idx: _fn("h")(idx[0]), (z3.Int("i"),))
