"""One variant checked at every point of a parameter grid: a check made per point, one verdict row for all.

A :class:`GridCheck` names its parameters (``("k", "D")``) and its points (``(1, 1), (1, 2), …``); ``make(point,
length)`` is the check of one point with inputs up to ``length`` (usually an
:class:`~symcot.check.encoder.EncoderCheck`). The length at a point is the run's size less ``shorter(point)`` (a
larger alphabet reaches a smaller length in the same time). The row is the first failing point's, its notes,
scope, details and counterexample prefixed with the point (``k = 2, D = 3``); when every point passes, the first
point's row with the inputs and families of all of them.

``symcot replay`` and ``symcot latex`` work on one point: :func:`parse_at` reads ``--at k=2,D=3`` against the
grid, :meth:`GridCheck.read` reads a typed string at a point (``wrap`` adds what the check's inputs carry beyond
it, e.g. sentinels), and :meth:`GridCheck.pick` finds the smallest point whose inputs include a string.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.check.context import RunContext
from symcot.errors import InvalidInputError, SymcotError
from symcot.inputs.strings import MEMBERSHIP_CAP

Point = tuple[Any, ...]


def _same(value: Any) -> Any:
    return value


@dataclass
class GridCheck:
    """One variant at every point of ``points`` (module docstring).

    ``symbols(point)``: the symbols a user types at that point (``None``: read from the check's families);
    ``wrap(typed)``: the check's input for a typed string (by default the string itself), whose size in the
    check's families is the typed string's length.
    """

    variant: str
    params: tuple[str, ...]
    points: Sequence[Point]
    make: Callable[[Point, int], Any]
    shorter: Callable[[Point], int] = field(default=lambda p: 0)
    method: str = "exhaustive exact replay of every position, each point of the grid"
    symbols: Callable[[Point], Sequence[str]] | None = None
    wrap: Callable[[tuple[str, ...]], tuple[str, ...]] = field(default=_same)
    #: What ``symcot replay`` says beside the trace (a part of the claim applied as a formula after the network).
    note: str = ""

    def __post_init__(self) -> None:
        if not self.params or len(set(self.params)) != len(self.params):
            raise SymcotError(f"{self.variant}: a grid's parameters are distinct names, got {self.params!r}")
        if not self.points or any(len(p) != len(self.params) for p in self.points):
            raise SymcotError(f"{self.variant}: every point of the grid gives {len(self.params)} value(s) "
                              f"({', '.join(self.params)})")

    def label(self, point: Point) -> str:
        """``k = 2, D = 3``."""
        return ", ".join(f"{n} = {v}" for n, v in zip(self.params, point))

    def at(self, point: Point) -> dict[str, Any]:
        """``{"k": 2, "D": 3}``."""
        return dict(zip(self.params, point))

    def valid_points(self) -> str:
        """Every point as ``--at`` takes it: ``k=1,D=1; k=1,D=2; …``."""
        return "; ".join(",".join(f"{n}={v}" for n, v in zip(self.params, p)) for p in self.points)

    def smallest(self) -> Point:
        """The smallest point (in the order of the values)."""
        return min(self.points)

    def run(self, ctx: RunContext) -> Any:
        """The row: the first failing point's (prefixed with it), else the first point's, covering every point."""
        start = time.perf_counter()
        rows, lengths = [], []
        for point in self.points:
            length = max(ctx.max_size - self.shorter(point), 0)
            row = self.make(point, length).run(RunContext(ctx.claim_id, length, ctx.progress))
            row.method = self.method
            label = self.label(point)
            lengths.append(f"{label}: |w| ≤ {length}")
            rows.append(row)
            if row.verdict != "verified":
                row.notes.insert(0, label)
                row.details = {**(row.details or {}), **self.at(point)}
                if row.counterexample is not None:
                    row.counterexample = {**self.at(point), **row.counterexample}
                row.scope = f"{label}: {row.scope}" if row.scope else label
                row.inputs_checked = sum(r.inputs_checked for r in rows)
                row.seconds = time.perf_counter() - start
                return row
        out = rows[0]
        out.inputs_checked = sum(r.inputs_checked for r in rows)
        out.families = [f for r in rows for f in r.families]
        out.max_size = ctx.max_size
        out.scope = "every string w, " + "; ".join(lengths)
        out.notes = [n for n in out.notes if not n.startswith("every")] + [f"grid: {'; '.join(lengths)}"]
        out.seconds = time.perf_counter() - start
        return out

    # -- one point, for replay and latex ----------------------------------------------------------------------
    def alphabet(self, point: Point) -> tuple[str, ...] | None:
        """The symbols a user types at ``point`` (``None``: not known without a string)."""
        if self.symbols is not None:
            return tuple(self.symbols(point))
        fams = self.make(point, 0).families
        return next((tuple(f.symbols) for f in fams if getattr(f, "symbols", None) is not None), None)

    def problem(self, point: Point, typed: tuple[str, ...]) -> str | None:
        """Why ``typed`` is not an input of ``point``'s check (``None``: it is)."""
        alphabet = self.alphabet(point)
        if alphabet is not None:
            bad = [a for a in typed if a not in alphabet]
            if bad:
                return f"symbol {bad[0]!r} is not in the alphabet {{{', '.join(alphabet)}}}"
        n = len(typed)
        s = self.wrap(typed)
        names = []
        for fam in self.make(point, n).families:
            if n < fam.min_size or fam.count(n) == 0:
                names.append(fam.name)
                continue
            if getattr(fam, "symbols", None) is not None and self.wrap is _same:
                return None
            if fam.count(n) > MEMBERSHIP_CAP or s in set(fam.inputs(n)):
                return None
            names.append(fam.name)
        return f"not one of {'; '.join(names)}"

    def split(self, text: str) -> tuple[str, ...]:
        """The typed symbols of ``text`` (one per character, or separated by spaces or commas)."""
        from symcot.inputs.strings import split_string

        symbols = sorted({a for p in self.points for a in (self.alphabet(p) or ())})
        return split_string(text, symbols or None)

    def pick(self, text: str) -> tuple[Point, tuple[str, ...]]:
        """The smallest point whose inputs include ``text``, and the check's input (one error line if none)."""
        typed = self.split(text)
        problems = []
        for point in sorted(self.points):
            why = self.problem(point, typed)
            if why is None:
                return point, self.wrap(typed)
            problems.append(f"{self.label(point)}: {why}")
        raise InvalidInputError(f"{text!r} is an input at no point of the grid ({problems[0]}; …; {problems[-1]})")

    def read(self, text: str, point: Point) -> tuple[str, ...]:
        """The check's input for ``text`` at ``point`` (one error line if it is not one)."""
        typed = self.split(text)
        why = self.problem(point, typed)
        if why is not None:
            raise InvalidInputError(f"{text!r} at {self.label(point)}: {why}")
        return self.wrap(typed)


def is_grid(chk: Any) -> bool:
    """Whether ``chk`` is a :class:`GridCheck`."""
    return isinstance(chk, GridCheck)


def parse_at(text: str, grid: GridCheck) -> Point:
    """``k=2,D=3`` as one of ``grid``'s points (:class:`SymcotError`, one line listing the valid points, if not)."""
    valid = f"valid points: {grid.valid_points()}"
    given: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",")):
        name, eq, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not name or not value:
            raise SymcotError(f"--at {text!r}: write name=value pairs separated by commas ({valid})")
        if name not in grid.params:
            raise SymcotError(f"--at {text!r}: no parameter {name!r} (the parameters are "
                              f"{', '.join(grid.params)}; {valid})")
        if name in given:
            raise SymcotError(f"--at {text!r}: {name} given twice ({valid})")
        given[name] = value
    missing = [n for n in grid.params if n not in given]
    if missing:
        raise SymcotError(f"--at {text!r}: give {', '.join(missing)} too ({valid})")
    for point in grid.points:
        if all(str(v) == given[n] for n, v in zip(grid.params, point)):
            return point
    raise SymcotError(f"--at {text!r} is not a point of the grid ({valid})")
