"""eq:addonetospecificheight -- the equation that states lem:addonetospecificheight, decided by the lemma's checks.

The label marks the lemma's statement (``m = 1``: ``h + 1`` and ``p_{h+1} + 1``; ``m = −1``: ``h − 1``, ``p``
unchanged); a claim of its own makes it visible under its label. Its checks are the lemma's checks themselves
(the same objects, :mod:`proofs.cot_path_to_tree.lem_addonetospecificheight`), not a copy. The lemma's rows at its
places of use
(``in:<claim>``) are about the network where it is used, not the equation, and are left to the lemma.
"""

from __future__ import annotations

from symcot.claims import Claim
from symcot.constructions.readings import IN_USE_PREFIX

from .lem_addonetospecificheight import CLAIM as LEMMA

CLAIM = Claim(
    id="eq:addonetospecificheight",
    kind="equation",
    statement="v' = [m ‖ h+1 ‖ p_1 … p_{h+1}+1 … p_H] if m = 1, [m ‖ h-1 ‖ p] if m = -1 (the statement of "
              "lem:addonetospecificheight).",
    where="Appendix \"Realizing wid\" (app:cotwid), in lem:addonetospecificheight",
    checks=[c for c in LEMMA.checks if not c.variant.startswith(IN_USE_PREFIX)],
    default_max_size=LEMMA.default_max_size,
    notes=["Decided by lem:addonetospecificheight's own checks (the same check objects)."],
    readings=dict(LEMMA.readings),
)
