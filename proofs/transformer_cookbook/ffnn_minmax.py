r"""sec:ffnn_minmax -- min and max of two reals by an FFN (the two diagrams of § "Min and Max").

Claimed (draft 582e0e1, ch. 3): ``min(x, y) = x - ReLU(x - y)`` and ``max(x, y) = x + ReLU(y - x)``, "therefore
there exist FFNs to compute the min or max of two real numbers"; the diagrams draw them: units ``ReLU(x)``,
``ReLU(-x)`` (the copy of ``x``) and ``ReLU(x - y)`` with output weights ``1, -1, -1`` (min), ``ReLU(-x + y)``
with ``1, -1, 1`` (max). The weights are :func:`.recipes.minimum` and :func:`.recipes.maximum`; the lemma runs
both diagrams side by side (one FFN, the units ``ReLU(±x)`` shared, outputs ``min`` and ``max``).

Domain: ``x, y`` real, as the section's header ``ℝ × ℝ → ℝ`` states; the outputs are new scalars (no residual:
the diagrams draw the networks alone). No dimension: the claim is about two scalars.
"""

from __future__ import annotations

from symcot.claims import Claim, as_written
from symcot.gadgets.base import hidden_units, merge_units
from symcot.ir import Layout, Map
from symcot.lemmas import Lemma, LemmaCheck

from .recipes import maximum, minimum, notes, where

LAYOUT = Layout("minmax.in", [("x", 1), ("y", 1)])
TARGET = {"min": lambda x, i, K: K.min(x.x(), x.y()), "max": lambda x, i, K: K.max(x.x(), x.y())}


def lemma() -> Lemma:
    """Both diagrams on ``[x ‖ y]``: outputs ``min(x, y)`` and ``max(x, y)`` for every real ``x, y``."""
    v = LAYOUT.vars()
    lo = minimum(v.x, v.y, units={"diff": "diff_min"})
    hi = maximum(v.x, v.y, units={"diff": "diff_max"})
    hid = Layout("minmax.hidden", hidden_units(lo, hi))
    w1 = Map("W_1", LAYOUT, hid, merge_units(lo, hi), max_degree=1, doc="the two diagrams' first layers")
    h = hid.vars()
    out = Layout("minmax.out", [("min", 1), ("max", 1)])
    w2 = Map("W_2", hid, out, {**lo.w2(h), **hi.w2(h)}, max_degree=1, doc="output weights 1,-1,-1 and 1,-1,1")
    return Lemma("sec:ffnn_minmax", LAYOUT, w2, dict(TARGET), w1=w1)


CLAIM = Claim(
    id="sec:ffnn_minmax", kind="section",
    statement="The FFNs ReLU(x) - ReLU(-x) - ReLU(x - y) and ReLU(x) - ReLU(-x) + ReLU(-x + y) compute min(x, y) "
              "and max(x, y) for all real x, y.",
    where=where("Min and Max", "sec:ffnn_minmax", "the formulas and the two diagrams"),
    checks=[LemmaCheck(lemma, notes=notes("no dimension: two real scalars"))],
    default_max_size=1,
    readings={"as-written": as_written("x, y ∈ ℝ (the header ℝ × ℝ → ℝ); each diagram's network alone, no residual")},
)
