"""Families of inputs indexed by size: what an exhaustive or sampled check enumerates."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass
class Family:
    """A family of inputs indexed by size.

    Attributes:
        name: shown in reports (``"simple digraphs × every source"``).
        inputs: ``inputs(size)`` yields the inputs of that size, in a fixed order.
        count: ``count(size)``: how many ``inputs(size)`` yields (checked while running).
        describe: JSON-friendly description of one input (for counterexamples).
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

    """

    name: str
    inputs: Callable[[int], Iterable[Any]]
    count: Callable[[int], int]
    describe: Callable[[Any], dict[str, Any]]
    min_size: int = 1
    exhaustive: bool = True
    max_size: int | None = None
    inputs_range: Callable[[int, int, int], Iterable[Any]] | None = None
    reach: bool = False
    partial: bool = False
