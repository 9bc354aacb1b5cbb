"""A construction's size parameter: the symbol its statement is written in, and its value at each input size.

The checks enumerate inputs by *size*: the number of vertices of a graph or tree, of ψ(w) for a Dyck word
``w`` (``symcot verify --max-size``, ``--reach``). A construction is stated in its own size symbol, the one
its layout's block sizes use: ``n = |V|`` for DFS, ``m`` (the vertices of ψ(w)) for path → tree, and
``n = |w|`` for the path-side constructions, where ``n`` is not the number of vertices. A
:class:`SizeParameter` names that symbol and converts between the two, so that every command says ``n``,
``m``, … meaning what the construction's statement means (``symcot latex --n``, ``symcot export --n``, the
scopes of ``symcot verify``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from symcot.check.verdict import SizeText, Verdict, default_scope, vertices_text
from symcot.constructions.base import Construction
from symcot.errors import SymcotError
from symcot.inputs.family import Family

#: How far :meth:`SizeParameter.size_of` searches: input sizes ``1 .. value * SEARCH + 2``.
SEARCH = 2


def size_symbols(cons: Construction) -> list[sp.Symbol]:
    """The symbols the layout's block sizes are written in (``[n]``, ``[m]``), sorted by name."""
    return sorted({s for b in cons.decoder.layout.blocks for s in sp.sympify(b.size).free_symbols}, key=str)


def sample_input(kind: str, families: Sequence[Family], size: int) -> Any | None:
    """An input of ``size`` vertices: the path ψ(U^{size-1}D^{size-1}) for a ``graph`` or ``dyck`` kind.

    Else the first input of the first exhaustive family that has one; ``None`` when none has.
    """
    if kind in ("graph", "dyck"):
        from symcot.check.extremal import extremal_inputs

        return extremal_inputs(kind, size)[0][1]
    for fam in families:
        if fam.exhaustive and fam.min_size <= size and (fam.max_size is None or size <= fam.max_size):
            for inp in fam.inputs(size):
                return inp
    return None


def _measure(inp: Any, value: int) -> str:
    """What ``value`` counts on ``inp`` when it is not its number of vertices (``|w|`` for a word)."""
    if isinstance(inp, str) and len(inp) == value:
        return "|w|"
    return ""


@dataclass
class SizeParameter:
    """The construction's size symbol and its value on the inputs of each size.

    Attributes:
        symbol: the layout's size symbol (``n``, ``m``).
        value_at: ``value_at(size)`` is the symbol's value on the inputs of ``size`` vertices (``None``: no
            input of that size).
        measure: what the symbol counts where it is not the number of vertices (``"|w|"``); empty otherwise.

    """

    symbol: sp.Symbol
    value_at: Callable[[int], int | None]
    measure: str = ""
    _memo: dict[int, int | None] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        """The symbol as the statement writes it (``n``, ``m``)."""
        return str(self.symbol)

    def value(self, size: int) -> int | None:
        """The symbol's value on the inputs of ``size`` vertices (``None``: none known)."""
        if size not in self._memo:
            self._memo[size] = self.value_at(size)
        return self._memo[size]

    def counts_vertices(self, probe: Sequence[int] = (2, 3, 4)) -> bool:
        """Whether the symbol is the number of vertices itself (``n = |V|``, or ``m`` of path → tree)."""
        return all(self.value(s) in (s, None) for s in probe)

    def text(self, relation: str, size: int) -> str:
        """``n ≤ 6``; ``n = |w| ≤ 18`` where the symbol is not the number of vertices; ``size`` in vertices."""
        value = self.value(size)
        if value is None or self.counts_vertices():
            return f"{self.name} {relation} {size if value is None else value}"
        return f"{self.name}{f' = {self.measure}' if self.measure else ''} {relation} {value}"

    def size_of(self, value: int) -> int | None:
        """The input size (vertices) whose inputs have the symbol at ``value``; ``None`` if there is none."""
        for size in range(1, value * SEARCH + 3):
            v = self.value(size)
            if v == value:
                return size
            if v is not None and v > value:
                return None
        return None

    def nearest(self, value: int, k: int = 2) -> list[int]:
        """Up to ``k`` values of the symbol nearest to ``value`` that some input size has."""
        values = {v for s in range(1, value * SEARCH + 3) if (v := self.value(s)) is not None and v >= 1}
        return sorted(sorted(values, key=lambda v: (abs(v - value), v))[:k])


def size_parameter(cons: Construction, kind: str = "graph", families: Sequence[Family] = ()) -> SizeParameter:
    """The size parameter of ``cons``, whose inputs are of ``kind`` (``graph``, ``dyck`` or ``custom``).

    Raises:
        SymcotError: when the layout's sizes use no symbol or more than one.

    """
    symbols = size_symbols(cons)
    if len(symbols) != 1:
        raise SymcotError(f"{cons.claim} [{cons.variant}]: the layout's sizes use "
                          f"{', '.join(map(str, symbols)) or 'no symbol'}, not one size parameter")
    sym = symbols[0]
    measures: list[str] = []

    def value_at(size: int) -> int | None:
        inp = sample_input(kind, families, size)
        if inp is None:
            return None
        env = cons.env(inp)
        value = next((int(v) for k, v in env.items() if str(k) == str(sym)), None)
        if value is not None and not measures:
            measures.append(_measure(inp, value))
        return value

    param = SizeParameter(sym, value_at)
    param.value(3)  # the measure comes from one input
    param.measure = measures[0] if measures else ""
    return param


def check_size_parameter(chk: Any, cons: Construction | None = None) -> SizeParameter:
    """:func:`size_parameter` of a construction check (its construction, input kind and families)."""
    return size_parameter(cons if cons is not None else chk.construction(), getattr(chk, "input_kind", "graph"),
                          getattr(chk, "families", ()))


def size_text_of(chk: Any, cons: Construction | None = None) -> SizeText:
    """How a size of ``chk``'s inputs is written: in its construction's size parameter (:meth:`SizeParameter.text`).

    Falls back to ``n`` for the number of vertices where the layout has no single size symbol.
    """
    try:
        return check_size_parameter(chk, cons).text
    except SymcotError:
        return vertices_text


def name_sizes(row: Verdict, chk: Any, cons: Construction) -> None:
    """Write the sizes of ``row``'s default scope in the construction's own size parameter (in place).

    A scope the check stated itself is kept.
    """
    if row.scope == default_scope(row):
        row.scope = default_scope(row, size_text_of(chk, cons))
