"""``--n``, the same on every command: the construction's own size parameter, as its statement names it.

A construction is stated in one size symbol (:mod:`symcot.check.size`): ``n = |V|`` for the graph and tree
constructions, ``n = |w|`` for the path-side ones, ``m`` (the vertices of the ordered tree of ``w``) for one that writes
its layout in them. ``--n``
is that symbol's value in ``symcot latex`` and ``symcot export``; the number of vertices of an input is
``--vertices`` (``symcot export``) or ``--max-size`` (``symcot verify``).
"""

from __future__ import annotations

from typing import Any

from symcot.check.size import SizeParameter
from symcot.errors import SymcotError

#: What ``--n`` means, for the help of every command that takes it.
N_HELP = ("the construction's size parameter, the symbol its layout is written in (n = |V| for a graph "
          "construction, n = |w| for one that reads a word, …; 'symcot latex CLAIM' prints the layout)")


def at_least_one(option: str, value: int) -> int:
    """``value``, or a :class:`SymcotError` when it is below 1."""
    if value < 1:
        raise SymcotError(f"{option} must be at least 1, got {value}")
    return value


def vertices_for(param: SizeParameter, value: int, cons: Any) -> int:
    """The number of vertices of the inputs whose size parameter is ``value`` (``--n``), or a clear error."""
    size = param.size_of(value)
    if size is not None:
        return size
    near = param.nearest(value)
    hint = f"; try {' or '.join(f'--n {v}' for v in near)}" if near else ""
    what = f"{param.name} = {param.measure}" if param.measure else param.name
    raise SymcotError(f"{cons.claim} [{cons.variant}] has no input with {what} = {value}{hint} "
                      f"(or --vertices V for an input of V vertices)")


def size_words(param: SizeParameter | None, size: int) -> str:
    """``n = 5``, or ``n = |w| = 6 (4 vertices)`` where the size parameter is not the number of vertices."""
    if param is None:
        return f"{size} vertices"
    if param.counts_vertices():
        return param.text("=", size)
    return f"{param.text('=', size)} ({size} vertices)"


def parameter_or_none(chk: Any, cons: Any) -> SizeParameter | None:
    """The construction's :class:`SizeParameter`; ``None`` where its layout has no single size symbol."""
    from symcot.check.size import check_size_parameter

    try:
        return check_size_parameter(chk, cons)
    except SymcotError:
        return None
