"""Symbolic (SymPy) proofs of linear-algebra identities, for the facts of the "Preliminaries" appendix.

An :class:`IdentityClaim` is ``lhs - rhs`` built from SymPy matrix symbols whose sizes are themselves
symbols (``W ∈ ℝ^{m×n}`` with symbolic ``m``, ``n``). It is *proved* when ``block_collapse`` and
``simplify`` reduce the difference to the zero matrix, which then holds for every size. Otherwise a
counterexample is searched at small sizes with small integer entries and, if found, reported exactly;
if neither, the verdict is ``unknown``. :class:`SymbolicCheck` runs a list of them as one claim variant.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from sympy.matrices.expressions import BlockMatrix, MatrixExpr, MatrixSymbol, ZeroMatrix, block_collapse

from symcot.check.context import RunContext
from symcot.check.verdict import Verdict, jsonable


@dataclass
class IdentityClaim:
    """``diff() = 0`` for all values of ``variables`` and all ``sizes`` (positive integers).

    Attributes:
        name: what the identity says (one line).
        diff: builds ``lhs - rhs`` (a SymPy matrix or scalar expression).
        variables: the matrix symbols and scalar symbols the identity quantifies over.
        sizes: the size symbols.

    """

    name: str
    diff: Callable[[], Any]
    variables: Sequence[Any]
    sizes: Sequence[sp.Symbol] = ()


def is_zero(e: Any) -> bool:
    """Whether a simplified SymPy (matrix) expression is identically zero."""
    if isinstance(e, ZeroMatrix):
        return True
    if isinstance(e, BlockMatrix):
        return all(is_zero(b) for b in e.blocks)
    if isinstance(e, sp.MatrixBase):
        return all(sp.simplify(x) == 0 for x in e)
    if isinstance(e, MatrixExpr):
        return False
    return sp.simplify(e) == 0


def _simplify(e: Any) -> Any:
    if isinstance(e, MatrixExpr):
        e = block_collapse(e)
        if isinstance(e, BlockMatrix):
            return BlockMatrix([[_simplify(b) for b in row] for row in e.blocks.tolist()])
        return sp.simplify(e.doit().expand())
    if isinstance(e, sp.MatrixBase):
        return e.applyfunc(lambda x: sp.simplify(sp.expand(x)))
    return sp.simplify(sp.expand(e))


def _explicit(e: Any) -> sp.Matrix:
    if isinstance(e, BlockMatrix):
        return sp.Matrix(sp.BlockMatrix(e.blocks).as_explicit())
    if isinstance(e, MatrixExpr):
        return sp.Matrix(e.as_explicit())
    if isinstance(e, sp.MatrixBase):
        return sp.Matrix(e)
    return sp.Matrix([[e]])


def _assignments(k: int) -> list[tuple[int, ...]]:
    """A fixed, small list of integer assignments of ``k`` slots: unit vectors, all ones, distinct values."""
    out = [tuple(1 if j == i else 0 for j in range(k)) for i in range(k)]
    out += [tuple([1] * k), tuple(j + 2 for j in range(k)), tuple((-1) ** j * (j + 1) for j in range(k))]
    return out


def counterexample(c: IdentityClaim, max_size: int = 2) -> dict[str, Any] | None:
    """The first of a fixed list of small assignments (sizes ``≤ max_size``) where ``diff`` is nonzero."""
    for sz in itertools.product(range(1, max_size + 1), repeat=len(c.sizes)):
        env = dict(zip(c.sizes, sz))
        d = c.diff().subs(env) if env else c.diff()
        slots: list[tuple[Any, tuple[int, int] | None]] = []
        for v in c.variables:
            if isinstance(v, MatrixSymbol):
                r, k = int(sp.sympify(v.rows).subs(env)), int(sp.sympify(v.cols).subs(env))
                slots += [(v, (i, j)) for i in range(r) for j in range(k)]
            else:
                slots.append((v, None))
        for vals in _assignments(len(slots)):
            assign: dict[Any, Any] = {}
            mats: dict[Any, sp.Matrix] = {}
            for (v, ij), x in zip(slots, vals):
                if ij is None:
                    assign[v] = sp.Integer(x)
                else:
                    key = MatrixSymbol(v.name, sp.sympify(v.rows).subs(env), sp.sympify(v.cols).subs(env))
                    mats.setdefault(key, sp.zeros(int(key.rows), int(key.cols)))[ij] = x
            rep = {k: sp.ImmutableMatrix(m) for k, m in mats.items()}
            val = _explicit(d.xreplace(rep).xreplace(assign).doit())
            val = val.applyfunc(lambda x, rep=rep, assign=assign: sp.expand(x.xreplace(rep).xreplace(assign).doit()))
            if any(x != 0 for x in val):
                return {"sizes": {str(k): int(v) for k, v in env.items()},
                        "values": {str(k): [[int(x) for x in r] for r in m.tolist()] for k, m in mats.items()}
                        | {str(k): int(v) for k, v in assign.items() if v != 0},
                        "lhs_minus_rhs": [[int(x) if x.is_Integer else str(x) for x in row] for row in val.tolist()]}
    return None


def decide(c: IdentityClaim) -> dict[str, Any]:
    """``{"identity", "status", "simplified", "seconds", "counterexample"?}``."""
    t0 = time.perf_counter()
    z = _simplify(c.diff())
    out: dict[str, Any] = {"identity": c.name, "simplified": str(z)}
    if is_zero(z):
        out["status"] = "proved"
    else:
        cex = counterexample(c)
        out["status"] = "refuted" if cex is not None else "unknown"
        if cex is not None:
            out["counterexample"] = cex
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


@dataclass
class SymbolicCheck:
    """A claim variant decided by SymPy: every identity proved, or the first refuted one."""

    identities: Callable[[], list[IdentityClaim]]
    variant: str = "as-written"
    notes: list[str] = field(default_factory=list)
    method: str = "SymPy: lhs - rhs simplifies to 0 (matrix symbols of symbolic size)"

    def run(self, ctx: RunContext) -> Verdict:
        """Decide every identity (no size: the matrices are symbolic); never raises (a crash: ``error``)."""
        t0 = time.perf_counter()
        claim_id = ctx.claim_id
        try:
            results = [decide(c) for c in self.identities()]
        except Exception as e:  # noqa: BLE001 - the check failing is an "error" verdict
            return Verdict(claim_id, self.variant, "error", self.method, None, 0, time.perf_counter() - t0, None,
                           self.notes + [f"check failed: {type(e).__name__}: {e}"])
        statuses = [r["status"] for r in results]
        verdict = "refuted" if "refuted" in statuses else "unknown" if "unknown" in statuses else "proved"
        cex = None
        if verdict == "refuted":
            bad = next(r for r in results if r["status"] == "refuted")
            c = bad["counterexample"]
            cex = {"kind": "identity", "what": bad["identity"],
                   "input": {**c, "text": ", ".join(f"{k}={v}" for k, v in {**c["sizes"], **c["values"]}.items())},
                   "expected": 0, "got": c["lhs_minus_rhs"]}
        return Verdict(claim_id, self.variant, verdict, self.method, None, len(results), time.perf_counter() - t0,
                       jsonable(cex), list(self.notes), None, [], jsonable({"identities": results}),
                       scope="all sizes (matrix symbols of symbolic size)" if verdict == "proved" else "")
