"""How large a construction's constant must be: one package, one kind of answer, three methods.

Every analysis here answers "the smallest value of a constant (λ, V_max, the λ of lem:mMc) that makes the
construction agree with its claim", per size, and compares it with the value the text prints:

* :mod:`.scan` and :mod:`.parameter` -- by exact replay at 0, 1, 2, … on every input of a size (the one
  scan, :func:`.scan.first_failure`), with ``smallest − 1/2`` and the printed value re-checked;
* :mod:`.climb` -- by symbolic replay, the exact real λ_min at a size with a proof above it and counterexamples
  at and below it;
* lemmas with a λ decide theirs by quantifier elimination on the lemma's own encoding
  (:mod:`symcot.lemmas.lam`), since a lemma has no inputs to replay.

Formulas in ``n`` through the certified values go through :mod:`.fit` (one fitter for every figure).
"""
