"""Dyck-(k, D) generation by two AHAT layers: holds as written with the exact depth comparison (the completion);
the strict masks, a zero-max score, an unscaled offset and the printed close rule fail; no offset is refuted."""

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


def brute_next(k, depth, w):
    """Every a with w a u ∈ Dyck-(k, D) for some completion u (|u| ≤ D), and EOS when w ∈ Dyck-(k, D)."""
    sigma = alphabet(k)
    out = {"$"} if member(w, depth) else set()
    for a in sigma:
        if any(member(w + (a,) + u, depth) for n in range(depth + 1) for u in itertools.product(sigma, repeat=n)):
            out.add(a)
    return out


@pytest.mark.parametrize("k,depth", [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2)])
def test_the_next_token_reference_is_the_brute_force_over_completions(k, depth):
    sigma = alphabet(k)
    top = {1: 7, 2: 5, 3: 4}[k]
    seen = 0
    for n in range(top + 1):
        for w in itertools.product(sigma, repeat=n):
            is_prefix = bool(brute_next(k, depth, w)) if n == 0 else any(
                member(w + u, depth) for m in range(depth + 1) for u in itertools.product(sigma, repeat=m))
            assert (w in set(prefixes(k, depth, n))) == is_prefix, ("".join(w), depth)
            if is_prefix:
                seen += 1
                assert next_tokens(k, depth, w) == brute_next(k, depth, w), ("".join(w), depth)
    assert seen > top


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
        row = check_of("as-written", Options())(k, depth, length).run(RunContext("x", length, Progress(False)))
        assert row.verdict == "verified", (k, depth)
    assert VARIANTS["as-written"][0] == Options()
