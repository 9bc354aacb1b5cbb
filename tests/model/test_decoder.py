"""Decoders (symcot.model.decoder): the structure checks of heads, attention and FFNs, size accounting."""

import pytest
import sympy as sp

from symcot.errors import DimensionError
from symcot.ir import (
    Layout,
    Map,
    const,
    n,
)
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from tests.fixtures.layouts import ALL, L


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
