r"""obs:strpathtwoMc (proof sketch of thm:cotpathstrahler) -- which two (M, c)-pairs a D step depends on.

Claimed:
    "Let the Dyck word w = w_0⋯w_{n-1} encode the lattice path {(τ, s_τ)}_{τ=0}^{n}. Let q_τ = s_τ − s_{τ−1}.
    For a time step t, str(ψ(w_0⋯w_t)) depends on two (M, c)-pairs (see obs:dynamicstrdfs) if q_t = −1.
    The first is the (M_v, c_v)-pair of the vertex v with co-ordinate (t, s_t), while the second
    (M_u, c_u) is associated with the vertex u with co-ordinate (t′, s_{t′}) such that
    ∄ t″, t′ < t″ < t and s_{t″} = s_{t′}."

Read as a rule that carries the pairs along the word: at a ``U`` the new vertex gets ``(0, 0)``; at a step
``t`` with ``q_t = −1`` the pair of the point ``(t, s_t)`` is eq:dynamicstrdfs's fold of the finished child
``v`` (the vertex the step leaves, at ``(t − 1, s_{t−1})``, with ``str(τ_v) = M_v + 1[c_v ≥ 2]``) into the
pair recorded at the point ``(t′, s_{t′})``. (After a ``D`` step into ``t`` the point ``(t, s_t)`` is the
parent's own, so the text's "v with co-ordinate (t, s_t)" is read as the vertex at ``t − 1``.)

Checked (no decoder), on every non-empty Dyck word: the rule is run along the word, ``t′`` chosen by the
variant's reading, and at every point ``t`` the pair must give ``M + 1[c ≥ 2] = str`` of the vertex there
over the children explored by then, computed on ψ(w_0⋯w_{t−1}) from the recursive definition
(:func:`~proofs.cot_path_to_tree.algorithms.paths.explored_strahler`; at ``t = n`` that is ``str(ψ(w))``). Variants:

* ``as-written`` -- the condition as printed determines ``t′``: every ``t′ < t`` with no ``t″`` strictly
  between whose height equals ``s_{t′}`` is a candidate, and the rule needs exactly one. ``t′ = t − 1`` always
  qualifies (nothing lies strictly between), so the check fails at the first ``D`` of any word with another
  candidate;
* ``t-minus-1`` -- the candidate the literal condition always offers, ``t′ = t − 1`` (the child's own pair);
* ``intended`` -- ``t′ = max{τ < t : s_τ = s_t}``, the parent's last point before the step (what
  thm:cotpathstrahler's layer-2 head looks up: "the right-most i < t with π_ht(y_i) = π_tmp_ht").

The fold itself (eq:dynamicstrdfs) is checked on its own (proofs/cot_path_to_tree/obs_dynamicstrdfs.py); here it is the
question which pairs it is applied to.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from proofs.cot_path_to_tree.algorithms.paths import explored_strahler, finished, fold
from symcot.claims import Claim, PropertyCheck, as_written, reading
from symcot.inputs.dyck import UP, heights
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS

#: ``choose(s, t)``: the candidates ``t′`` a reading allows at a ``D`` step into the point ``t``.
Chooser = Callable[[list[int], int], list[int]]


def literal_candidates(s: list[int], t: int) -> list[int]:
    """Every ``t′ < t`` with no ``t″``, ``t′ < t″ < t``, at the height ``s_{t′}`` (the condition as printed)."""
    return [tp for tp in range(t) if all(s[tpp] != s[tp] for tpp in range(tp + 1, t))]


def previous_point(s: list[int], t: int) -> list[int]:
    """``t′ = t − 1``: the candidate the printed condition always admits."""
    return [t - 1]


def parents_last_point(s: list[int], t: int) -> list[int]:
    """``t′ = max{τ < t : s_τ = s_t}``: the last point of the parent before the step."""
    return [max(tau for tau in range(t) if s[tau] == s[t])]


def first_point_at_height(s: list[int], t: int) -> list[int]:
    """``t′ = min{τ < t : s_τ = s_t}``: a wrong reading (the first vertex ever at that height), for tests."""
    return [min(tau for tau in range(t) if s[tau] == s[t])]


def rule_failure(word: str, choose: Chooser) -> dict[str, Any] | None:
    """The first point where the rule with ``choose`` is undetermined or wrong, or ``None``."""
    s = heights(word)
    want = explored_strahler(word)
    pairs: list[tuple[int, int]] = [(0, 0)]
    for t, ch in enumerate(word, 1):
        if ch == UP:
            pairs.append((0, 0))
        else:
            cands = choose(s, t)
            if len(cands) != 1:
                return {"step": t, "kind": "statement", "what": "t' determined by the condition",
                        "expected": "exactly one t'", "got": cands,
                        "pairs_at_candidates": {str(c): list(pairs[c]) for c in cands}}
            tp = cands[0]
            m_v, c_v = pairs[t - 1]
            pairs.append(fold(finished(m_v, c_v), *pairs[tp]))
        m, c = pairs[t]
        if finished(m, c) != want[t]:
            return {"step": t, "kind": "statement", "what": "M + 1[c ≥ 2] of the pair at (t, s_t)",
                    "expected": want[t], "got": finished(m, c), "t_prime": choose(s, t) if ch != UP else None,
                    "pairs": [list(p) for p in pairs]}
    return None


def _check(variant: str, choose: Chooser, method: str) -> PropertyCheck:
    return PropertyCheck(variant, [NONEMPTY_DYCK_WORDS], lambda w: rule_failure(w, choose), method=method)


CLAIM = Claim(
    id="obs:strpathtwoMc",
    kind="observation",
    statement="At a D step (q_t = -1) the pair at (t, s_t) depends on two (M, c)-pairs: the finished child v's "
              "and the pair at (t', s_t') with no t'' in (t', t) at height s_t'.",
    where="Appendix 'Realizing str on Trees and Paths' (app:cotstr), proof sketch of thm:cotpathstrahler",
    checks=[
        _check("as-written", literal_candidates,
               "exhaustive enumeration of Dyck words: t' from the printed condition, pairs folded along the word "
               "vs str of the explored subtree"),
        _check("t-minus-1", previous_point,
               "exhaustive enumeration of Dyck words: t' = t - 1, pairs folded along the word vs str of the "
               "explored subtree"),
        _check("intended", parents_last_point,
               "exhaustive enumeration of Dyck words: t' = max{τ < t : s_τ = s_t}, pairs folded along the word "
               "vs str of the explored subtree"),
    ],
    default_max_size=10,
    readings={
        "as-written": as_written("t' is any point with no t'' in (t', t) at height s_t' (as printed); the rule "
                                 "needs it to be unique"),
        "t-minus-1": reading("t' = t - 1, the candidate the printed condition always admits (the child's own pair)"),
        "intended": reading("t' = max{τ < t : s_τ = s_t}, the parent's last point before the step (the layer-2 "
                            "head of thm:cotpathstrahler)"),
    },
    notes=["q_τ = s_τ - s_{τ-1} as the observation defines it: a D step into the point t. The text's 'v with "
           "co-ordinate (t, s_t)' is read as the vertex the step leaves, at (t - 1, s_{t-1})."],
)
