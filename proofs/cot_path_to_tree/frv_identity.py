"""intro:frv -- the Flajolet--Raoult--Vuillemin identity quoted in the Introduction (id ours).

Claimed (Introduction, paragraph "The traversal machinery ..."; no label in the paper, so the id
``intro:frv`` is ours):
    "the number of full binary trees G_T with n internal vertices and Strahler number str(G_T) turns out
    to be the same as the number of Dyck paths of length 2n whose height h satisfies
    ⌊log2(1+h)⌋ = str(G_T)" (citing Flajolet--Raoult--Vuillemin 1979 and Addario-Berry et al. 2024).

Read as a statement about counts: for every ``n ≥ 1`` and every ``k``,
``|{full binary trees with n internal nodes, str = k}| = |{Dyck words of length 2n, ⌊log2(1+h)⌋ = k}|``.

Conventions (the variants):
    * ``as-written`` -- the paper's own conventions: ``str`` of a leaf is 0 (Section 2.2: "For leaf node
      v, str(v) = 0") with the binary rule ``max(min(a, b) + 1, max(a, b))``; ``h = max_i s_i``, the height
      of the path (prop:heightpathtree); the two distributions are compared as counts;
    * ``leaf-strahler-1`` -- the other common convention, a leaf has Strahler number 1;
    * ``pointwise-preorder`` -- a bijective reading: the standard bijection (preorder, ``U`` per internal
      node, ``D`` per leaf but the last) maps every tree to a path with ``⌊log2(1+h)⌋ = str``;
    * ``ordered-trees-psi`` -- counting the ordered trees ψ(w) (n + 1 vertices, any arity) by their
      Strahler number instead of the full binary trees.

Inputs: one per size ``n`` (the number of internal nodes = the semilength of the Dyck words); every full
binary tree with ``n`` internal nodes and every Dyck word of length ``2n`` is enumerated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from proofs.cot_path_to_tree.algorithms.bijection import psi
from proofs.cot_path_to_tree.algorithms.paths import (
    binary_tree_strahler,
    binary_tree_word,
    full_binary_trees,
    height_class_distribution,
    log_height_class,
    path_height,
    strahler,
    strahler_distribution,
)
from symcot.check.exhaustive import Family
from symcot.claims import Claim, PropertyCheck, as_written, reading
from symcot.inputs.dyck import catalan, dyck_words

SIZES = Family("n = internal nodes of the full binary trees = semilength of the Dyck words (one input per n)",
               lambda n: iter([n]), lambda n: 1,
               lambda n: {"n": n, "trees": catalan(n), "paths": catalan(n),
                          "text": f"n = {n}: {catalan(n)} full binary trees, {catalan(n)} Dyck words of "
                                  f"length {2 * n}"})


def compare_counts(left: Callable[[int], dict[int, int]], what: str) -> Callable[[int], dict[str, Any] | None]:
    """A per-size check: ``left(n)`` (a Strahler distribution) against the height-class distribution."""
    def per_input(n: int) -> dict[str, Any] | None:
        trees, paths = left(n), height_class_distribution(n)
        if trees != paths:
            return {"kind": "property", "what": "counts per k", "expected": paths, "got": trees,
                    "explanation": f"{what} by Strahler number {trees} vs Dyck words of length {2 * n} by "
                                   f"⌊log2(1+h)⌋ {paths}"}
        return None

    return per_input


def pointwise(n: int) -> dict[str, Any] | None:
    """Every full binary tree T: str(T) = ⌊log2(1+h)⌋ of its preorder word (a bijective reading)."""
    for t in full_binary_trees(n):
        w = binary_tree_word(t)
        s, k = binary_tree_strahler(t), log_height_class(path_height(w))
        if s != k:
            return {"kind": "property", "what": "str(T) = ⌊log2(1+h)⌋", "tree": repr(t), "word": w,
                    "expected": s, "got": k,
                    "explanation": f"str(T) = {s} but its preorder word {w} has ⌊log2(1+h)⌋ = {k}"}
    return None


def psi_distribution(n: int) -> dict[int, int]:
    """Ordered trees ψ(w), |w| = 2n, by their Strahler number (leaf 0)."""
    return dict(sorted(Counter(strahler(psi(w)) for w in dyck_words(n)).items()))


CLAIMS = [
    Claim(
        id="intro:frv",
        kind="sentence",
        statement="#{full binary trees, n internal nodes, str = k} = #{Dyck paths of length 2n with ⌊log2(1+h)⌋ = k} "
                  "(Flajolet-Raoult-Vuillemin), for every n and k.",
        where="Introduction, third paragraph (no label; id ours)",
        checks=[
            PropertyCheck("as-written", [SIZES], compare_counts(strahler_distribution, "full binary trees"),
                          method="exhaustive enumeration of both sides, counts per k (leaf str 0, h = max s_i)"),
            PropertyCheck("leaf-strahler-1", [SIZES],
                          compare_counts(lambda n: strahler_distribution(n, leaf=1), "full binary trees (leaf 1)"),
                          method="exhaustive enumeration, counts per k, leaf Strahler number 1"),
            PropertyCheck("pointwise-preorder", [SIZES], pointwise,
                          method="exhaustive: str(T) = ⌊log2(1+h)⌋ tree by tree through the preorder bijection"),
            PropertyCheck("ordered-trees-psi", [SIZES], compare_counts(psi_distribution, "ordered trees ψ(w)"),
                          method="exhaustive enumeration, counts per k, ordered trees ψ(w) instead of binary trees"),
        ],
        default_max_size=12,
        notes=["Only the as-written reading is the identity the paper quotes; the other variants are the "
               "alternative conventions the reading was compared with (expected to be refuted)."],
        readings={
            "as-written": as_written("counts per k; a leaf has Strahler number 0 (Section 2.2), h = max_i s_i"),
            "leaf-strahler-1": reading("counts per k with the other common convention: a leaf has Strahler number 1"),
            "pointwise-preorder": reading("tree by tree: the preorder bijection maps each tree to a path with "
                                          "⌊log2(1+h)⌋ = str"),
            "ordered-trees-psi": reading("counts per k over the ordered trees ψ(w) (any arity) instead of the full "
                                         "binary trees"),
        },
    ),
]
