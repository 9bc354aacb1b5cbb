"""thm:cotpathtotree (Appendix "Realizing Algorithm 1") -- a one-layer, two-head decoder simulates Algorithm 1.

Claimed:
    "A single-layer, two-head Transformer decoder can simulate Algorithm 1 in the 2(m-1) CoT-steps."
    The proof: "Induction on t shows π_A(y_t) equals the adjacency matrix of ψ(w) after reading
    w_0 ⋯ w_{t-1}", with ``d = m² + 6m`` and FFN width ``d' = 2m² + 6m - 2``.

Checked:
    The construction as written (:mod:`proofs.cot_path_to_tree.constructions.cotpathtotree`) is replayed exactly on
    every
    Dyck word, for exactly ``2(m-1)`` steps. After every step ``t``, ``π_A(y_t)`` must be the adjacency
    matrix of Algorithm 1's ``A_w`` after ``t`` letters (the partial tree ψ(w_0..w_{t-1}); algo:pathtotree
    checks that these agree), ``π_cur = e_i``, ``π_nl = e_nl``, ``π_par`` the parent recorded by a ``U``
    (``0^m`` after a ``D``), ``π_pos = ê_t``, ``π_stp = 0``, ``π_buf = 0^m`` and ``π_flg = 1``; after the last
    step ``π_A`` must equal the adjacency matrix of ψ(w). Size accounting: ``d = m² + 6m``, one layer, two
    heads, and the FFN width ``d' = 2m² + 6m - 2``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import sympy as sp

from proofs.cot_path_to_tree.algorithms.batched.paths import ALG1_REFERENCE
from proofs.cot_path_to_tree.algorithms.batched.trees import adjacency_of_psi
from proofs.cot_path_to_tree.algorithms.paths import Alg1State
from proofs.cot_path_to_tree.constructions.cotpathtotree import (
    PAPER_D,
    PAPER_HIDDEN,
    PathToTreeConstruction,
)
from symcot.check.context import RunContext
from symcot.check.spec import Conclusion, Run, StepwiseSpec
from symcot.check.verdict import Verdict
from symcot.claims import Claim, ConstructionCheck
from symcot.inputs.dyck_families import DYCK_WORDS
from symcot.prove.alln.check import AllNCheck

PAPER_SIZES = {"d": PAPER_D, "layers": 1, "heads": 2}


def state_text(st: Alg1State) -> str:
    """One line per Algorithm 1 state."""
    edges = sorted((a, b) for a, row in enumerate(st.a) for b, v in enumerate(row) if v and a < b)
    last = f" after {st.letter}" if st.letter else ""
    return f"t={st.t}{last}: i={st.i}, nl={st.nl}, edges={edges}"


def _adjacency(run: Run, word: str) -> list[Any]:
    """``π_A(y_{2(m-1)})``."""
    return run.block("A")


#: ``y_t`` against Algorithm 1 after every letter; then ``π_A(y_{2(m-1)})`` is the adjacency matrix of ψ(w)
#: after exactly 2(m-1) steps.
SPEC = StepwiseSpec(
    reference=ALG1_REFERENCE,
    state_text=state_text,
    conclusions=(Conclusion("π_A(y_{2(m-1)}) is the adjacency matrix of ψ(w), after exactly 2(m-1) steps",
                            steps=len, read=_adjacency, answer=adjacency_of_psi),),
)


@dataclass
class SizedConstructionCheck(ConstructionCheck):
    """A construction check that also compares the FFN hidden widths with the paper's ``d'``."""

    paper_hidden: list[Any] | None = None

    def run(self, ctx: RunContext) -> Verdict:
        """Refute on a hidden-width mismatch before any input; otherwise :meth:`ConstructionCheck.run`."""
        t0 = time.perf_counter()
        cons = self.construction()
        sizes = cons.decoder.sizes()
        if self.paper_hidden is not None:
            diffs = [{"quantity": f"FFN width of layer {k + 1}", "paper": str(p), "construction": str(c)}
                     for k, (p, c) in enumerate(zip(self.paper_hidden, sizes.ffn_hidden))
                     if sp.expand(sp.sympify(p) - c) != 0]
            if diffs:
                info = sizes.as_dict()
                return Verdict(ctx.claim_id, cons.variant, "refuted", "size accounting against the paper", None, 0,
                               time.perf_counter() - t0, {"kind": "size", "differences": diffs}, list(cons.notes),
                               info)
        return super().run(ctx)


CLAIMS = [
    Claim(
        id="thm:cotpathtotree",
        kind="theorem",
        statement="A single-layer, two-head decoder simulates Algorithm 1 in 2(m-1) CoT steps "
                  "(π_A(y_t) = adjacency of the partial tree after w_0..w_{t-1}).",
        where="Section 4.2; proof in Appendix 'Realizing Algorithm 1' (app:cotpathtotree)",
        checks=[SizedConstructionCheck(PathToTreeConstruction, SPEC, [DYCK_WORDS], PAPER_SIZES,
                                       method="exhaustive exact replay, every CoT step, sizes d and d'",
                                       input_kind="dyck", paper_hidden=[PAPER_HIDDEN]),
                AllNCheck(PathToTreeConstruction, SPEC, [DYCK_WORDS], concrete_size=8, facts_size=6,
                          conclusion="that Algorithm 1's A_w after the last letter is the adjacency matrix of ψ(w) "
                                     "is algo:pathtotree (checked exhaustively, proved by hand in the paper)")],
        default_max_size=9,
        notes=["Size m = number of tree nodes; every Dyck word of length 2(m-1), 2(m-1) steps each."],
    ),
]
