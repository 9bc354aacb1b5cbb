"""Every feed-forward gadget of the paper, stated once: the lemmas' networks and the identities and gates.

A gadget is a function from named input expressions and parameters to hidden units (pre-activations:
rows of ``W_1``) and outputs (rows of ``W_2``) (:mod:`.base`). The constructions build their FFN maps from
these functions and record which they used (``FFN.gadgets``); the lemma claims in ``proofs/`` build
their :class:`~symcot.lemmas.Lemma` from the same functions, on the lemma's own inputs (the lemma as
stated) and on the values a decoder feeds it (the lemma where it is used). :mod:`.audit` checks that a
decoder's compiled maps are its gadgets' rows.

This package reads only :mod:`symcot.ir`, :mod:`symcot.model` and :mod:`symcot.errors`.

- :mod:`.identities`: ``x = ReLU(x) - ReLU(-x)``, ``1[v = 0]``, ``1[v > 0]`` (and the DFS flag), eq:proprelu.
- :mod:`.width`: lem:widsupffn, lem:addwidplus1, lem:addonetospecificheight.
- :mod:`.strahler`: lem:shiftonehot, lem:mMc, the fold of eq:strahM / eq:strahc.
- :mod:`.gates`: the DFS parent gate (thm:cotdfs:pargate), eq:gatingTBstrahlertree.
"""

from symcot.gadgets.base import Gadget, hidden_units, merge_units
from symcot.gadgets.gates import parent_gate, traverse_gate
from symcot.gadgets.identities import branch, ind_pos, ind_pos_at, ind_zero, ind_zero_at, signed_pass
from symcot.gadgets.strahler import fold, mmc, shiftonehot
from symcot.gadgets.width import addonetospecificheight, addwidplus1, widsupffn

__all__ = [
    "Gadget", "addonetospecificheight", "addwidplus1", "branch", "fold", "hidden_units", "ind_pos", "ind_pos_at",
    "ind_zero", "ind_zero_at", "merge_units", "mmc", "parent_gate", "shiftonehot", "signed_pass", "traverse_gate",
    "widsupffn",
]
