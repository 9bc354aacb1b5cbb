"""prop:widthpathtree -- wid(G_T) = max_{0<l≤hgt} |{i : s_i = l, s_i - s_{i-1} = 1}| (Section 2.2).

Claimed:
    "For every G_T ∈ T_n with n ≥ 2, wid(G_T) = max_{0 < l ≤ hgt(G_T)} |{i : s_i = l, s_i - s_{i-1} = 1}|."

Checked (exhaustively, n ≥ 2 vertices): for every ordered tree ``G_T`` (enumerated without ψ) and every
non-empty Dyck word ``w`` (through ψ(w)), ``wid`` from the tree's level sizes equals the right-hand side
computed from the ordinate sequence of φ(G_T). The proof's intermediate claim is checked too: the
bijection ``φ_l : A_l → B_l`` gives ``|A_l| = |B_l|`` for every ``1 ≤ l ≤ hgt(G_T)``.
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.algorithms.bijection import phi_ordered, psi
from proofs.cot_path_to_tree.algorithms.paths import level_sizes, path_width, tree_width, up_counts
from symcot.claims import Claim, PropertyCheck
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS, ORDERED_TREES_2
from symcot.inputs.trees import OrderedTree


def per_input(inp: str | OrderedTree) -> dict[str, Any] | None:
    """``wid`` of the tree against the path formula, and ``|A_l| = |B_l|`` level by level."""
    tree, word = (psi(inp), inp) if isinstance(inp, str) else (inp, phi_ordered(inp))
    levels, b = level_sizes(tree), up_counts(word)
    for lvl in range(1, len(levels)):
        if levels[lvl] != b.get(lvl, 0):
            return {"kind": "property", "what": f"|A_{lvl}| = |B_{lvl}|", "word": word, "level": lvl,
                    "expected": levels[lvl], "got": b.get(lvl, 0),
                    "explanation": f"|A_{lvl}| = {levels[lvl]} but |B_{lvl}| = {b.get(lvl, 0)}"}
    w_tree, w_path = tree_width(tree), path_width(word)
    if w_tree != w_path:
        return {"kind": "property", "what": "wid(G_T) = max_l |B_l|", "word": word, "expected": w_tree, "got": w_path,
                "explanation": f"wid(G_T) = {w_tree} but the path formula gives {w_path}"}
    return None


CLAIMS = [
    Claim(
        id="prop:widthpathtree",
        kind="proposition",
        statement="For every G_T ∈ T_n with n ≥ 2, wid(G_T) = max_{0<l≤hgt(G_T)} |{i : s_i = l, s_i - s_{i-1} = 1}|.",
        where="Section 2.2; proof in Appendix 'Missing Proofs of Lemmas and Propositions'",
        checks=[PropertyCheck("as-written", [ORDERED_TREES_2, NONEMPTY_DYCK_WORDS], per_input,
                              method="exhaustive enumeration, n ≥ 2: every ordered tree and every non-empty "
                                     "Dyck word; |A_l| = |B_l| per level")],
        default_max_size=11,
        notes=["The statement excludes n = 1 (the maximum would be over an empty range); both families are "
               "empty at n = 1 (no input in the claim's domain), so size 1 is complete vacuously."],
    ),
]
