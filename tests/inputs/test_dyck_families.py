"""The Dyck word families and their universes (every U/D string of the length)."""

from symcot.inputs.dyck import validate_dyck
from symcot.inputs.dyck_families import (
    DYCK_WORDS,
    NONEMPTY_DYCK_WORDS,
    dyck_family,
    letter_string_count,
    letter_strings,
)


def _is_dyck(w):
    try:
        validate_dyck(w)
    except Exception:  # noqa: BLE001
        return False
    return True


def test_the_universe_is_every_letter_string_and_the_dyck_words_are_among_them():
    for size in range(1, 6):
        strings = list(letter_strings(size))
        assert len(strings) == len(set(strings)) == letter_string_count(size) == 4 ** (size - 1)
        assert {w for w in strings if _is_dyck(w)} == set(DYCK_WORDS.inputs(size))
    assert DYCK_WORDS.universe is letter_strings and NONEMPTY_DYCK_WORDS.universe is letter_strings


def test_a_sharded_family_declares_no_universe():
    assert dyck_family(start=1).universe is None and dyck_family(stop=3).universe is None
