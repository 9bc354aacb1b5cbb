"""Dyck-(k, D) generation by two AHAT layers: holds as written with the exact depth comparison (the completion);
the strict masks, a zero-max score, an unscaled offset and the printed close rule fail; no offset is refuted."""

import functools
import itertools

import pytest

from proofs.transformer_cookbook.dyck_ahat import (
    DYCK_AHAT,
    OFFSET,
    VARIANTS,
    Options,
    check_of,
    indicator,
    next_tokens,
    prefix_family,
    prefixes,
)
from proofs.transformer_cookbook.dyck_uhat import alphabet, member
from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress


@functools.cache
def grammar_words(k, depth, length):
    """Dyck-(k, D) words of ``length`` from the grammar S -> [_i S ]_i S | ε (depth ≤ D), no stack."""
    if length == 0:
        return frozenset({()})
    if depth == 0 or length % 2:
        return frozenset()
    sigma = alphabet(k)
    out = set()
    for inner in range(0, length - 1, 2):
        for i in range(k):
            for u in grammar_words(k, depth - 1, inner):
                for v in grammar_words(k, depth, length - 2 - inner):
                    out.add((sigma[i], *u, sigma[k + i], *v))
    return frozenset(out)


def brute_next_sets(k, depth, top):
    """Every prefix w, |w| ≤ top, of a Dyck-(k, D) word, with its next-token set over all completions: a such that
    w a is a prefix of a word, and EOS when w is a word (every word up to |w| + 1 + D witnesses them)."""
    out = {}
    for n in range(top + depth + 2):
        for word in grammar_words(k, depth, n):
            for cut in range(min(len(word), top) + 1):
                w = word[:cut]
                nxt = out.setdefault(w, set())
                nxt.add(word[cut] if cut < len(word) else "$")
    return out


@pytest.mark.parametrize("k,depth", [(k, d) for k in (1, 2, 3) for d in (1, 2, 3)])
def test_the_next_token_reference_is_the_brute_force_over_completions(k, depth):
    top = {1: 7, 2: 6, 3: 5}[k]  # the lengths the default run checks
    brute = brute_next_sets(k, depth, top)
    assert {w for n in range(top + 1) for w in prefixes(k, depth, n)} == set(brute)
    for w, nxt in brute.items():
        assert next_tokens(k, depth, w) == nxt, ("".join(w), depth)
    assert all(member(w, depth) for n in range(9) for w in grammar_words(k, depth, n))


def test_the_grammar_gives_every_word_of_the_stack():
    for k, depth in ((1, 2), (2, 2), (2, 3), (3, 1)):
        for n in range(7):
            every = {w for w in itertools.product(alphabet(k), repeat=n) if member(w, depth)}
            assert grammar_words(k, depth, n) == every, (k, depth, n)


def test_indicator_order():
    assert indicator(2, {"(", "]"}) == [0, 1, 1, 0, 0]
    assert list(prefix_family(1, 1, 4).inputs(3)) == [("^", "[", "]", "[")]  # depth 1: [][ only
    with pytest.raises(ValueError):
        next_tokens(1, 1, ("]",))


def test_verdicts_and_the_smallest_counterexamples():
    got = {chk.variant: DYCK_AHAT.run_check(chk) for chk in DYCK_AHAT.checks}
    assert {v: r.verdict for v, r in got.items()} == {
        "as-written": "verified", "strict-match": "refuted", "strict-count": "refuted", "zero-max": "refuted",
        "offset-j": "refuted", "close-as-printed": "refuted", "no-offset": "refuted"}

    def cex(v):
        c = got[v].counterexample
        return c["k"], c["D"], c["input"]["string"], c["position"], c["got"], c["expected"]

    assert cex("strict-match") == (1, 1, "^[", 0, ["1", "0", "0"], [1, 0, 1])  # BOS sees nothing: no EOS
    assert cex("strict-count") == (1, 1, "^[]", 2, ["0", "1", "0"], [1, 0, 1])
    assert cex("zero-max") == (1, 1, "^[]", 2, ["1", "1", "0"], [1, 0, 1])  # the zeroed close ties the match
    assert cex("offset-j") == (1, 1, "^[]", 2, ["1", "1/2", "1/2"], [1, 0, 1])
    assert cex("close-as-printed") == (1, 1, "^[", 1, ["0", "0", "0"], [0, 1, 0])
    assert cex("no-offset") == (2, 1, "^[](", 3, ["0", "0", "1/2", "1/2", "0"], [0, 0, 0, 1, 0])
    assert got["as-written"].max_size == 7 and got["as-written"].inputs_checked > 1000
    assert DYCK_AHAT.readings["no-offset"].kind == "mutant"


def test_the_offset_is_below_the_depth_gap():
    assert 0 < OFFSET < 1  # equal depths score δ², unequal at most δ² - 1, closes 0; the offset p_j/2 < 1


@pytest.mark.slow
def test_as_written_at_larger_sizes():
    for k, depth, length in ((1, 3, 12), (2, 3, 9), (3, 3, 7)):
        row = check_of("as-written", Options())((k, depth), length).run(RunContext("x", length, Progress(False)))
        assert row.verdict == "verified", (k, depth)
    assert VARIANTS["as-written"][0] == Options()
