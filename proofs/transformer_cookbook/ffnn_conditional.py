r"""sec:ffnn_conditional -- the ternary ``if p then φ else ψ`` by two ReLU units per coordinate.

Claimed (draft 582e0e1, ch. 3): for a mask ``p ∈ {0, 1}`` and options ``φ, ψ`` with values in ``[0, 1]``, the
units ``h_1 = ReLU(-p1 + φ)`` and ``h_2 = ReLU(p1 - 1 + ψ)`` (``1`` a vector of ones) give ``h_1 + h_2 =
(φ if p else ψ)``, adapted from Pérez et al. (Lemma 11) and Merrill & Sabharwal (Theorem 1). Weights:
:func:`.recipes.conditional`. ``φ, ψ ∈ ℝ^d`` (the draft's ``p1`` makes them vectors), ``p`` a scalar gate (both
values enumerated); the output is the FFN's own (the section adds no residual). Every row is local, so each
variant is decided for every ``d`` by the index-function encoding.

Variants:

- ``as-written``: the printed units, ``φ, ψ ∈ [0, 1]^d``. Refuted: with ``p = 1``, ``h_1 = ReLU(φ - 1) = 0`` and
  ``h_2 = ReLU(ψ) = ψ``, so the network returns ``ψ`` when ``p`` holds (and ``φ`` when it does not).
- ``swapped-branches``: the printed units against the exchanged target ``(ψ if p else φ)``: what they do compute.
- ``repaired``: the gates exchanged, ``h_1 = ReLU(p1 - 1 + φ)``, ``h_2 = ReLU(-p1 + ψ)``, ``φ, ψ ∈ [0, 1]^d``.
- ``header-domain``: the repaired units on ``φ, ψ ∈ ℝ^d`` (the header ``{0,1} × ℝ × ℝ → ℝ``). Refuted; no ReLU
  FFN can do this on all of ℝ (an FFN is Lipschitz, but the outputs at ``p = 1`` and ``p = 0`` differ by
  ``|φ - ψ|``, unbounded, while the inputs differ by 1), so the text's ``[0, 1]`` assumption is needed.
"""

from __future__ import annotations

from symcot.claims import Claim, as_written, reading, repair
from symcot.ir import Layout
from symcot.lemmas import Gate, Lemma, LemmaCheck, each
from symcot.lemmas.gadget_lemma import gadget_maps

from .recipes import conditional, d, notes, where

LAYOUT = Layout("cond.in", [("p", 1), ("phi", d), ("psi", d)])
GATE = (Gate("p", (0, 1), "p ∈ {0, 1}"),)
UNIT = (each("0 ≤ φ_i", "phi", lambda v, K: v >= 0), each("φ_i ≤ 1", "phi", lambda v, K: v <= 1),
        each("0 ≤ ψ_i", "psi", lambda v, K: v >= 0), each("ψ_i ≤ 1", "psi", lambda v, K: v <= 1))
TARGET = {"out": lambda x, i, K: K.ite(x.p() == 1, x.phi(i), x.psi(i))}
SWAPPED = {"out": lambda x, i, K: K.ite(x.p() == 1, x.psi(i), x.phi(i))}


def _lemma(printed: bool, target: dict, hyps: tuple) -> Lemma:
    v = LAYOUT.vars()
    w1, w2 = gadget_maps(conditional(v.p, v.phi, v.psi, printed=printed), LAYOUT, "cond")
    return Lemma("sec:ffnn_conditional", LAYOUT, w2, dict(target), w1=w1, gates=GATE, hyps=hyps, dims={d: 1})


def as_printed() -> Lemma:
    """The printed units, ``φ, ψ ∈ [0, 1]^d``, target ``φ if p else ψ``."""
    return _lemma(True, TARGET, UNIT)


def swapped() -> Lemma:
    """The printed units against ``ψ if p else φ``."""
    return _lemma(True, SWAPPED, UNIT)


def repaired() -> Lemma:
    """The gates exchanged, ``φ, ψ ∈ [0, 1]^d``."""
    return _lemma(False, TARGET, UNIT)


def header_domain() -> Lemma:
    """The repaired units on ``φ, ψ ∈ ℝ^d``."""
    return _lemma(False, TARGET, ())


ALL_D = "every d (symbolic d); p ∈ {0, 1} enumerated"

CLAIM = Claim(
    id="sec:ffnn_conditional", kind="section",
    statement="For p ∈ {0,1} and φ, ψ ∈ [0,1]^d, h_1 = ReLU(-p1 + φ), h_2 = ReLU(p1 - 1 + ψ) give h_1 + h_2 = "
              "(φ if p else ψ).",
    where=where("Conditionals", "sec:ffnn_conditional"),
    checks=[
        LemmaCheck(as_printed, notes=notes(ALL_D, "with p = 1 the printed units return ψ, with p = 0 they return φ: "
                                                  "the two branches are exchanged")),
        LemmaCheck(swapped, variant="swapped-branches", notes=notes(ALL_D, "the printed units compute ψ if p else φ")),
        LemmaCheck(repaired, variant="repaired",
                   notes=notes(ALL_D, "h_1 = ReLU(p1 - 1 + φ), h_2 = ReLU(-p1 + ψ): the gates of the printed units "
                                      "exchanged")),
        LemmaCheck(header_domain, variant="header-domain",
                   notes=notes(ALL_D, "no ReLU FFN computes the conditional on all of ℝ (it is Lipschitz; the outputs "
                                      "at p = 1 and p = 0 differ by |φ - ψ|): the [0, 1] assumption is needed")),
    ],
    default_max_size=6,
    readings={
        "as-written": as_written("the printed units, p ∈ {0,1}, φ, ψ ∈ [0,1]^d (the text's assumption), any d"),
        "swapped-branches": reading("the printed units read against ψ if p else φ (p = 1 masking φ out)"),
        "repaired": repair("exchange the gates: h_1 = ReLU(p1 - 1 + φ), h_2 = ReLU(-p1 + ψ)"),
        "header-domain": reading("the repaired units on φ, ψ ∈ ℝ^d, as the header {0,1} × ℝ × ℝ → ℝ says"),
    },
)
