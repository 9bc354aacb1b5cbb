"""Families of inputs indexed by size: what an exhaustive or sampled check enumerates."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Family:
    """A family of inputs indexed by size.

    Attributes:
        name: shown in reports (``"simple digraphs × every source"``).
        inputs: ``inputs(size)`` yields the inputs of that size, in a fixed order.
        count: ``count(size)``: how many ``inputs(size)`` yields (checked while running).
        describe: JSON-friendly description of one input (for counterexamples); by default
            :func:`describe_input` (``{"text": …}``).
        min_size: smallest size of the family.
        exhaustive: false for a seeded random sample (does not count towards ``max_size``).
        max_size: the family's own size limit (``None``: the run's ``--max-size``).
        inputs_range: ``inputs_range(size, start, stop)`` yields the inputs of rank ``start ≤ r < stop``
            of ``inputs(size)`` without enumerating those before (sharding); ``None``: not ranked (the
            enumerations of :mod:`symcot.check.shard` are recognised by their ``inputs`` function).
        reach: the family scales to large sizes: ``symcot verify --reach K`` checks it up to ``K``
            (Dyck words, ordered trees) while the other families keep the run's size.
        partial: exhaustive, but over a *part* of the claim's domain at each size (ordered trees with
            their preorder labels inside "every labeled tree with every root"): every size it reaches is
            enumerated completely and reported in ``families``, but it does not count toward the verdict's
            ``max_size``, which says where the whole domain was covered.
        batch_range: ``batch_range(size, start, stop)`` gives the inputs of rank ``start ≤ r < stop`` as one
            :class:`~symcot.inputs.batch.InputBatch` (arrays; row ``i`` is the input of rank ``start + i``);
            ``None``: input objects only.
        universe: ``universe(size)`` yields every candidate input of that size, a superset of ``inputs(size)``
            (every digraph with every source for a family of trees × roots, every U/D string of a length for Dyck
            words): the all-n prover checks that the inputs of the family are exactly the universe's inputs that
            satisfy the statement's ``domain`` facts (:mod:`symcot.prove.alln.domain`). ``None``: declared by
            nobody, and a proof over the family is ``proved assuming`` that it covers the domain.
        universe_count: ``universe_count(size)``: how many ``universe(size)`` yields (``None``: counted while
            enumerating); a size whose universe is past the prover's cap is not enumerated.
        restricted: where the universe is only a *part* of each size's candidates (the domain has infinitely many
            inputs of a size, e.g. every positive weight), the part in words (``"arc weights in {1, 2, 3}"``): the
            check compares the family with the domain on that part, and a proof is ``proved assuming`` the rest.
        symbols: a family of strings over a fixed alphabet: its symbols (``symcot replay --input`` checks a
            string's symbols against them); ``None``: not a string family, or one whose alphabet depends on the size.

    """

    name: str
    inputs: Callable[[int], Iterable[Any]]
    count: Callable[[int], int]
    describe: Callable[[Any], dict[str, Any]] = field(default_factory=lambda: describe_input)
    min_size: int = 1
    exhaustive: bool = True
    max_size: int | None = None
    inputs_range: Callable[[int, int, int], Iterable[Any]] | None = None
    reach: bool = False
    partial: bool = False
    batch_range: Callable[[int, int, int], Any] | None = None
    universe: Callable[[int], Iterable[Any]] | None = None
    universe_count: Callable[[int], int] | None = None
    restricted: str = ""
    symbols: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        for what in ("inputs", "count", "describe", "universe", "universe_count"):
            if what.startswith("universe") and getattr(self, what) is None:
                continue
            if not callable(getattr(self, what)):
                got = type(getattr(self, what)).__name__
                raise TypeError(f"Family {self.name!r}: {what} must be a function (got {got}); e.g. "
                                "inputs=lambda k: ..., count=lambda k: ...")
        if not isinstance(self.min_size, int) or self.min_size < 0:
            raise ValueError(f"Family {self.name!r}: min_size must be a non-negative integer, got {self.min_size!r}")


def describe_input(inp: Any) -> dict[str, Any]:
    """The default description of an input: ``{"text": …}`` (a graph and its source read as such)."""
    if isinstance(inp, tuple) and len(inp) == 2 and hasattr(inp[0], "arcs") and isinstance(inp[1], int):
        return {"text": f"{inp[0]}, source {inp[1]}"}
    if isinstance(inp, tuple) and all(isinstance(v, int) for v in inp):
        return {"text": "".join(map(str, inp)) if all(v in (0, 1) for v in inp) else str(list(inp))}
    return {"text": str(inp)}
