"""Dyck words (symcot.inputs.dyck): counts, ranking, heights and the messages of validation."""

from __future__ import annotations

import itertools

import pytest

from symcot.errors import InvalidInputError
from symcot.inputs import (
    catalan,
    dyck_rank,
    dyck_unrank,
    dyck_words,
    dyck_words_range,
    heights,
    validate_dyck,
)

CATALAN = [1, 1, 2, 5, 14, 42, 132, 429, 1430]


def _is_dyck(w: str) -> bool:
    h = 0
    for c in w:
        h += {"U": 1, "D": -1}[c]
        if h < 0:
            return False
    return h == 0


# -- Dyck words ----------------------------------------------------------------------------------


@pytest.mark.parametrize("m", range(9))
def test_dyck_words_count_distinct_valid_sorted(m: int) -> None:
    words = list(dyck_words(m))
    assert catalan(m) == CATALAN[m]
    assert len(words) == CATALAN[m]
    assert len(set(words)) == len(words)
    assert all(len(w) == 2 * m and _is_dyck(w) for w in words)
    # lexicographic with U < D: map U -> "0", D -> "1" and compare as strings
    keys = [w.replace("U", "0").replace("D", "1") for w in words]
    assert keys == sorted(keys)


def test_dyck_words_match_brute_force() -> None:
    for m in range(6):
        brute = sorted(
            ("".join(p) for p in itertools.product("UD", repeat=2 * m) if _is_dyck("".join(p))),
            key=lambda w: w.replace("U", "0").replace("D", "1"),
        )
        assert list(dyck_words(m)) == brute


def test_dyck_small_cases() -> None:
    assert list(dyck_words(0)) == [""]
    assert list(dyck_words(2)) == ["UUDD", "UDUD"]
    assert dyck_rank("") == 0
    assert dyck_unrank(0, 0) == ""


@pytest.mark.parametrize("m", range(8))
def test_dyck_rank_unrank_round_trip(m: int) -> None:
    for k, w in enumerate(dyck_words(m)):
        assert dyck_rank(w) == k
        assert dyck_unrank(m, k) == w


def test_dyck_words_range_matches_slices() -> None:
    for m in range(7):
        full = list(dyck_words(m))
        c = len(full)
        for start, stop in [(0, c), (0, 1), (1, c), (c // 3, 2 * c // 3 + 1), (c - 1, c), (c, c + 5), (2, 1)]:
            assert list(dyck_words_range(m, start, stop)) == full[start:stop], (m, start, stop)
        assert list(dyck_words_range(m, 0, c + 10)) == full


def test_dyck_unrank_out_of_range() -> None:
    with pytest.raises(InvalidInputError, match=r"rank 5 out of range.*0\.\.4"):
        dyck_unrank(3, 5)
    with pytest.raises(InvalidInputError, match="rank -1 out of range"):
        dyck_unrank(3, -1)
    with pytest.raises(InvalidInputError, match="start must be >= 0"):
        dyck_words_range(3, -1, 2)
    with pytest.raises(InvalidInputError, match="semilength m must be >= 0"):
        dyck_words(-1)
    with pytest.raises(InvalidInputError, match="integer"):
        catalan(2.0)  # type: ignore[arg-type]


def test_heights() -> None:
    assert heights("") == [0]
    assert heights("UUDUDD") == [0, 1, 2, 1, 2, 1, 0]
    assert heights("DU") == [0, -1, 0]  # any U/D word, not only Dyck words
    for w in dyck_words(5):
        hs = heights(w)
        assert len(hs) == len(w) + 1 and hs[0] == 0 and hs[-1] == 0 and min(hs) == 0


def test_validate_dyck_accepts_and_returns() -> None:
    assert validate_dyck("") == ""
    assert validate_dyck("UDUUDD") == "UDUUDD"


def test_validate_dyck_bad_letter_names_letter_and_position() -> None:
    with pytest.raises(InvalidInputError, match=r"letter 'x' at position 2.*use U .* and D"):
        validate_dyck("UDxD")
    with pytest.raises(InvalidInputError, match=r"letter 'u' at position 0"):
        validate_dyck("ud")
    with pytest.raises(InvalidInputError, match="string"):
        validate_dyck(["U", "D"])  # type: ignore[arg-type]


def test_validate_dyck_dip_names_position() -> None:
    with pytest.raises(InvalidInputError, match=r"D at position 2 goes below zero"):
        validate_dyck("UDDU")
    with pytest.raises(InvalidInputError, match=r"D at position 0 goes below zero"):
        validate_dyck("DU")


def test_validate_dyck_unbalanced_names_height() -> None:
    with pytest.raises(InvalidInputError, match=r"unbalanced.*ends at height 2"):
        validate_dyck("UUDUU" + "D")
    with pytest.raises(InvalidInputError, match=r"ends at height 1"):
        validate_dyck("U")
