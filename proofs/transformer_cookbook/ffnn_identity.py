r"""sec:ffnn_identity -- the identity function: a zero FFN behind the residual connection.

Claimed (draft 582e0e1, ch. 3): "zero out the FFNN itself and let the residual connection do all the work",
``W_1 = W_2 = 0``, ``b_1 = b_2 = 0``. Read as: for every ``d`` and every ``x ∈ ℝ^d``, ``x + f(x) = x``. The
weights are :func:`.recipes.identity` (``d_ff = d``: the draft leaves the hidden width open, and a zero layer
computes 0 at any width).

Every row is local (zero maps), so the lemma is proved for every ``d`` by the index-function encoding, besides
the concrete sweep ``d = 1..max_size``.
"""

from __future__ import annotations

from symcot.claims import Claim, as_written
from symcot.ir import Layout
from symcot.lemmas import Lemma, LemmaCheck
from symcot.lemmas.gadget_lemma import gadget_maps

from .recipes import d, identity, notes, through_residual, where

LAYOUT = Layout("identity.in", [("x", d)])
TARGET = {"x": through_residual("x", lambda x, i, K: x.x(i))}


def lemma() -> Lemma:
    """``x + f(x) = x`` for the zero FFN on ``ℝ^d``, every ``d ≥ 1``."""
    w1, w2 = gadget_maps(identity(LAYOUT.vars().x), LAYOUT, "identity")
    return Lemma("sec:ffnn_identity", LAYOUT, w2, dict(TARGET), w1=w1, dims={d: 1})


CLAIM = Claim(
    id="sec:ffnn_identity", kind="section",
    statement="With W_1 = W_2 = 0 and b_1 = b_2 = 0, the FFN plus its residual connection is the identity on ℝ^d.",
    where=where("Identity Function", "sec:ffnn_identity"),
    checks=[LemmaCheck(lemma, notes=notes("x ∈ ℝ^d for every d (symbolic d); the residual connection included"))],
    default_max_size=8,
    readings={"as-written": as_written("x ∈ ℝ^d, every d; the stream after the residual, x + f(x), must equal x")},
)
