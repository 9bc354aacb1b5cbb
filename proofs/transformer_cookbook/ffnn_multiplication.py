r"""sec:ffnn_multiplication -- approximate multiplication with GELU (not with ReLU).

Claimed (draft 582e0e1, ch. 3): with GELU "implemented as in eq:gelu" (the tanh form),
``√(π/2) (GELU(x + y) - GELU(x) - GELU(y)) = xy + O(x³ + y³)`` (citing Akyürek et al., Lemma 4), "wherein the
authors note that" ``GELU(x) = x/2 + √(2/π) x² + O(x³)`` and ``GELU(x + y) - GELU(x) - GELU(y) = √(2/π) xy +
O(x³ + y³)``. This is the chapter's only recipe that is not exact, and it is not a ReLU network: a ReLU FFN is
piecewise linear and cannot compute ``xy`` exactly on any open set, so the claims checked are exactly the
asymptotic statements the section prints, as statements about Taylor polynomials at ``0`` (SymPy, exact):

- ``O(x³ + y³)`` is read as ``O(|x|³ + |y|³)``, the third-order remainder of a two-variable Taylor expansion
  (the ``as-written`` reading: a Big-O of a sum of powers bounds their size, as ``O(x³)`` does in the series
  line): for a smooth ``E(x, y)`` it holds near ``0`` iff the Taylor polynomial of degree 2 of ``E`` at
  ``(0, 0)`` is ``0`` (also the reading ``exact-gelu``).
- The reading ``signed`` takes ``x³ + y³`` with its sign: on the line ``y = -x`` it asks ``|E(x, -x)| ≤ C·0``
  near ``0``, so ``E(x, -x)`` vanishes near ``0`` and its Taylor polynomials are ``0``; the check is that
  necessary condition at degree 4, refuted by its ``x⁴`` coefficient. The signed bound is not what the text
  means (it would make the error vanish on the whole line ``y = -x``), so this reading is not a finding.
- ``GELU(x) = x/2 + c x² + O(x³)`` holds iff the Taylor polynomial of degree 2 is ``x/2 + c x²``.

The section's header says ``ℝ → ℝ``; the recipe is a function of two reals. GELU as PyTorch computes it by
default is the exact ``x Φ(x)`` (the tanh form only with ``approximate='tanh'``); the reading ``exact-gelu``
uses that one.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from symcot.claims import Claim, as_written, reading, repair
from symcot.lemmas.facts import IdentityClaim, SymbolicCheck

from .recipes import TAYLOR_METHOD, gelu_exact, gelu_tanh, notes, taylor, taylor2, where

x, y = sp.symbols("x y")
Gelu = Callable[[sp.Expr], sp.Expr]


#: The section's constant ``√(π/2)``.
SQRT_PI_2 = sp.sqrt(sp.pi / 2)


def product_error(g: Gelu, scale: sp.Expr = SQRT_PI_2, coefficient: sp.Expr = sp.S.One) -> sp.Expr:
    """``scale (g(x + y) - g(x) - g(y)) - coefficient·xy``: the error of the product estimate."""
    return scale * (g(x + y) - g(x) - g(y)) - coefficient * x * y


def third_order(e: Callable[[], sp.Expr], what: str) -> list[IdentityClaim]:
    """``e = O(|x|³ + |y|³)`` at ``0``: its Taylor polynomial of degree 2 is ``0``."""
    return [IdentityClaim(f"{what} = O(|x|^3 + |y|^3): its Taylor polynomial of degree 2 at 0 is 0",
                          lambda: taylor2(e(), x, y, 2), [x, y])]


def signed(e: Callable[[], sp.Expr], what: str) -> list[IdentityClaim]:
    """``e = O(x³ + y³)`` read as printed: on ``y = -x`` (where ``x³ + y³ = 0``) ``e`` vanishes, degree 4."""
    return [IdentityClaim(f"{what} = O(x^3 + y^3) forces {what} = 0 on y = -x near 0: its Taylor polynomial of "
                          "degree 4 in x there is 0", lambda: taylor(e().subs(y, -x), x, 4), [x])]


def series(g: Gelu, c: sp.Expr) -> list[IdentityClaim]:
    """``g(x) = x/2 + c x² + O(x³)``: the Taylor polynomial of degree 2 of ``g`` is ``x/2 + c x²``."""
    return [IdentityClaim(f"GELU(x) = x/2 + ({c}) x^2 + O(x^3): Taylor polynomial of degree 2",
                          lambda: taylor(g(x), x, 2) - (x / 2 + c * x**2), [x])]


def _check(identities: Callable[[], list[IdentityClaim]], variant: str, *more: str) -> SymbolicCheck:
    """A SymPy check of Taylor identities, with this package's notes."""
    return SymbolicCheck(identities, variant=variant, notes=notes(*more), method=TAYLOR_METHOD)


TANH = "GELU the tanh form of eq:gelu (as the section says it is implemented)"
EXACT = "GELU = x Φ(x) = (x/2)(1 + erf(x/√2)) (PyTorch's default)"
SIGNED = "O(x³ + y³) with its sign: |error| ≤ C |x³ + y³| near 0, a necessary condition on y = -x"
ABS = "O(x³ + y³) read as O(|x|³ + |y|³): the error is of third order at 0"
WHERE = where("Multiplication", "sec:ffnn_multiplication")
MAIN = "√(π/2)(GELU(x+y) - GELU(x) - GELU(y)) - xy"
DIFF = "GELU(x+y) - GELU(x) - GELU(y) - √(2/π) xy"


def _main(g: Gelu) -> Callable[[], sp.Expr]:
    return lambda: product_error(g)


def _diff(g: Gelu) -> Callable[[], sp.Expr]:
    return lambda: product_error(g, sp.Integer(1), sp.sqrt(2 / sp.pi))


CLAIMS = [
    Claim(id="sec:ffnn_multiplication", kind="section",
          statement="√(π/2)(GELU(x + y) - GELU(x) - GELU(y)) = xy + O(x³ + y³), GELU as in eq:gelu.",
          where=WHERE + ", first display",
          checks=[
              _check(lambda: third_order(_main(gelu_tanh), MAIN), "as-written", TANH, ABS),
              _check(lambda: signed(_main(gelu_tanh), MAIN), "signed", TANH, SIGNED),
              _check(lambda: third_order(_main(gelu_exact), MAIN), "exact-gelu", EXACT, ABS),
          ],
          default_max_size=1,
          readings={"as-written": as_written("the tanh GELU; O(x³ + y³) as O(|x|³ + |y|³), third order at 0"),
                    "signed": reading("O(x³ + y³) with the signed x³ + y³ (|error| ≤ C|x³ + y³|): "
                                      "more than the text means"),
                    "exact-gelu": reading("GELU = x Φ(x) (PyTorch's default), third order at 0")}),
    Claim(id="sec:ffnn_multiplication:series", kind="sentence",
          statement="GELU(x) = x/2 + √(2/π) x² + O(x³) (id ours).",
          where=WHERE + ", second display, first line (id ours)",
          checks=[
              _check(lambda: series(gelu_tanh, sp.sqrt(2 / sp.pi)), "as-written", TANH),
              _check(lambda: series(gelu_tanh, 1 / sp.sqrt(2 * sp.pi)), "repaired", TANH,
                     "the x² coefficient 1/√(2π) = (1/2)√(2/π), half the printed one"),
              _check(lambda: series(gelu_exact, sp.sqrt(2 / sp.pi)), "exact-gelu", EXACT,
                     "the printed coefficient √(2/π)"),
          ],
          default_max_size=1,
          readings={"as-written": as_written("the tanh GELU, x² coefficient √(2/π)"),
                    "repaired": repair("x² coefficient 1/√(2π) = (1/2)√(2/π)"),
                    "exact-gelu": reading("GELU = x Φ(x), the printed coefficient √(2/π)")}),
    Claim(id="sec:ffnn_multiplication:difference", kind="sentence",
          statement="GELU(x + y) - GELU(x) - GELU(y) = √(2/π) xy + O(x³ + y³) (id ours).",
          where=WHERE + ", second display, second line (id ours)",
          checks=[
              _check(lambda: third_order(_diff(gelu_tanh), DIFF), "as-written", TANH, ABS),
              _check(lambda: signed(_diff(gelu_tanh), DIFF), "signed", TANH, SIGNED),
          ],
          default_max_size=1,
          readings={"as-written": as_written("the tanh GELU; O(x³ + y³) as O(|x|³ + |y|³), third order at 0"),
                    "signed": reading("O(x³ + y³) with the signed x³ + y³ (|error| ≤ C|x³ + y³|): "
                                      "more than the text means")}),
]
