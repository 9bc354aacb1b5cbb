"""Prompt tokens (symcot.replay.tokens): distinct tokens by identity, exact scaling, floats refused, shared prefixes."""

import random
from fractions import Fraction

import numpy as np
import pytest

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from symcot.inputs import random_digraph
from symcot.replay.batched import BatchedDecoder
from symcot.replay.scaling import NotNumericError
from symcot.replay.tokens import exact_table, intern_tokens


def _dfs_prompts(inps):
    cons = DfsConstruction()
    return cons.concrete(inps[0]), [cons.prompt(i).tokens for i in inps]


def test_prompt_conversion_through_distinct_tokens_equals_the_plain_conversion():
    rng = random.Random(3)
    inps = [(random_digraph(5, rng, p=0.4), rng.randrange(5)) for _ in range(30)]
    dec, prompts = _dfs_prompts(inps)
    eng = BatchedDecoder(dec)
    got, scale = eng.tokens(prompts)
    plain = np.array(prompts, dtype=np.int64).transpose(1, 2, 0)
    assert scale == 1 and np.array_equal(got, plain)
    shared = [[prompts[0][0]] + p[1:] for p in prompts]  # the same token object in every prompt
    assert np.array_equal(eng.tokens(shared)[0], eng.tokens([list(map(list, p)) for p in shared])[0])


def test_a_float_token_is_refused_even_after_an_equal_exact_token():
    dec, prompts = _dfs_prompts([(random_digraph(3, random.Random(1)), 0)] * 2)
    second = [list(t) for t in prompts[1]]
    second[1] = [float(v) for v in second[1]]  # equal in value (1.0 == 1) to the first prompt's token
    with pytest.raises(NotNumericError, match="floats"):
        BatchedDecoder(dec).tokens([prompts[0], second])


@pytest.mark.parametrize("bad", [0.5, np.float32(0.5), np.float64(1.0)])
def test_any_float_kind_is_refused_also_beside_huge_integers(bad):
    dec, prompts = _dfs_prompts([(random_digraph(3, random.Random(1)), 0)])
    for first in (0, 10**400):
        tok = [list(t) for t in prompts[0]]
        tok[1][0], tok[1][1] = bad, first
        with pytest.raises(NotNumericError, match="floats"):
            BatchedDecoder(dec).tokens([tok])


def test_tokens_beyond_int64_stay_exact_objects():
    dec, prompts = _dfs_prompts([(random_digraph(3, random.Random(4)), 0)])
    tok = [list(t) for t in prompts[0]]
    tok[1][0] = 2**70
    arr, scale = BatchedDecoder(dec).tokens([tok, prompts[0]])
    assert scale == 1 and arr.dtype == object and arr[1, 0, 0] == 2**70 and arr[1, 0, 1] == prompts[0][1][0]


def test_rational_tokens_get_a_common_scale():
    dec, prompts = _dfs_prompts([(random_digraph(3, random.Random(2)), 0)])
    tok = [list(t) for t in prompts[0]]
    tok[1][0] = Fraction(1, 3)
    arr, scale = BatchedDecoder(dec).tokens([tok])
    assert scale == 3 and arr[1, 0, 0] == 1 and arr[0, 0, 0] == 0


def test_the_shared_prefix_probe_finds_graphs_with_every_source_and_skips_distinct_prompts():
    rng = random.Random(8)
    graphs = [random_digraph(9, rng, p=0.4) for _ in range(3)]
    dec, prompts = _dfs_prompts([(g, s) for g in graphs for s in range(9)])
    reps, inverse = BatchedDecoder(dec).token_table(prompts).shared_prefix()
    assert len(reps) == 3 and len(set(inverse.tolist())) == 3
    assert BatchedDecoder(dec).run(prompts, 4, native=False).prefix_classes == 3
    dec, prompts = _dfs_prompts([(random_digraph(9, rng, p=0.4), 0) for _ in range(27)])
    assert BatchedDecoder(dec).token_table(prompts).shared_prefix() is None
    assert BatchedDecoder(dec).run(prompts, 4, native=False).prefix_classes is None


def test_interning_groups_tokens_by_object_and_keeps_equal_copies_apart():
    a, b = [1, 2], [3, 4]
    table, index = intern_tokens([[a, b], [b, a], [a, list(a)]])
    assert table.dtype == np.int64 and table.shape == (3, 2)  # the copy of a is a row of its own
    assert [[table[i].tolist() for i in row] for row in index] == [[a, b], [b, a], [a, a]]
    assert index[2, 0] != index[2, 1]


def test_exact_table_scales_fractions_to_integers():
    table, scale = exact_table(np.array([[Fraction(1, 2), 1], [Fraction(2, 3), 0]], dtype=object))
    assert scale == 6 and table.dtype == np.int64 and table.tolist() == [[3, 6], [4, 0]]
    with pytest.raises(NotNumericError, match="floats"):
        exact_table(np.array([[0.5]]))
