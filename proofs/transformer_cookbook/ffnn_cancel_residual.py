r"""sec:ffnn_cancel_residual -- cancelling the residual connection by two more blocks of units.

Claimed (draft 582e0e1, ch. 3): for an FFN ``f`` on ``ℝ^d`` with ``W_1, b_1, W_2, b_2``, the FFN ``f'`` with
``W_1' = [W_1; I; -I]``, ``b_1' = [b_1; 0; 0]``, ``W_2' = [W_2, -I, I]``, ``b_2' = b_2`` satisfies
``f'(x) + x = f(x)`` for every ``x``. The construction is :func:`.recipes.cancel_residual`, which takes any
network ``f`` and the stream blocks to cancel; the claims check it in two parts:

- ``sec:ffnn_cancel_residual`` (Z3, every ``d``): ``f'`` built by :func:`.recipes.cancel_residual` from an
  FFN ``f`` whose pre-activation ``z = W_1 x + b_1`` is an input block of its own (so every ``W_1, b_1`` is
  covered: ``z`` ranges over all of ``ℝ^d`` independently of ``x``, a stronger statement) and whose output layer
  is ``W_2 = I``, ``b_2 = 0``; target ``x + f'(x) = f(x) = ReLU(z)``. Every row is local, so it is proved for
  every ``d`` by the index-function encoding.
- ``sec:ffnn_cancel_residual:blocks`` (SymPy, symbolic ``d`` and ``d_ff = k``): the block algebra that makes
  the first part general in ``W_2, b_2`` too: ``W_1' x + b_1' = [W_1 x + b_1; x; -x]`` and
  ``W_2' [h; p; q] + b_2' = (W_2 h + b_2) - p + q``. With ReLU applied coordinate-wise (the draft's definition of
  pointwise application), ``f'(x) = f(x) - ReLU(x) + ReLU(-x)``, and the first part proves ``-ReLU(x) +
  ReLU(-x) + x = 0``.
"""

from __future__ import annotations

import sympy as sp
from sympy.matrices.expressions import BlockMatrix, Identity, MatrixSymbol, ZeroMatrix

from symcot.claims import Claim, as_written
from symcot.ir import Layout
from symcot.lemmas import Lemma, LemmaCheck
from symcot.lemmas.facts import IdentityClaim, SymbolicCheck
from symcot.lemmas.gadget_lemma import gadget_maps

from .recipes import cancel_residual, d, ffn, notes, through_residual, where

LAYOUT = Layout("cancel.in", [("x", d), ("z", d)])
TARGET = {"x": through_residual("x", lambda x, i, K: K.relu(x.z(i)))}


def lemma() -> Lemma:
    """``x + f'(x) = f(x)`` for ``f(x) = ReLU(z)`` (``z`` its pre-activation, any vector), every ``d``."""
    v = LAYOUT.vars()
    w1, w2 = gadget_maps(cancel_residual(ffn(v.z), {"x": v.x}), LAYOUT, "cancel")
    return Lemma("sec:ffnn_cancel_residual", LAYOUT, w2, dict(TARGET), w1=w1, dims={d: 1})


k = sp.Symbol("k", integer=True, positive=True)


def block_identities(sign: int = 1) -> list[IdentityClaim]:
    """The two block identities (``sign = -1`` flips ``W_2'``'s ``-I`` block: a mutant)."""
    w1, w2 = MatrixSymbol("W_1", k, d), MatrixSymbol("W_2", d, k)
    b1, b2 = MatrixSymbol("b_1", k, 1), MatrixSymbol("b_2", d, 1)
    x, h = MatrixSymbol("x", d, 1), MatrixSymbol("h", k, 1)
    p, q = MatrixSymbol("p", d, 1), MatrixSymbol("q", d, 1)
    w1p = BlockMatrix([[w1], [Identity(d)], [-Identity(d)]])
    b1p = BlockMatrix([[b1], [ZeroMatrix(d, 1)], [ZeroMatrix(d, 1)]])
    w2p = BlockMatrix([[w2, -sign * Identity(d), Identity(d)]])
    return [
        IdentityClaim("W_1' x + b_1' = [W_1 x + b_1; x; -x]",
                      lambda: w1p * x + b1p - BlockMatrix([[w1 * x + b1], [x], [-x]]), [w1, b1, x], [k, d]),
        IdentityClaim("W_2' [h; p; q] + b_2' = (W_2 h + b_2) - p + q",
                      lambda: w2p * BlockMatrix([[h], [p], [q]]) + b2 - (w2 * h + b2 - p + q),
                      [w2, b2, h, p, q], [k, d]),
    ]


WHERE = where("Canceling Residual Connections", "sec:ffnn_cancel_residual")

CLAIMS = [
    Claim(id="sec:ffnn_cancel_residual", kind="section",
          statement="f' with W_1' = [W_1; I; -I], b_1' = [b_1; 0; 0], W_2' = [W_2, -I, I], b_2' = b_2 satisfies "
                    "f'(x) + x = f(x) for every x ∈ ℝ^d.",
          where=WHERE,
          checks=[LemmaCheck(lemma, notes=notes(
              "f's pre-activation z = W_1 x + b_1 is an input of its own (every W_1, b_1), its output layer W_2 = I, "
              "b_2 = 0; general W_2, b_2: sec:ffnn_cancel_residual:blocks; the reported expected/got are f'(x), "
              "before the residual"))],
          default_max_size=8,
          readings={"as-written": as_written("every d, every x ∈ ℝ^d, every W_1, b_1 (z = W_1 x + b_1 free); "
                                             "f'(x) + x = f(x)")}),
    Claim(id="sec:ffnn_cancel_residual:blocks", kind="sentence",
          statement="W_1' x + b_1' = [W_1 x + b_1; x; -x] and W_2' [h; p; q] + b_2' = W_2 h + b_2 - p + q, so "
                    "f'(x) = f(x) - ReLU(x) + ReLU(-x) for every W_1, b_1, W_2, b_2 (id ours).",
          where=WHERE + " (the block algebra behind it; id ours)",
          checks=[SymbolicCheck(block_identities, notes=notes("matrix symbols of symbolic size d, d_ff = k"))],
          default_max_size=1,
          readings={"as-written": as_written("the printed block matrices, W_1 ∈ ℝ^{k×d}, W_2 ∈ ℝ^{d×k}, any k, d")}),
]
