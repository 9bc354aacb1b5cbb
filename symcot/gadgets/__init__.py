"""Feed-forward gadgets: a network stated once by its hidden units and outputs, and the audit of a decoder's maps.

A gadget is a function from named input expressions and parameters to hidden units (pre-activations:
rows of ``W_1``) and outputs (rows of ``W_2``) (:mod:`.base`). A construction builds its FFN maps from
gadgets and records which it used (``FFN.gadgets``); a lemma claim builds its
:class:`~symcot.lemmas.Lemma` from the same function, on the lemma's own inputs (the lemma as stated) and
on the values a decoder feeds it (the lemma where it is used). :mod:`.audit` checks that a decoder's
compiled maps are its gadgets' rows. A paper's own gadgets live in its package under ``proofs/``.

This package reads only :mod:`symcot.ir`, :mod:`symcot.model` and :mod:`symcot.errors`.
"""

from symcot.gadgets.base import Gadget, hidden_units, merge_units

__all__ = ["Gadget", "hidden_units", "merge_units"]
