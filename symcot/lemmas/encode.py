"""Concrete-size encoding: the lemma's maps compiled exactly, then read as Z3 terms row by row.

``Map.instantiate(env)`` (no ``subs``) keeps ``λ`` symbolic; the exact coefficients of
``ConcreteMap.const/lin/quad`` are translated to Z3 here (``int``, ``Fraction``, SymPy in ``λ``). Only
the hidden units an output row reads are encoded (its cone of influence), each ReLU as an ``If``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symcot.ir.layout import ConcreteLayout
from symcot.ir.maps import ConcreteMap
from symcot.ir.symbols import Env, lam
from symcot.lemmas.kit import Z3Kit, sympy_to_z3
from symcot.lemmas.lemma import Lemma, LemmaError, Override
from symcot.model.semantics import EXACT


def _flat(layout: ConcreteLayout, coord: tuple[str, int]) -> int:
    block, i = coord
    if not 0 <= i < layout.sizes[block]:
        raise IndexError(f"{block}[{i}] outside the block of size {layout.sizes[block]}")
    return layout.offsets[block] + i


def _exists(layout: ConcreteLayout, coord: tuple[str, int]) -> bool:
    """Whether ``coord`` exists; a coordinate of a block of constant size must (else: a typo, an error)."""
    block, i = coord
    if 0 <= i < layout.sizes[layout.layout.block(block).name]:
        return True
    if layout.layout.size(block).free_symbols:
        return False  # the block is too small at these sizes: the mutation does not apply here
    raise IndexError(f"{block}[{i}] outside the block of size {layout.sizes[block]}")


def _apply(cm: ConcreteMap, ov: Override) -> ConcreteMap:
    if not (_exists(cm.dst, ov.out) and all(_exists(cm.src, c) for c in ov.ins)):
        return cm
    out = _flat(cm.dst, ov.out)
    ins = tuple(_flat(cm.src, c) for c in ov.ins)
    return cm.with_coefficient(out, ins, ov.value)


def concrete_maps(lemma: Lemma, env: Env, lam_value: Any = None) -> tuple[ConcreteMap | None, ConcreteMap]:
    """``(W_1, W_2)`` at sizes ``env`` with the lemma's overrides; ``λ`` substituted when ``lam_value`` is given."""
    subs = None if lam_value is None else {lam: lam_value}
    w1 = lemma.w1.instantiate(env, subs) if lemma.w1 is not None else None
    w2 = lemma.w2.instantiate(env, subs)
    for ov in lemma.overrides:
        if ov.map == "W_1":
            if w1 is None:
                raise LemmaError(f"{lemma.id} has no W_1 to mutate")
            w1 = _apply(w1, ov)
        elif ov.map == "W_2":
            w2 = _apply(w2, ov)
        else:
            raise LemmaError(f"override of unknown map {ov.map!r} (use 'W_1' or 'W_2')")
    return w1, w2


class Z3Rows:
    """Rows of a concrete map as Z3 terms: ``row(o, vec)`` with ``vec[i]`` a term or an exact number."""

    def __init__(self, cm: ConcreteMap, lam_term: Any):
        self.cm = cm
        self.rows: dict[int, list[tuple[Any, tuple[int, ...]]]] = {}
        symbols = {lam: lam_term}
        for o, c in cm.const:
            self.rows.setdefault(o, []).append((sympy_to_z3(c, symbols), ()))
        for o, i, c in cm.lin:
            self.rows.setdefault(o, []).append((sympy_to_z3(c, symbols), (i,)))
        for o, i, j, c in cm.quad:
            self.rows.setdefault(o, []).append((sympy_to_z3(c, symbols), (i, j)))

    def reads(self, o: int) -> set[int]:
        """Input coordinates row ``o`` reads."""
        return {i for _c, mono in self.rows.get(o, []) for i in mono}

    def row(self, o: int, vec: Any) -> Any:
        """``Σ c·Π vec[i]`` for row ``o``."""
        out: Any = 0
        for c, mono in self.rows.get(o, []):
            t = c
            for i in mono:
                t = t * vec[i]
            out = out + t
        return out


class LazyHidden:
    """``ReLU(W_1 x)`` (or ``W_1 x``, or ``x`` itself) computed coordinate by coordinate on demand."""

    def __init__(self, w1: Z3Rows | None, x: Sequence[Any], relu: bool):
        self.w1, self.x, self.relu = w1, x, relu
        self._cache: dict[int, Any] = {}

    def __getitem__(self, h: int) -> Any:
        if self.w1 is None:
            return self.x[h]
        if h not in self._cache:
            v = self.w1.row(h, self.x)
            self._cache[h] = Z3Kit.relu(v) if self.relu else v
        return self._cache[h]


def replay(lemma: Lemma, env: Env, lam_value: Any, x: list[Any]) -> tuple[list[Any], list[Any]]:
    """Exact forward pass with the same maps: ``(hidden after ReLU, output)``; ReLU is ``EXACT.relu``."""
    w1, w2 = concrete_maps(lemma, env, lam_value)
    if w1 is None:
        hidden = list(x)
    else:
        pre = w1(x)
        hidden = [EXACT.relu(v) for v in pre] if lemma.relu else pre
    return hidden, w2(hidden)


