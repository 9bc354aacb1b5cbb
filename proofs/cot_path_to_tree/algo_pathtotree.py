"""algo:pathtotree -- Algorithm 1 returns the adjacency matrix of ψ(w) (Section 2.2).

Claimed:
    "we introduce Algorithm 1 that returns the adjacency matrix of the tree on receiving a Dyck path as
    input", with the correctness proof of Appendix "Missing Proofs of Lemmas and Propositions".

Checked (exhaustively, by number of vertices n = |w|/2 + 1): for every Dyck word ``w``,
    * Algorithm 1 as printed (:func:`~proofs.cot_path_to_tree.algorithms.bijection.psi_adjacency`) returns the adjacency
      matrix of the ordered tree ψ(w) built from ψ's description;
    * the step-by-step run (:func:`~proofs.cot_path_to_tree.algorithms.paths.algorithm1_states`, line by line) agrees
      with
      it, and after every prefix ``w_0..w_{t-1}`` its ``A_w`` is the adjacency matrix of the partial tree
      ψ(w_0..w_{t-1}) and ``i`` is the node the pointer rests on; line 8 finds exactly one ``j < i``
      every time it runs (the proof's "implicit invariants").
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.algorithms.bijection import psi, psi_adjacency
from proofs.cot_path_to_tree.algorithms.paths import algorithm1_states, partial_tree_adjacency, tree_adjacency
from symcot.claims import Claim, PropertyCheck
from symcot.inputs.dyck import UP
from symcot.inputs.dyck_families import DYCK_WORDS


def pointer_after(word: str, t: int) -> int:
    """The node ψ's pointer rests on after ``t`` letters (ψ's description: U to a new child, D to the parent)."""
    parent, cur = [-1], 0
    for c in word[:t]:
        if c == UP:
            parent.append(cur)
            cur = len(parent) - 1
        else:
            cur = parent[cur]
    return cur


def per_input(w: str) -> dict[str, Any] | None:
    """Algorithm 1's output and every intermediate ``(i, A_w)`` against ψ."""
    want = tree_adjacency(psi(w))
    try:
        got = psi_adjacency(w)
        states = algorithm1_states(w)
    except RuntimeError as e:
        return {"kind": "property", "what": "line 8 finds exactly one j", "expected": "one j", "got": str(e)}
    if got != want:
        return {"kind": "property", "what": "A_w returned", "expected": want, "got": got}
    size = len(w) // 2 + 1
    for st in states:
        part = partial_tree_adjacency(w, st.t, size)
        if [list(r) for r in st.a] != part:
            return {"kind": "property", "what": f"A_w after {st.t} letters", "step": st.t, "expected": part,
                    "got": [list(r) for r in st.a]}
        if st.i != pointer_after(w, st.t):
            return {"kind": "property", "what": f"i after {st.t} letters", "step": st.t,
                    "expected": pointer_after(w, st.t), "got": st.i}
    if [list(r) for r in states[-1].a] != got:
        return {"kind": "property", "what": "step-by-step run against psi_adjacency", "expected": got,
                "got": [list(r) for r in states[-1].a]}
    return None


CLAIMS = [
    Claim(
        id="algo:pathtotree",
        kind="algorithm",
        statement="Algorithm 1 returns the adjacency matrix of ψ(w) for every Dyck word w.",
        where="Section 2.2 (Algorithm 1); correctness proof in Appendix 'Missing Proofs of Lemmas and Propositions'",
        checks=[PropertyCheck("as-written", [DYCK_WORDS], per_input,
                              method="exhaustive enumeration: output and every prefix against ψ")],
        default_max_size=11,
        notes=["Line 8 searches column i (the current node), as printed; the correctness proof's 'j < nl with "
               "A_w[j, nl] = 1' reading is wrong (docs/errata.md (c), docs/errata/paths.md)."],
    ),
]
