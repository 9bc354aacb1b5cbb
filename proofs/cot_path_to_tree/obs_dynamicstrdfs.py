"""obs:dynamicstrdfs and its equations, checked at the reference level against the recursive Strahler number.

Claimed:
    *obs:dynamicstrdfs* (Section 2.2) -- while DFS runs, each vertex carries ``(M, c)``: "the maximum
    Strahler number observed among the already explored children ... (or one more than it, in a boundary
    case when D = 0 is observed a priori), and the number of children attaining this maximum value", and
    "str(τ_v) = M_v + 1[c_v ≥ 2]", with the update eq:dynamicstrdfs at every backtrack.
    *eq:dynamicstrdfs* -- the case form of that update (``D < 0``, ``D = 0``, ``D > 0``).
    *eq:dynamicstrdfs:reduced* (id ours; the unlabelled equation after "which reduces to") --
    ``M = max(str(τ_v), M_u) + 1[D=0]1[c_u>0]``, ``c = 1[D<0]c_u + 1[D=0]1[c_u=0] + 1[D>0]1``.
    *eq:strahM*, *eq:strahc* (proof of thm:cottreestrahler) -- the new ``M`` and the new ``c`` the decoder
    must produce on a backtrack.

Checked (no decoder involved; :mod:`proofs.cot_path_to_tree.algorithms.strahler`):
    Every ordered tree with up to 10 vertices (exhaustive, in Dyck-word order). The DFS dynamic runs from
    the root; the update under test folds each finished child into its parent's accumulator; every
    vertex's ``str(τ_v) = M_v + 1[c_v ≥ 2]``, at the backtrack that finishes it (the root at the final
    backtrack, folded into φ's empty accumulator), and ``π_M`` after that final fold must equal the
    recursive Strahler number. An equation that defines only ``M`` (eq:strahM) or only ``c`` (eq:strahc)
    replaces that half of the case form and nothing else. The observation is further checked against its
    own description of ``(M, c)`` (:func:`~proofs.cot_path_to_tree.algorithms.strahler.footnote_accumulator`) and
    ``c ∈ {0, 1, 2}``; the reduced form must also agree with the case form at every step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from proofs.cot_path_to_tree.algorithms import phi_ordered
from proofs.cot_path_to_tree.algorithms.strahler import (
    Update,
    combine,
    fold_case,
    fold_reduced,
    footnote_accumulator,
    strah_c,
    strah_c_repaired,
    strah_m,
    strahler_dynamic,
    strahler_numbers,
)
from symcot.check.exhaustive import Family
from symcot.claims import Claim, PropertyCheck, as_written, repair
from symcot.inputs import OrderedTree, catalan, ordered_trees

MAX_SIZE = 10


def describe(tree: OrderedTree) -> dict[str, Any]:
    """JSON description of an ordered tree: its size, Dyck word and children lists."""
    return {"n": tree.n, "word": phi_ordered(tree), "children": [list(c) for c in tree.children],
            "text": f"ordered tree {phi_ordered(tree) or '(single vertex)'}"}


ORDERED = Family("ordered trees (by Dyck word)", ordered_trees, lambda k: catalan(k - 1), describe)


def against_recursive(update: Update) -> Callable[[OrderedTree], dict[str, Any] | None]:
    """The fold with ``update`` gives every vertex its recursive Strahler number, and π_M = str at the end."""

    def check(tree: OrderedTree) -> dict[str, Any] | None:
        ref = strahler_numbers(tree.children, 0)
        states = strahler_dynamic(tree.to_digraph(), 0, update)
        for st in states[1:]:
            if st.finished is not None and st.child_str != ref[st.finished]:
                return {"step": st.t, "kind": "fold", "what": f"str(τ_v{st.finished})", "expected": ref[st.finished],
                        "got": st.child_str,
                        "explanation": f"at step {st.t} the fold finishes v{st.finished} with M + 1[c ≥ 2] = "
                                       f"{st.child_str}, but its subtree has str {ref[st.finished]}",
                        "trace": [[s.t, s.dfs.move, s.dfs.cur, list(s.acc)] for s in states[: st.t + 1]]}
        final_m = states[-1].acc[0]
        if final_m != ref[0]:
            return {"step": states[-1].t, "kind": "fold", "what": "π_M after the final backtrack", "expected": ref[0],
                    "got": final_m, "explanation": f"π_M after the final backtrack is {final_m}, but str = {ref[0]}"}
        return None

    return check


def observation(update: Update = fold_case) -> Callable[[OrderedTree], dict[str, Any] | None]:
    """obs:dynamicstrdfs: recursive str at every vertex, ``(M, c)`` as the observation describes it, ``c ≤ 2``."""
    by_def = against_recursive(update)

    def check(tree: OrderedTree) -> dict[str, Any] | None:
        bad = by_def(tree)
        if bad is not None:
            return bad
        for st in strahler_dynamic(tree.to_digraph(), 0, update)[1:]:
            if st.dfs.cur is None:
                continue
            if st.acc[1] not in (0, 1, 2):
                return {"step": st.t, "kind": "range", "what": f"c of v{st.dfs.cur}", "expected": "0, 1 or 2",
                        "got": st.acc[1], "explanation": f"c = {st.acc[1]} is outside {{0, 1, 2}}"}
            want = footnote_accumulator(st.children_str) if st.dfs.move == "backtrack" else (0, 0)
            if st.acc != want:
                return {"step": st.t, "kind": "accumulator", "what": f"(M, c) of v{st.dfs.cur}",
                        "expected": list(want), "got": list(st.acc), "children_str": list(st.children_str),
                        "explanation": f"at step {st.t}, v{st.dfs.cur} carries (M, c) = {st.acc}, but its finished "
                                       f"children have str {list(st.children_str)}: the observation's (M, c) is {want}"}
        return None

    return check


def agrees_with_case_form(update: Update) -> Callable[[OrderedTree], dict[str, Any] | None]:
    """``update`` gives the recursive str and the same accumulator as the case form at every step."""
    by_def = against_recursive(update)

    def check(tree: OrderedTree) -> dict[str, Any] | None:
        bad = by_def(tree)
        if bad is not None:
            return bad
        g = tree.to_digraph()
        for a, b in zip(strahler_dynamic(g, 0, update), strahler_dynamic(g, 0, fold_case)):
            if a.acc != b.acc:
                return {"step": a.t, "kind": "accumulator", "what": "(M, c) vs the case form",
                        "expected": list(b.acc), "got": list(a.acc),
                        "explanation": f"at step {a.t} the reduced form gives {a.acc}, the case form {b.acc}"}
        return None

    return check


METHOD = "exhaustive enumeration of ordered trees; fold vs recursive str"

CLAIMS = [
    Claim(
        id="obs:dynamicstrdfs",
        kind="observation",
        statement="During DFS, (M, c) per vertex -- the maximum str among its explored children (or one more, in "
                  "the D = 0 boundary case) and its multiplicity -- gives str(τ_v) = M_v + 1[c_v ≥ 2].",
        where="Section 2.2 (ssec:prelimtrees), Observation obs:dynamicstrdfs",
        checks=[PropertyCheck("as-written", [ORDERED], observation(fold_case),
                              "exhaustive enumeration of ordered trees; fold vs recursive str and vs the stated "
                              "meaning of (M, c)")],
        default_max_size=MAX_SIZE,
        notes=["The fold uses the case form eq:dynamicstrdfs; the root is folded into φ's empty accumulator."],
    ),
    Claim(
        id="eq:dynamicstrdfs",
        kind="equation",
        statement="The case form: D < 0 keeps (M_u, c_u); D = 0 gives (M_u + 1[c_u ≥ 1], 1[c_u + 1 < 2]); "
                  "D > 0 gives (str(τ_v), 1).",
        where="Section 2.2, Observation obs:dynamicstrdfs, eq. (dynamicstrdfs)",
        checks=[PropertyCheck("as-written", [ORDERED], against_recursive(fold_case), METHOD)],
        default_max_size=MAX_SIZE,
    ),
    Claim(
        id="eq:dynamicstrdfs:reduced",
        kind="equation",
        statement="'which reduces to' M = max(str(τ_v), M_u) + 1[D=0]1[c_u>0], "
                  "c = 1[D<0]c_u + 1[D=0]1[c_u=0] + 1[D>0]1.",
        where="Section 2.2, the unnumbered equation after eq:dynamicstrdfs (no label in the paper; id ours)",
        checks=[PropertyCheck("as-written", [ORDERED], agrees_with_case_form(fold_reduced),
                              METHOD + ", and = case form at every step")],
        default_max_size=MAX_SIZE,
    ),
    Claim(
        id="eq:strahM",
        kind="equation",
        statement="π_M(y_{t+1}) = M_u + ReLU(str(v) - M_u) + 1[D=0]1[c_u>0] during backtrack.",
        where="Appendix Realizing str, proof of thm:cottreestrahler, eq. (strahM)",
        checks=[PropertyCheck("as-written", [ORDERED], against_recursive(combine(m_rule=strah_m)), METHOD)],
        default_max_size=MAX_SIZE,
        notes=["The new M from eq:strahM, the new c from the case form eq:dynamicstrdfs."],
    ),
    Claim(
        id="eq:strahc",
        kind="equation",
        statement="π_c(y_{t+1}) = 1[D>0]c_u + 1[D=0]1[c_u=0] + 1[D<0]1 during backtrack.",
        where="Appendix Realizing str, proof of thm:cottreestrahler, eq. (strahc)",
        checks=[
            PropertyCheck("as-written", [ORDERED], against_recursive(combine(c_rule=strah_c)), METHOD),
            PropertyCheck("repaired", [ORDERED], against_recursive(combine(c_rule=strah_c_repaired)), METHOD),
        ],
        default_max_size=MAX_SIZE,
        notes=["The new c from eq:strahc, the new M from the case form. The repair swaps 1[D>0] and 1[D<0], "
               "which is the reduced form's c and what W_1^(4) of the construction computes."],
        readings={"as-written": as_written("c ← 1[D>0]·c_u + 1[D=0]·1[c_u=0] + 1[D<0]·1, as printed"),
                  "repaired": repair("1[D>0] and 1[D<0] swapped: c ← 1[D<0]·c_u + 1[D=0]·1[c_u=0] + 1[D>0]·1 "
                                     "(eq:dynamicstrdfs's case form; what W_1^(4) computes)")},
    ),
]
