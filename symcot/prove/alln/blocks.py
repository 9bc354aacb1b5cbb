r"""Symbolic-n block algebra: a token's representation, and the IR's maps applied to it at a symbolic index.

A token's representation is a :class:`Rep`: for every block, a function from an index tuple (Z3 integers,
``0 ≤ i < size``) to a Z3 real. The tuple follows the block's index shape (:func:`shape_of`): a block of size
``n`` (or ``2m - 2``, ``m + 1``, …) has one index, a block of size ``m²`` or ``n·m`` two, ``(a, b)`` in the
``vec`` order (flat coordinate ``a·cols + b``), a scalar block the index ``(0,)``.

:class:`MapEval` applies a map to a representation, lazily, coordinate by coordinate: each output coordinate
is compiled by the shared walker of the IR's expression trees (:class:`symcot.lemmas.walker.Walker`), a sum
over a block of symbolic size (``1ᵀ v``, ``aᵀ b``, a row of ``J``) is handed to the sum lemmas
(:mod:`symcot.prove.alln.sums`) through ``summer``, and a mutation may add an ``overlay`` term. Anything the
walker cannot state raises :class:`Unsupported`, which the prover reports as the obligation it could not state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp
import z3

from symcot.ir.maps import Map
from symcot.lemmas.walker import (
    BlockFn,
    Index,
    Reader,
    Summer,
    Unsupported,
    Walker,
    as_real,
    idx_key,
    relu,
    shape_of,
    z_index,
)

__all__ = ["BlockFn", "Index", "MapEval", "Overlay", "Rep", "Summer", "Unsupported", "relu", "shape_of", "z_index"]
#: ``overlay(map, block, idx, read) -> extra term`` added to an output coordinate (a mutation).
Overlay = Callable[[Map, str, Index, Reader], Any]


class Rep:
    """A token's representation: block name → coordinate function, memoised per index."""

    def __init__(self, blocks: dict[str, BlockFn], label: str = ""):
        self._fns = dict(blocks)
        self._memo: dict[tuple[str, tuple[Any, ...]], tuple[Index, Any]] = {}
        self.label = label

    @property
    def names(self) -> list[str]:
        """Block names."""
        return list(self._fns)

    def __contains__(self, name: object) -> bool:
        return name in self._fns

    def fn(self, name: str) -> BlockFn:
        """The coordinate function of a block."""
        return self._fns[name]

    def read(self, name: str, idx: Index) -> Any:
        """Coordinate ``idx`` of block ``name`` (a Z3 real)."""
        key = (name, idx_key(idx))
        hit = self._memo.get(key)
        if hit is None:
            if name not in self._fns:
                raise Unsupported(f"{self.label or 'a representation'} has no block {name!r}")
            hit = self._memo[key] = (idx, as_real(self._fns[name](idx)))  # the index kept alive with its key
        return hit[1]

    def with_blocks(self, blocks: dict[str, BlockFn], label: str = "") -> Rep:
        """A copy with some blocks replaced."""
        return Rep({**self._fns, **blocks}, label or self.label)


class MapEval(Walker):
    """Evaluate IR maps at symbolic indices.

    Args:
        sizes: the size symbols as Z3 terms (``{n: n_z3}``).
        consts: other SymPy symbols in coefficients (``{λ: lam_z3}``).
        summer: how a sum over a block of symbolic size is valued.
        overlay: ``overlay(map, block, idx, read) -> extra term`` added to an output coordinate (a mutation).

    """

    def __init__(self, sizes: dict[sp.Symbol, Any], consts: dict[sp.Symbol, Any], summer: Summer,
                 overlay: Overlay | None = None):
        super().__init__(sizes, consts, summer)
        self.overlay = overlay

    def apply(self, m: Map, rep: Rep, label: str = "") -> Rep:
        """``m`` applied to ``rep``: a representation of ``m.dst`` (lazy, coordinate by coordinate)."""
        read = rep.read
        fns: dict[str, BlockFn] = {}
        for b in m.dst.names:
            if b in m.zeroed:
                fns[b] = _zero
            else:
                fns[b] = self._block_fn(m, b, read)
        return Rep(fns, label or m.name)

    def _block_fn(self, m: Map, b: str, read: Reader) -> BlockFn:
        def f(idx: Index) -> Any:
            v = self.block(m, b, read, idx)
            if self.overlay is not None:
                v = v + self.overlay(m, b, idx, read)
            return v

        return f


def _zero(idx: Index) -> Any:
    return z3.RealVal(0)
