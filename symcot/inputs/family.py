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

    """

    name: str
    inputs: Callable[[int], Iterable[Any]]
    count: Callable[[int], int]
    describe: Callable[[Any], dict[str, Any]]
    min_size: int = 1
    exhaustive: bool = True
    max_size: int | None = None
