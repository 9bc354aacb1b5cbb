r"""Chapter 4's predecessor recipe (periodic position vectors, Barceló et al.), as encoders.

Claimed (draft 582e0e1, ch. 4, § "Predecessor", badges UHAT, AHAT; no label, id ``ch4:predecessor`` ours):
with ``v_i = (cos θ_i, sin θ_i, (-1)^i·10)``, ``θ_i = π(1 - 2^{-i})/10`` (eq:maximising-attention) and ``A``
the map that negates the third coordinate, the score ``A v_i · v_j`` is maximised at the neighbour -- the
section is titled "Predecessor", its text says ``j = i + 1``.

The model: symbols ``a, b`` are the values ``1, 2`` (into ``val`` by the head); ``v_i`` is a concatenated
positional encoding (certified balls); ``q_i = A v_i``, ``k_j = v_j``. Under the chapter's definition (no
mask) ``A v_i · v_j`` is largest at ``j = i + 1``, not ``i - 1``: the as-written predecessor reading fails
(position 0, which has none, attends to 1; at ``n = 3`` position 1 attends to 2). Repaired: a strict causal
mask (``j < i``), under which each ``i ≥ 1`` attends to ``i - 1`` and position 0 to nothing (output 0). The
text's own ``j = i + 1`` holds under the mirror mask ``j > i`` (the ``successor`` reading).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy as sp

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.claims import Claim, PropertyCheck, as_written, reading, repair
from symcot.inputs.family import Family
from symcot.inputs.strings import strings_family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import AHAT, UHAT, AttentionKind, HeadRule, ModelDescription, Positional
from symcot.model.interval import cos, pi, sin

from .attention import SUBJECT_NOTE

L = Layout("ch4.pred", [("x", 1), ("val", 1), ("c", 1), ("s", 1), ("t", 1)])
K3 = Layout("ch4.pred.key", [("k1", 1), ("k2", 1), ("k3", 1)])
VALUES = {"a": 1, "b": 2}


def theta(i: int) -> Any:
    """``π(1 - 2^{-i})/10`` (a certified ball)."""
    return pi() * (1 - Fraction(1, 2**i)) / 10


def v(i: int, n: int) -> list[Any]:
    """eq:maximising-attention: ``(cos θ_i, sin θ_i, (-1)^i·10)``."""
    return [cos(theta(i)), sin(theta(i)), (-1) ** i * 10]


POSITIONS = Positional(v, 3, "concat", "v_i = (cos θ_i, sin θ_i, (-1)^i 10)")
#: variant -> (mask, attention kind, the position each query should attend to, or None for none).
VARIANTS: dict[str, tuple[str, AttentionKind, int]] = {
    "as-written": ("none", UHAT(), -1), "AHAT": ("none", AHAT(), -1),
    "causal-UHAT": ("strict-future", UHAT(), -1), "causal-AHAT": ("strict-future", AHAT(), -1),
    "successor": ("strict-past", UHAT(), 1)}


def predecessor_decoder(mask: str, kind: AttentionKind) -> Decoder:
    """``q_i = A v_i`` (third coordinate negated), ``k_j = v_j``, value ``x_j`` into ``val``; residuals."""
    x = L.vars()
    head = Head("p", Map("Q", L, K3, {"k1": x.c, "k2": x.s, "k3": -x.t}), Map("K", L, K3, {"k1": x.c, "k2": x.s,
                                                                                          "k3": x.t}),
                Map("V", L, L, {"val": x.x}, zero=["x", "c", "s", "t"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, L, {"val": vs.vars()["p.val"]}, zero=["x", "c", "s", "t"])
    ffn = FFN(Map("W_1", L, L, zero=list(L.names)), Map("W_2", L, L, zero=list(L.names)))
    desc = ModelDescription(f"ch4 predecessor ({kind.label()}, mask {mask})", direction="encoder",
                            head=HeadRule(mask, kind), residual="both", positional=POSITIONS)
    return Decoder("predecessor", L, [Layer(Attention([head], w_o), ffn)], desc)


def _embed(symbol: str, i: int, n: int) -> list[int]:
    return [VALUES[symbol], 0]


def _target(i: int, n: int, step: int) -> list[int]:
    return [i + step] if 0 <= i + step < n else []


def _check(variant: str) -> EncoderCheck:
    mask, kind, step = VARIANTS[variant]

    def construction() -> EncoderConstruction:
        return EncoderConstruction(variant, predecessor_decoder(mask, kind), _embed, Readout("val"),
                                   notes=[SUBJECT_NOTE])

    def reference(s: tuple[str, ...]) -> list[int]:
        return [sum(VALUES[s[j]] for j in _target(i, len(s), step)) for i in range(len(s))]

    return EncoderCheck(construction, reference, [strings_family("ab")],
                        attends=lambda s, layer, head, i: _target(i, len(s), step))


PREDECESSOR = Claim(
    id="ch4:predecessor", kind="section",
    statement="With v_i = (cos θ_i, sin θ_i, (-1)^i 10), θ_i = π(1 - 2^{-i})/10, and A negating the third "
              "coordinate, the score A v_i · v_j makes position i attend to its predecessor i - 1 (UHAT, AHAT).",
    where="draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 4, § \"Predecessor\" (no label; id ours)",
    checks=[_check(name) for name in VARIANTS],
    default_max_size=5,
    readings={"as-written": as_written("UHAT, no mask (the chapter's definition): i ≥ 1 attends to i - 1, position "
                                       "0 (no predecessor) to nothing"),
              "AHAT": reading("the AHAT badge, no mask"),
              "causal-UHAT": repair("a strict causal mask (j < i), UHAT"),
              "causal-AHAT": repair("a strict causal mask (j < i), AHAT"),
              "successor": reading("the text's j = i + 1 under the mask j > i (UHAT): the successor")},
)



# -- the displayed identity A v_i · v_j = cos(π(2^{-i} - 2^{-j})/10) + (-1)^{i+j+1}·10 ----------------------
@functools.cache
def angle_difference_identity() -> bool:
    """``cos a cos b + sin a sin b = cos(a - b)`` for real ``a, b`` (SymPy, symbolically)."""
    a, b = sp.symbols("a b", real=True)
    return bool(sp.simplify(sp.cos(a) * sp.cos(b) + sp.sin(a) * sp.sin(b) - sp.cos(a - b)) == 0)


def _pairs(size: int) -> Iterator[tuple[int, int]]:
    m = size - 1
    return iter([(i, m) for i in range(m + 1)] + [(m, j) for j in range(m)])


PAIRS = Family("every (i, j) with max(i, j) = n - 1", _pairs, lambda size: 2 * size - 1,
               describe=lambda p: {"i": p[0], "j": p[1], "text": f"i = {p[0]}, j = {p[1]}"})


def identity_failure(coefficient: int, pair: tuple[int, int]) -> dict[str, Any] | None:
    """Where ``A v_i · v_j`` differs from ``cos(π(2^{-i} - 2^{-j})/10) + (-1)^{i+j+1}·coefficient``.

    The first two coordinates give ``cos θ_i cos θ_j + sin θ_i sin θ_j = cos(θ_i - θ_j)`` (the identity, by
    SymPy) and ``θ_i - θ_j = ±π(2^{-i} - 2^{-j})/10`` exactly (cos is even); the third gives
    ``-((-1)^i 10)((-1)^j 10)`` against the stated integer, exactly.
    """
    i, j = pair
    if not angle_difference_identity():
        return {"kind": "the angle-difference identity did not simplify to 0"}
    diff = (1 - Fraction(1, 2**i)) / 10 - (1 - Fraction(1, 2**j)) / 10  # (θ_i - θ_j)/π
    stated_angle = (Fraction(1, 2**i) - Fraction(1, 2**j)) / 10
    if abs(diff) != abs(stated_angle):
        return {"kind": "angle", "difference/π": str(diff), "stated/π": str(stated_angle)}
    third = -((-1) ** i * 10) * ((-1) ** j * 10)
    stated = (-1) ** (i + j + 1) * coefficient
    if third != stated:
        cos_part = f"cos({stated_angle}π)"
        return {"kind": "value", "actual": f"{cos_part} + {third}", "stated": f"{cos_part} + {stated}"}
    return None


def _identity_check(variant: str, coefficient: int) -> PropertyCheck:
    return PropertyCheck(variant, [PAIRS], functools.partial(identity_failure, coefficient),
                         method="angle difference by SymPy (symbolic), angles and third coordinate exact per (i, j)")


MAXIMISING = Claim(
    id="eq:maximising-attention", kind="equation",
    statement="A v_i · v_j = cos(π(2^{-i} - 2^{-j})/10) + (-1)^{i+j+1}·10, for v_i of eq:maximising-attention and A "
              "negating the third coordinate.",
    where="draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 4, § \"Predecessor\" (eq:maximising-attention)",
    checks=[_identity_check("as-written", 10), _identity_check("times-100", 100)],
    default_max_size=8,
    readings={"as-written": as_written("the displayed second line, every 0 ≤ i, j < n"),
              "times-100": repair("the third coordinates multiply to (-1)^{i+j+1}·100 (10·10), not ·10")},
)

CLAIMS = [PREDECESSOR, MAXIMISING]
