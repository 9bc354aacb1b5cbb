"""Input families of Dyck words and ordered trees, indexed by the number of vertices of ψ(w).

The size of a Dyck word ``w`` is ``|w|/2 + 1``, the number of vertices of the ordered tree ψ(w)
(lem:bijectionpathtree: ``D_{n-1}`` ↔ ``T_n``). Words of a size come in :mod:`symcot.inputs.dyck`'s
order (lexicographic, ``U < D``), so the word of a size and rank is :func:`~symcot.inputs.dyck.dyck_unrank`
and a later issue can split a size into rank ranges (:func:`words_by_rank`, :func:`dyck_family` with
``start``/``stop``). The ordered trees of :data:`ORDERED_TREES` are enumerated independently of ψ (root
plus an ordered forest), so that ψ and φ can be checked against something they did not produce.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from symcot.errors import InvalidInputError
from symcot.inputs.batch import InputBatch, tree_batch, word_batch
from symcot.inputs.dyck import DOWN, UP, catalan, dyck_rank, dyck_words_range, validate_dyck
from symcot.inputs.family import Family
from symcot.inputs.trees import OrderedTree


def _semilength(size: int) -> int:
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise InvalidInputError(f"a size is a number of vertices >= 1, got {size!r}")
    return size - 1


def word_count(size: int) -> int:
    """Dyck words whose tree has ``size`` vertices: ``catalan(size - 1)``."""
    return catalan(_semilength(size))


def words_by_rank(size: int, start: int = 0, stop: int | None = None) -> Iterator[str]:
    """The Dyck words of ``size`` vertices with rank in ``[start, stop)`` (all of them by default)."""
    m = _semilength(size)
    return dyck_words_range(m, start, catalan(m) if stop is None else stop)


def describe_word(word: str) -> dict[str, Any]:
    """JSON description of a word input: the word, its size, its rank and a one-line text."""
    validate_dyck(word)
    return {"word": word, "n": len(word) // 2 + 1, "length": len(word), "rank": dyck_rank(word),
            "text": f"w = {word or 'ε'} (|w| = {len(word)}, {len(word) // 2 + 1} vertices)"}


def dyck_family(name: str = "Dyck words of length 2(n-1), n = vertices of ψ(w)", domain_from: int = 1,
                max_size: int | None = None, start: int = 0, stop: int | None = None) -> Family:
    """A :class:`Family` of Dyck words by number of vertices.

    Args:
        name: shown in reports.
        domain_from: the smallest size in the claim's domain; smaller sizes are *empty* (count 0), so
            they are complete vacuously and ``max_size`` still counts from 1. (A family with
            ``min_size > 1`` never gets a ``max_size`` from the shared checker.)
        max_size: the family's own size limit.
        start: the first rank of every size (sharding).
        stop: one past the last rank of every size (``None``: to the end).

    """
    def inputs(size: int) -> Iterator[str]:
        if size < domain_from:
            return iter(())
        return words_by_rank(size, start, stop)

    def count(size: int) -> int:
        if size < domain_from:
            return 0
        total = word_count(size)
        hi = total if stop is None else min(stop, total)
        return max(0, hi - start)

    def bounds(size: int, lo: int, hi: int) -> tuple[int, int]:
        total = word_count(size)
        a = min(start + lo, total)
        b = min(start + hi, total if stop is None else min(stop, total))
        return a, max(a, b)

    def inputs_range(size: int, lo: int, hi: int) -> Iterator[str]:
        if size < domain_from:
            return iter(())
        return words_by_rank(size, *bounds(size, lo, hi))

    def batch_range(size: int, lo: int, hi: int) -> InputBatch:
        if size < domain_from:
            return word_batch(size, 0, 0)
        return word_batch(size, *bounds(size, lo, hi))

    whole = start == 0 and stop is None
    return Family(name, inputs, count, describe_word, max_size=max_size, inputs_range=inputs_range, reach=True,
                  batch_range=batch_range, universe=letter_strings if whole else None,
                  universe_count=letter_string_count if whole else None)


def letter_strings(size: int) -> Iterator[str]:
    """Every string of ``U`` and ``D`` of length ``2(size - 1)``: the candidates among which the Dyck words are."""
    return ("".join(p) for p in itertools.product((UP, DOWN), repeat=2 * _semilength(size)))


def letter_string_count(size: int) -> int:
    """``4^(size - 1)``: how many :func:`letter_strings` yields."""
    return 4 ** _semilength(size)


#: Every Dyck word, including the empty word (size 1).
DYCK_WORDS = dyck_family()
#: Every non-empty Dyck word (trees with n ≥ 2 vertices); size 1 is empty.
NONEMPTY_DYCK_WORDS = dyck_family("non-empty Dyck words of length 2(n-1), n ≥ 2 vertices of ψ(w)", domain_from=2)


# -- ordered trees, enumerated without ψ --------------------------------------------------------------

_Shape = tuple  # a tree shape: the tuple of its children's shapes, in order


@lru_cache(maxsize=32)
def _shapes(n: int) -> tuple[_Shape, ...]:
    """All ordered tree shapes on ``n`` vertices: a root over every ordered forest on ``n - 1`` vertices."""
    return _forests(n - 1)


@lru_cache(maxsize=32)
def _forests(k: int) -> tuple[_Shape, ...]:
    """All ordered forests on ``k`` vertices: a first tree on ``j`` vertices, then a forest on ``k - j``."""
    if k == 0:
        return ((),)
    out: list[_Shape] = []
    for j in range(1, k + 1):
        for first in _shapes(j):
            for rest in _forests(k - j):
                out.append((first, *rest))
    return tuple(out)


def _to_ordered(shape: _Shape) -> OrderedTree:
    children: list[list[int]] = []

    def label(s: _Shape) -> int:
        v = len(children)
        children.append([])
        for c in s:
            children[v].append(label(c))
        return v

    label(shape)
    return OrderedTree(tuple(tuple(c) for c in children))


def ordered_trees_by_forests(n: int) -> Iterator[OrderedTree]:
    """Yield the ``catalan(n - 1)`` ordered trees on ``n`` vertices, built as a root over ordered forests.

    The vertices are labelled in preorder. The enumeration does not use ψ, φ or Dyck words.
    """
    _semilength(n)
    return (_to_ordered(s) for s in _shapes(n))


def describe_tree(tree: OrderedTree) -> dict[str, Any]:
    """JSON description of an ordered tree input: its children lists and a one-line text."""
    return {"n": tree.n, "children": [list(c) for c in tree.children],
            "text": f"ordered tree on {tree.n} vertices, children {[list(c) for c in tree.children]}"}


def ordered_tree_family(domain_from: int = 1) -> Family:
    """Every ordered tree on ``n ≥ domain_from`` vertices (smaller sizes empty), enumerated independently of ψ."""
    def inputs(size: int) -> Iterator[OrderedTree]:
        return iter(()) if size < domain_from else ordered_trees_by_forests(size)

    suffix = "" if domain_from <= 1 else f", n ≥ {domain_from}"
    return Family(f"ordered trees on n vertices (root over ordered forests){suffix}", inputs,
                  lambda size: 0 if size < domain_from else word_count(size), describe_tree)


#: Every ordered tree on n vertices, enumerated independently of ψ.
ORDERED_TREES = ordered_tree_family()
#: Every ordered tree on n ≥ 2 vertices; size 1 is empty.
ORDERED_TREES_2 = ordered_tree_family(2)


# -- ordered trees as rooted labeled trees (the tree-side constructions' inputs) -----------------------


def ordered_rooted_trees(size: int, start: int = 0, stop: int | None = None) -> Iterator[tuple[Any, int]]:
    """``(ψ(w) as a labeled tree, root 0)`` for the Dyck words ``w`` of ``size`` vertices with rank in range.

    ψ labels the vertices in preorder, so every ordered tree appears once, with the labels under which a
    DFS that takes the smallest-indexed neighbour first walks its children in their order.
    """
    return ((OrderedTree.from_dyck(w).to_digraph(), 0) for w in words_by_rank(size, start, stop))


def ordered_rooted_tree_family(describe: Any, what: str = "") -> Family:
    """Every ordered tree ψ(w), rooted at 0, as a ``(Digraph, 0)`` input: a ``reach``, ``partial`` family.

    It covers the part of "every labeled tree with every root" whose labels are a preorder from root 0
    (one labeling per ordered tree), so ``symcot verify --reach K`` can take tree-side constructions to
    ``K`` vertices. ``describe`` is the claim's own description of a ``(tree, root)`` input; the Dyck
    word is added.
    """
    def describe_with_word(inp: tuple[Any, int]) -> dict[str, Any]:
        out = dict(describe(inp))
        out["dyck"] = OrderedTree.from_rooted(*inp[:2]).to_dyck()
        return out

    return Family(f"ordered trees ψ(w), preorder labels, root 0{what}", ordered_rooted_trees, word_count,
                  describe_with_word, inputs_range=ordered_rooted_trees, reach=True, partial=True,
                  batch_range=tree_batch)
