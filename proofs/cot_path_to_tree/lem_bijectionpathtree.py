"""lem:bijectionpathtree -- φ and ψ are mutually inverse bijections between T_n and D_{n-1} (Section 2.2).

Claimed:
    "There exists maps φ and ψ, mutually inverse bijections between the set T_n of all finite ordered
    trees and the set D_{n-1} of Dyck words of length 2(n-1)."

Checked (exhaustively, by number of vertices n):
    * every Dyck word ``w`` of length ``2(n-1)``: ψ(w) is an ordered tree on ``n`` vertices and
      ``φ(ψ(w)) = w``, both for the contour word (:func:`~proofs.cot_path_to_tree.algorithms.bijection.phi_ordered`) and
      for the
      paper's φ, the DFS dynamic eq:dfsdynamic run on the labelled tree of ψ(w) from the root
      (:func:`~proofs.cot_path_to_tree.algorithms.bijection.phi`);
    * every ordered tree ``T`` on ``n`` vertices, enumerated without ψ (root over ordered forests): φ(T) is
      a Dyck word of length ``2(n-1)`` and ``ψ(φ(T)) = T``.
    Both families must have exactly ``catalan(n-1)`` members (a count mismatch is an error verdict).
    Both compositions being the identity on the whole of each set makes φ and ψ mutually inverse
    bijections.
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.algorithms.bijection import phi, phi_ordered, psi
from symcot.claims import Claim, PropertyCheck
from symcot.errors import InvalidInputError
from symcot.inputs.dyck import validate_dyck
from symcot.inputs.dyck_families import DYCK_WORDS, ORDERED_TREES
from symcot.inputs.trees import OrderedTree


def check_word(w: str) -> dict[str, Any] | None:
    """ψ(w) has |w|/2 + 1 vertices and φ(ψ(w)) = w (contour word and DFS dynamic)."""
    t = psi(w)
    if t.n != len(w) // 2 + 1:
        return {"kind": "property", "what": "|ψ(w)|", "expected": len(w) // 2 + 1, "got": t.n}
    back = phi_ordered(t)
    if back != w:
        return {"kind": "property", "what": "φ(ψ(w)) by the contour", "expected": w, "got": back}
    dfs = phi(t.to_digraph(), 0)
    if dfs != w:
        return {"kind": "property", "what": "φ(ψ(w)) by the DFS dynamic", "expected": w, "got": dfs}
    return None


def check_tree(t: OrderedTree) -> dict[str, Any] | None:
    """φ(T) is a Dyck word of length 2(n-1) and ψ(φ(T)) = T."""
    w = phi_ordered(t)
    try:
        validate_dyck(w)
    except InvalidInputError as e:
        return {"kind": "property", "what": "φ(T) is a Dyck word", "expected": "a Dyck word", "got": f"{w}: {e}"}
    if len(w) != 2 * (t.n - 1):
        return {"kind": "property", "what": "|φ(T)|", "expected": 2 * (t.n - 1), "got": len(w)}
    back = psi(w)
    if back != t:
        return {"kind": "property", "what": "ψ(φ(T))", "expected": [list(c) for c in t.children],
                "got": [list(c) for c in back.children], "word": w}
    return None


def per_input(inp: str | OrderedTree) -> dict[str, Any] | None:
    """Dispatch on the family: a word or a tree."""
    return check_word(inp) if isinstance(inp, str) else check_tree(inp)


CLAIMS = [
    Claim(
        id="lem:bijectionpathtree",
        kind="lemma",
        statement="φ and ψ are mutually inverse bijections between the ordered trees T_n and the Dyck words "
                  "D_{n-1} of length 2(n-1).",
        where="Section 2.2; proof in Appendix 'Missing Proofs of Lemmas and Propositions'",
        checks=[PropertyCheck("as-written", [DYCK_WORDS, ORDERED_TREES], per_input,
                              method="exhaustive enumeration: φ∘ψ on every Dyck word, ψ∘φ on every ordered tree, "
                                     "both counts = Catalan")],
        default_max_size=11,
        notes=["Size n = number of vertices; Dyck words have length 2(n-1). Ordered trees are enumerated "
               "without ψ (a root over every ordered forest), so ψ∘φ = id is not circular."],
    ),
]
