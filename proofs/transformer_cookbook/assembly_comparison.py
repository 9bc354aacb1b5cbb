r"""Chapter 8's "Comparison" (sec:assembly_comparison): comparing two counts with the clip function gtz.

Claimed (draft 582e0e1, ch. 8, § "Comparison"): with ``±1/(i+1)`` and ``±C_k(i)/(i+1)`` in the residual stream,
define ``gtz(X(i)) = min(0.5/(i+1), X(i)/(i+1) - 0.5/(i+1)) - min(0, X(i)/(i+1))``. Then

* (the claim) ``gtz(C_2(i) - C_1(i) + 0.5)`` is ``0.5/(i+1)`` if ``C_1(i) ≤ C_2(i)`` and ``-0.5/(i+1)`` otherwise;
* (the network) ``W_1`` computes ``0.5/(i+1)``, ``±(C_2 - C_1 + 0.5)/(i+1)`` and ``W_2`` computes
  ``0.5/(i+1) + ReLU(0.5/(i+1) - (C_2-C_1+0.5)/(i+1)) - ReLU(0.5/(i+1) - (C_2-C_1-0.5)/(i+1))``, "which equals
  ``gtz(C_2(i) - C_1(i))``";
* the result goes into dimensions ``2k_3 - 1, 2k_3``, where a Boolean is the pair ``(-1, 1)`` or ``(1, -1)``
  (the "Assumptions" line); the displayed ``f`` writes the same ``gtz(…)`` into both.

Position ``i`` is 0-based (``1/(i+1)``); the counts of a prefix of ``i + 1`` positions are ``0 ≤ C_k ≤ i + 1``.
**Completion (ours)**: the draft's ``W_1`` list lacks ``(C_2 - C_1 - 0.5)/(i+1)``, which ``W_2``'s second ReLU
reads; our ``W_1`` computes ``W_2``'s three ReLU arguments from the stream (they are linear in it), and the FFN is
run in exact rationals. The readings: the claim as printed (refuted where ``C_1 = C_2``: ``gtz(0.5) = 0``); the
network against ``gtz(C_2 - C_1)`` (holds); the network as a ``≤`` comparison (refuted: it computes ``<``); the
repair ``gtz(C_2 - C_1 + 1)``, and its network (hold); the output pair as a Boolean (refuted: ``f`` writes the
same value twice); a mutant ``gtz`` without its second ``min``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from symcot.claims import Claim, as_written, mutant, reading, repair
from symcot.inputs.family import Family

from .assembly_heads import noted

HALF = Fraction(1, 2)


def gtz(x: Fraction, i: int, second_min: bool = True) -> Fraction:
    """The draft's ``gtz(X(i)) = min(0.5/(i+1), X/(i+1) - 0.5/(i+1)) - min(0, X/(i+1))``."""
    p = Fraction(1, i + 1)
    return min(HALF * p, x * p - HALF * p) - (min(Fraction(0), x * p) if second_min else 0)


def stream(i: int, c1: int, c2: int) -> list[Fraction]:
    """The residual stream's six coordinates: ``-1/(i+1), 1/(i+1), -C_1/(i+1), C_1/(i+1), -C_2/(i+1), C_2/(i+1)``."""
    p = Fraction(1, i + 1)
    return [-p, p, -c1 * p, c1 * p, -c2 * p, c2 * p]


def _relu(v: Fraction) -> Fraction:
    return v if v > 0 else Fraction(0)


def ffn(offset: Fraction, v: Sequence[Fraction]) -> list[Fraction]:
    """The network computing ``gtz(D + o)``, ``D = C_2 - C_1`` read off the stream, ``p = 1/(i+1)``.

    Hidden units (our completion of ``W_1``): ``0.5p``, ``0.5p - (D + o + 0.5)p``, ``0.5p - (D + o - 0.5)p``; the
    output ``h_1 + h_2 - h_3`` goes into both result dimensions. ``offset`` ``o``: ``0`` is the draft's ``W_2``
    line (its ``C_2 - C_1 ± 0.5``), ``1`` the repair.
    """
    w1 = [[0, HALF, 0, 0, 0, 0],
          [0, -offset, 0, 1, 0, -1],
          [0, 1 - offset, 0, 1, 0, -1]]
    hidden = [_relu(sum((Fraction(w) * x for w, x in zip(row, v)), Fraction(0))) for row in w1]
    out = hidden[0] + hidden[1] - hidden[2]
    return [out, out]


def _triples(size: int) -> list[tuple[int, int, int]]:
    i = size - 1
    return [(i, c1, c2) for c1 in range(i + 2) for c2 in range(i + 2)]


TRIPLES = Family("every (i, C_1, C_2), i = n - 1, 0 ≤ C_k ≤ i + 1", lambda size: iter(_triples(size)),
                 lambda size: (size + 1) ** 2, describe=lambda t: {"text": f"i = {t[0]}, C_1 = {t[1]}, C_2 = {t[2]}"})


def expected(i: int, c1: int, c2: int, strict: bool = False) -> Fraction:
    """``±0.5/(i+1)``: ``+`` iff ``C_1 ≤ C_2`` (``C_1 < C_2`` when ``strict``)."""
    yes = c1 < c2 if strict else c1 <= c2
    return (HALF if yes else -HALF) / (i + 1)


def comparison_failure(variant: str, t: tuple[int, int, int]) -> dict[str, Any] | None:
    """Where ``variant`` fails at ``(i, C_1, C_2)`` (``None``: it holds there)."""
    i, c1, c2 = t
    d = Fraction(c2 - c1)
    if variant == "as-written":
        got, want = gtz(d + HALF, i), expected(i, c1, c2)
    elif variant == "network-is-gtz":
        got, want = ffn(Fraction(0), stream(i, c1, c2))[0], gtz(d, i)
    elif variant == "network-leq":
        got, want = ffn(Fraction(0), stream(i, c1, c2))[0], expected(i, c1, c2)
    elif variant == "shift-one":
        got, want = gtz(d + 1, i), expected(i, c1, c2)
    elif variant == "shift-one-network":
        got, want = ffn(Fraction(1), stream(i, c1, c2))[0], expected(i, c1, c2)
    elif variant == "boolean-pair":
        out = ffn(Fraction(1), stream(i, c1, c2))
        if out[0] != -out[1]:
            return {"i": i, "C_1": c1, "C_2": c2, "pair": [str(v) for v in out],
                    "why": "f writes the same value into both dimensions: not (-g, g)"}
        return None
    else:  # one-min: gtz without its second min
        got, want = gtz(d + HALF, i, second_min=False), expected(i, c1, c2)
    if got != want:
        return {"i": i, "C_1": c1, "C_2": c2, "got": str(got), "expected": str(want)}
    return None


AS_FORMULAS = ("gtz and the one FFN (W_1 completed by us, W_2 as printed) are evaluated in exact rationals on every "
               "(i, C_1, C_2): the FFN reads the residual stream ±1/(i+1), ±C_k/(i+1), which the draft leaves to "
               "earlier layers, so there is no string to run and no attention; its weights are "
               "in ffn of proofs/transformer_cookbook/assembly_comparison.py")

VARIANTS = ("as-written", "network-is-gtz", "network-leq", "shift-one", "shift-one-network", "boolean-pair",
            "one-min")

COMPARISON = Claim(
    id="sec:assembly_comparison", kind="section",
    statement="gtz(C_2(i) - C_1(i) + 0.5) = 0.5/(i+1) if C_1(i) ≤ C_2(i), else -0.5/(i+1), where gtz(X) = "
              "min(0.5/(i+1), X/(i+1) - 0.5/(i+1)) - min(0, X/(i+1)); an FFN computes it from ±1/(i+1), ±C_k/(i+1).",
    where="draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 8, § \"Comparison\" (sec:assembly_comparison)",
    checks=[noted(v, [TRIPLES], (lambda v_: lambda t: comparison_failure(v_, t))(v),
                   method="exhaustive enumeration, exact rationals", as_formulas=AS_FORMULAS) for v in VARIANTS],
    default_max_size=6,
    readings={
        "as-written": as_written("gtz as defined, at X = C_2 - C_1 + 0.5, against ±0.5/(i+1) by C_1 ≤ C_2; every "
                                 "0 ≤ C_k ≤ i + 1"),
        "network-is-gtz": reading("the network (W_2's line; W_1 completed by us) against gtz(C_2 - C_1), as the "
                                  "draft says"),
        "network-leq": reading("the same network as the comparison C_1 ≤ C_2: it computes C_1 < C_2"),
        "shift-one": repair("gtz(C_2 - C_1 + 1) decides C_1 ≤ C_2 (the offset 1, not 0.5)"),
        "shift-one-network": repair("the network with W_2's offsets moved by 1 (0.5p + ReLU(-(D+1)p) - ReLU(-D p)) "
                                    "decides C_1 ≤ C_2"),
        "boolean-pair": reading("the result dimensions 2k_3 - 1, 2k_3 hold a Boolean (-g, g) (the Assumptions "
                                "line); f writes gtz into both"),
        "one-min": mutant("gtz without its second min, - min(0, X/(i+1)): expected to fail"),
    },
)

CLAIMS = [COMPARISON]
