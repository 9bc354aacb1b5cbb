"""Split a block expression into its linear part per input block, its constant part and its bilinear terms.

Used to print a map as a block matrix (rows: output blocks, columns: input blocks) the way a paper
writes it, with the degree-2 terms listed beside it as the paper states them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from symcot.ir.expr import Bilinear, BlockRef, Const, Expr, MatApply, Scale, Sum
from symcot.ir.matrices import Mat, MatProduct, MatSum, Scaled


@dataclass
class Parts:
    """``expr = Σ_b L[b] π_b + Σ consts + Σ quads``."""

    linear: dict[str, Mat] = field(default_factory=dict)
    consts: list[Expr] = field(default_factory=list)
    quads: list[Expr] = field(default_factory=list)

    def add(self, other: Parts) -> None:
        """In-place sum."""
        for b, m in other.linear.items():
            self.linear[b] = MatSum(self.linear[b], m) if b in self.linear else m
        self.consts += other.consts
        self.quads += other.quads


def decompose(e: Expr) -> Parts:
    """The parts of ``e`` (structural: nothing is expanded except sums and scalar/matrix factors)."""
    if isinstance(e, BlockRef):
        from symcot.ir.matrices import Identity

        return Parts({e.name: Identity(e.size)})
    if isinstance(e, Const):
        return Parts(consts=[e])
    if isinstance(e, Bilinear):
        return Parts(quads=[e])
    if isinstance(e, Sum):
        out = Parts()
        for t in e.terms:
            out.add(decompose(t))
        return out
    if isinstance(e, Scale):
        inner = decompose(e.e)
        return Parts({b: Scaled(e.c, m) for b, m in inner.linear.items()},
                     [Scale(e.c, c) for c in inner.consts], [Scale(e.c, q) for q in inner.quads])
    if isinstance(e, MatApply):
        inner = decompose(e.e)
        return Parts({b: MatProduct(e.m, m) for b, m in inner.linear.items()},
                     [MatApply(e.m, c) for c in inner.consts], [MatApply(e.m, q) for q in inner.quads])
    raise TypeError(f"cannot decompose {type(e).__name__}")


def simplify_latex(m: Mat) -> str:
    """LaTeX of a structured matrix with trivial factors dropped (``I_n I_n`` → ``I_n``, ``1·M`` → ``M``)."""
    from symcot.ir.matrices import Identity

    if isinstance(m, MatProduct):
        if isinstance(m.b, Identity):
            return simplify_latex(m.a)
        if isinstance(m.a, Identity):
            return simplify_latex(m.b)
        return f"{simplify_latex(m.a)}\\,{simplify_latex(m.b)}"
    if isinstance(m, Scaled):
        inner = simplify_latex(m.m)
        if m.c == 1:
            return inner
        if m.c == -1:
            return f"-{inner}"
        if inner == "1":
            return sp.latex(m.c)
        return f"{sp.latex(m.c)}\\,{inner}"
    if isinstance(m, MatSum):
        a, b = simplify_latex(m.a), simplify_latex(m.b)
        return f"{a} {'' if b.startswith('-') else '+ '}{b}"
    if isinstance(m, Identity) and m.rows == 1:
        return "1"
    return m.latex()
