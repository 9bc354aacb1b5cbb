"""The Gadget object: naming, writes, re-application, shared units, errors."""

import pytest

from proofs.cot_path_to_tree.gadgets import hidden_units, ind_pos, ind_pos_at, ind_zero_at, merge_units, widsupffn
from symcot.errors import DimensionError
from symcot.gadgets.base import is_zero
from symcot.ir import Layout, n, zeros

L = Layout("x", [("a", 1), ("b", 1), ("c", 1), ("one", 1)])
X = L.vars()


def test_units_are_named_by_the_caller_in_the_gadgets_order():
    g = widsupffn(X.a, X.b, X.c, n, units={"h2": "twd_unit"})
    assert [u for u, _s in g.units()] == ["h1", "twd_unit", "h3", "h4"]
    with pytest.raises(DimensionError, match="4 units"):
        widsupffn(X.a, X.b, X.c, n, units=("p", "q"))
    with pytest.raises(DimensionError, match="unknown roles"):
        widsupffn(X.a, X.b, X.c, n, units={"h9": "z"})
    with pytest.raises(DimensionError, match="share a name"):
        widsupffn(X.a, X.b, X.c, n, units=("z", "z", "y", "w"))
    with pytest.raises(DimensionError, match="unknown outputs"):
        widsupffn(X.a, X.b, X.c, n, writes={"v9": "a"})


def test_on_applies_the_same_function_parameters_and_names_to_other_inputs():
    g = widsupffn(X.a, X.b, X.c, n, units=("p", "q", "r", "s"), writes={"v3": "c"})
    M = Layout("y", [("v1", 1), ("v2", 1), ("v3", 1)])
    y = M.vars()
    h = g.on({"v1": y.v1, "v2": y.v2, "v3": y.v3})
    assert h.params == {"lam": n} and dict(h.names) == dict(g.names) and dict(h.writes) == {"v3": "c"}
    assert h.w1()["q"].latex() == (y.v2 - n * y.v1).latex()
    with pytest.raises(DimensionError, match="no expression"):
        g.on({"v1": y.v1})


def test_shared_units_must_agree_and_appear_once():
    d0 = ind_pos(X.b, X.c, units=("b", "c"))
    d1 = ind_zero_at(X.a, X.one, units=("b2", "b", "c"))  # "b" would be given v = a: a conflict
    with pytest.raises(DimensionError, match="two pre-activations"):
        merge_units(d0, d1)
    d2 = ind_pos_at(-X.a, X.one, units=("na", "na1"))
    d3 = ind_pos_at(-X.a, X.one, units=("na", "na1"), writes={"ind": "c"})
    assert list(merge_units(d2, d3)) == ["na", "na1"] and hidden_units(d0, d2, d3) == [("b", 1), ("c", 1),
                                                                                       ("na", 1), ("na1", 1)]


def test_a_zero_output_is_a_zeroed_block():
    assert is_zero(zeros(3)) and not is_zero(X.a)


def test_describe_names_inputs_and_destinations():
    g = ind_pos_at(-X.a, X.one, writes={"ind": "b"})
    assert g.describe() == "thm:cottreestrahler:indpos [ind_pos_at] on v = -π_a, one = π_one; ind → b"
