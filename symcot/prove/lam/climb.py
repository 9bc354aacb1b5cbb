r"""λ_min at one size by symbolic replay: a climb of departures, certified by counterexamples at and below.

(See :mod:`symcot.prove.symbolic_check` for the method in words.) For each size, the topologies are replayed
on ``λ > 0`` (for a weighted claim with a symbolic weight bound ``W``: ``0 < w_e ≤ W``, λ in units of ``W``).
At the first departure, Z3's ``Optimize`` gives the exact supremum ``b`` of λ over the departure's region and
whether it is attained; the replay goes on from that topology on ``λ > b`` (``λ ≥ b`` when not attained), and
so on, until no topology departs. Then ``λ* = b``, proved by the climb's stages, and certified by a departure
at ``λ*`` (when attained) and one just below it, each re-checked by exact numeric replay (:func:`answer` reads
the row as a :class:`~symcot.lemmas.least.LambdaAnswer`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import z3

from symcot.check.verdict import jsonable
from symcot.errors import SymcotError
from symcot.lemmas.least import Certificate, LambdaAnswer
from symcot.prove.symbolic_explore import explore, refute_all
from symcot.prove.symbolic_target import WEIGHT_BOUND, Domain
from symcot.prove.symbolic_target import SymbolicTarget as Target
from symcot.replay.symbolic import LAMBDA, Atom, BadPiece, Poly, SolverUnknown, rational_model, z3_formula
from symcot.replay.z3limits import budget


def _num(v: Any) -> Any:
    return jsonable(v)


@dataclass
class Sup:
    """``sup λ`` over a set of regions: ``value`` (``None`` when unbounded), whether it is attained, a witness."""

    value: Fraction | None = None
    unbounded: bool = False
    attained: bool = False
    witness: tuple[int, list[Atom]] | None = None  # (topology index, region)
    found: bool = False

    def better(self, other: Sup) -> bool:
        """Whether ``other`` raises the supremum (or makes it attained)."""
        if not other.found:
            return False
        if not self.found:
            return True
        if self.unbounded:
            return False
        if other.unbounded:
            return True
        assert self.value is not None and other.value is not None
        return other.value > self.value or (other.value == self.value and other.attained and not self.attained)


def _value(v: Any) -> Fraction:
    return Fraction(v.as_fraction()) if hasattr(v, "as_fraction") else Fraction(str(v))


def region_sup(region: list[Atom], timeout_ms: int = 20_000) -> Sup:
    """``sup λ`` over one region (a conjunction of atoms), exactly, and whether it is attained.

    ``found`` is false when the region is empty.
    """
    fs = [z3_formula(a) for a in region]
    lam = z3.Real(LAMBDA)
    s = z3.Solver()
    budget(s, timeout_ms)
    s.add(*fs)
    r = s.check()
    if r == z3.unknown:
        raise SolverUnknown(f"Z3 returned unknown on a region ({s.reason_unknown()})")
    if r == z3.unsat:
        return Sup()
    opt = z3.Optimize()
    budget(opt, timeout_ms)
    opt.add(*fs)
    h = opt.maximize(lam)
    if opt.check() != z3.sat:
        raise SolverUnknown("Z3's Optimize did not find the supremum of λ on a region")
    inf, val, eps = (h.upper_values()[i] for i in range(3))
    if _value(inf) != 0:
        return Sup(None, True, True, None, True)
    v = _value(val)
    chk = z3.Solver()
    chk.add(*fs, lam > z3.Q(v.numerator, v.denominator))
    if chk.check() != z3.unsat:
        raise SolverUnknown(f"Optimize's supremum {v} of λ is exceeded on its own region")
    return Sup(v, False, _value(eps) == 0, None, True)


def _lambda_in(region: list[Atom], value: Fraction) -> dict[str, Any] | None:
    """A rational point of ``region`` with ``λ = value``, or ``None``."""
    variables = sorted({v for a in region for v in (a.p.variables() if hasattr(a.p, "variables") else ())}
                       | {LAMBDA})
    s = z3.Solver()
    s.add(*[z3_formula(a) for a in region], z3.Real(LAMBDA) == z3.Q(value.numerator, value.denominator))
    if s.check() != z3.sat:
        return None
    return rational_model(s.model(), {v: z3.Real(v) for v in variables})


# -- per-topology work ----------------------------------------------------------------------------------


def _is_cone(region: list[Atom]) -> bool:
    """Whether every atom is a homogeneous linear form (the region is closed under positive scaling)."""
    return all(not isinstance(a.p, (int, Fraction)) and a.p.degree() == 1 and () not in a.p.terms
               for a in region)


def _piece_sup(piece: BadPiece, weighted: bool) -> Sup:
    """``sup λ`` (``sup λ/W`` when ``weighted``) over a departure's region: the largest over its convex pieces.

    With a symbolic weight bound ``W`` the region must be a cone (checked); ``sup λ/W`` over it is
    ``sup λ`` over its slice ``W = 1``, which is what is optimized (and kept as the witness region).
    """
    best = Sup()
    for region in piece.regions():
        if weighted:
            if not _is_cone(region):
                raise SymcotError("a departure region with a symbolic weight bound is not a cone: λ/W has no "
                                  "single supremum; the climb needs homogeneous constraints")
            region = [*region, Atom(Poly.var(WEIGHT_BOUND) - 1, "==")]
        cand = region_sup(region)
        if best.better(cand):
            cand.witness = (0, region)
            best = cand
    return best


def climb(target: Target, inputs: list[Any], jobs: int = 1) -> tuple[Sup, list[dict[str, Any]]]:
    """The largest λ (in units of ``W`` for weighted targets) at which some topology departs (module docstring).

    Every topology ends up explored without departure on a domain that contains the last one, ``λ > λ*``
    (``λ ≥ λ*`` when not attained): the climb's stages together are the proof at ``λ*``.
    """
    wb = WEIGHT_BOUND if target.weighted else None
    best = Sup()
    steps: list[dict[str, Any]] = []
    k0 = 0
    while True:
        lo = Fraction(0) if not best.found else best.value
        assert lo is not None
        dom = Domain("bound", lo, strict=(not best.found or best.attained), weight_bound=wb)
        tally, first = refute_all(target, inputs[k0:], dom, jobs)
        if first is None:
            steps.append({"domain": dom.text(), "topologies_from": k0, "departure": None, **tally.as_dict()})
            return best, steps
        k, piece = first
        k0 += k
        sup = _piece_sup(piece, target.weighted is not None)
        if not sup.found or not best.better(sup):
            raise SymcotError(f"a departure on {dom.text()} whose region does not raise the bound {best.value}")
        assert sup.witness is not None
        sup.witness = (k0, sup.witness[1])
        steps.append({"domain": dom.text(), "topologies_from": k0, "departure": target.describe(inputs[k0]),
                      "sup": "unbounded" if sup.unbounded else _num(sup.value), "attained": sup.attained,
                      **tally.as_dict()})
        best = sup
        if best.unbounded:
            return best, steps


def lambda_min(target: Target, n: int, jobs: int = 1) -> dict[str, Any]:
    """λ_min at size ``n`` with its certificate (see the module docstring)."""
    t0 = time.perf_counter()
    inputs = list(target.topologies(n))
    if not inputs:
        return {"n": n, "lambda_min": None, "certified": False, "statement": "no input of this size", "seconds": 0.0}
    best, steps = climb(target, inputs, jobs)
    unit = "·W" if target.weighted else ""
    row: dict[str, Any] = {"n": n, "climb": steps, "units": "W: weights in (0, W]" if target.weighted else None,
                           "paper": target.paper_lambda(n)}
    if not best.found:
        row.update({"lambda_min": 0, "certified": True,
                    "statement": "every λ > 0 works: no topology departs for any λ > 0"})
        row["seconds"] = round(time.perf_counter() - t0, 3)
        return row
    assert best.witness is not None
    k, region = best.witness
    row["witness"] = target.describe(inputs[k])
    if best.unbounded:
        row.update({"lambda_min": None, "certified": False,
                    "statement": "no λ works: some topology departs for arbitrarily large λ"})
        pt = _any_point(region, large=True)
        if pt is not None:
            row["counterexample_large_lambda"] = _checked(target, inputs[k], pt)
            row["certified"] = bool(row["counterexample_large_lambda"]["numeric_replay"])
        row["seconds"] = round(time.perf_counter() - t0, 3)
        return row
    assert best.value is not None
    v = best.value
    row.update({"lambda_min": v, "attained": best.attained,
                "statement": (f"every λ > {v}{unit} works; λ = {v}{unit} fails" if best.attained else
                              f"every λ ≥ {v}{unit} works; every λ < {v}{unit} near it fails")})
    final = Domain("bound", v, strict=best.attained, weight_bound=WEIGHT_BOUND if target.weighted else None)
    row["proof"] = {"domain": final.text(), "verdict": "proved", "topologies": len(inputs),
                    "how": "each topology was replayed without departure, on every branch, on a domain containing "
                           "this one (the climb's stages)",
                    "branches": sum(s["branches"] for s in steps), "z3_queries": sum(s["z3_queries"] for s in steps)}
    if best.attained:
        pt = _lambda_in(region, v)
        if pt is not None:
            row["counterexample_at"] = _checked(target, inputs[k], pt)
    below = _below(target, inputs[k], v)
    if below is not None:
        row["counterexample_below"] = below
    row["certified"] = ((not best.attained or bool(row.get("counterexample_at", {}).get("numeric_replay")))
                        and bool(row.get("counterexample_below", {}).get("numeric_replay")))
    row["seconds"] = round(time.perf_counter() - t0, 3)
    return row


def answer(row: dict[str, Any]) -> LambdaAnswer:
    """A :func:`lambda_min` row as a :class:`LambdaAnswer` (scope: one size).

    The climb's ``λ*`` is the supremum of the λ that fail: when it is attained, ``λ*`` itself fails
    (``holds_at_value`` is false) and every λ above works (``None`` where no departure bounds it: λ = 0, which
    the climb's domain ``λ > 0`` leaves out, or no λ at all). The certificate: the climb's proof at ``λ*`` and the
    counterexample at ``λ*`` (when attained), else just below it, or for arbitrarily large λ (no λ works).
    """
    v = row.get("lambda_min")
    proof = row.get("proof") or (row.get("statement") if v == 0 else None)
    below = row.get("counterexample_at") or row.get("counterexample_below") or row.get("counterexample_large_lambda")
    return LambdaAnswer(v, "size", "symbolic replay: the climb of departures (Optimize), numeric replay at and "
                        "below λ*", Certificate(proof, below), holds_at_value=None if "attained" not in row else
                        not row["attained"], certified=bool(row.get("certified")), at=f"n = {row['n']}")


def _region_vars(region: list[Atom]) -> dict[str, Any]:
    names = {LAMBDA}
    for a in region:
        if hasattr(a.p, "variables"):
            names |= a.p.variables()
    return {v: z3.Real(v) for v in sorted(names)}


def _below(target: Target, inp: Any, v: Fraction, tries: int = 12) -> dict[str, Any] | None:
    """A departure of ``inp`` with ``v - δ ≤ λ < v``, for the first ``δ = 1/2, 1/4, …`` that has one."""
    wb = 1 if target.weighted else None
    delta = Fraction(1, 2)
    for _ in range(tries):
        lo = max(v - delta, Fraction(0))
        dom = Domain("bound", lo, strict=(lo == 0), weight_bound=wb, hi=v)
        r = explore(target, inp, dom)
        if r.bad and r.bad[0].point is not None:
            out = _checked(target, inp, r.bad[0].point)
            out["domain"] = dom.text()
            return out
        delta /= 2
    return None


def _any_point(region: list[Atom], large: bool = False) -> dict[str, Any] | None:
    s = z3.Solver()
    s.add(*[z3_formula(a) for a in region])
    if large:
        s.add(z3.Real(LAMBDA) >= 1000)
    if s.check() != z3.sat:
        return None
    return rational_model(s.model(), _region_vars(region))


def _checked(target: Target, inp: Any, point: dict[str, Any]) -> dict[str, Any]:
    """A point with its exact numeric replay (``numeric_replay`` is the mismatch it finds, ``None`` if none)."""
    return {"input": target.describe(inp), "point": target.point_text(inp, point),
            "numeric_replay": target.recheck(inp, point)}


__all__ = ["Sup", "answer", "climb", "lambda_min", "region_sup"]
