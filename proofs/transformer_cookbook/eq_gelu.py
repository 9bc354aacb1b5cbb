r"""eq:gelu -- the tanh approximation of GELU, and the sigmoid one after it.

Claimed (draft 582e0e1, ch. 3, definition of GELU): ``GELU(x) = x Φ(x) = (x/2)(1 + erf(x/√2))
≈ (x/2)(1 + tanh(√(2/π)(x + 0.044715 x³)))`` (the line labelled eq:gelu) ``≈ x σ(1.702 x)`` (the next line,
unlabelled: id ``eq:gelu:sigmoid``, ours). The draft states no error for ``≈``. The only use the chapter makes of
it is sec:ffnn_multiplication, which needs GELU's Taylor polynomial of degree 2 at ``0``; so ``as-written``
reads ``≈`` as: the Taylor polynomials at ``0`` agree up to degree 2 (exact SymPy check). The readings
``degree-3``, ``degree-4`` and ``degree-1`` say how far each form agrees. (0.044715 is a fitted constant: the
degree-4 agreement would need ``2/(3π) - 1/6 ≈ 0.045541``.)
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from symcot.claims import Claim, as_written, reading
from symcot.lemmas.facts import IdentityClaim, SymbolicCheck

from .recipes import TAYLOR_METHOD, gelu_exact, gelu_sigmoid, gelu_tanh, notes, taylor, where

x = sp.Symbol("x")


def agree(form: Callable[[sp.Expr], sp.Expr], name: str, degree: int) -> Callable[[], list[IdentityClaim]]:
    """``form ≈ x Φ(x)`` read as: equal Taylor polynomials of degree ``degree`` at ``0``."""
    return lambda: [IdentityClaim(f"{name} and x Φ(x) have the same Taylor polynomial of degree {degree} at 0",
                                  lambda: taylor(form(x) - gelu_exact(x), x, degree), [x])]


WHERE = where("", "eq:gelu", "definition of GELU, the tanh line")
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
                  _check(agree(gelu_tanh, "the tanh form", 4), "degree-4", APPROX)],
          default_max_size=1,
          readings={"as-written": as_written("≈ as equal Taylor polynomials of degree 2 at 0 (the order "
                                             "sec:ffnn_multiplication uses)"),
                    "degree-3": reading("≈ as equal Taylor polynomials of degree 3 at 0"),
                    "degree-4": reading("≈ as equal Taylor polynomials of degree 4 at 0")}),
    Claim(id="eq:gelu:sigmoid", kind="equation",
          statement="x Φ(x) ≈ x σ(1.702 x) (the line after eq:gelu; id ours).",
          where=WHERE + ", the line after eq:gelu (id ours)",
          checks=[_check(agree(gelu_sigmoid, "x σ(1.702 x)", 2), "as-written", APPROX, "degree 2"),
                  _check(agree(gelu_sigmoid, "x σ(1.702 x)", 1), "degree-1", APPROX)],
          default_max_size=1,
          readings={"as-written": as_written("≈ as equal Taylor polynomials of degree 2 at 0, as for eq:gelu"),
                    "degree-1": reading("≈ as equal Taylor polynomials of degree 1 at 0")}),
]
