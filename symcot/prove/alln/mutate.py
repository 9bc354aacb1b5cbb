"""A single-weight mutation (:class:`~symcot.constructions.mutant.Mutant`) as an overlay on the symbolic maps.

A mutant sets one coefficient of one compiled map at a concrete size: the coefficient of the monomial
``ins`` (``()``, one coordinate or two) in output coordinate ``out``. The overlay adds
``(new − old) · monomial`` to that output coordinate at every size, where ``old`` is the coefficient in
the unmutated map at the mutant's size; the prover then assumes the size is large enough for the
coordinates to exist. (For the structured maps of the constructions a coefficient between fixed
coordinates is the same at every size that has them.)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy as sp
import z3

from symcot.constructions.mutant import Mutant
from symcot.ir.layout import ConcreteLayout
from symcot.ir.maps import Map
from symcot.lemmas.walker import as_real
from symcot.prove.alln.blocks import Index, shape_of, z_index

Coord = tuple[str, tuple[int, ...]]


def _coord(layout: ConcreteLayout, block: str, i: int) -> Coord:
    """``(block, index tuple)``: a flat index of a two-index block becomes ``(a, b)`` at the concrete size."""
    shape = shape_of(layout.layout.size(block))
    if len(shape) == 2:
        cols = int(shape[1].subs(layout.env))
        return block, divmod(i, cols)
    return block, (i,)


def _least_size(coords: list[tuple[ConcreteLayout, str, tuple[int, ...]]], upto: int) -> int:
    """The least size (every size symbol of the layouts set to it) at which every coordinate exists.

    A block's extent is a formula of the size (``n``, ``m - 1``, ``n × n``): coordinate ``(a, b)`` exists
    when each component is below the block's extent along it. ``upto`` (the mutant's own size) has them all.
    """
    for k in range(1, upto + 1):
        ok = True
        for layout, block, idx in coords:
            shape = shape_of(layout.layout.size(block))
            dims = [int(sp.sympify(d).subs({x: k for x in sp.sympify(d).free_symbols})) for d in shape]
            ok = ok and all(0 <= i < d for i, d in zip(idx, dims))
        if ok:
            return k
    return upto


def _real(v: Any) -> Any:
    if isinstance(v, Fraction):
        return z3.RealVal(f"{v.numerator}/{v.denominator}")
    return as_real(v)


def coordinates(mutant: Mutant, inp: Any) -> list[Coord]:
    """The output and monomial coordinates ``mutant`` addresses at ``inp``'s size, as index tuples.

    A flat index into a two-index block (``vec`` order) names a different ``(a, b)`` at another size, so
    the same :class:`Mutant` is a different mutation there; the overlay keeps the pair of ``inp``'s size.
    """
    mp = mutant.base.concrete(inp).get_map(mutant.layer, mutant.map_label)
    return [_coord(mp.dst, *mutant.out), *[_coord(mp.src, b, i) for b, i in mutant.ins]]


def overlay(mutant: Mutant, inp: Any) -> tuple[Callable[[Map, str, Index, Any], Any], int]:
    """The overlay of ``mutant`` and the least size it needs, reading its coordinates at ``inp``'s size."""
    dec = mutant.base.concrete(inp)
    mp = dec.get_map(mutant.layer, mutant.map_label)
    target = dict(mutant.base.decoder.maps_of(mutant.layer))[mutant.map_label]
    o_block, o_idx = _coord(mp.dst, mutant.out[0], mutant.out[1])
    ins = [_coord(mp.src, b, i) for b, i in mutant.ins]
    flat_ins = [mp.src.slice(b).start + i for b, i in mutant.ins]
    old = mp.coefficient(mp.dst.slice(mutant.out[0]).start + mutant.out[1], *flat_ins)
    assert mutant.value is not None  # Mutant's constructor requires it
    delta = mutant.value - old
    size = max(int(v) for v in mp.dst.env.values())
    least = _least_size([(mp.dst, o_block, o_idx), *[(mp.src, b, idx) for b, idx in ins]], size)

    def extra(m: Map, block: str, idx: Index, read: Any) -> Any:
        if m is not target or block != o_block:
            return z3.RealVal(0)
        at = z3.And(*[z_index(a) == b for a, b in zip(idx, o_idx)])
        mono: Any = z3.RealVal(1)
        for b, i in ins:
            mono = mono * read(b, i)
        return z3.If(at, _real(delta) * mono, z3.RealVal(0))

    return extra, least


def single_weight_mutants(cons: Any, inp: Any, per_map: int = 1, seed: int = 0) -> list[Mutant]:
    """A sample of single-weight mutants of ``cons``: per map, ``per_map`` of its weights dropped.

    The weights are the map's compiled coefficients at ``inp``'s size, chosen by a seeded shuffle; each
    mutant sets one of them to 0.
    """
    import random

    rng = random.Random(seed)
    dec = cons.concrete(inp)
    out: list[Mutant] = []
    for k in range(1, len(cons.decoder.layers) + 1):
        for label, _mp in cons.decoder.maps_of(k):
            cm = dec.get_map(k, label)
            terms = [((o,), ()) for o, _c in cm.const] + [((o,), (i,)) for o, i, _c in cm.lin] + \
                [((o,), (i, j)) for o, i, j, _c in cm.quad]
            rng.shuffle(terms)
            for (o,), ins in terms[:per_map]:
                out_c = _block_coord(cm.dst, o)
                in_c = [_block_coord(cm.src, i) for i in ins]
                out.append(Mutant(cons, k, label, out_c, in_c, 0, variant=f"mutant {k}:{label}"))
    return out


def _block_coord(layout: ConcreteLayout, flat_index: int) -> tuple[str, int]:
    for b in layout.names:
        sl = layout.slice(b)
        if sl.start <= flat_index < sl.stop:
            return b, flat_index - sl.start
    raise IndexError(flat_index)
