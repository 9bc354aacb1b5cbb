r"""eq:gelu -- the tanh approximation of GELU, and the sigmoid one after it.

Claimed (draft 582e0e1, ch. 3, definition of GELU): ``GELU(x) = x Φ(x) = (x/2)(1 + erf(x/√2))
≈ (x/2)(1 + tanh(√(2/π)(x + 0.044715 x³)))`` (the line labelled eq:gelu) ``≈ x σ(1.702 x)`` (the next line,
unlabelled: id ``eq:gelu:sigmoid``, ours). The draft states no error for ``≈``.

- eq:gelu: the only use the chapter makes of the tanh line is sec:ffnn_multiplication ("GELU is implemented as
  in eq:gelu, hence" its Taylor terms), which needs GELU's Taylor polynomial of degree 2 at ``0``; so
  ``as-written`` reads ``≈`` as: the Taylor polynomials at ``0`` agree up to degree 2 (exact SymPy check). The
  readings ``degree-3`` and ``degree-4`` say how far it agrees (0.044715 is a fitted constant: the degree-4
  agreement would need ``2/(3π) - 1/6 ≈ 0.045541``), and ``global`` gives its largest error on ℝ.
- eq:gelu:sigmoid: nothing in the chapter uses the sigmoid line, and the Taylor criterion is the one the text
  uses for the other formula; what the line claims is a uniform approximation. ``as-written`` computes its size:
  the largest ``|x σ(1.702 x) - x Φ(x)|`` over every real ``x``, certified with arb balls
  (:mod:`symcot.lemmas.bound`) on ``[-10, 10]`` and by a proved tail bound beyond. The readings ``degree-2``
  and ``degree-1`` read ``≈`` as Taylor agreement at ``0`` (the sigmoid form agrees to degree 1 only: its ``x²``
  coefficient is ``1.702/4 = 0.4255`` against ``1/√(2π) ≈ 0.3989``).

The tail bounds (both errors are even functions, since ``GELU(x) - GELU(-x) = x`` for each of the three
forms; take ``x ≥ L = 10``): with ``1 - Φ(x) ≤ φ(x)/x`` (Mills' ratio) and ``1 - σ(t) ≤ e^{-t}``,
``x σ(ax) - x Φ(x) = x(1 - Φ(x)) - x(1 - σ(ax))`` is a difference of two numbers in ``[0, max(φ(x), x e^{-ax})]``;
with ``1 - tanh(u) ≤ 2 e^{-2u}`` and ``u = √(2/π)(x + 0.044715 x³) ≥ √(2/π) x``, the tanh form's error
``(x/2)((1 - erf(x/√2)) - (1 - tanh u))`` is a difference of two numbers in ``[0, max(φ(x), x e^{-2√(2/π) x})]``.
Both majorants decrease for ``x ≥ 1``, so their values at ``L`` bound the error for every ``|x| ≥ L``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb, fmpq

from symcot.claims import Claim, as_written, reading
from symcot.lemmas.bound import MaxErrorCheck, Tail
from symcot.lemmas.facts import IdentityClaim, SymbolicCheck

from .recipes import TAYLOR_METHOD, gelu_exact, gelu_sigmoid, gelu_tanh, notes, taylor, where

x = sp.Symbol("x")


def agree(form: Callable[[sp.Expr], sp.Expr], name: str, degree: int) -> Callable[[], list[IdentityClaim]]:
    """``form ≈ x Φ(x)`` read as: equal Taylor polynomials of degree ``degree`` at ``0``."""
    return lambda: [IdentityClaim(f"{name} and x Φ(x) have the same Taylor polynomial of degree {degree} at 0",
                                  lambda: taylor(form(x) - gelu_exact(x), x, degree), [x])]


# -- the global error, on arb balls (arithmetic and the methods exp/erf only: see symcot.lemmas.bound) ---------

#: The interval certified ball by ball; beyond it the tail bounds of the module text.
L = Fraction(10)


def _phi_x(x: Any) -> Any:
    """``x Φ(x) = (x/2)(1 + erf(x/√2))``."""
    return x / 2 * (1 + (x / arb(2).sqrt()).erf())


def sigmoid_error(x: Any) -> Any:
    """``x σ(1.702 x) - x Φ(x)``."""
    a = arb(fmpq(1702, 1000))
    return x / (1 + (-a * x).exp()) - _phi_x(x)


def tanh_error(x: Any) -> Any:
    """``(x/2)(1 + tanh(√(2/π)(x + 0.044715 x³))) - x Φ(x)``, with ``1 + tanh(u) = 2 - 2/(1 + e^{2u})``."""
    u = (2 / arb.pi()).sqrt() * (x + arb(fmpq(44715, 10**6)) * x * x * x)
    return x / 2 * (2 - 2 / (1 + (2 * u).exp())) - _phi_x(x)


def _gauss(t: arb) -> arb:
    """``φ(t)``, the standard normal density."""
    return (-t * t / 2).exp() / (2 * arb.pi()).sqrt()


def _tail(scale: Callable[[], arb]) -> Tail:
    """``max(φ(L), L e^{-scale·L})``: the tail bound of the module text, with ``scale = a`` or ``2√(2/π)``."""
    def bound() -> arb:
        big = arb(L.numerator)
        return (_gauss(big)).max(big * (-scale() * big).exp())
    return Tail(bound, "the error is even, and for x ≥ L it is a difference of two numbers in [0, max(φ(x), "
                       "x e^{-cx})], decreasing in x (Mills' ratio; the module text)")


SIGMOID_TAIL = _tail(lambda: arb(fmpq(1702, 1000)))
TANH_TAIL = _tail(lambda: 2 * (2 / arb.pi()).sqrt())


WHERE = where("", "eq:gelu", "definition of GELU, the tanh line")
GLOBAL = "≈ as a uniform approximation on ℝ (the draft states no error): the verdict's content is its size"
APPROX = "≈ read as agreement of the Taylor polynomials at 0; the draft states no error bound"

def _check(identities: Callable[[], list[IdentityClaim]], variant: str, *more: str) -> SymbolicCheck:
    """A SymPy check of Taylor identities, with this package's notes."""
    return SymbolicCheck(identities, variant=variant, notes=notes(*more), method=TAYLOR_METHOD)


CLAIMS = [
    Claim(id="eq:gelu", kind="equation",
          statement="x Φ(x) ≈ (x/2)(1 + tanh(√(2/π)(x + 0.044715 x³))).",
          where=WHERE,
          checks=[_check(agree(gelu_tanh, "the tanh form", 2), "as-written", APPROX, "degree 2"),
                  _check(agree(gelu_tanh, "the tanh form", 3), "degree-3", APPROX),
                  _check(agree(gelu_tanh, "the tanh form", 4), "degree-4", APPROX),
                  MaxErrorCheck(tanh_error, -L, L, "tanh form - x Φ(x)", "global", TANH_TAIL,
                                notes=notes(GLOBAL))],
          default_max_size=1,
          readings={"as-written": as_written("≈ as equal Taylor polynomials of degree 2 at 0 (the order "
                                             "sec:ffnn_multiplication uses)"),
                    "degree-3": reading("≈ as equal Taylor polynomials of degree 3 at 0"),
                    "degree-4": reading("≈ as equal Taylor polynomials of degree 4 at 0"),
                    "global": reading("≈ as a uniform approximation on ℝ: its largest error, certified")}),
    Claim(id="eq:gelu:sigmoid", kind="equation",
          statement="x Φ(x) ≈ x σ(1.702 x) (the line after eq:gelu; id ours).",
          where=WHERE + ", the line after eq:gelu (id ours)",
          checks=[MaxErrorCheck(sigmoid_error, -L, L, "x σ(1.702 x) - x Φ(x)", "as-written", SIGMOID_TAIL,
                                notes=notes(GLOBAL)),
                  _check(agree(gelu_sigmoid, "x σ(1.702 x)", 2), "degree-2", APPROX, "degree 2"),
                  _check(agree(gelu_sigmoid, "x σ(1.702 x)", 1), "degree-1", APPROX)],
          default_max_size=1,
          readings={"as-written": as_written("≈ as a uniform approximation on ℝ: its largest error, certified "
                                             "(the draft states none)"),
                    "degree-2": reading("≈ as equal Taylor polynomials of degree 2 at 0, the criterion "
                                        "eq:gelu's use needs"),
                    "degree-1": reading("≈ as equal Taylor polynomials of degree 1 at 0")}),
]
