"""Every feed-forward gadget of the paper, stated once: the lemmas' networks and the identities and gates.

The constructions build their FFN maps from these functions; the lemma claims build their
:class:`symcot.lemmas.Lemma` from the same functions (:mod:`symcot.gadgets.base`).

- :mod:`.identities`: ``x = ReLU(x) - ReLU(-x)``, ``1[v = 0]``, ``1[v > 0]`` (and the DFS flag), eq:proprelu.
- :mod:`.width`: lem:widsupffn, lem:addwidplus1, lem:addonetospecificheight.
- :mod:`.strahler`: lem:shiftonehot, lem:mMc, the fold of eq:strahM / eq:strahc.
- :mod:`.gates`: the DFS parent gate (thm:cotdfs:pargate), eq:gatingTBstrahlertree.
"""

from proofs.cot_path_to_tree.gadgets.gates import parent_gate, traverse_gate
from proofs.cot_path_to_tree.gadgets.identities import (
    branch,
    ind_pos,
    ind_pos_at,
    ind_zero,
    ind_zero_at,
    signed_pass,
)
from proofs.cot_path_to_tree.gadgets.strahler import fold, mmc, shiftonehot
from proofs.cot_path_to_tree.gadgets.width import addonetospecificheight, addwidplus1, widsupffn
from symcot.gadgets.base import Gadget, hidden_units, merge_units

__all__ = [
    "Gadget", "addonetospecificheight", "addwidplus1", "branch", "fold", "hidden_units", "ind_pos", "ind_pos_at",
    "ind_zero", "ind_zero_at", "merge_units", "mmc", "parent_gate", "shiftonehot", "signed_pass", "traverse_gate",
    "widsupffn",
]
