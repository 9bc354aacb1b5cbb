"""The Z3 lemma prover: ReLU feed-forward lemmas and gating identities, proved or refuted for every input.

- :mod:`.lemma`: the :class:`Lemma` object (IR maps, named hypotheses, gates, target), mutations.
- :mod:`.kit`: the Z3 and exact evaluation kits; exact coefficient translation.
- :mod:`.encode`: concrete maps (overrides applied), Z3 rows, exact replay.
- :mod:`.solver`: per-size queries, unsat cores, counterexamples re-checked by exact replay.
- :mod:`.symbolic`: the all-dimension proof (index-function encoding).
- :mod:`.prover`: :func:`prove` (size sweep, all sizes, relaxations).
- :mod:`.lam`: the smallest ``λ`` (quantifier elimination, certificate).
- :mod:`.check`: :class:`LemmaCheck`, a claim variant for ``symcot verify``.
- :mod:`.facts`: SymPy proofs of the linear-algebra facts (``fact:affine``, ``fact:bilinear``, ``lem:bilinearstack``).
"""

from symcot.lemmas.check import LemmaCheck
from symcot.lemmas.lam import LambdaSpec
from symcot.lemmas.lemma import (
    Gate,
    Hyp,
    Lemma,
    Override,
    Relaxation,
    dim_hyp,
    each,
    integral,
    lam_hyp,
    onehot,
    whole,
)
from symcot.lemmas.prover import LemmaResult, prove
from symcot.lemmas.symbolic import LocalIndexMatrix

__all__ = [
    "Gate", "Hyp", "LambdaSpec", "Lemma", "LemmaCheck", "LemmaResult", "LocalIndexMatrix", "Override", "Relaxation",
    "dim_hyp", "each", "integral", "lam_hyp", "onehot", "prove", "whole",
]
