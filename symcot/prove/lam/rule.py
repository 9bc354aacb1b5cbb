r"""The λ rule derived as a formula in the size: the least ``λ ≥ a·n + b`` the attention obligations need.

``n`` stands for the rule's *scale*: the statement's first size, or the term a construction's
:class:`~symcot.constructions.encoding.LambdaRule` names (``(n - 1)·W`` for a shortest-path decoder, where λ
must pass every finite distance), so the derived rule is ``λ ≥ a·scale + b`` with ``a`` and ``b`` found as below.

A proof with ``λ ≥ R₀`` (the construction's rule) names, in each obligation's unsat core, whether the
bound on ``λ`` was used. An obligation proved without it holds for every ``λ``. The others (the scores of
the heads whose keys or queries carry ``λ``) are re-checked from exactly the hypotheses of their cores,
with ``λ ≥ a·n + b`` in place of ``λ ≥ R₀``, for slopes ``a = 0, 1, 2, …`` and, per slope, the least ``b``
in a window (:func:`symcot.lemmas.least.least_rule`: a larger ``b`` is a stronger hypothesis). The first slope
with a ``b`` that proves them all gives the derived rule; every obligation then holds for ``λ ≥`` that rule.
The next smaller ``b`` is reported with Z3's answer (``sat``: the facts the proof uses allow a counter-model;
``unknown``: undecided), so the rule is the least of its form that the proof's facts support, not
necessarily the least ``λ`` that works on every input.

An obligation first proved from ground instances of the facts is re-checked from those instances first (the bound
swapped; instances only weaken the facts, so ``unsat`` is a proof), and from its core's facts only where that does
not give ``unsat``. The search asks each query under a short limit first (``quick_s``): a rule too small for every
``n`` is often undecided rather than refuted (the facts are quantified), and each such try would otherwise run to
the full limit. Where no rule is found so and a try was undecided, the search is run again under the full limit; an
undecided next smaller ``b`` is asked again under it, and where it holds there it is the rule and the next smaller
one is asked (under the full limit), until one is not proved. An obligation Z3 refutes under a rule is asked first under
the next one. Each try records its limit and seconds.

The limits ``quick_s`` and ``timeout_s`` are nominal seconds of Z3's resource count (``rlimit``:
:func:`symcot.prove.alln.context.budget`), not the clock: whether a try is decided, and so the rule derived, is the
same on a loaded machine and an idle one. Each try records the nominal limit (``limit_s``), the resource limit of
its queries (``rlimit``) and the seconds it took.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from symcot.lemmas.kit import sympy_to_z3
from symcot.lemmas.least import Certificate, LambdaAnswer, least_rule
from symcot.prove.alln.context import Context, Obligation, rlimit

#: How the rule is found, in :class:`LambdaAnswer`'s words.
METHOD = "all-n proof: the obligations that used the λ bound re-proved under λ ≥ a·n + b (least b per slope)"


@dataclass
class LambdaRuleResult:
    """The derived rule, the obligations it rests on, and the tries."""

    rule: sp.Expr | None
    obligations: int
    tries: list[dict[str, Any]] = field(default_factory=list)
    below: dict[str, Any] | None = None
    #: No obligation used the bound: the proof holds for every λ.
    every_lambda: bool = False

    def answer(self) -> LambdaAnswer:
        """The rule as a :class:`LambdaAnswer` (scope: all n; below: the next smaller ``b`` with Z3's answer)."""
        if self.every_lambda:
            return LambdaAnswer("every λ", "all n", METHOD, Certificate("no obligation uses the λ bound"),
                                certified=True)
        value = None if self.rule is None else f"λ ≥ {self.rule}"
        at = None if value is None else f"{self.obligations} obligations proved under {value}"
        below = self.below
        return LambdaAnswer(value, "all n", METHOD, Certificate(at, below),
                            certified=value is not None and below is not None and below["status"] == "failed")


def _holds_one(ctx: Context, ob: Obligation, bound_name: str, hyp: Any, timeout_s: float) -> tuple[str, str]:
    q = ob.query
    if q is not None and q.ground and any(n == bound_name for n, _ in q.hyps):
        # the ground instances that proved it, the bound swapped: quantifier-free, so decided at once
        swapped = [(n, hyp if n == bound_name else f) for n, f in q.hyps]
        if ctx.solve(swapped, q.goal, timeout_s) == "proved":
            return "proved", ""
    goal, hyps = ctx.queries[id(ob)]
    kept = [(n, f) for n, f in hyps if n != bound_name]
    r, _used, detail, _dt = ctx.query(goal, [("λ bound", hyp)], facts=kept, timeout_s=timeout_s)
    return r, "" if r == "proved" else f"{ob.where}: {ob.statement} ({detail})"


def _holds(ctx: Context, obs: list[Obligation], bound_name: str, hyp: Any, timeout_s: float) -> tuple[str, str]:
    """Whether every obligation of ``obs`` holds under ``hyp``: ``proved``, or the first that is not (its status).

    An obligation Z3 refutes goes to the front of ``obs``: the next rule tried is likely to fail there too, and a
    model is found in a fraction of a second where the obligations before it may take seconds each to prove.
    """
    for k, ob in enumerate(obs):
        r, why = _holds_one(ctx, ob, bound_name, hyp, timeout_s)
        if r != "proved":
            if r == "failed":
                obs.insert(0, obs.pop(k))
            return r, why
    return "proved", ""


def derive(ctx: Context, obligations: Sequence[Obligation], bound_name: str, lam_z: Any,
           sizes: dict[sp.Symbol, Any], size: sp.Expr, slopes: Sequence[int] = (0, 1, 2, 3),
           window: tuple[int, int] = (-8, 8), timeout_s: float = 20, quick_s: float = 5) -> LambdaRuleResult:
    """The least ``a·size + b`` (slopes in order, ``b`` in ``window``) under which the λ obligations hold.

    ``size`` is a size symbol or the rule's scale, a term in the size symbols (``(n - 1)·W``). Queries are asked
    under ``quick_s`` first, then under ``timeout_s`` where that finds no rule (module docstring); both are nominal
    seconds of Z3's resource count, not the clock.
    """
    lam_obs = [o for o in obligations if o.ok and bound_name in o.used]
    res = LambdaRuleResult(None, len(lam_obs))
    if not lam_obs:
        res.every_lambda = True
        return res

    def attempt(a: int, b: int, limit: float) -> dict[str, Any]:
        rule = a * size + b
        hyp = lam_z >= sympy_to_z3(rule, sizes)
        t0 = time.perf_counter()
        status, why = _holds(ctx, lam_obs, bound_name, hyp, limit)
        res.tries.append({"rule": f"λ ≥ {rule}", "status": status, "first_not_proved": why, "limit_s": limit,
                          "rlimit": rlimit(limit), "seconds": round(time.perf_counter() - t0, 3)})
        return res.tries[-1]

    quick = min(quick_s, timeout_s)
    found = least_rule(lambda a, b: attempt(a, b, quick)["status"] == "proved", slopes, window)
    if found is None and quick < timeout_s and any(t["status"] == "unknown" for t in res.tries):
        found = least_rule(lambda a, b: attempt(a, b, timeout_s)["status"] == "proved", slopes, window)
    if found is None:
        return res
    a, b = found.slope, found.intercept
    if found.search.below is not None:  # b - 1, tried by the search and not proved
        below = f"λ ≥ {a * size + b - 1}"
        res.below = next(t for t in reversed(res.tries) if t["rule"] == below)
        if res.below["status"] == "unknown" and res.below["limit_s"] < timeout_s:
            res.below = attempt(a, b - 1, timeout_s)
            while res.below["status"] == "proved" and b > window[0]:  # undecided only under the quick limit
                b -= 1
                res.below = attempt(a, b - 1, timeout_s)
    res.rule = a * size + b
    return res


__all__ = ["LambdaRuleResult", "derive"]
