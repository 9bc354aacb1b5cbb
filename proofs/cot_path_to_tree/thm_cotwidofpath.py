"""thm:cotwidofpath (Appendix "Realizing wid on Trees and Paths") -- width of ψ(w) from a Dyck word.

Claimed:
    "A two-layer single-head Transformer decoder can find wid(ψ(w)) for a Dyck word w in exactly n CoT
    steps, where |w| = n", with ``d = 3n/2 + 4``, layer 1 realizing lem:addonetospecificheight and layer 2
    lem:addwidplus1, and "π_wd(y_n) = wid(ψ(w))".

Checked:
    Each variant of :mod:`proofs.cot_path_to_tree.constructions.cotwidofpath` is replayed exactly on every non-empty
    Dyck
    word, for exactly ``n = |w|`` steps. After every step ``t``: ``π_ht(y_t) = s_t``,
    ``π_p(y_t) = (p_1 … p_{n/2+1})`` with ``p_i = |{τ ≤ t : s_τ = i, q_τ = +1}|``, ``π_wd(y_t) = max_i p_i`` and
    ``π_q(y_t) = 0``; after the last step ``π_wd(y_n)`` must equal ``wid(ψ(w))`` computed on the tree from its
    level sizes. Size accounting: ``d = 3n/2 + 4``, two layers, one head.

    For every n (``symcot verify --all-n``): ``repaired`` and ``q-literal-repaired`` carry the statement of the
    repaired proof (``cotwidofpath.all_n_statement``, over the width counts'
    vocabulary :mod:`proofs.cot_path_to_tree.algorithms.pathwidth_facts`), proved for a symbolic ``n``; that the final
    ``max_i p_i`` is ``wid(ψ(w))`` is prop:widthpathtree, left to the exact rows. The other variants are refuted by
    exact replay.

    *thm:cotwidofpath:width* (id ours): the same replay comparing ``p``, ``wd`` and ``q`` only (the height ``ht``
    left out), and the conclusion ``π_wd(y_n) = wid(ψ(w))``: what each reading gets right of the width itself.

    *thm:cotwidofpath:height* (id ours): the proof's first sentence, "hgt(ψ(w)) is bounded above by n/2 + 1,
    that is, when ψ(w) is a path" (it sizes the block ``p``). ``hgt`` counts edges (Section 2.2), so the path
    ``U^{n/2} D^{n/2}`` has height ``n/2``. Checked on every non-empty Dyck word: ``as-written`` (the bound, and
    equality when ψ(w) is a path), ``bound-only`` (the bound alone) and ``repaired`` (``hgt ≤ n/2``, with
    equality exactly when ψ(w) is a path); each row's ``details`` gives per size the largest height, the
    slack to the bound and how many words reach it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from proofs.cot_path_to_tree.algorithms.batched.paths import WIDTH_REFERENCE
from proofs.cot_path_to_tree.algorithms.batched.trees import width_of_psi
from proofs.cot_path_to_tree.algorithms.bijection import psi
from proofs.cot_path_to_tree.algorithms.paths import WidthState, tree_height
from proofs.cot_path_to_tree.constructions.cotwidofpath import (
    PAPER_D,
    READINGS,
    VARIANTS,
    WidthPathConstruction,
)
from symcot.check.spec import Conclusion, StepwiseSpec
from symcot.claims import Claim, ConstructionCheck, as_written, reading, repair
from symcot.fidelity.bound import BoundCheck
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS
from symcot.prove.alln.check import AllNCheck

PAPER_SIZES = {"d": PAPER_D, "layers": 2, "heads": 1}


def state_text(st: WidthState) -> str:
    """One line per prefix state."""
    return f"t={st.t}: ht={st.ht}, p={list(st.p)}, wd={st.wd}"


#: ``y_t`` against the prefix counts; then ``π_wd(y_n) = wid(ψ(w))`` (tree side) after exactly n steps.
SPEC = StepwiseSpec(
    reference=WIDTH_REFERENCE,
    state_text=state_text,
    conclusions=(Conclusion("π_wd(y_n) = wid(ψ(w)) after exactly n steps", steps=len,
                            read=lambda run, w: run.block("wd")[0], answer=width_of_psi),),
)


#: thm:cotwidofpath:width: the width computation alone (``p``, ``wd``, ``q``; the height ``ht`` left out).
WIDTH_ONLY_SPEC = replace(SPEC, compare=frozenset({"p", "wd", "q"}))


def _check(variant: str, spec: StepwiseSpec = SPEC) -> ConstructionCheck:
    what = "every CoT step" if spec.compare is None else "every CoT step on p, wd and q only"
    return ConstructionCheck(lambda: WidthPathConstruction(variant), spec, [NONEMPTY_DYCK_WORDS], PAPER_SIZES,
                             method=f"exhaustive exact replay, {what}, final wd = wid(ψ(w))", input_kind="dyck")


def _all_n(variant: str) -> AllNCheck:
    """The all-n check of a variant.

    Its statement is ``cotwidofpath.all_n_statement`` (the construction's ``all_n``): ``repaired`` and
    ``q-literal-repaired`` are proved for every n; the other variants have none and are refuted by exact replay.
    """
    return AllNCheck(lambda: WidthPathConstruction(variant), SPEC, [NONEMPTY_DYCK_WORDS], concrete_size=8,
                     facts_size=6,
                     conclusion="that π_wd(y_n) = max_i p_i is wid(ψ(w)) is prop:widthpathtree (checked exhaustively "
                                "by the exact rows), not part of this proof")


def height(word: str) -> int:
    """``hgt(ψ(w))`` on the tree (edges from the root, Section 2.2)."""
    return tree_height(psi(word))


def is_path(word: str) -> bool:
    """Whether ψ(w) is a path (every vertex has at most one child): ``w = U^{n/2} D^{n/2}``."""
    return all(len(kids) <= 1 for kids in psi(word).children)


def half_plus_one(size: int) -> int:
    """``n/2 + 1`` for ``n = |w|``: the number of vertices (the family's size)."""
    return size


def half(size: int) -> int:
    """``n/2 = |w|/2``."""
    return size - 1


def _height(variant: str, bound: Any, text: str, equal: bool, only: bool = False) -> BoundCheck:
    return BoundCheck(variant, NONEMPTY_DYCK_WORDS, height, bound, text, is_path if equal else None,
                      "ψ(w) is a path", only,
                      method=f"exhaustive enumeration of Dyck words: hgt(ψ(w)) against {text}"
                             + (" (equality exactly when ψ(w) is a path)" if only else
                                " (equality when ψ(w) is a path)" if equal else "") + ", per size the largest")


CLAIMS = [
    Claim(
        id="thm:cotwidofpath",
        kind="theorem",
        statement="A two-layer single-head decoder finds wid(ψ(w)) for a Dyck word w in exactly n = |w| CoT steps.",
        where="Section 4.2; proof in Appendix 'Realizing wid on Trees and Paths' (app:cotwid)",
        checks=[*(_check(v) for v in VARIANTS),
                *(_all_n(v) for v in VARIANTS)],
        default_max_size=10,
        notes=["Size = number of vertices of ψ(w) (|w| = 2(size - 1)); the empty word is outside the family "
               "(size 1 is empty): the proof's y_0 has wd = 0, a single vertex has width 1.",
               "read-repaired fixes only the reading of q_τ; repaired also adds the k = 0 pulse to "
               "lem:addonetospecificheight (see docs/errata/paths.md).",
               "q-literal*: x_τ carries q_τ = s_τ - s_{τ-1} as printed (constructions/pathsteps.py); its "
               "three defects (no k = 0 pulse, π_pos never advanced, the last step on no token) each isolated by "
               "a variant with the other two repaired."],
        readings=READINGS,
    ),
    Claim(
        id="thm:cotwidofpath:width",
        kind="sentence",
        statement="π_wd(y_n) = wid(ψ(w)) in exactly n steps, the width computation (p, wd, q) right at every step.",
        where="Appendix 'Realizing wid on Trees and Paths' (app:cotwid), proof of thm:cotwidofpath, last sentence "
              "(id ours)",
        checks=[_check(v, WIDTH_ONLY_SPEC) for v in VARIANTS],
        default_max_size=8,
        notes=["thm:cotwidofpath's replay with the height block ht left out: under the printed q_τ, losing the last "
               "step (a D) costs the height, not the width."],
        readings=READINGS,
    ),
    Claim(
        id="thm:cotwidofpath:height",
        kind="sentence",
        statement="hgt(ψ(w)) is bounded above by n/2 + 1 (n = |w|), that is, when ψ(w) is a path.",
        where="Appendix 'Realizing wid on Trees and Paths' (app:cotwid), proof of thm:cotwidofpath, first "
              "sentence (id ours)",
        checks=[_height("as-written", half_plus_one, "n/2 + 1", equal=True),
                _height("bound-only", half_plus_one, "n/2 + 1", equal=False),
                _height("repaired", half, "n/2", equal=True, only=True)],
        default_max_size=10,
        notes=["Size = number of vertices of ψ(w) = n/2 + 1. The block p has n/2 + 1 counters p_1..p_{n/2+1}; "
               "with hgt ≤ n/2 the last one is never incremented."],
        readings={
            "as-written": as_written("hgt(ψ(w)) ≤ n/2 + 1, reached when ψ(w) is a path"),
            "bound-only": reading("hgt(ψ(w)) ≤ n/2 + 1 as an upper bound only ('that is, when ψ(w) is a path' "
                                  "read as where the largest height is)"),
            "repaired": repair("hgt(ψ(w)) ≤ n/2, with equality exactly when ψ(w) is a path"),
        },
    ),
]
