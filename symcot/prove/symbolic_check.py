r"""``SymbolicCheck``: a claim variant decided by symbolic replay, for all λ (and weights) in a domain.

For every input topology up to the size asked (:mod:`symcot.prove.symbolic_target`), the decoder is
replayed with ``λ`` -- and, for a weighted claim, every arc weight -- as symbols (:mod:`symcot.replay.symbolic`),
forking wherever Z3 finds a ReLU or an argmax undecided, and every branch is compared with the
reference run under the same path condition. The verdict:

* ``proved``: on every branch of every topology the decoder equals the reference, for *all* values of
  the symbols in the domain (the variant's λ rule read as a lower bound; all positive weights);
* ``refuted``: a branch where they differ gives a rational point (λ, weights), which is re-checked by
  the exact numeric replay (:func:`symcot.check.stepwise.check_input`) on the construction instantiated
  at that point before it is reported; if the exact replay does not reproduce it the verdict is ``error``;
* ``unknown``: Z3 answered ``unknown`` (a timeout).

``details`` holds, per size, the topologies, branches explored, forks, Z3 queries and seconds; and,
when asked, **λ_min** per size: the smallest λ above which every branch of every topology agrees.

How λ_min is found and certified (:func:`lambda_min`): a *climb*. The replay runs on ``λ > 0`` (for
a weighted claim with a symbolic weight bound ``W``: ``0 < w_e ≤ W``, and λ in units of ``W``). At the first departure
it
stops, and Z3's ``Optimize`` gives the supremum ``b`` of λ (of ``λ/W``, taken on the slice ``W = 1``
of the departure's region, which is checked to be a cone) over that departure's region, exactly, and
whether it is attained. The replay then goes on from that topology on ``λ > b`` (``λ ≥ b`` when ``b``
is not attained; times ``W``) -- the topologies before it agreed on a larger domain already -- and so
on, each departure raising ``b``, until the replay reaches the last topology without one. Then
``λ* = b``, and:

* the *proof* at ``λ*``: every topology was replayed without departure, on every branch, on a domain
  containing ``λ > λ*`` (``λ ≥ λ*`` when not attained) -- for a weighted claim for every ``W``, every weight
  in ``(0, W]``;
* a *counterexample at* ``λ*`` (when attained; ``W = 1``) and one *just below*, on
  ``λ* - δ ≤ λ < λ*`` for the first ``δ ∈ {1/2, 1/4, …}`` where the departing topology has one;
  each is re-checked by the exact numeric replay. ``certified`` is true when these re-checks reproduce
  a departure.

When no topology departs for any ``λ > 0``, λ_min is 0; when a departure region is unbounded in λ, no
λ works (a point with ``λ ≥ 1000`` is re-checked).

A formula ``a·n + b`` (times ``W`` for a weighted claim) is reported when the certified values of at least
three sizes lie on one line; it is a fit to certified values, not a proof for every ``n``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress
from symcot.check.verdict import Verdict, jsonable
from symcot.errors import SymcotError
from symcot.prove.lam.climb import answer as climb_answer
from symcot.prove.lam.climb import lambda_min
from symcot.prove.lam.fit import fit
from symcot.prove.symbolic_explore import Tally, refute_all
from symcot.prove.symbolic_target import Domain
from symcot.prove.symbolic_target import SymbolicTarget as Target
from symcot.replay.symbolic import (
    BadPiece,
    SolverUnknown,
    evaluate,
)

# -- the check -------------------------------------------------------------------------------------------


def _num(v: Any) -> Any:
    return jsonable(v)


def _point_words(pt: dict[str, Any]) -> str:
    """``λ = 5/2, w(0->1) = 1/4, …``."""
    parts = [f"λ = {_num(pt['lambda'])}"]
    parts += [f"w({arc}) = {_num(w)}" for arc, w in pt.get("weights", {}).items()]
    if "W" in pt:
        parts.append(f"W = {_num(pt['W'])}")
    return ", ".join(parts)


@dataclass
class SymbolicCheck:
    """A claim variant decided by symbolic replay (see the module docstring).

    Attributes:
        variant: the variant's name (``as-written``, ``repaired``, ...).
        target: what is replayed (:mod:`symcot.prove.symbolic_target`).
        default_size: the largest size when ``symcot verify`` is given no ``--max-size`` (exposed as
            ``default_max_size``, which :meth:`symcot.claims.Claim.run` uses for this check).
        lambda_min: also find and certify λ_min per size.
        symbolic: marks the check for ``symcot verify --symbolic``.

    """

    variant: str
    target: Target
    default_size: int = 3
    lambda_min: bool = True
    method: str = "symbolic replay: λ (and weights) as symbols, every ReLU/argmax fork decided by Z3"
    symbolic: bool = True
    notes: list[str] = field(default_factory=list)

    @property
    def default_max_size(self) -> int:
        """The size run when no ``--max-size`` is given."""
        return self.default_size

    def size_for(self, max_size: int) -> int:
        """The size to run (``Claim.run`` already substituted ``default_max_size`` when none was asked)."""
        return max_size

    def run(self, ctx: RunContext) -> Verdict:
        """Prove, refute (with a re-checked point), or report ``unknown``; ``details`` as documented above."""
        start = time.perf_counter()
        claim_id = ctx.claim_id
        size = self.size_for(ctx.max_size)
        notes = list(self.notes) + [f"domain: {self.target.rule_text}; topologies: {self.target.topology_family}"]
        try:
            return self._run(claim_id, size, ctx.progress, ctx.jobs, start, notes)
        except SolverUnknown as e:
            return Verdict(claim_id, self.variant, "unknown", self.method, None, 0, time.perf_counter() - start,
                           None, [*notes, f"Z3 could not decide: {e}"])
        except Exception as e:  # noqa: BLE001 - a crashing check is an "error" verdict
            return Verdict(claim_id, self.variant, "error", self.method, None, 0, time.perf_counter() - start,
                           None, [*notes, f"check failed: {type(e).__name__}: {e}"])

    def _run(self, claim_id: str, size: int, progress: Progress, jobs: int, start: float,
             notes: list[str]) -> Verdict:
        target = self.target
        per_size: list[dict[str, Any]] = []
        total = Tally()
        complete: list[int] = []
        for n in range(1, size + 1):
            inputs = list(target.topologies(n))
            if len(inputs) != target.count(n):
                raise SymcotError(f"{target.topology_family}: {len(inputs)} topologies at n = {n}, "
                                  f"expected {target.count(n)}")
            with progress.bar(1, f"{claim_id}/{self.variant} symbolic n={n}") as bar:
                tally, first = refute_all(target, inputs, Domain(), jobs)
                bar.update(1)
            total.merge(tally)
            per_size.append({"n": n, **tally.as_dict()})
            if first is not None:
                cex = self._counterexample(n, inputs[first[0]], first[1])
                details = self._details(per_size, total)
                verdict = "refuted" if cex["numeric_replay"] == "reproduces the departure" else "error"
                if verdict == "error":
                    notes.append("the symbolic replay found a departure that the exact numeric replay does not "
                                 "reproduce at the same point")
                if self.lambda_min:
                    details["lambda_min"] = self._lambda_min_sizes(claim_id, n, progress, jobs)
                    details["lambda_answers"] = [climb_answer(r).as_dict() for r in details["lambda_min"]]
                return Verdict(claim_id, self.variant, verdict, self.method, complete[-1] if complete else None,
                               total.topologies, time.perf_counter() - start, jsonable(cex), notes, None,
                               self._families(complete), jsonable(details))
            complete.append(n)
        details = self._details(per_size, total)
        if self.lambda_min:
            details["lambda_min"] = self._lambda_min_sizes(claim_id, size, progress, jobs)
            details["lambda_answers"] = [climb_answer(r).as_dict() for r in details["lambda_min"]]
            details.update(self._formula(details["lambda_min"]))
        scope = (f"{target.rule_text}{', every weight > 0' if target.weighted else ''}; every topology of "
                 f"{target.topology_family}, n ≤ {size}")
        return Verdict(claim_id, self.variant, "proved", self.method, size, total.topologies,
                       time.perf_counter() - start, None, notes, None, self._families(complete), jsonable(details),
                       scope=scope)

    # -- pieces of the row ------------------------------------------------------------------------------
    def _families(self, complete: list[int]) -> list[dict[str, Any]]:
        return [{"family": self.target.topology_family, "exhaustive": True, "sizes_complete": complete,
                 "inputs_checked": sum(self.target.count(k) for k in complete)}]

    def _details(self, per_size: list[dict[str, Any]], total: Tally) -> dict[str, Any]:
        return {
            "domain": self.target.rule_text,
            "symbols": "λ and one weight w[u,v] > 0 per arc" if self.target.weighted else "λ",
            "sizes": per_size,
            "branches": total.branches,
            "forks": total.forks,
            "z3_queries": total.queries,
            "z3_seconds": round(total.z3_seconds, 3),
        }

    def _counterexample(self, n: int, inp: Any, piece: BadPiece) -> dict[str, Any]:
        """The departure as a report row shows it: the input at the point, then the exact replay's mismatch."""
        target = self.target
        point = piece.point or {}
        where = [{"block": d.block, "index": d.index, "got": _num(evaluate(d.got, point)),
                  "expected": _num(evaluate(d.want, point)), "got_symbolic": str(d.got),
                  "expected_symbolic": str(d.want)} for d in piece.diffs]
        mm = target.recheck(inp, point) if point else None
        desc = dict(target.describe(inp))
        desc["text"] = f"{desc.get('text', '')} at {_point_words(target.point_text(inp, point))}"
        return {"family": target.topology_family, "size": n, "input": desc,
                "point": target.point_text(inp, point), **(mm or {}),
                "symbolic": {"step": piece.step, "kind": piece.what, "differences": where,
                             "path_condition": [str(a) for a in piece.atoms]},
                "numeric_replay": "reproduces the departure" if mm else "does not reproduce the departure"}

    def _lambda_min_sizes(self, claim_id: str, size: int, progress: Progress, jobs: int) -> list[dict[str, Any]]:
        out = []
        for n in range(1, size + 1):
            with progress.bar(1, f"{claim_id}/{self.variant} λ_min n={n}") as bar:
                out.append(lambda_min(self.target, n, jobs))
                bar.update(1)
        return out

    def _formula(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        pts = {r["n"]: Fraction(r["lambda_min"]) for r in rows
               if r.get("lambda_min") is not None and r.get("certified") and r["n"] >= 2}
        unit = "W" if self.target.weighted else ""
        formula = fit(pts) if len(pts) >= 3 else None
        out: dict[str, Any] = {"lambda_min_values": {str(k): _num(v) for k, v in pts.items()}}
        if formula is not None:
            body = sp.sstr(formula.expr).replace("*", "·")
            out["lambda_min_formula"] = (f"({body})·{unit}" if formula.expr.is_Add else f"{body}·{unit}") if unit \
                else body
            out["lambda_min_formula_note"] = (f"the lowest-degree polynomial through the certified values, "
                                              f"{formula.text}; each value is certified separately (no proof "
                                              "for other n)")
        else:
            out["lambda_min_formula"] = None
            out["lambda_min_formula_note"] = (f"fewer than three certified sizes ({len(pts)}) or no polynomial "
                                              "certified on them: no formula reported")
        return out


__all__ = ["SymbolicCheck", "lambda_min", "refute_all"]
