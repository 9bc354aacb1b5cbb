"""eq:depth-height (proof of prop:heightpathtree, Appendix "Missing Proofs").

Claimed:
    "s_i = depth(u_i) (0 ≤ i ≤ 2(n−1)), and s_i − s_{i−1} = 1 (1 ≤ i ≤ 2(n−1))", where ``u_i`` is the node
    at which the DFS pointer rests after step ``i`` of φ(G_T) and ``s_i`` the ordinate of the path.

Checked:
    On every ordered tree ψ(w) (every Dyck word w), the DFS pointer ``u_i`` is replayed with the
    reference dynamic and both parts are checked at every ``i``. The second part, as printed, says every
    step goes up; the variant ``repaired`` reads it as ``s_i − s_{i−1} = ±1`` (+1 on U, −1 on D), which
    is what the proof's next sentences use.
"""

from __future__ import annotations

from typing import Any

from proofs.cot_path_to_tree.algorithms.bijection import psi
from proofs.cot_path_to_tree.algorithms.dfs import dfs_dynamic
from symcot.claims import Claim, PropertyCheck, as_written, repair
from symcot.inputs.dyck import heights
from symcot.inputs.dyck_families import DYCK_WORDS


def _check(word: str, printed: bool) -> dict[str, Any] | None:
    tree = psi(word)
    g = tree.to_digraph()
    states = dfs_dynamic(g, 0)
    s = heights(word)
    for i in range(len(word) + 1):
        u = states[i].cur
        if u is None or s[i] != tree.depth(u):
            got = None if u is None else tree.depth(u)
            return {"step": i, "what": "s_i = depth(u_i)", "expected": s[i], "got": got}
        if i >= 1:
            step = s[i] - s[i - 1]
            want = 1 if printed else (1 if word[i - 1] == "U" else -1)
            if step != want:
                return {"step": i, "what": "s_i - s_{i-1}", "expected": want, "got": step}
    return None


CLAIM = Claim(
    id="eq:depth-height",
    kind="equation",
    statement="s_i = depth(u_i) for every i, and s_i − s_{i−1} = 1 for every i ≥ 1 (proof of prop:heightpathtree).",
    where="Appendix 'Missing Proofs of Lemmas and Propositions', proof of prop:heightpathtree",
    checks=[
        PropertyCheck("as-written", [DYCK_WORDS], lambda w: _check(w, printed=True),
                      "exhaustive enumeration of Dyck words; DFS pointer replayed on ψ(w)"),
        PropertyCheck("repaired", [DYCK_WORDS], lambda w: _check(w, printed=False),
                      "exhaustive enumeration of Dyck words; s_i − s_{i−1} = ±1 by the letter"),
    ],
    default_max_size=10,
    readings={"as-written": as_written("s_i − s_{i−1} = 1 for every 1 ≤ i ≤ 2(n−1), as printed"),
              "repaired": repair("s_i − s_{i−1} = ±1: +1 for U, −1 for D (as the next sentences of the proof use it)")},
)
