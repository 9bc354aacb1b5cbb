"""The path condition of symbolic replay (:mod:`symcot.replay.symbolic`), kept in a Z3 solver, with known signs.

Every symbol is positive on the domain (``λ > 0``, weights ``> 0``), so a polynomial whose coefficients all
share one sign is decided without Z3; a fact learned on a path (an atom of the path condition, or a Z3
answer) is reused on that path and below it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from symcot.replay.symbolic_poly import (
    Atom,
    Number,
    Poly,
    SolverUnknown,
    _canon,
    rational_model,
    z3_formula,
    z3_term,
)
from symcot.replay.z3limits import budget


@dataclass
class SolverStats:
    """What deciding cost: Z3 queries and their seconds, and decisions settled without Z3."""

    queries: int = 0
    seconds: float = 0.0
    fast: int = 0
    forks: int = 0


class PathSolver:
    """The current path condition, kept in a Z3 solver's assertion stack, with a cache of known signs.

    ``push(atoms)`` extends the path; ``pop()`` undoes the last ``push``. ``implied`` decides an atom
    without Z3 when it can (constant, coefficient signs, a fact on the path); ``decide`` asks Z3.
    """

    def __init__(self, variables: Sequence[str], timeout_ms: int = 20_000):
        self.vars = {v: z3.Real(v) for v in variables}  # the same terms z3_term builds
        self.solver = z3.Solver()
        budget(self.solver, timeout_ms)
        self.timeout_ms = timeout_ms
        self.atoms: list[Atom] = []
        self._marks: list[int] = []
        self._facts: list[dict[Any, list[Any]]] = [{}]
        self.stats = SolverStats()

    # -- translation ----------------------------------------------------------------------------------
    def term(self, p: Any) -> Any:
        """A Z3 term for a polynomial or number."""
        return z3_term(p)

    def formula(self, a: Atom) -> Any:
        """The Z3 formula of an atom."""
        return z3_formula(a)

    # -- the path ---------------------------------------------------------------------------------------
    def push(self, atoms: Sequence[Atom]) -> None:
        """Extend the path condition by ``atoms``."""
        self.solver.push()
        self._marks.append(len(self.atoms))
        self._facts.append({})
        for a in atoms:
            self.atoms.append(a)
            self.solver.add(self.formula(a))
            self._learn(a, True)

    def pop(self) -> None:
        """Undo the last :meth:`push`."""
        self.solver.pop()
        del self.atoms[self._marks.pop():]
        self._facts.pop()

    @property
    def depth(self) -> int:
        """How many pushes are active."""
        return len(self._marks)

    # -- facts ---------------------------------------------------------------------------------------
    def _fact(self, key: Any) -> list[Any]:
        for layer in reversed(self._facts):
            f = layer.get(key)
            if f is not None:
                return f
        return [None, None]  # [lower: None | ">=" | ">", upper: None | "<=" | "<"]

    def _learn(self, a: Atom, truth: bool) -> None:
        if not isinstance(a.p, Poly):
            return
        if not truth:
            neg = a.negate()
            if len(neg) == 1 and len(neg[0]) == 1:
                self._learn(neg[0][0], True)
            return
        key, lc = _canon(a.p)
        lo, hi = self._fact(key)
        pos = lc > 0
        if a.rel in (">", ">="):
            if pos:
                lo = ">" if (a.rel == ">" or lo == ">") else ">="
            else:
                hi = "<" if (a.rel == ">" or hi == "<") else "<="
        else:
            lo = lo or ">="
            hi = hi or "<="
        self._facts[-1][key] = [lo, hi]

    def implied(self, a: Atom) -> bool | None:
        """``True``/``False`` when the path decides ``a`` without Z3; ``None`` otherwise."""
        p = a.p
        if not isinstance(p, Poly):
            return p > 0 if a.rel == ">" else p >= 0 if a.rel == ">=" else p == 0
        s = p.sign()
        if s != 0:
            return (s > 0) if a.rel != "==" else False
        key, lc = _canon(p)
        lo, hi = self._fact(key)
        if lc < 0:  # p > 0 ⟺ c < 0
            lo, hi = ({"<": ">", "<=": ">="}.get(hi) if hi else None, {">": "<", ">=": "<="}.get(lo) if lo else None)
        if a.rel == ">":
            if lo == ">":
                return True
            if hi in ("<", "<="):
                return False
        elif a.rel == ">=":
            if lo in (">", ">="):
                return True
            if hi == "<":
                return False
        else:
            if lo == ">=" and hi == "<=":
                return True
            if lo == ">" or hi == "<":
                return False
        return None

    # -- Z3 ----------------------------------------------------------------------------------------------
    def sat(self, atoms: Sequence[Atom] = (), extra: Sequence[Any] = ()) -> bool:
        """Whether the path condition with ``atoms`` (and Z3 formulas ``extra``) is satisfiable."""
        fs = [self.formula(a) for a in atoms] + list(extra)
        t0 = time.perf_counter()
        r = self.solver.check(*fs)
        self.stats.seconds += time.perf_counter() - t0
        self.stats.queries += 1
        if r == z3.unknown:
            raise SolverUnknown(f"Z3 returned unknown ({self.solver.reason_unknown()}) on {len(fs)} extra atoms")
        return r == z3.sat

    def model(self, atoms: Sequence[Atom] = (), extra: Sequence[Any] = ()) -> dict[str, Number] | None:
        """A rational point of the path condition with ``atoms``, or ``None`` if there is none."""
        if not self.sat(atoms, extra):
            return None
        return rational_model(self.solver.model(), self.vars)

    def decide(self, a: Atom) -> bool | None:
        """``True``/``False`` when the path condition implies ``a`` / ``¬a``; ``None`` when both are possible."""
        r = self.implied(a)
        if r is not None:
            self.stats.fast += 1
            return r
        if not self.sat([a]):
            self._learn(a, False)
            return False
        neg = a.negate()
        if len(neg) == 1:
            possible = self.sat(neg[0])
        else:
            possible = self.sat(extra=[z3.Or(*[z3.And(*[self.formula(x) for x in c]) for c in neg])])
        if not possible:
            self._learn(a, True)
            return True
        return None
