r"""``SymbolicCheck``: a claim variant decided by symbolic replay, for all λ (and weights) in a domain.

For every input topology up to the size asked (:mod:`symcot.check.symbolic_target`), the decoder is
replayed with ``λ`` -- and, for Dijkstra, every arc weight -- as symbols (:mod:`symcot.replay.symbolic`),
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
Dijkstra with a symbolic weight bound ``W``: ``0 < w_e ≤ W``, and λ in units of ``W``). At the first departure it
stops, and Z3's ``Optimize`` gives the supremum ``b`` of λ (of ``λ/W``, taken on the slice ``W = 1``
of the departure's region, which is checked to be a cone) over that departure's region, exactly, and
whether it is attained. The replay then goes on from that topology on ``λ > b`` (``λ ≥ b`` when ``b``
is not attained; times ``W``) -- the topologies before it agreed on a larger domain already -- and so
on, each departure raising ``b``, until the replay reaches the last topology without one. Then
``λ* = b``, and:

* the *proof* at ``λ*``: every topology was replayed without departure, on every branch, on a domain
  containing ``λ > λ*`` (``λ ≥ λ*`` when not attained) -- for Dijkstra for every ``W``, every weight
  in ``(0, W]``;
* a *counterexample at* ``λ*`` (when attained; ``W = 1``) and one *just below*, on
  ``λ* - δ ≤ λ < λ*`` for the first ``δ ∈ {1/2, 1/4, …}`` where the departing topology has one;
  each is re-checked by the exact numeric replay. ``certified`` is true when these re-checks reproduce
  a departure.

When no topology departs for any ``λ > 0``, λ_min is 0; when a departure region is unbounded in λ, no
λ works (a point with ``λ ≥ 1000`` is re-checked).

A formula ``a·n + b`` (times ``W`` for Dijkstra) is reported when the certified values of at least
three sizes lie on one line; it is a fit to certified values, not a proof for every ``n``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import z3

from symcot.check.exhaustive import Progress
from symcot.check.pool import can_fork, map_ordered, shared_int
from symcot.check.symbolic_target import WEIGHT_BOUND, Domain
from symcot.check.symbolic_target import SymbolicTarget as Target
from symcot.check.verdict import Verdict, jsonable
from symcot.errors import SymcotError
from symcot.replay.symbolic import (
    LAMBDA,
    Atom,
    BadPiece,
    Exploration,
    Explorer,
    Poly,
    SolverUnknown,
    evaluate,
    rational_model,
    z3_formula,
)

#: Forked workers are used when a size has at least this many topologies and ``jobs > 1``.
PARALLEL_MIN = 200


@dataclass
class _Tally:
    """Counts over the topologies of one size and one domain."""

    topologies: int = 0
    branches: int = 0
    agree: int = 0
    forks: int = 0
    queries: int = 0
    z3_seconds: float = 0.0
    seconds: float = 0.0

    def add(self, r: Exploration) -> None:
        self.topologies += 1
        self.branches += r.branches
        self.agree += r.agree
        self.forks += r.stats.forks
        self.queries += r.stats.queries
        self.z3_seconds += r.stats.seconds

    def merge(self, o: _Tally) -> None:
        for f in ("topologies", "branches", "agree", "forks", "queries", "z3_seconds"):
            setattr(self, f, getattr(self, f) + getattr(o, f))

    def as_dict(self) -> dict[str, Any]:
        return {"topologies": self.topologies, "branches": self.branches, "branches_agreeing": self.agree,
                "forks": self.forks, "z3_queries": self.queries, "z3_seconds": round(self.z3_seconds, 3),
                "seconds": round(self.seconds, 3)}


# -- supremum of λ over a region -----------------------------------------------------------------------


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
    s.set("timeout", timeout_ms)
    s.add(*fs)
    r = s.check()
    if r == z3.unknown:
        raise SolverUnknown(f"Z3 returned unknown on a region ({s.reason_unknown()})")
    if r == z3.unsat:
        return Sup()
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
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


def _explore(target: Target, inp: Any, dom: Domain) -> Exploration:
    return Explorer(target.instance(inp, dom)).run()


def _refute_slice(target: Target, inputs: list[Any], dom: Domain, start: int = 0, stride: int = 1,
                  best: Any = None) -> tuple[_Tally, tuple[int, BadPiece] | None]:
    """Replay ``inputs[start::stride]`` in order, up to the first departure.

    ``best`` (shared between workers) holds the smallest departing index found so far; a worker stops
    once it is below the next index.
    """
    tally = _Tally()
    for k in range(start, len(inputs), stride):
        if best is not None and best.value < k:
            break
        r = _explore(target, inputs[k], dom)
        tally.add(r)
        if r.bad:
            if best is not None:
                with best.get_lock():
                    best.value = min(best.value, k)
            return tally, (k, r.bad[0])
    return tally, None


def _worker(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - reported to the parent
        return ("err", f"{type(e).__name__}: {e}", isinstance(e, SolverUnknown))


def refute_all(target: Target, inputs: list[Any], dom: Domain, jobs: int = 1
               ) -> tuple[_Tally, tuple[int, BadPiece] | None]:
    """Replay every topology; the first departure in input order, if there is one.

    With ``jobs > 1`` (and at least :data:`PARALLEL_MIN` topologies) forked workers take every
    ``jobs``-th topology; a worker stops once a smaller index has departed, so the answer is the one a
    single process gives.
    """
    t0 = time.perf_counter()
    if jobs <= 1 or len(inputs) < PARALLEL_MIN or not can_fork():
        tally, first = _refute_slice(target, inputs, dom)
    else:
        best = shared_int(len(inputs))
        results = [r for _, r in map_ordered(lambda j: _worker(_refute_slice, (target, inputs, dom, j, jobs, best)),
                                             range(jobs), jobs)]
        tally, first = _Tally(), None
        for r in results:
            if r[0] == "err":
                raise (SolverUnknown if r[2] else SymcotError)(f"symbolic worker failed: {r[1]}")
            t, bad = r[1]
            tally.merge(t)
            if bad is not None and (first is None or bad[0] < first[0]):
                first = bad
    tally.seconds = time.perf_counter() - t0
    return tally, first


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


def _formula(points: list[tuple[int, Fraction]]) -> tuple[Fraction, Fraction] | None:
    """``(a, b)`` with ``v = a·n + b`` at every point (at least three), else ``None``."""
    if len(points) < 3:
        return None
    (n0, v0), (n1, v1) = points[0], points[1]
    a = Fraction(v1 - v0, n1 - n0)
    b = v0 - a * n0
    return (a, b) if all(v == a * k + b for k, v in points) else None


def _formula_text(a: Fraction, b: Fraction, unit: str) -> str:
    an = "n" if a == 1 else f"{a}·n" if a != 0 else ""
    bt = "" if b == 0 else (f" + {b}" if b > 0 else f" - {-b}")
    body = (an + bt) if an else str(b)
    if unit:
        return f"({body})·{unit}" if (an and bt) else f"{body}·{unit}"
    return body


@dataclass
class SymbolicCheck:
    """A claim variant decided by symbolic replay (see the module docstring).

    Attributes:
        variant: the variant's name (``as-written``, ``repaired``, ...).
        target: what is replayed (:mod:`symcot.check.symbolic_target`).
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

    def run(self, claim_id: str, max_size: int, progress: Progress, jobs: int = 1) -> Verdict:
        """Prove, refute (with a re-checked point), or report ``unknown``; ``details`` as documented above."""
        start = time.perf_counter()
        size = self.size_for(max_size)
        notes = list(self.notes) + [f"domain: {self.target.rule_text}; topologies: {self.target.topology_family}"]
        try:
            return self._run(claim_id, size, progress or Progress(False), jobs, start, notes)
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
        total = _Tally()
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
                return Verdict(claim_id, self.variant, verdict, self.method, complete[-1] if complete else None,
                               total.topologies, time.perf_counter() - start, jsonable(cex), notes, None,
                               self._families(complete), jsonable(details))
            complete.append(n)
        details = self._details(per_size, total)
        if self.lambda_min:
            details["lambda_min"] = self._lambda_min_sizes(claim_id, size, progress, jobs)
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

    def _details(self, per_size: list[dict[str, Any]], total: _Tally) -> dict[str, Any]:
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
        pts = [(r["n"], Fraction(r["lambda_min"])) for r in rows
               if r.get("lambda_min") is not None and r.get("certified") and r["n"] >= 2]
        unit = "W" if self.target.weighted else ""
        fit = _formula(pts)
        out: dict[str, Any] = {"lambda_min_values": {str(k): _num(v) for k, v in pts}}
        if fit is not None:
            out["lambda_min_formula"] = _formula_text(*fit, unit)
            out["lambda_min_formula_note"] = (f"a·n + b fitted to the certified values at n = "
                                              f"{', '.join(str(k) for k, _ in pts)}; each value is certified "
                                              "separately (no proof for other n)")
        else:
            out["lambda_min_formula"] = None
            out["lambda_min_formula_note"] = (f"fewer than three certified sizes ({len(pts)}) or not on one line: "
                                              "no formula reported")
        return out


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
        sup = _piece_sup(piece, target.weighted)
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
        r = _explore(target, inp, dom)
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


__all__ = ["SymbolicCheck", "lambda_min", "climb", "refute_all", "region_sup"]
