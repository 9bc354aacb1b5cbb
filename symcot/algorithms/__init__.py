"""The vocabulary of reference algorithms and all-n facts (:mod:`.logic`), and batch fields (:mod:`.batched`).

A paper's reference algorithms live in its package under ``proofs/``; this package holds what they share:
:mod:`.logic` reads one statement on Python values and on Z3 terms, :mod:`.batched.fields` holds a batched
reference's per-step state arrays.
"""
