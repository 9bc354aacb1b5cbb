"""Dyck words over ``U`` (+1) and ``D`` (-1): validation, counting, ranked enumeration and heights.

The order used everywhere is lexicographic with ``U < D``, so for semilength 2 the words come as
``UUDD, UDUD``. Ranks are 0-based positions in that order; :func:`dyck_rank` and :func:`dyck_unrank`
count completions with ballot numbers, so they cost ``O(m^2)`` additions and never enumerate.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from symcot.errors import InvalidInputError

Word = str
"""A word over the letters ``'U'`` and ``'D'``."""

UP = "U"
DOWN = "D"


def _check_size(m: object, what: str = "semilength m") -> int:
    """Return ``m`` if it is a non-negative ``int``; raise :class:`InvalidInputError` otherwise."""
    if not isinstance(m, int) or isinstance(m, bool):
        raise InvalidInputError(f"{what} must be an integer, got {m!r}")
    if m < 0:
        raise InvalidInputError(f"{what} must be >= 0, got {m}")
    return m


def _check_letters(word: object) -> str:
    """Return ``word`` if it is a string over ``U``/``D``; name the first bad letter otherwise."""
    if not isinstance(word, str):
        raise InvalidInputError(f"a Dyck word is a string over 'U' and 'D', got {type(word).__name__}")
    for i, c in enumerate(word):
        if c != UP and c != DOWN:
            raise InvalidInputError(
                f"letter {c!r} at position {i} is not a step: use U (up, +1) and D (down, -1), uppercase"
            )
    return word


def validate_dyck(word: str) -> str:
    """Return ``word`` unchanged if it is a Dyck word; raise :class:`InvalidInputError` naming the fault.

    The faults, checked left to right: a letter other than ``U``/``D`` (letter and 0-based position),
    a prefix that goes below height 0 (position of the offending ``D``), a final height other than 0.
    The empty word is a Dyck word (semilength 0).
    """
    _check_letters(word)
    h = 0
    for i, c in enumerate(word):
        h += 1 if c == UP else -1
        if h < 0:
            raise InvalidInputError(
                f"not a Dyck word: the D at position {i} goes below zero (prefix {word[: i + 1]!r} "
                f"ends at height -1)"
            )
    if h != 0:
        raise InvalidInputError(
            f"not a Dyck word: unbalanced, the path ends at height {h} instead of 0 ({h} more U than D)"
        )
    return word


def catalan(m: int) -> int:
    """Return the Catalan number ``C_m = binom(2m, m) / (m + 1)``: the Dyck words of semilength m."""
    _check_size(m)
    c = 1
    for k in range(m):
        c = c * 2 * (2 * k + 1) // (k + 2)
    return c


@lru_cache(maxsize=64)
def _ballot_table(length: int) -> tuple[tuple[int, ...], ...]:
    """Tabulate ``N[L][h]``: paths of ``L`` steps from height ``h`` to 0 never below 0 (``L <= length``)."""
    table = [[0] * (length + 2) for _ in range(length + 1)]
    table[0][0] = 1
    for steps in range(1, length + 1):
        row, prev = table[steps], table[steps - 1]
        for h in range(steps + 1):
            row[h] = prev[h + 1] + (prev[h - 1] if h > 0 else 0)
    return tuple(tuple(r) for r in table)


def _completions(table: tuple[tuple[int, ...], ...], steps: int, h: int) -> int:
    """Ballot number from ``table``: 0 outside the table's range (too high to return in time)."""
    if steps < 0 or h < 0 or h > steps:
        return 0
    return table[steps][h]


def dyck_rank(word: str) -> int:
    """Return the 0-based rank of a Dyck word among all words of its semilength (order ``U < D``)."""
    validate_dyck(word)
    length = len(word)
    table = _ballot_table(length)
    r, h = 0, 0
    for i, c in enumerate(word):
        rest = length - i - 1
        if c == DOWN:
            r += _completions(table, rest, h + 1)  # every word with U here comes first
            h -= 1
        else:
            h += 1
    return r


def dyck_unrank(m: int, r: int) -> str:
    """Return the Dyck word of semilength ``m`` with 0-based rank ``r`` (order ``U < D``)."""
    _check_size(m)
    total = catalan(m)
    if not isinstance(r, int) or isinstance(r, bool):
        raise InvalidInputError(f"rank must be an integer, got {r!r}")
    if not 0 <= r < total:
        raise InvalidInputError(f"rank {r} out of range for semilength {m}: ranks are 0..{total - 1}")
    length = 2 * m
    table = _ballot_table(length)
    out: list[str] = []
    h = 0
    for i in range(length):
        rest = length - i - 1
        with_up = _completions(table, rest, h + 1)
        if r < with_up:
            out.append(UP)
            h += 1
        else:
            r -= with_up
            out.append(DOWN)
            h -= 1
    return "".join(out)


def _successor(word: str) -> str | None:
    """Return the next Dyck word of the same semilength in ``U < D`` order, or ``None`` after the last."""
    hs = heights(word)
    length = len(word)
    for i in range(length - 1, -1, -1):
        if word[i] == UP and hs[i] >= 1:
            # D at i is allowed; complete with the smallest tail: all remaining U first, then D.
            h = hs[i] - 1
            rest = length - i - 1
            ups = (rest - h) // 2
            return word[:i] + DOWN + UP * ups + DOWN * (rest - ups)
    return None


def dyck_words_range(m: int, start: int, stop: int) -> Iterator[str]:
    """Yield the Dyck words of semilength ``m`` with rank in ``[start, stop)``, without earlier words.

    ``stop`` is clipped to ``catalan(m)``; an empty range yields nothing. ``start`` must be ``>= 0``.
    """
    _check_size(m)
    for name, x in (("start", start), ("stop", stop)):
        if not isinstance(x, int) or isinstance(x, bool):
            raise InvalidInputError(f"{name} must be an integer, got {x!r}")
    if start < 0:
        raise InvalidInputError(f"start must be >= 0, got {start}")
    stop = min(stop, catalan(m))
    if start >= stop:
        return iter(())
    return _walk(dyck_unrank(m, start), stop - start)


def _walk(word: str, count: int) -> Iterator[str]:
    """Yield ``count`` consecutive Dyck words starting at ``word`` (validation already done)."""
    current: str | None = word
    for _ in range(count):
        if current is None:  # pragma: no cover - callers clip count to the words that exist
            raise RuntimeError("ran past the last Dyck word")
        yield current
        current = _successor(current)


def dyck_words(m: int) -> Iterator[str]:
    """Yield all ``catalan(m)`` Dyck words of semilength ``m`` (length ``2m``) in ``U < D`` order."""
    _check_size(m)
    return dyck_words_range(m, 0, catalan(m))


def heights(word: str) -> list[int]:
    """Return the ordinate sequence ``s_0, ..., s_{|w|}`` of the lattice path of ``word`` (``s_0 = 0``).

    Any word over ``U``/``D`` is accepted (a prefix of a Dyck word, say), not only Dyck words. A batch's
    stand-in for one word (:class:`symcot.inputs.batch.WordColumns`) gives every row's heights as arrays.
    """
    if not isinstance(word, str) and hasattr(word, "heights"):
        return list(word.heights())
    _check_letters(word)
    out = [0]
    for c in word:
        out.append(out[-1] + (1 if c == UP else -1))
    return out
