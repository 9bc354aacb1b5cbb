"""Audits of a decoder's feed-forward maps against the gadgets they are built from.

:func:`audit` compiles, at concrete sizes, the rows of ``W_1`` and ``W_2`` that a layer's gadgets own (the
units' pre-activations, the outputs written to blocks) and compares them, exactly and coefficient by
coefficient, with the same rows compiled from the gadget alone. A decoder whose map differs from its
gadget anywhere (a weight edited by hand, a bias dropped) is reported row by row.

:func:`undeclared_relu_rows` looks for the signature of a ReLU identity written by hand: a row of
``W_2`` that combines two or more hidden units, outside every gadget of the layer, whose pre-activations
read a common input coordinate (``ReLU(v) - ReLU(v - 1)``, ``ReLU(x) - ReLU(-x)``, ``ReLU(x) -
ReLU(x + λm/2 - λ/2)`` all do). Rows that read only gadget units (a caller summing two gated branches)
are not examined: :func:`audit` covers those units.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import sympy as sp

from symcot.gadgets.base import Gadget
from symcot.ir.layout import Layout
from symcot.ir.maps import ConcreteMap, Map
from symcot.ir.symbols import Env
from symcot.model.decoder import ConcreteDecoder, Decoder

Row = dict[tuple[int, ...], Any]


@dataclass(frozen=True)
class Finding:
    """One difference: where (layer, map, coordinate), what the gadget says and what the decoder has."""

    layer: int
    map: str
    coordinate: str
    gadget: str
    expected: dict[str, Any]
    got: dict[str, Any]

    def text(self) -> str:
        """One line for reports and test failures."""
        return (f"layer {self.layer} {self.map} {self.coordinate} ({self.gadget}): gadget {self.expected}, "
                f"decoder {self.got}")


def rows(cm: ConcreteMap) -> dict[int, Row]:
    """Every output row of a concrete map as ``{monomial: coefficient}`` (``()`` the bias)."""
    out: dict[int, Row] = {}
    for o, c in cm.const:
        r = out.setdefault(o, {})
        r[()] = r.get((), 0) + c
    for o, i, c in cm.lin:
        r = out.setdefault(o, {})
        r[(i,)] = r.get((i,), 0) + c
    for o, i, j, c in cm.quad:
        r = out.setdefault(o, {})
        r[(i, j)] = r.get((i, j), 0) + c
    return {o: {k: v for k, v in r.items() if v != 0} for o, r in out.items()}


def _named(row: Row, cm: ConcreteMap) -> dict[str, Any]:
    """A row with input coordinates by name (``x[buf[2]]``), for messages."""
    out: dict[str, Any] = {}
    for mono, c in sorted(row.items()):
        key = " * ".join(cm.src.coordinate_name(i) for i in mono) or "1"
        out[key] = c if isinstance(c, (int, str)) else str(c)
    return out


def gadget_maps(g: Gadget, w1: Map, w2: Map, env: Env, subs: dict[sp.Symbol, Any] | None) -> tuple[
        ConcreteMap | None, ConcreteMap | None]:
    """The gadget's own ``W_1`` rows (over ``w1``'s input) and written ``W_2`` rows (over ``w2``'s input), compiled."""
    cw1 = None
    if g.stage == "pre" and g.unit_roles:
        units = Layout(f"{g.label}.units", g.units())
        cw1 = Map(f"{g.label} W_1", w1.src, units, g.w1(), max_degree=2).instantiate(env, subs)
    h = w2.src.vars()
    assign, zero = g.w2(h), g.zero(h)
    cw2 = None
    if assign or zero:
        outs = Layout(f"{g.label}.outputs", [(b, w2.dst.size(b)) for b in [*assign, *zero]])
        cw2 = Map(f"{g.label} W_2", w2.src, outs, assign, zero=zero, max_degree=2).instantiate(env, subs)
    return cw1, cw2


def audit(dec: Decoder, cdec: ConcreteDecoder, deliberate: Collection[tuple[int, str, str]] = ()) -> list[Finding]:
    """Where ``cdec`` (``dec`` compiled, possibly edited) departs from the gadgets ``dec``'s layers declare.

    ``deliberate`` lists ``(layer, map, block)`` rows changed on purpose (a mutant of the construction,
    :meth:`symcot.constructions.mutant.SymbolicMutant.deliberate`): differences there are not reported.
    """
    found: list[Finding] = []
    for k, layer in enumerate(dec.layers, start=1):
        ffn, cffn = layer.ffn, cdec.layers[k - 1].ffn
        have1, have2 = rows(cffn.w1), rows(cffn.w2)
        for g in ffn.gadgets:
            gw1, gw2 = gadget_maps(g, ffn.w1, ffn.w2, cdec.env, cdec.subs)
            for label, gcm, dcm, have in (("W_1", gw1, cffn.w1, have1), ("W_2", gw2, cffn.w2, have2)):
                if gcm is None:
                    continue
                want = rows(gcm)
                for name in gcm.dst.names:
                    if (k, label, name) in deliberate:
                        continue
                    for i in range(gcm.dst.sizes[name]):
                        o_g = gcm.dst.offsets[name] + i
                        o_d = dcm.dst.offsets[name] + i
                        a, b = want.get(o_g, {}), have.get(o_d, {})
                        if a != b:
                            found.append(Finding(k, label, dcm.dst.coordinate_name(o_d), g.describe(),
                                                 _named(a, dcm), _named(b, dcm)))
    return found


def audit_at(dec: Decoder, env: Env, subs: dict[sp.Symbol, Any] | None = None,
             deliberate: Collection[tuple[int, str, str]] = ()) -> list[Finding]:
    """:func:`audit` of ``dec`` compiled at ``env`` (``subs`` for ``λ``)."""
    return audit(dec, dec.instantiate(env, subs), deliberate)


def undeclared_relu_rows(dec: Decoder, env: Env, subs: dict[sp.Symbol, Any] | None = None) -> list[str]:
    """``W_2`` rows outside every gadget that combine ReLU units with overlapping pre-activations (see above)."""
    cdec = dec.instantiate(env, subs)
    out: list[str] = []
    for k, layer in enumerate(dec.layers, start=1):
        ffn, cffn = layer.ffn, cdec.layers[k - 1].ffn
        hid = cffn.w1.dst
        owned_units: set[int] = set()
        owned_rows: set[int] = set()
        for g in ffn.gadgets:
            for name, _size in g.units():
                owned_units |= set(range(hid.offsets[name], hid.offsets[name] + hid.sizes[name]))
            h = ffn.w2.src.vars()
            for b in [*g.w2(h), *g.zero(h)]:
                sl = cffn.w2.dst.slice(b)
                owned_rows |= set(range(sl.start, sl.stop))
        pre = rows(cffn.w1)
        reads = {u: {i for mono in r for i in mono} for u, r in pre.items()}
        for o, r in rows(cffn.w2).items():
            if o in owned_rows:
                continue
            units = sorted({i for mono in r for i in mono} - owned_units)
            for a_i, a in enumerate(units):
                shared = next((b for b in units[a_i + 1:] if reads.get(a, set()) & reads.get(b, set())), None)
                if shared is not None:
                    out.append(f"{dec.name} layer {k} W_2 {cffn.w2.dst.coordinate_name(o)} combines the units "
                               f"{hid.coordinate_name(a)} and {hid.coordinate_name(shared)}, whose pre-activations "
                               "read a common coordinate, outside every gadget")
                    break
    return out
