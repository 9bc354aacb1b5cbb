"""prop:heightpathtree -- hgt(G_T) = max_i s_i on the path φ(G_T) (Section 2.2).

Claimed:
    "For every G_T ∈ T_n, hgt(G_T) = max_{0 ≤ i ≤ 2(n-1)} s_i."

Checked (exhaustively, by number of vertices n): for every ordered tree ``G_T`` on ``n`` vertices
(enumerated without ψ), ``hgt(G_T) = max_v dep(v)`` computed from the tree's depths equals ``max_i s_i``
computed from the ordinate sequence of ``φ(G_T)``; and, from the other side, for every Dyck word ``w``,
``hgt(ψ(w)) = max_i s_i(w)``.
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.algorithms.bijection import phi_ordered, psi
from proofs.cot_path_to_tree.algorithms.paths import path_height, tree_height
from symcot.claims import Claim, PropertyCheck
from symcot.inputs.dyck_families import DYCK_WORDS, ORDERED_TREES
from symcot.inputs.trees import OrderedTree


def per_input(inp: str | OrderedTree) -> dict[str, Any] | None:
    """``hgt`` of the tree against ``max_i s_i`` of its word."""
    tree, word = (psi(inp), inp) if isinstance(inp, str) else (inp, phi_ordered(inp))
    h_tree, h_path = tree_height(tree), path_height(word)
    if h_tree != h_path:
        return {"kind": "property", "what": "hgt(G_T) = max_i s_i", "word": word, "expected": h_tree, "got": h_path,
                "explanation": f"hgt(G_T) = {h_tree} but max_i s_i = {h_path}"}
    return None


CLAIMS = [
    Claim(
        id="prop:heightpathtree",
        kind="proposition",
        statement="For every G_T ∈ T_n, hgt(G_T) = max_{0≤i≤2(n-1)} s_i of the path φ(G_T).",
        where="Section 2.2; proof in Appendix 'Missing Proofs of Lemmas and Propositions' (eq:depth-height)",
        checks=[PropertyCheck("as-written", [ORDERED_TREES, DYCK_WORDS], per_input,
                              method="exhaustive enumeration: every ordered tree and every Dyck word")],
        default_max_size=11,
    ),
]
