r"""Chapter 5's sinusoidal and rotary encodings: the formulas the draft gives, checked for what it says of them.

Claimed (draft 582e0e1, ch. 5; no labels, ids ours):

* ch5:sinusoidal (§ "Sinusoidal Positional Encoding"): "For embedding dimension ``1 ≤ i ≤ d`` and position
  ``p``, let ``PE(p, 2i) = sin(p/M^{2i/d})``, ``PE(p, 2i+1) = cos(p/M^{2i/d})``". The formula is meant to
  give the ``d`` coordinates of one encoding; as written, ``i`` runs to ``d``, so it writes coordinates
  ``2..2d+1``. The check compares, for each ``d``, the coordinates the formula writes with the ``d``
  coordinates of an embedding (``0..d-1`` or ``1..d``). The reading ``half-range`` (Vaswani et al.'s
  ``0 ≤ i < d/2``, ``d`` even) writes exactly ``0..d-1``.
* ch5:rope (§ "Rotary Positional Encoding"): ``RoPE(x, p)`` applies ``R_{p,k}``, the rotation by ``pθ_k``,
  to each coordinate pair ``k``, and "the relative position of tokens uniquely determines the relative angle of
  their embedding rotations". As written: per pair, ``R(pθ)ᵀ R(p'θ) = R((p' - p)θ)`` for all real ``p``,
  ``p'`` and ``θ`` (SymPy). RoPE is block diagonal, so ``RoPE(q, p) · RoPE(k, p') = q · RoPE(k, p' - p)`` for
  every ``d``, every ``M`` and all vectors. Reading ``unique``: offsets ``δ ≠ δ'`` give different rotations
  (pair 1 has ``θ_1 = M⁰ = 1``, and ``sin((δ' - δ)/2)`` is certainly not 0: arb balls), for ``|δ|, |δ'| < N``.
  Mutant ``key-transposed`` (the key rotated by ``R(p'θ)ᵀ``, a sign slip): the score of ``q = k = e_1`` then
  depends on ``p + p'``; it is refuted by two pairs with the same offset whose scores the balls separate.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy as sp

from symcot.claims import Claim, PropertyCheck, as_written, mutant, reading
from symcot.inputs.family import Family
from symcot.lemmas.facts import IdentityClaim, SymbolicCheck
from symcot.model.interval import compare, cos, show, sin

SUBJECT_NOTE = ("subject: draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, chapter 5 (positional encodings); "
                "a finding is about this draft only")


def _where(section: str) -> str:
    return f"draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 5, § \"{section}\" (no label; id ours)"


# -- sinusoidal: which coordinates the formula writes ----------------------------------------------------------

def written_as_printed(d: int) -> list[int]:
    """The coordinates ``2i, 2i + 1`` for ``1 ≤ i ≤ d`` (the draft's range)."""
    return sorted(c for i in range(1, d + 1) for c in (2 * i, 2 * i + 1))


def written_half_range(d: int) -> list[int]:
    """The coordinates ``2i, 2i + 1`` for ``0 ≤ i < d/2`` (Vaswani et al.'s range, ``d`` even)."""
    return sorted(c for i in range(d // 2) for c in (2 * i, 2 * i + 1))


def _coordinates(written: Any) -> Any:
    def per_input(d: int) -> dict[str, Any] | None:
        got = written(d)
        if got in (list(range(d)), list(range(1, d + 1))):
            return None
        return {"kind": "coordinates", "got": got, "expected": f"0..{d - 1} or 1..{d}"}

    return per_input


def _widths(even: bool) -> Family:
    return Family("every even width d" if even else "every width d", lambda d: iter([d] if not even or d % 2 == 0
                                                                                   else []),
                  lambda d: 1 if not even or d % 2 == 0 else 0,
                  describe=lambda d: {"d": d, "text": f"d = {d}"})


SINUSOIDAL = Claim(
    id="ch5:sinusoidal", kind="section",
    statement="PE(p, 2i) = sin(p/M^{2i/d}), PE(p, 2i+1) = cos(p/M^{2i/d}) for 1 ≤ i ≤ d gives the d coordinates of "
              "position p's encoding.",
    where=_where("Sinusoidal Positional Encoding"),
    checks=[PropertyCheck("as-written", [_widths(False)], _coordinates(written_as_printed),
                          method="the coordinates the formula writes, every width d"),
            PropertyCheck("half-range", [_widths(True)], _coordinates(written_half_range),
                          method="the coordinates the formula writes, every even width d")],
    default_max_size=12,
    readings={"as-written": as_written("1 ≤ i ≤ d: the coordinates 2i and 2i + 1 against those of a d-dimensional "
                                       "embedding"),
              "half-range": reading("0 ≤ i < d/2 (Vaswani et al.), d even")},
)


# -- RoPE: the score depends on the offset only, and the offset determines the rotation ------------------------

p, q, theta = sp.symbols("p p_prime theta", real=True)


def _rotation(a: Any) -> sp.Matrix:
    return sp.Matrix([[sp.cos(a), -sp.sin(a)], [sp.sin(a), sp.cos(a)]])


def _relative() -> list[IdentityClaim]:
    return [IdentityClaim("R(pθ)ᵀ R(p'θ) = R((p' - p)θ): one pair of RoPE's block-diagonal rotation",
                          lambda: _rotation(p * theta).T * _rotation(q * theta) - _rotation((q - p) * theta),
                          [p, q, theta])]


def _offset_pairs(n: int) -> Iterator[tuple[int, int]]:
    """Offsets ``δ < δ'`` with ``|δ'| = n - 1`` and ``|δ| ≤ n - 1`` (those new at size ``n``)."""
    top = n - 1
    for a, b in itertools.combinations(range(-top, top + 1), 2):
        if max(abs(a), abs(b)) == top:
            yield (a, b)


OFFSETS = Family("offset pairs δ < δ', |δ|, |δ'| < N", _offset_pairs, lambda n: 4 * n - 5 if n > 1 else 0,
                 describe=lambda ab: {"text": f"δ = {ab[0]}, δ' = {ab[1]}"})


def distinct_rotations(theta: Any) -> Any:
    """``R(δθ) ≠ R(δ'θ)``: ``sin((δ' - δ)θ/2)`` is certainly nonzero (raises when undecided); RoPE's ``θ_1 = 1``."""

    def per_input(ab: tuple[int, int]) -> dict[str, Any] | None:
        a, b = ab
        s = sin(Fraction(b - a) * theta / 2)
        if compare(s, 0, f"sin(({b} - {a})θ/2)") != 0:
            return None
        return {"kind": "rotation", "got": "the same rotation", "expected": "different rotations"}

    return per_input


def _score(rotate_key: int) -> Any:
    """``q = k = e_1`` in pair 1 (``θ_1 = 1``): ``R(p)e_1 · R(±p')e_1 = cos(p ∓ p')``."""
    return lambda pp, pq: cos(pp - rotate_key * pq)


def _same_offset_same_score(rotate_key: int) -> Any:
    score = _score(rotate_key)

    def per_input(pos: tuple[int, int]) -> dict[str, Any] | None:
        """Positions ``(p, p + δ)`` against ``(0, δ)``: the scores must be the same (a difference is decided)."""
        pp, delta = pos
        a, b = score(pp, pp + delta), score(0, delta)
        if compare(a - b, 0, "two scores at the same offset") == 0:
            return None
        return {"kind": "score", "got": show(a), "expected": show(b), "offset": delta}

    return per_input


def _positions(n: int) -> Iterator[tuple[int, int]]:
    """``(p, δ)`` with ``1 ≤ p < n`` and ``0 ≤ δ < n``, new at size ``n``."""
    for pp in range(1, n):
        for delta in range(n):
            if max(pp + 1, delta + 1) == n:
                yield (pp, delta)


POSITION_PAIRS = Family("positions p ≥ 1 and offsets δ ≥ 0 below N", _positions,
                        lambda n: 2 * n - 2 if n > 1 else 0,
                        describe=lambda pd: {"text": f"p = {pd[0]}, p' = {pd[0] + pd[1]} against p = 0, p' = {pd[1]}"})


ROPE = Claim(
    id="ch5:rope", kind="section",
    statement="RoPE(x, p) rotates each coordinate pair k by pθ_k; the relative position of two tokens uniquely "
              "determines the relative angle of their rotations.",
    where=_where("Rotary Positional Encoding"),
    checks=[SymbolicCheck(_relative, variant="as-written", notes=[SUBJECT_NOTE],
                          method="SymPy: R(pθ)ᵀR(p'θ) − R((p'−p)θ) simplifies to 0 (all real p, p', θ)"),
            PropertyCheck("unique", [OFFSETS], distinct_rotations(1),
                          method="certified balls: sin((δ' − δ)/2) ≠ 0, every pair of offsets"),
            PropertyCheck("key-transposed", [POSITION_PAIRS], _same_offset_same_score(-1),
                          method="certified balls: the scores of two position pairs at one offset differ")],
    default_max_size=12,
    readings={"as-written": as_written("the score depends on p' − p only: the rotation identity, per pair, for "
                                       "every real p, p', θ (so every d, every M)"),
              "unique": reading("different offsets give different rotations (θ_1 = 1), |δ|, |δ'| < N"),
              "key-transposed": mutant("the key rotated by R(p'θ)ᵀ (a sign slip): the score depends on p + p', "
                                       "expected to fail", expect="refuted")},
)

CLAIMS = [SINUSOIDAL, ROPE]
