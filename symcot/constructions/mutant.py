"""Deliberately broken constructions: one coefficient changed, addressed by block names.

Two kinds, both keyword-friendly:

* :class:`Mutant` -- one *compiled* coefficient (a monomial of one output coordinate of one map) set to a
  value at every size: ``Mutant(base, layer=2, map="W_2", output=("par", 0), monomial=[("flg1", 0),
  ("buf", 0)], value=0)``. Every checker must refute such a mutant; tests use them to show a check can fail.
* :class:`SymbolicMutant` -- one coefficient of the *symbolic statement* (a map's output block is an
  expression tree; :mod:`symcot.ir.coeffs` lists its coefficients) replaced, so the mutant exists at every
  ``n``: ``SymbolicMutant(base, site=site, value=0)``. :func:`symbolic_mutants` enumerates them: every
  coefficient set to 0, plus and minus 1, negated, and a coefficient that depends on ``n`` or ``λ`` also
  with that symbol shifted by ±1 (``λ/2`` → ``(λ+1)/2``). A coefficient inside a gadget's rows is a
  construction mutant too (the decoder runs it): :meth:`SymbolicMutant.deliberate` tells the gadget audit
  (:func:`symcot.gadgets.audit.audit`) which rows differ on purpose.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from symcot.constructions.base import Construction
from symcot.constructions.derived import Derived
from symcot.errors import SymcotError
from symcot.ir.coeffs import Coefficient, coefficient_at, coefficients, term_at, value_text, with_coefficient
from symcot.ir.expr import Expr
from symcot.ir.layout import ConcreteLayout
from symcot.ir.maps import Map
from symcot.ir.symbols import Scalar
from symcot.model.decoder import ConcreteDecoder, Decoder, Head

Coord = tuple[str, int]  # (block, index within the block)


def _index(layout: ConcreteLayout, c: Coord) -> int:
    block, i = c
    sl = layout.slice(block)
    if not 0 <= i < layout.sizes[block]:
        raise IndexError(f"{block}[{i}] outside block of size {layout.sizes[block]}")
    return sl.start + i


class Mutant(Derived):
    """``base`` with the coefficient of monomial ``ins`` in output ``out`` of one map set to ``value``.

    Positionally ``Mutant(base, layer, label, out, ins, value)``, or with readable keywords::

        Mutant(cons, layer=1, map="W_1", output=("sum", 0), monomial=[("bit", 0)], value=2)

    Args:
        base: the construction to break.
        layer: 1-based layer index.
        label: ``W_1``, ``W_2``, ``W_O``, ``Q_T``, ``K_B``, ``V_T``, … (keyword ``map``).
        out: output coordinate ``(block, index)`` of the map (keyword ``output``).
        ins: the monomial: ``()`` for the constant, ``((block, i),)`` linear, two coordinates quadratic
            (keyword ``monomial``).
        value: the new exact coefficient.
        variant: the name the mutant's rows carry (default ``mutant``).

    """

    def __init__(self, base: Construction, layer: int | None = None, label: str | None = None,
                 out: Coord | None = None, ins: Sequence[Coord] | None = None, value: Scalar | None = None,
                 variant: str = "mutant", *, map: str | None = None, output: Coord | None = None,  # noqa: A002
                 monomial: Sequence[Coord] | None = None):
        label = map if map is not None else label
        out = output if output is not None else out
        ins = monomial if monomial is not None else ins
        missing = [k for k, v in (("layer", layer), ("map", label), ("output", out), ("monomial", ins),
                                  ("value", value)) if v is None]
        if missing:
            raise TypeError(f"Mutant needs {', '.join(missing)} (e.g. Mutant(cons, layer=1, map='W_1', "
                            "output=('sum', 0), monomial=[('bit', 0)], value=2))")
        assert layer is not None and label is not None and out is not None and ins is not None
        super().__init__(base, variant, base.decoder, [
            f"deliberately broken: layer {layer} {label}, coefficient of "
            f"{' * '.join(f'{b}[{i}]' for b, i in ins) or '1'} in {out[0]}[{out[1]}] set to {value}"])
        self.layer, self.map_label = layer, label
        self.out, self.ins, self.value = out, tuple(ins), value

    def with_lambda(self, value: Any) -> Mutant:
        """The same mutation of the base with ``λ = value``."""
        return Mutant(self.base.with_lambda(value), self.layer, self.map_label, self.out, self.ins, self.value,
                      self.variant)

    def concrete(self, inp: Any) -> ConcreteDecoder:
        """The base's weights with the one coefficient replaced (cached per size)."""
        dec = self.base.concrete(inp)
        key = id(dec)
        if key in self._cache:
            return self._cache[key]
        mp = dec.get_map(self.layer, self.map_label)
        o = _index(mp.dst, self.out)
        ins = tuple(_index(mp.src, c) for c in self.ins)
        if mp.coefficient(o, *ins) == self.value:
            raise SymcotError(
                f"mutant changes nothing: the coefficient of {self.ins or '1'} in {self.out[0]}[{self.out[1]}] of "
                f"layer {self.layer} {self.map_label} is already {self.value} (terms may cancel when compiled)")
        mutated = dec.with_map(self.layer, self.map_label, mp.with_coefficient(o, ins, self.value))
        self._cache[key] = mutated
        return mutated


# -- mutants of the symbolic statement ----------------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    """One coefficient of a decoder's statement: layer, map, output block and its place in the block's expression."""

    layer: int
    map: str  # the label of Decoder.maps_of: Q_T, K_B, V_T, W_O, W_1, W_2
    block: str
    coeff: Coefficient

    @property
    def id(self) -> str:
        """A stable address: ``2/W_O/cur/0:c``."""
        return f"{self.layer}/{self.map}/{self.block}/{self.coeff.key}"

    @property
    def symbolic(self) -> bool:
        """Whether the coefficient depends on ``n``, ``m`` or ``λ``."""
        return self.coeff.symbolic

    def text(self) -> str:
        """``layer 2 W_O → cur: coefficient -1 of π_T.cur``."""
        return (f"layer {self.layer} {self.map} → {self.block}: coefficient {value_text(self.coeff.value)} of "
                f"{self.coeff.term}")


def sites(decoder: Decoder) -> list[Site]:
    """Every coefficient of every map of ``decoder`` (layer by layer, in ``Decoder.maps_of`` order)."""
    out: list[Site] = []
    for k in range(1, len(decoder.layers) + 1):
        for label, mp in decoder.maps_of(k):
            for block, e in mp.exprs.items():
                out.extend(Site(k, label, block, c) for c in coefficients(e))
    return out


def statement_digest(decoder: Decoder) -> str:
    """A short digest of ``decoder``'s statement: every site's address, coefficient and term, and the layout.

    Results about mutants (a state file of :mod:`symcot.study.adequacy`) hold only for the statement they were
    computed on; two statements with the same digest have the same sites, coefficients and terms.
    """
    h = hashlib.sha256(repr([(b.name, str(b.size)) for b in decoder.layout.blocks]).encode())
    for s in sites(decoder):
        h.update(f"{s.id}={value_text(s.coeff.value)}|{s.coeff.term};".encode())
    return h.hexdigest()[:16]


def operators(value: Any) -> list[tuple[str, sp.Expr]]:
    """The mutations of one coefficient: ``(name, new value)``, each different from ``value`` and from each other.

    ``0``, ``+1``, ``-1``, ``neg`` always; for a coefficient in ``n``, ``m`` or ``λ`` also ``s+1`` and ``s-1``
    for each such symbol ``s`` (the coefficient as a function of the shifted symbol).
    """
    v = sp.sympify(value)
    cands: list[tuple[str, sp.Expr]] = [("0", sp.Integer(0)), ("+1", v + 1), ("-1", v - 1), ("neg", -v)]
    for s in sorted(v.free_symbols, key=str):
        name = "λ" if str(s) == "lambda" else str(s)
        cands += [(f"{name}+1", v.subs(s, s + 1)), (f"{name}-1", v.subs(s, s - 1))]
    out: list[tuple[str, sp.Expr]] = []
    seen = [v]
    for name, w in cands:
        if any(sp.expand(w - x) == 0 for x in seen):
            continue
        seen.append(w)
        out.append((name, w))
    return out


def _map_of(dec: Decoder, layer: int, label: str) -> Map:
    for lbl, mp in dec.maps_of(layer):
        if lbl == label:
            return mp
    raise SymcotError(f"layer {layer} of {dec.name} has no map {label}")


def with_block(mp: Map, block: str, expr: Expr) -> Map:
    """A copy of ``mp`` whose output block ``block`` is ``expr`` (size and degree checked as when stating it).

    A block the map kept or zeroed becomes an assigned one.
    """
    new = Map.__new__(Map)
    new.__dict__.update(mp.__dict__)
    new.exprs = {**mp.exprs, block: expr}
    new.kept = tuple(b for b in mp.kept if b != block)
    new.zeroed = tuple(b for b in mp.zeroed if b != block)
    new._check(block, expr)
    return new


def _with_map(h: Head, kind: str, new: Map) -> Head:
    if kind == "Q":
        return dataclasses.replace(h, query=new)
    if kind == "K":
        return dataclasses.replace(h, key=new)
    return dataclasses.replace(h, value=new)


def replace_map(dec: Decoder, layer: int, label: str, new: Map, name: str | None = None) -> Decoder:
    """A copy of ``dec`` with the map ``label`` of layer ``layer`` replaced (every other map shared)."""
    lay = dec.layers[layer - 1]
    if label in ("W_1", "W_2"):
        ffn = dataclasses.replace(lay.ffn, w1=new) if label == "W_1" else dataclasses.replace(lay.ffn, w2=new)
        new_layer = dataclasses.replace(lay, ffn=ffn)
    else:
        if lay.attention is None:
            raise SymcotError(f"layer {layer} has trivial attention: no {label}")
        if label == "W_O":
            att = dataclasses.replace(lay.attention, out=new)
        else:
            kind, _, head = label.partition("_")
            heads: list[Head] = [_with_map(h, kind, new) if h.name == head else h for h in lay.attention.heads]
            att = dataclasses.replace(lay.attention, heads=heads)
        new_layer = dataclasses.replace(lay, attention=att)
    layers = list(dec.layers)
    layers[layer - 1] = new_layer
    return Decoder(name or dec.name, dec.layout, layers)


class SymbolicMutant(Derived):
    """``base`` with one coefficient of its symbolic statement replaced by ``value`` (at every size).

    Args:
        base: the construction to break.
        site: the coefficient (:func:`sites`).
        value: the new coefficient (a number or an expression in ``n``, ``m``, ``λ``).
        op: the operator's name, for reports (``0``, ``+1``, ``neg``, ``λ+1``, …).
        variant: the variant name reports show (default: ``<base variant>*<site id>``).

    """

    def __init__(self, base: Construction, site: Site, value: Any, op: str = "", variant: str | None = None):
        mp = _map_of(base.decoder, site.layer, site.map)
        expr = mp.exprs[site.block]
        held = coefficient_at(expr, site.coeff)
        new_value = sp.sympify(value)
        if sp.expand(held - new_value) == 0:
            raise SymcotError(f"mutant changes nothing: {site.text()} is already {value_text(new_value)}")
        self.site, self.value, self.op = site, new_value, op or value_text(new_value)
        dec = replace_map(base.decoder, site.layer, site.map, with_block(mp, site.block, with_coefficient(
            expr, site.coeff, new_value)), name=f"{base.decoder.name}*")
        super().__init__(base, variant or f"{base.variant}*{site.id}", dec, [self.text()])

    @property
    def id(self) -> str:
        """``<site id>=<op>``: unique among the mutants of one construction."""
        return f"{self.site.id}={self.op}"

    def text(self) -> str:
        """``layer 2 W_O → cur: coefficient -1 of π_T.cur set to 0 (op 0)``."""
        return f"{self.site.text()} set to {value_text(self.value)} ({self.op})"

    def deliberate(self) -> set[tuple[int, str, str]]:
        """The ``(layer, map, block)`` rows changed on purpose: what the gadget audit must not report."""
        return {(self.site.layer, self.site.map, self.site.block)}

    def with_lambda(self, value: Any) -> SymbolicMutant:
        """The same mutation of the base with ``λ = value``."""
        return SymbolicMutant(self.base.with_lambda(value), self.site, self.value, self.op, self.variant)


def _read_names(mp: Map) -> set[str]:
    return {name for e in mp.exprs.values() for _lay, name in e.blocks()}


def inert(decoder: Decoder, site: Site) -> str | None:
    """Why a change at ``site`` cannot reach the output at any size, or ``None`` when it may.

    A block of a head's value that ``W_O`` does not read, or a hidden unit of ``W_1`` that ``W_2`` does not
    read, is read by nothing; a term of ``W_O`` (``W_2``) that reads only value blocks the head's value map sets
    to zero (hidden units ``W_1`` sets to zero) is always zero. Both are read off the statement, so they hold at
    every ``n``.
    """
    lay = decoder.layers[site.layer - 1]
    if site.map.startswith("V_") and lay.attention is not None:
        head = site.map[2:]
        if f"{head}.{site.block}" not in _read_names(lay.attention.out):
            return f"W_O of layer {site.layer} does not read block {site.block} of head {head}'s value"
    if site.map == "W_1" and site.block not in _read_names(lay.ffn.w2):
        return f"W_2 of layer {site.layer} does not read the hidden block {site.block}"
    zero: dict[str, str] = {}  # input block of the map -> the map that sets it to zero
    if site.map == "W_O" and lay.attention is not None:
        zero = {f"{h.name}.{b}": f"V_{h.name}" for h in lay.attention.heads for b in h.value.zeroed}
    elif site.map == "W_2":
        zero = {b: "W_1" for b in lay.ffn.w1.zeroed}
    if zero:
        reads = sorted({name for _lay, name in term_at(_map_of(decoder, site.layer, site.map).exprs[site.block],
                                                           site.coeff).blocks()})
        if reads and all(r in zero for r in reads):
            return (f"the term reads only {', '.join(reads)}, set to zero by "
                    f"{', '.join(sorted({zero[r] for r in reads}))} of layer {site.layer}")
    return None


def symbolic_mutants(base: Construction) -> list[SymbolicMutant]:
    """Every single-coefficient mutant of ``base``'s statement (:func:`sites` × :func:`operators`)."""
    return [SymbolicMutant(base, s, v, op) for s in sites(base.decoder) for op, v in operators(s.coeff.value)]
