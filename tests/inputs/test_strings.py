"""Every string over an alphabet by length: counts, order, ranks."""

import pytest

from symcot.errors import InvalidInputError
from symcot.inputs.strings import describe_string, string_unrank, strings_family, strings_range


def test_every_string_once_in_lexicographic_order_of_the_alphabet():
    fam = strings_family(["b", "a"], min_length=0)
    assert [list(fam.inputs(k)) for k in range(3)] == [
        [()], [("b",), ("a",)], [("b", "b"), ("b", "a"), ("a", "b"), ("a", "a")]]
    assert [fam.count(k) for k in range(5)] == [1, 2, 4, 8, 16] and fam.min_size == 0
    words = list(fam.inputs(4))
    assert len(set(words)) == 16 and words == sorted(words, key=lambda w: ["ba".index(a) for a in w])
    assert list(fam.inputs_range(4, 5, 9)) == words[5:9]
    assert string_unrank("ab", 3, 6) == ("b", "b", "a")


def test_a_minimum_length_empties_the_smaller_sizes():
    fam = strings_family("abc", min_length=2)
    assert fam.count(1) == 0 and list(fam.inputs(1)) == [] and fam.count(2) == 9 and fam.min_size == 1


def test_descriptions_and_bad_alphabets():
    assert describe_string(("a", "b"))["text"] == "w = ab (length 2)"
    assert describe_string(("<s>", "a"))["string"] == "<s> a"
    with pytest.raises(InvalidInputError, match="distinct"):
        strings_family("aa")
    with pytest.raises(InvalidInputError, match="out of range"):
        string_unrank("ab", 2, 4)
    with pytest.raises(InvalidInputError):
        list(strings_range("", 2, 0, 1))


def test_read_string_splits_and_checks_the_alphabet():
    from symcot.inputs.strings import read_string, split_string

    fam = strings_family("01")
    assert read_string("0110", [fam]) == ("0", "1", "1", "0")
    assert read_string("0, 1 1", [fam]) == ("0", "1", "1")
    assert split_string("abab", ["ab", "a", "b"]) == ("ab", "ab")  # the longest symbol first
    with pytest.raises(InvalidInputError, match=r"symbol '2' at position 2 is not in the alphabet \{0, 1\}"):
        read_string("012", [fam])
    with pytest.raises(InvalidInputError, match="the empty string, not an input: the inputs are every string over"):
        read_string("", [fam])
    with pytest.raises(InvalidInputError, match="length 1: the inputs are"):
        read_string("0", [strings_family("01", min_length=2)])


def test_read_string_searches_a_family_without_an_alphabet():
    from symcot.inputs.family import Family
    from symcot.inputs.strings import read_string

    bos = Family("every ^ w, w ∈ {a}^{n-1}", lambda n: [("^",) + ("a",) * (n - 1)], lambda n: 1)
    assert read_string("^aa", [bos]) == ("^", "a", "a")
    with pytest.raises(InvalidInputError, match=r"'aa': not one of every \^ w"):
        read_string("aa", [bos])
