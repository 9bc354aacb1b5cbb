"""Every string over an alphabet, by length: the inputs of encoders and recognisers.

A string is a tuple of symbols; the strings of one length come in lexicographic order of the alphabet as
given (rank ``r`` is ``r`` written in base ``|Σ|``), so a size can be split into rank ranges.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from symcot.errors import InvalidInputError
from symcot.inputs.family import Family


def _alphabet(alphabet: Sequence[str]) -> tuple[str, ...]:
    symbols = tuple(alphabet)
    if not symbols or len(set(symbols)) != len(symbols) or not all(isinstance(a, str) and a for a in symbols):
        raise InvalidInputError(f"an alphabet is a non-empty sequence of distinct non-empty strings, got {alphabet!r}")
    return symbols


def string_unrank(alphabet: Sequence[str], length: int, rank: int) -> tuple[str, ...]:
    """The string of ``length`` with rank ``rank`` (lexicographic in the alphabet's order)."""
    k = len(alphabet)
    if not 0 <= rank < k**length:
        raise InvalidInputError(f"rank {rank} out of range for {k}^{length} strings")
    out = []
    for _ in range(length):
        rank, d = divmod(rank, k)
        out.append(alphabet[d])
    return tuple(reversed(out))


def strings_range(alphabet: Sequence[str], length: int, start: int, stop: int) -> Iterator[tuple[str, ...]]:
    """The strings of ``length`` with rank in ``[start, stop)``."""
    symbols = _alphabet(alphabet)
    for r in range(start, min(stop, len(symbols) ** length)):
        yield string_unrank(symbols, length, r)


def describe_string(s: tuple[str, ...]) -> dict[str, Any]:
    """JSON description of a string input: its symbols, its length and a one-line text."""
    sep = "" if all(len(a) == 1 for a in s) else " "
    text = sep.join(s) or "ε"
    return {"string": text, "length": len(s), "text": f"w = {text} (length {len(s)})"}


def strings_family(alphabet: Sequence[str], min_length: int = 1, max_size: int | None = None,
                   name: str | None = None) -> Family:
    """Every string over ``alphabet`` of each length ``≥ min_length`` (the size is the length)."""
    symbols = _alphabet(alphabet)
    if isinstance(min_length, bool) or not isinstance(min_length, int) or min_length < 0:
        raise InvalidInputError(f"min_length must be a non-negative integer, got {min_length!r}")
    k = len(symbols)

    def count(size: int) -> int:
        return k**size if size >= min_length else 0

    return Family(
        name=name or f"every string over {{{', '.join(symbols)}}}, length n ≥ {min_length}",
        inputs=lambda size: strings_range(symbols, size, 0, count(size)),
        count=count,
        describe=describe_string,
        min_size=min(1, min_length) if min_length else 0,
        max_size=max_size,
        inputs_range=lambda size, start, stop: strings_range(symbols, size, start, min(stop, count(size))),
    )
