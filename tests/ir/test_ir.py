"""The IR: symbolic sizes, dimension and degree checks at construction time, exact instantiation."""

from fractions import Fraction

import pytest
import sympy as sp

from symcot.errors import DegreeError, DimensionError
from symcot.ir import (
    Identity,
    IndexMatrix,
    Layout,
    Map,
    Ones,
    Shift,
    bcast,
    const,
    dot,
    gate,
    hadamard,
    lam,
    n,
    ones,
    outer,
    unit,
)
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space

L = Layout("t", [("u", n), ("v", n), ("s", 1)])
ALL = ["u", "v", "s"]


def test_layout_symbolic_dim_offsets_and_concrete_selectors():
    assert sp.expand(L.dim - (2 * n + 1)) == 0
    assert L.offset("v") == n
    cl = L.instantiate({n: 3})
    assert cl.dim == 7 and cl.offsets == {"u": 0, "v": 3, "s": 6}
    vec = cl.assemble({"u": [1, 0, 0], "s": 5})
    assert cl.pi("u", vec) == [1, 0, 0] and cl.pi("s", vec) == [5] and cl.pi("v", vec) == [0, 0, 0]
    assert cl.coordinate_name(4) == "v[1]" and cl.coordinate_name(6) == "s"


def test_layout_errors():
    with pytest.raises(DimensionError, match="repeats"):
        Layout("bad", [("a", 1), ("a", n)])
    with pytest.raises(DimensionError, match="no block 'w'"):
        L.block("w")
    with pytest.raises(DimensionError, match="size 3"):
        L.instantiate({n: 3}).assemble({"u": [1, 0]})


def test_map_requires_every_output_block_stated():
    x = L.vars()
    with pytest.raises(DimensionError, match=r"not stated"):
        Map("W", L, L, {"u": x.v})
    with pytest.raises(DimensionError, match="both"):
        Map("W", L, L, {"u": x.v}, keep=["u", "v", "s"])


def test_map_size_mismatch_is_an_error_naming_the_block():
    x = L.vars()
    with pytest.raises(DimensionError, match="block 's' has size 1 but is assigned an expression of size n"):
        Map("W", L, L, {"s": x.u}, keep=["u", "v"])
    with pytest.raises(DimensionError, match="cannot add"):
        _ = x.u + x.s
    with pytest.raises(DimensionError):
        hadamard(x.u, x.s)
    with pytest.raises(DimensionError, match="columns"):
        _ = Shift(n + 1) @ x.u


def test_degree_checks():
    x = L.vars()
    with pytest.raises(DegreeError):
        hadamard(hadamard(x.u, x.v), x.u)
    with pytest.raises(DegreeError):
        Map("W", L, L, {"s": dot(x.u, x.v)}, keep=["u", "v"], max_degree=1)


def test_map_reads_only_its_input_layout():
    other = Layout("o", [("u", n)])
    with pytest.raises(DimensionError, match="input layout"):
        Map("W", L, L, {"u": other.vars().u}, keep=["v", "s"])


def test_instantiate_is_exact_and_lambda_can_stay_symbolic():
    x = L.vars()
    w = Map("W", L, L, {"u": lam * x.v - Fraction(1, 2) * ones(n), "s": dot(ones(n) - x.u, x.v)}, keep=["v"])
    c = w.instantiate({n: 2}, {lam: 5})
    out = c([1, 0, 3, 4, 9])
    assert out == [15 - Fraction(1, 2), 20 - Fraction(1, 2), 3, 4, 0 * 3 + 1 * 4]
    sym = w.instantiate({n: 2})
    val = sym([1, 0, 3, 4, 9])
    assert sp.simplify(val[0] - (3 * lam - sp.Rational(1, 2))) == 0


def test_gate_outer_bcast_unit_and_structured_matrices():
    x = L.vars()
    w = Map("W", L, L, {
        "u": gate(x.s, x.v) + bcast(x.s, n) + unit(n, 0),
        "v": Shift(n) @ x.u,
        "s": (Ones(1, n) @ x.u),
    }, zero=[])
    c = w.instantiate({n: 3})
    out = c([1, 2, 3, 4, 5, 6, 2])
    assert out[:3] == [2 * 4 + 2 + 1, 2 * 5 + 2, 2 * 6 + 2]
    assert out[3:6] == [0, 1, 2] and out[6] == 6
    m = Layout("m", [("a", 2), ("b", 3), ("ab", 6)])
    y = m.vars()
    o = Map("O", m, m, {"ab": outer(y.a, y.b)}, keep=["a", "b"]).instantiate({})
    assert o([1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0])[5:] == [3, 4, 5, 6, 8, 10]


def test_index_matrix_and_product_dimension_errors():
    p = IndexMatrix(n, n, lambda i, j, env: 1 if i + j == env[n] - 1 else 0, "P")
    assert p.entries({n: 3}) == {(0, 2): 1, (1, 1): 1, (2, 0): 1}
    with pytest.raises(DimensionError):
        _ = Identity(n) @ Identity(n + 1)
    assert (Identity(n) @ Shift(n)).entries({n: 3}) == Shift(n).entries({n: 3})


def test_concrete_map_coefficients_and_mutation():
    x = L.vars()
    c = Map("W", L, L, {"s": dot(x.u, x.v) + 3}, keep=["u", "v"]).instantiate({n: 2})
    assert c.coefficient(4) == 3 and c.coefficient(4, 0, 2) == 1 and c.coefficient(0, 0) == 1
    m = c.with_coefficient(4, (0, 2), 7)
    assert m.coefficient(4, 0, 2) == 7 and m([1, 0, 2, 0, 0])[4] == 3 + 14
    with pytest.raises(DimensionError):
        c([1, 2, 3])


def test_decoder_structure_checks_and_size_accounting():
    x = L.vars()
    k1 = Layout("k1", [("k", 1)])
    k2 = Layout("k2", [("k", n)])
    with pytest.raises(DimensionError, match="query space"):
        Head("h", Map("Q", L, k1, {"k": x.s}), Map("K", L, k2, {"k": x.u}), Map("V", L, L, keep=ALL))
    head = Head("h", Map("Q", L, k2, {"k": x.v}), Map("K", L, k2, {"k": x.u}), Map("V", L, L, keep=ALL))
    vs = value_space([head])
    bad_wo = Map("W_O", L, L, keep=ALL)
    with pytest.raises(DimensionError, match="W_O reads"):
        Attention([head], bad_wo)
    hid = Layout("hid", [("z", 2 * n)])
    with pytest.raises(DimensionError, match="W_1 writes"):
        FFN(Map("W_1", L, hid, {"z": const(0, 2 * n)}), Map("W_2", L, L, keep=ALL))
    w_o = Map("W_O", vs, L, {"u": vs.vars()["h.v"]}, zero=["v", "s"])
    ffn = FFN(Map("W_1", L, hid, {"z": const(1, 2 * n)}), Map("W_2", hid, L, zero=ALL))
    dec = Decoder("d", L, [Layer(Attention([head], w_o), ffn), Layer(None, FFN(Map("A", L, L, keep=ALL),
                                                                            Map("B", L, L, keep=ALL)))])
    sizes = dec.sizes()
    assert sizes.layers == 2 and sizes.heads == [1, 0] and sizes.max_heads == 1
    assert sp.expand(sizes.d - (2 * n + 1)) == 0 and sizes.ffn_hidden[0] == 2 * n
    assert sizes.as_dict()["key_dims"] == [["n"], []]


def test_floats_are_refused_wherever_a_constant_enters():
    x = L.vars()
    for make in (lambda: 0.5 * x.u, lambda: const(0.5, n), lambda: x.u * sp.Float(2.0), lambda: x.s + 0.25):
        with pytest.raises(TypeError, match="float"):
            make()


def test_rectangular_shift_and_ramp_columns():
    from symcot.ir import Ramp

    r = Shift(n, 1, name="R", cols=n - 1)  # embed n - 1 coordinates into n, from index 1
    assert r.entries({n: 3}) == {(1, 0): 1, (2, 1): 1} and r.rows == n and r.cols == n - 1
    assert r.latex() == "R_{n\\times n - 1}" and Shift(n).latex() == "S_{n}"
    a = Ramp(n, -1, -1, tex="a")  # -1 - i
    assert a.entries({n: 3}) == {(0, 0): -1, (1, 0): -2, (2, 0): -3} and a.latex() == "a"
    assert Ramp(3, 0, 1, tex="b").entries({}) == {(1, 0): 1, (2, 0): 2}  # zero entries left out
    L = Layout("t", [("m", 1), ("h", 1), ("p", n)])
    x = L.vars()
    out = Layout("o", [("u", n), ("p", n + 1)])
    cm = Map("W", L, out, {"u": a @ x.m + bcast(x.h, n), "p": Shift(n + 1, 1, cols=n) @ x.p}).instantiate({n: 2})
    assert cm([2, 5, 7, 8]) == [5 - 2, 5 - 4, 0, 7, 8]
