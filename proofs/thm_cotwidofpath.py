"""thm:cotwidofpath (Appendix "Realizing wid on Trees and Paths") -- width of ψ(w) from a Dyck word.

Claimed:
    "A two-layer single-head Transformer decoder can find wid(ψ(w)) for a Dyck word w in exactly n CoT
    steps, where |w| = n", with ``d = 3n/2 + 4``, layer 1 realizing lem:addonetospecificheight and layer 2
    lem:addwidplus1, and "π_wd(y_n) = wid(ψ(w))".

Checked:
    Each variant of :mod:`symcot.constructions.cotwidofpath` is replayed exactly on every non-empty Dyck
    word, for exactly ``n = |w|`` steps. After every step ``t``: ``π_ht(y_t) = s_t``,
    ``π_p(y_t) = (p_1 … p_{n/2+1})`` with ``p_i = |{τ ≤ t : s_τ = i, q_τ = +1}|``, ``π_wd(y_t) = max_i p_i`` and
    ``π_q(y_t) = 0``; after the last step ``π_wd(y_n)`` must equal ``wid(ψ(w))`` computed on the tree from its
    level sizes. Size accounting: ``d = 3n/2 + 4``, two layers, one head.
"""

from __future__ import annotations

from symcot.algorithms.bijection import psi
from symcot.algorithms.paths import WidthState, tree_width
from symcot.check.spec import Conclusion, StepwiseSpec
from symcot.claims import Claim, ConstructionCheck
from symcot.constructions.cotwidofpath import (
    PAPER_D,
    WidthPathConstruction,
    reference,
)
from symcot.inputs.dyck_families import NONEMPTY_DYCK_WORDS

PAPER_SIZES = {"d": PAPER_D, "layers": 2, "heads": 1}


def state_text(st: WidthState) -> str:
    """One line per prefix state."""
    return f"t={st.t}: ht={st.ht}, p={list(st.p)}, wd={st.wd}"


#: ``y_t`` against the prefix counts; then ``π_wd(y_n) = wid(ψ(w))`` (tree side) after exactly n steps.
SPEC = StepwiseSpec(
    reference=reference,
    state_text=state_text,
    conclusions=(Conclusion("π_wd(y_n) = wid(ψ(w)) after exactly n steps", steps=len,
                            read=lambda run, w: run.block("wd")[0], answer=lambda w: tree_width(psi(w))),),
)


def _check(variant: str) -> ConstructionCheck:
    return ConstructionCheck(lambda: WidthPathConstruction(variant), SPEC, [NONEMPTY_DYCK_WORDS], PAPER_SIZES,
                             method="exhaustive exact replay, every CoT step, final wd = wid(ψ(w))",
                             input_kind="dyck")


CLAIMS = [
    Claim(
        id="thm:cotwidofpath",
        kind="theorem",
        statement="A two-layer single-head decoder finds wid(ψ(w)) for a Dyck word w in exactly n = |w| CoT steps.",
        where="Section 4.2; proof in Appendix 'Realizing wid on Trees and Paths' (app:cotwid)",
        checks=[_check("as-written"), _check("read-repaired"), _check("repaired")],
        default_max_size=10,
        notes=["Size = number of vertices of ψ(w) (|w| = 2(size - 1)); the empty word is outside the family "
               "(size 1 is empty): the proof's y_0 has wd = 0, a single vertex has width 1.",
               "read-repaired fixes only the reading of q_τ; repaired also adds the k = 0 pulse to "
               "lem:addonetospecificheight (see docs/errata/paths.md)."],
    ),
]
