r"""lem:bilinearstack -- stacking two bilinear maps gives a bilinear map (Appendix "Preliminaries").

Claimed: for bilinear ``B_1 : U × U → U'`` and ``B_2 : U × U → U''``, ``B(v, w) = [B_1(v, w); B_2(v, w)]``
into ``W = U' ⊕ U''`` is bilinear. Checked symbolically with SymPy, in two ways:

1. *As the proof argues, for every dimension.* The values ``B_i(v, w)``, ``B_i(ṽ, w)``, ``B_i(v, w̃)`` are
   matrix symbols of symbolic sizes ``p = dim U'``, ``q = dim U''``; the bilinearity of ``B_i`` is used as
   the substitutions ``B_i(v + ṽ, w) = B_i(v, w) + B_i(ṽ, w)``, ``B_i(cv, w) = c B_i(v, w)`` (and the same
   in the second argument); the goal, e.g. ``B(v + ṽ, w) - B(v, w) - B(ṽ, w)``, must collapse to the zero
   block matrix ("addition in W = U' ⊕ U'' is taken componentwise").
2. *Generic maps.* ``B_1``, ``B_2`` with fully symbolic coefficient tensors (``B_k(v, w)_o = vᵀ A_{k,o} w``)
   on ``dim U = 2``, ``dim U' = 1``, ``dim U'' = 2``: the four bilinearity identities of the stacked map
   expand to zero.

The mutant used by the tests replaces ``B_2`` by the affine ``B_2 + 1`` (not bilinear), which must be
refuted.
"""

from __future__ import annotations

import sympy as sp
from sympy.matrices.expressions import BlockMatrix, MatrixSymbol

from symcot.claims import Claim
from symcot.lemmas.facts import IdentityClaim, SymbolicCheck

p, q = sp.symbols("p q", integer=True, positive=True)
c = sp.Symbol("c")


def abstract_identities() -> list[IdentityClaim]:
    """The proof's argument with ``B_i``'s values as matrix symbols of symbolic size."""
    v1 = {k: MatrixSymbol(f"B1_{k}", p, 1) for k in ("vw", "tvw", "vtw")}  # B_1(v,w), B_1(ṽ,w), B_1(v,w̃)
    v2 = {k: MatrixSymbol(f"B2_{k}", q, 1) for k in ("vw", "tvw", "vtw")}

    def stack(a: object, b: object) -> BlockMatrix:
        return BlockMatrix([[a], [b]])

    b_vw = stack(v1["vw"], v2["vw"])
    syms = list(v1.values()) + list(v2.values()) + [c]
    return [
        IdentityClaim("B(v + ṽ, w) = B(v, w) + B(ṽ, w)",
                      lambda: stack(v1["vw"] + v1["tvw"], v2["vw"] + v2["tvw"]) - (b_vw + stack(v1["tvw"], v2["tvw"])),
                      syms, [p, q]),
        IdentityClaim("B(cv, w) = c B(v, w)", lambda: stack(c * v1["vw"], c * v2["vw"]) - c * b_vw, syms, [p, q]),
        IdentityClaim("B(v, w + w̃) = B(v, w) + B(v, w̃)",
                      lambda: stack(v1["vw"] + v1["vtw"], v2["vw"] + v2["vtw"]) - (b_vw + stack(v1["vtw"], v2["vtw"])),
                      syms, [p, q]),
        IdentityClaim("B(v, cw) = c B(v, w)", lambda: stack(c * v1["vw"], c * v2["vw"]) - c * b_vw, syms, [p, q]),
    ]


def generic_identities(b2_shift: int = 0, u: int = 2, dims: tuple[int, int] = (1, 2)) -> list[IdentityClaim]:
    """Bilinearity of the stacked map for generic ``B_1``, ``B_2`` (``b2_shift`` adds a constant to ``B_2``)."""
    tensors = [[sp.Matrix(u, u, lambda i, j, k=k, o=o: sp.Symbol(f"a{k}_{o}{i}{j}")) for o in range(dims[k])]
               for k in range(2)]

    def vec(name: str) -> sp.Matrix:
        return sp.Matrix([sp.Symbol(f"{name}{i}") for i in range(u)])

    v, tv, w, tw = vec("v"), vec("vt"), vec("w"), vec("wt")

    def B(x: sp.Matrix, y: sp.Matrix) -> sp.Matrix:  # noqa: N802 - the paper's name
        b1 = sp.Matrix([(x.T * a * y)[0, 0] for a in tensors[0]])
        b2 = sp.Matrix([(x.T * a * y)[0, 0] + b2_shift for a in tensors[1]])
        return sp.Matrix.vstack(b1, b2)

    syms = sorted(set().union(*[m.free_symbols for row in tensors for m in row], v.free_symbols, tv.free_symbols,
                                w.free_symbols, tw.free_symbols), key=str) + [c]
    return [
        IdentityClaim("generic: B(v + ṽ, w) = B(v, w) + B(ṽ, w)", lambda: B(v + tv, w) - B(v, w) - B(tv, w), syms),
        IdentityClaim("generic: B(cv, w) = c B(v, w)", lambda: B(c * v, w) - c * B(v, w), syms),
        IdentityClaim("generic: B(v, w + w̃) = B(v, w) + B(v, w̃)", lambda: B(v, w + tw) - B(v, w) - B(v, tw), syms),
        IdentityClaim("generic: B(v, cw) = c B(v, w)", lambda: B(v, c * w) - c * B(v, w), syms),
    ]


def identities() -> list[IdentityClaim]:
    """Both forms."""
    return abstract_identities() + generic_identities()


CLAIM = Claim(
    id="lem:bilinearstack",
    kind="lemma",
    statement="If B_1 : U×U → U' and B_2 : U×U → U'' are bilinear, B(v, w) = [B_1(v, w); B_2(v, w)] is bilinear.",
    where="Appendix \"Preliminaries\" (app:prelim)",
    checks=[SymbolicCheck(identities, notes=["abstract form: every dim U', U''; generic form: dim U = 2, "
                                             "dim U' = 1, dim U'' = 2 with symbolic coefficients"])],
    default_max_size=1,
)
