r"""sec:ffnn_addition -- add coordinate ``d1`` and coordinate ``d2`` into coordinate ``d3`` of the stream.

Claimed (draft 582e0e1, ch. 3): for activations in ``ℝ^d``, an FFN with ``W_1 : ℝ^d → ℝ^4`` (rows ``e_{d1}``,
``-e_{d1}``, ``e_{d2}``, ``-e_{d2}``) and ``W_2 : ℝ^4 → ℝ^d`` (row ``d3`` = ``[1, -1, 1, -1]``, every other row 0)
adds the values of ``d1`` and ``d2`` into ``d3``, "assuming d3 originally held 0's, or we can cancel the
residual connection as described in sec:ffnn_cancel_residual". Weights: :func:`.recipes.addition` (biases 0;
the draft gives none). The draft prints the second matrix under the name ``W_1``; its shape (rows ``d1 … d3``,
columns ``1 … 4``) and the sentence before it make it ``W_2``, which is how it is read here.

The stream is ``x = [x_{d1} ‖ x_{d2} ‖ x_{d3} ‖ rest]`` with ``rest ∈ ℝ^{d-3}``: the three coordinates are put
first, which loses nothing (a permutation of coordinates commutes with the FFN) and keeps every row local, so
each variant is decided for every ``d ≥ 3`` by the index-function encoding. Targets are the stream after the
residual connection; "add into d3" is read as ``d3 ← x_{d1} + x_{d2}`` with every other coordinate kept.

Variants:

- ``as-written``: the residual connection present and ``x_{d3} = 0`` (the draft's assumption).
- ``d3-nonzero``: the same network without that assumption (any ``x_{d3}``): the residual adds ``x_{d3}``.
- ``cancel-residual``: the draft's alternative taken as printed: sec:ffnn_cancel_residual applied to the whole
  stream (``W_1' = [W_1; I; -I]``, ``W_2' = [W_2, -I, I]`` with ``I = I_d``), any ``x_{d3}``. Then
  ``x + f'(x) = f(x)``, which is ``0`` outside ``d3``: the other coordinates are erased.
- ``cancel-d3-only`` (repair of that alternative): cancel the residual at ``d3`` only (the units
  ``ReLU(±x_{d3})``, output ``-ReLU(x_{d3}) + ReLU(-x_{d3})`` at ``d3``), any ``x_{d3}``.
"""

from __future__ import annotations

from symcot.claims import Claim, as_written, reading, repair
from symcot.gadgets.base import Gadget
from symcot.ir import Expr, Layout
from symcot.lemmas import Hyp, Lemma, LemmaCheck, each
from symcot.lemmas.gadget_lemma import gadget_maps

from .recipes import addition, cancel_residual, d, notes, through_residual, where

LAYOUT = Layout("addition.in", [("d1", 1), ("d2", 1), ("d3", 1), ("rest", d - 3)])
TARGET = {
    "d1": through_residual("d1", lambda x, i, K: x.d1()),
    "d2": through_residual("d2", lambda x, i, K: x.d2()),
    "d3": through_residual("d3", lambda x, i, K: x.d1() + x.d2()),
    "rest": through_residual("rest", lambda x, i, K: x.rest(i)),
}
D3_ZERO = each("x_{d3} = 0", "d3", lambda v, K: v == 0)


def _stream() -> dict[str, Expr]:
    v = LAYOUT.vars()
    return {b: v[b] for b in LAYOUT.names}


def _lemma(g: Gadget, hyps: tuple[Hyp, ...] = ()) -> Lemma:
    w1, w2 = gadget_maps(g, LAYOUT, "addition")
    return Lemma("sec:ffnn_addition", LAYOUT, w2, dict(TARGET), w1=w1, hyps=hyps, dims={d: 3})


def as_printed() -> Lemma:
    """The printed network with the residual connection, ``x_{d3} = 0`` assumed; every ``d ≥ 3``."""
    return _lemma(addition(_stream()), (D3_ZERO,))


def d3_nonzero() -> Lemma:
    """The printed network with the residual connection, any ``x_{d3}``."""
    return _lemma(addition(_stream()))


def cancel_all() -> Lemma:
    """sec:ffnn_cancel_residual applied to every coordinate of the stream, any ``x_{d3}``."""
    s = _stream()
    return _lemma(cancel_residual(addition(s), s))


def cancel_d3() -> Lemma:
    """The residual cancelled at ``d3`` only, any ``x_{d3}``."""
    s = _stream()
    return _lemma(cancel_residual(addition(s), {"d3": s["d3"]}))


EXPECTED = "the reported expected/got are the FFN's output f(x) (the stream after the residual minus x)"

CLAIM = Claim(
    id="sec:ffnn_addition", kind="section",
    statement="W_1 rows e_d1, -e_d1, e_d2, -e_d2 and W_2 row d3 = [1, -1, 1, -1] add x_d1 + x_d2 into d3 "
              "(d3 holding 0, or the residual cancelled), the other coordinates kept.",
    where=where("Addition and Subtraction", "sec:ffnn_addition"),
    checks=[
        LemmaCheck(as_printed, notes=notes("every d ≥ 3 (symbolic d); residual included; x_{d3} = 0 assumed",
                                           EXPECTED)),
        LemmaCheck(d3_nonzero, variant="d3-nonzero",
                   notes=notes("the assumption x_{d3} = 0 dropped: the residual adds x_{d3} to the sum", EXPECTED)),
        LemmaCheck(cancel_all, variant="cancel-residual",
                   notes=notes("sec:ffnn_cancel_residual on all of ℝ^d, as printed: x + f'(x) = f(x) is 0 outside d3, "
                               "so x_{d1}, x_{d2} and the rest are erased", EXPECTED)),
        LemmaCheck(cancel_d3, variant="cancel-d3-only",
                   notes=notes("cancellation units ReLU(±x_{d3}) for d3 only: d3 ← x_{d1} + x_{d2} for any x_{d3}, "
                               "the rest kept", EXPECTED)),
    ],
    default_max_size=6,
    readings={
        "as-written": as_written("x ∈ ℝ^d (d ≥ 3), residual included, x_{d3} = 0 (the stated assumption); the "
                                 "second matrix printed as 'W_1' read as W_2"),
        "d3-nonzero": reading("the same network on any x_{d3} (without the stated assumption)"),
        "cancel-residual": reading("the stated alternative as printed: the residual cancelled on all of ℝ^d "
                                   "(sec:ffnn_cancel_residual), any x_{d3}, the other coordinates to be kept"),
        "cancel-d3-only": repair("cancel the residual at coordinate d3 only (units ReLU(±x_d3)), any x_{d3}"),
    },
)
