"""Deliberately broken constructions: one exact coefficient changed, addressed by block names.

Every checker must refute a mutant; tests use these to show a check can fail.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symcot.constructions.base import Construction, Expectation
from symcot.errors import SymcotError
from symcot.ir.layout import ConcreteLayout
from symcot.ir.symbols import Scalar
from symcot.model.decoder import ConcreteDecoder

Coord = tuple[str, int]  # (block, index within the block)


def _index(layout: ConcreteLayout, c: Coord) -> int:
    block, i = c
    sl = layout.slice(block)
    if not 0 <= i < layout.sizes[block]:
        raise IndexError(f"{block}[{i}] outside block of size {layout.sizes[block]}")
    return sl.start + i


class Mutant(Construction):
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
        super().__init__(base.claim, variant, base.decoder, [
            f"deliberately broken: layer {layer} {label}, coefficient of "
            f"{' * '.join(f'{b}[{i}]' for b, i in ins) or '1'} in {out[0]}[{out[1]}] set to {value}"])
        self.base, self.layer, self.map_label = base, layer, label
        self.out, self.ins, self.value = out, tuple(ins), value
        # the base's statement of enc, the stop rule and λ (instance attributes shadow the class defaults)
        self.encoding = base.encoding  # type: ignore[misc]
        self.stop = base.stop  # type: ignore[misc]
        self.lam_rule = base.lam_rule  # type: ignore[misc]

    def env(self, inp: Any) -> dict:
        """As the base."""
        return self.base.env(inp)

    def lam_value(self, inp: Any) -> Any:
        """As the base."""
        return self.base.lam_value(inp)

    def validate(self, inp: Any) -> None:
        """As the base."""
        self.base.validate(inp)

    def token_keys(self, inp: Any) -> list[tuple[str, Any]]:
        """As the base."""
        return self.base.token_keys(inp)

    def token(self, cl: Any, key: Any, lam_value: Any) -> list[Any]:
        """As the base."""
        return self.base.token(cl, key, lam_value)

    def max_weight(self, inp: Any) -> Any:
        """As the base."""
        return self.base.max_weight(inp)

    def invariants(self, inp: Any, states: Sequence[Any], t: int) -> list[Expectation]:
        """As the base."""
        return self.base.invariants(inp, states, t)

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
