"""How large a construction's constant must be: one package, one kind of answer, four methods.

Every analysis here answers "the smallest value of a constant (λ, V_max, the λ of lem:mMc) that makes the
construction agree with its claim", per size or for every size, and compares it with the value the text prints:

* :mod:`.scan` and :mod:`.parameter` -- by exact replay at 0, 1, 2, … on every input of a size (the one
  scan, :func:`.scan.first_failure`), with ``smallest − 1/2`` and the printed value re-checked;
* :mod:`.climb` -- by symbolic replay, the exact real λ_min at a size with a proof above it and counterexamples
  at and below it;
* :mod:`.rule` -- for every size, from the all-n proof: the least rule ``λ ≥ a·n + b`` under which the
  obligations that used the λ bound still hold;
* lemmas with a λ decide theirs by quantifier elimination on the lemma's own encoding
  (:mod:`symcot.lemmas.lam`), since a lemma has no inputs to replay.

Where they search for the least value at which a monotone check holds (a scan of integers, a window by
bisection, exact rationals to a tolerance, the rule's slopes and intercepts), they use the one search
:func:`symcot.lemmas.least.least`; each answer reads as one :class:`symcot.lemmas.least.LambdaAnswer` (value,
scope, certificate, method) through the method's ``answer``. Formulas in ``n`` through the certified values go
through :mod:`.fit` (one fitter for every figure).
"""
