"""eq:addwidplus1 -- the equation that states lem:addwidplus1, decided by the lemma's own checks.

The label marks the lemma's statement ``v' = [p_1 … p_H ‖ wd + 1]`` if some ``p_i = wd + 1``, ``v`` otherwise; a
claim of its own makes it visible under its label. Its checks are the lemma's checks themselves (the same
objects, :mod:`proofs.cot_path_to_tree.lem_addwidplus1`), not a copy: its rows are the lemma's verdicts under this
label. The
lemma's rows at its places of use (``in:<claim>``) are about the network where it is used, not the equation,
and are left to the lemma.
"""

from __future__ import annotations

from symcot.claims import Claim
from symcot.constructions.readings import IN_USE_PREFIX

from .lem_addwidplus1 import CLAIM as LEMMA

CLAIM = Claim(
    id="eq:addwidplus1",
    kind="equation",
    statement="v' = [p_1..p_H ‖ wd + 1] if some p_i = wd + 1, v otherwise (the statement of lem:addwidplus1).",
    where="Appendix \"Realizing wid\" (app:cotwid), in lem:addwidplus1",
    checks=[c for c in LEMMA.checks if not c.variant.startswith(IN_USE_PREFIX)],
    default_max_size=LEMMA.default_max_size,
    notes=["Decided by lem:addwidplus1's own checks (the same check objects)."],
    readings=dict(LEMMA.readings),
)
