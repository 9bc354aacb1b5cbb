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
        symbols=symbols,
    )


#: Most inputs of one length a family is searched through to decide whether a string is one of them.
MEMBERSHIP_CAP = 200_000


def split_string(text: str, symbols: Sequence[str] | None = None) -> tuple[str, ...]:
    """The symbols of ``text``: separated by spaces or commas when it has them, else one per character.

    With ``symbols`` given and some of them longer than a character, an unseparated ``text`` is read greedily
    (the longest symbol first).
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    if len(parts) > 1 or not text.strip() or symbols is None or all(len(a) == 1 for a in symbols):
        return tuple(parts) if len(parts) > 1 else tuple(text.strip())
    out, i, s = [], 0, text.strip()
    longest = sorted(symbols, key=len, reverse=True)
    while i < len(s):
        a = next((a for a in longest if s.startswith(a, i)), s[i])
        out.append(a)
        i += len(a)
    return tuple(out)


def _problem(s: tuple[str, ...], fam: Family) -> str | None:
    """Why ``s`` is not an input of ``fam`` (``None``: it is, or the family is too large to search)."""
    n = len(s)
    if n < fam.min_size or (fam.max_size is not None and n > fam.max_size) or fam.count(n) == 0:
        return f"{f'length {n}: ' if n else ''}the inputs are {fam.name}"
    if fam.symbols is not None:
        for i, a in enumerate(s):
            if a not in fam.symbols:
                return f"symbol {a!r} at position {i} is not in the alphabet {{{', '.join(fam.symbols)}}}"
        return None
    if fam.count(n) <= MEMBERSHIP_CAP and s not in set(fam.inputs(n)):
        return f"not one of {fam.name}"
    return None


def read_string(text: str, families: Sequence[Family]) -> tuple[str, ...]:
    """``text`` as a string input of one of ``families``, or :class:`InvalidInputError` saying why not.

    A family with an alphabet (:func:`strings_family`) checks each symbol against it; another one is searched
    for the string when it has at most :data:`MEMBERSHIP_CAP` inputs of its length.
    """
    alphabet = next((f.symbols for f in families if f.symbols is not None), None)
    s = split_string(text, alphabet)
    problems = [_problem(s, f) for f in families]
    if families and all(p is not None for p in problems):
        shown = f"{text!r} is the empty string, not an input" if not s else repr(text)
        raise InvalidInputError(f"{shown}: {problems[0]}")
    return s
