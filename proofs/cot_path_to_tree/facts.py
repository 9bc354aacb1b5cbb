r"""The two Facts of the "Preliminaries" appendix (app:prelim), proved symbolically with SymPy.

Neither fact has a label; our ids are ``fact:affine`` and ``fact:bilinear``.

``fact:affine``: "An affine transformation defined by v' = Wv + c can be rewritten strictly as a linear
transformation v' = W'ṽ by concatenating the input vector v with c", with ``ṽ = [vᵀ ‖ cᵀ]ᵀ`` and
``W' = [W ‖ I_m]``. Checked: ``W' ṽ = W v + c`` for ``W ∈ ℝ^{m×n}``, ``v ∈ ℝ^n``, ``c ∈ ℝ^m`` with
symbolic ``m``, ``n``; and ``ṽ ↦ W'ṽ`` is linear (``W'(α ṽ_1 + β ṽ_2) = α W'ṽ_1 + β W'ṽ_2``). Note, not
an error: ``ṽ`` depends on ``c``, so the map ``v ↦ W'ṽ`` is still affine in ``v``; the fact moves the
constant into the input (symcot's maps carry it as a constant term).

``fact:bilinear``: "A linear transformation L(v) = Wv can be represented as a bilinear operation",
``B(v, c) = Wv·c`` with ``c ∈ ℝ``. Checked: linearity in ``v`` and in ``c`` (the proof's two displays),
and ``B(v, 1) = L(v)`` (the representation).
"""

from __future__ import annotations

import sympy as sp
from sympy.matrices.expressions import BlockMatrix, Identity, MatrixSymbol

from symcot.claims import Claim
from symcot.lemmas.facts import IdentityClaim, SymbolicCheck

m, n = sp.symbols("m n", integer=True, positive=True)
alpha, beta = sp.symbols("alpha beta")


def affine_identities(w_prime_id: int = 1) -> list[IdentityClaim]:
    """fact:affine; ``w_prime_id`` scales the identity block of ``W'`` (1 as written; a mutant uses 2)."""
    W, v, c = MatrixSymbol("W", m, n), MatrixSymbol("v", n, 1), MatrixSymbol("c", m, 1)
    v1, c1 = MatrixSymbol("v1", n, 1), MatrixSymbol("c1", m, 1)
    v2, c2 = MatrixSymbol("v2", n, 1), MatrixSymbol("c2", m, 1)
    wp = BlockMatrix([[W, w_prime_id * Identity(m)]])

    def tilde(x: MatrixSymbol, y: MatrixSymbol) -> BlockMatrix:
        return BlockMatrix([[x], [y]])

    return [
        IdentityClaim("W'ṽ = Wv + c with W' = [W ‖ I_m], ṽ = [v; c]", lambda: wp * tilde(v, c) - (W * v + c),
                      [W, v, c], [m, n]),
        IdentityClaim("W'(αṽ_1 + βṽ_2) = αW'ṽ_1 + βW'ṽ_2",
                      lambda: wp * (alpha * tilde(v1, c1) + beta * tilde(v2, c2))
                      - (alpha * wp * tilde(v1, c1) + beta * wp * tilde(v2, c2)),
                      [W, v1, c1, v2, c2, alpha, beta], [m, n]),
    ]


def bilinear_identities(extra: int = 0) -> list[IdentityClaim]:
    """fact:bilinear for ``B(v, c) = Wv·c + extra·(…)`` (``extra = 0`` as written; a mutant adds ``c·1``)."""
    W = MatrixSymbol("W", m, n)
    v, v1, v2 = MatrixSymbol("v", n, 1), MatrixSymbol("v1", n, 1), MatrixSymbol("v2", n, 1)
    ones = MatrixSymbol("u", m, 1)  # an arbitrary fixed vector for the mutant's affine term
    c, c1, c2 = sp.symbols("c c1 c2")

    def B(x: object, s: object) -> object:  # noqa: N802 - the paper's name
        return W * x * s + extra * ones

    return [
        IdentityClaim("B(αv_1 + βv_2, c) = αB(v_1, c) + βB(v_2, c)",
                      lambda: B(alpha * v1 + beta * v2, c) - (alpha * B(v1, c) + beta * B(v2, c)),
                      [W, v1, v2, ones, c, alpha, beta], [m, n]),
        IdentityClaim("B(v, αc_1 + βc_2) = αB(v, c_1) + βB(v, c_2)",
                      lambda: B(v, alpha * c1 + beta * c2) - (alpha * B(v, c1) + beta * B(v, c2)),
                      [W, v, ones, c1, c2, alpha, beta], [m, n]),
        IdentityClaim("B(v, 1) = Wv", lambda: B(v, 1) - W * v, [W, v, ones], [m, n]),
    ]


WHERE = "Appendix \"Preliminaries\" (app:prelim), {} fact (no label; id ours)"

CLAIMS = [
    Claim(id="fact:affine", kind="fact",
          statement="v' = Wv + c equals W'ṽ with W' = [W ‖ I_m] and ṽ = [v; c].",
          where=WHERE.format("first"), checks=[SymbolicCheck(affine_identities)], default_max_size=1),
    Claim(id="fact:bilinear", kind="fact",
          statement="L(v) = Wv is represented by the bilinear B(v, c) = Wv·c (c ∈ ℝ).",
          where=WHERE.format("second"), checks=[SymbolicCheck(bilinear_identities)], default_max_size=1),
]
