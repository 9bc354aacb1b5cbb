"""thm:cottreestrahler (Appendix "Realizing str on Trees and Paths") and the bound on its constant λ.

Claimed:
    *thm:cottreestrahler* -- "A four-layer, two-head Transformer decoder can compute str(G_T), the
    Strahler number of a tree G_T during the simulation of DFS in exactly 2n - 1 CoT steps", with
    "π_M(y_{2n-1}) = str(G_T)" at the end of the proof.
    *thm:cottreestrahler:lambda* (our id for the proof's unlabelled condition) -- "the constant
    λ ≥ 2n - 1 exceeds every attainable timestamp", so the backtrack head's score
    ``λ·π_par(y_t)ᵀπ_cur(α) + π_flg4(α)`` is lexicographic and resolves the parent as last left.

Checked:
    The construction (:mod:`proofs.cot_path_to_tree.constructions.cottreestrahler`, variants ``as-written`` and
    ``repaired``)
    is replayed exactly with ``λ = 2n - 1``. After every CoT step, ``y_t`` must carry the DFS state of
    eq:dfsdynamic (``cur``, ``vis``, ``par``, as for thm:cotdfs), the accumulator ``(M, c)`` of the fold of
    obs:dynamicstrdfs (case form eq:dynamicstrdfs;
    :func:`proofs.cot_path_to_tree.algorithms.strahler.strahler_dynamic`),
    empty buffers and scratch blocks, and the timestamp ``flg4 = t``; the stop rule ``π_cur = 0^n`` must fire
    exactly at step ``2n - 1``; and, separately, ``π_M(y_{2n-1})`` must equal ``str(G_T)`` by the recursive
    definition. Size accounting: d = 6n + 14, four layers, two heads. Inputs: every labeled tree with every
    root. For λ, the ``repaired`` decoder is run with λ = 0, 1, 2, ... at each n until every input passes;
    the smallest λ per n is reported, λ - 1/2 must fail (so no smaller rational works), and λ = 2n - 1
    must pass.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from proofs.cot_path_to_tree.algorithms.batched.dfs import STRAHLER_REFERENCE
from proofs.cot_path_to_tree.algorithms.batched.trees import strahler_of
from proofs.cot_path_to_tree.algorithms.strahler import StrahlerState, strahler_number
from proofs.cot_path_to_tree.constructions.cottreestrahler import (
    PAPER_D,
    READINGS,
    StrahlerTreeConstruction,
)
from symcot.check.exhaustive import Family
from symcot.check.spec import Conclusion, StepwiseSpec
from symcot.claims import Claim, ConstructionCheck
from symcot.inputs import Digraph, digraph_count, digraphs_with_sources, rooted_labeled_trees
from symcot.inputs.dyck_families import ordered_rooted_tree_family
from symcot.model import generate
from symcot.prove.alln.check import AllNCheck
from symcot.prove.alln.conclude import Concluded
from symcot.prove.lam.parameter import lambda_sweep
from symcot.prove.symbolic_check import SymbolicCheck
from symcot.prove.symbolic_target import SymbolicTarget

PAPER_SIZES = {"d": PAPER_D, "layers": 4, "heads": 2}


def describe(inp: tuple[Digraph, int]) -> dict[str, Any]:
    """JSON description of a (tree, root) input."""
    g, s = inp
    return {"n": g.n, "arcs": [list(a) for a in g.arcs], "root": s, "text": f"{g}, root {s}"}


def state_text(st: StrahlerState) -> str:
    """One line per reference state: the DFS move, the current vertex and the accumulator it carries."""
    d = st.dfs
    cur = "φ" if d.cur is None else f"v{d.cur}"
    extra = ""
    if st.finished is not None:
        extra = f", finished v{st.finished} with str {st.child_str} into (M_u, c_u) = {st.parent_before}"
    return f"t={d.t} {d.move}: dfs={cur}, (M, c) = {st.acc}{extra}"


#: ``y_t`` against the DFS dynamic with the case-form fold; then "exactly 2n - 1 CoT steps" and
#: "π_M(y_{2n-1}) = str(G_T)" by the recursive definition.
SPEC = StepwiseSpec(
    reference=STRAHLER_REFERENCE,
    state_text=state_text,
    conclusions=(Conclusion("exactly 2n - 1 CoT steps", steps=lambda inp: 2 * inp[0].n - 1),
                 Conclusion("π_M(y_{2n-1}) = str(G_T)", read=lambda run, inp: run.block("M")[0],
                            answer=lambda inp: strahler_of(*inp))),
)

#: The step count, as facts of the DFS vocabulary on a tree (which the fold's vocabulary extends).
CONCLUDES = (Concluded("exactly 2n - 1 CoT steps", ("bound", "tree-steps"),
                       "the stop rule fires exactly at T (the realization), the run stops (`bound`, proved without "
                       "`ends`), and T = 2n - 1"),)

TREES = Family("labeled trees × every root", rooted_labeled_trees, lambda k: k ** (k - 1), describe,
               universe=digraphs_with_sources, universe_count=lambda k: k * digraph_count(k))
#: Part of the tree domain that scales (``symcot verify --reach 13``): every ordered tree, preorder labels, root 0.
ORDERED = ordered_rooted_tree_family(describe)
#: The construction checks' labeled trees: every labeling up to n = 6 (n^(n-1) inputs: 117,649 at n = 7), while the
#: ordered trees go to the default size, 12: mutants of the |D| ≥ 2 indicators fail first at n = 9 and 11, on trees
#: with a subtree of Strahler number 3 (docs/adequacy.md).
LABELED = replace(TREES, max_size=6)


def final_step_survey(max_size: int, variant: str = "as-written") -> list[dict[str, int]]:
    """Per n: inputs, mismatches before the last step, wrong ``π_M(y_{2n-1})``, and roots with ``c_s = 1``.

    Quantifies the erratum: the ``as-written`` decoder agrees with the fold at every step but the last, and
    its final ``π_M`` is wrong exactly when the root's accumulator before the last step has ``c_s = 1``.
    """
    cons = StrahlerTreeConstruction(variant)
    out = []
    for size in range(1, max_size + 1):
        total = early = wrong = count_one = wrong_iff = 0
        for inp in rooted_labeled_trees(size):
            total += 1
            states = STRAHLER_REFERENCE(inp)
            dec = cons.concrete(inp)
            lay = dec.layout
            gen = generate(dec, cons.prompt(inp).tokens, len(states) - 1)
            for t, y in enumerate(gen.outputs[:-1], 1):
                if any(lay.pi(b, y) != v for b, v in SPEC.expected(cons, inp, states[t], t).items()):
                    early += 1
                    break
            bad = lay.pi("M", gen.outputs[-1])[0] != strahler_number(*inp)
            one = states[-2].acc[1] == 1
            wrong += bad
            count_one += one
            wrong_iff += bad == one
        out.append({"n": size, "inputs": total, "mismatch_before_last_step": early, "wrong_final_str": wrong,
                    "root_count_one": count_one, "wrong_iff_root_count_one": wrong_iff == total})
    return out


def _variant(name: str) -> Any:
    return lambda: StrahlerTreeConstruction(name)


def _symbolic(variant: str, size: int, lambda_min: bool = True) -> SymbolicCheck:
    target = SymbolicTarget("thm:cottreestrahler", _variant(variant), SPEC, TREES)
    return SymbolicCheck(variant, target, default_size=size, lambda_min=lambda_min)


def _all_n(variant: str) -> AllNCheck:
    return AllNCheck(_variant(variant), SPEC, [TREES], concrete_size=6, facts_size=4,
                     concludes=CONCLUDES,
                     conclusion="that the fold's final M is str(G_T) is obs:dynamicstrdfs (checked exhaustively)")


CLAIMS = [
    Claim(
        id="thm:cottreestrahler",
        kind="theorem",
        statement="A four-layer, two-head decoder computes str(G_T) during DFS in exactly 2n - 1 CoT steps, "
                  "π_M(y_{2n-1}) = str(G_T).",
        where="Section 4.2; proof in Appendix Realizing str (app:cotstr), eq:strahM, eq:strahc, "
              "eq:gatingTBstrahlertree",
        checks=[
            ConstructionCheck(_variant("as-written"), SPEC, [LABELED, ORDERED], PAPER_SIZES,
                              method="exhaustive exact replay, every CoT step, final str"),
            ConstructionCheck(_variant("repaired"), SPEC, [LABELED, ORDERED], PAPER_SIZES,
                              method="exhaustive exact replay, every CoT step, final str"),
            _symbolic("as-written", 6),
            _symbolic("repaired", 6, lambda_min=False),
            _all_n("as-written"),
            _all_n("repaired"),
        ],
        default_max_size=12,
        in_use_size=6,
        notes=["λ = 2n - 1; (M, c) compared with the case-form fold of obs:dynamicstrdfs at every step; "
               "π_M(y_{2n-1}) compared with the recursive str."],
        readings=READINGS,
    ),
    Claim(
        id="thm:cottreestrahler:lambda",
        kind="sentence",
        statement="The constant λ ≥ 2n - 1 exceeds every attainable timestamp, so head B resolves the parent "
                  "as last left (proof of thm:cottreestrahler).",
        where="Appendix Realizing str, proof of thm:cottreestrahler, the keys K_B (no label in the paper; id ours)",
        checks=[lambda_sweep("repaired", _variant("repaired"), SPEC, TREES,
                            method="exact replay for λ = 0, 1, 2, … per n; λ_min - 1/2 and λ = 2n - 1 checked"),
                _symbolic("repaired", 6)],
        default_max_size=5,
        notes=["Run on the repaired variant: the as-written one fails at n = 2 for every λ (final backtrack)."],
        readings={"repaired": READINGS["repaired"]},
    ),
]
