"""Replay engines: they run a concrete decoder and decide nothing (the checkers in :mod:`symcot.check` do).

Integer scaling with an exactness certificate (:mod:`.scaling`), batched numpy replay (:mod:`.batched`), the
compiled C kernel (:mod:`.native`) and symbolic replay with Z3 (:mod:`.symbolic`). Exact single-input
replay is :func:`symcot.model.semantics.generate`; a readable trace of it, compared with a claim's
reference, is :mod:`symcot.check.trace`.
"""
