r"""Chapter 5's ALiBi: the bias favours recent positions, so uniform attention is lost (ch5:alibi, id ours).

Claimed (draft 582e0e1, ch. 5, § "ALiBi Positional Encoding"): ALiBi adds a head-specific bias to the scores,
``softmax(q_i Kᵀ + m · ⟨-(i-1), …, -1, 0⟩) V``, which "biases attention heads towards more recent positions";
"one expressivity issue with ALiBi is that uniform attention is not possible. However, if ... some heads have
no bias, then this issue [is] circumvented".

The model: softmax (``τ = 1``, as the formula has no scale), future mask (the bias vector has ``i`` entries:
key ``j ≤ i``), every string over ``{a, b}`` (values ``1``, ``-1``). The bias ``m (j - i)`` (0-based) is a dot
product of the position coordinate ``j`` (concatenated) and the constant ``1``: ``(m, -m i) · (j, 1)``, so it
sits in ``W^(Q)`` and ``W^(K)``; the content part is sec:uniform-attention's (zero). Checked at every query
position ``i ≥ 1``, by certified balls, on the head's weights:

* ``as-written`` (slope ``m = 1/2``, the first of ALiBi's slopes for 8 heads): the weights strictly increase
  with ``j`` (recency), so they are not uniform;
* ``no-bias`` (``m = 0``): the weights are exactly ``1/(i+1)``: uniform attention is back;
* ``cancelled`` (mutant): a head whose query and key also read the position and add ``m (i - j)``, cancelling the
  bias. ALiBi's setting has no positional encoding, so this is outside the claim; the check must find the
  uniform weights and refute recency.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from symcot.check.encoder import EncoderConstruction, Readout
from symcot.claims import Claim, PropertyCheck, as_written, mutant, reading
from symcot.inputs.strings import strings_family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import SMAT, HeadRule, ModelDescription, Positional
from symcot.model.interval import compare, show

from .positional_rotary import SUBJECT_NOTE, _where

L = Layout("ch5.alibi", [("x", 1), ("one", 1), ("avg", 1), ("j", 1)])
K = Layout("ch5.alibi.key", [("b1", 1), ("b2", 1), ("c1", 1), ("c2", 1)])
SYMBOLS = {"a": 1, "b": -1}
SLOPE = Fraction(1, 2)
POSITION = Positional(lambda i, n: [i], 1, "concat", "j")


def alibi_decoder(m: Fraction, cancel: bool = False) -> Decoder:
    """Zero content scores, the bias ``m (j - i)`` by ``(m, -m i) · (j, 1)``; ``cancel`` adds ``m (i - j)``."""
    x = L.vars()
    q = {"b1": m * x.one, "b2": -m * x.j}
    k = {"b1": x.j, "b2": x.one}
    if cancel:
        q |= {"c1": m * x.j, "c2": -m * x.one}
        k |= {"c1": x.one, "c2": x.j}
    head = Head("h", Map("Q", L, K, q, zero=[b for b in K.names if b not in q]),
                Map("K", L, K, k, zero=[b for b in K.names if b not in k]),
                Map("V", L, L, {"avg": x.x}, zero=["x", "one", "j"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, L, {"avg": vs.vars()["h.avg"]}, zero=["x", "one", "j"])
    zero = FFN(Map("W_1", L, L, zero=list(L.names)), Map("W_2", L, L, zero=list(L.names)))
    desc = ModelDescription("ch5 ALiBi", direction="encoder", head=HeadRule("future", SMAT(1)), residual="both",
                            positional=POSITION)
    return Decoder(f"ALiBi (m = {m}{', cancelled' if cancel else ''})", L, [Layer(Attention([head], w_o), zero)],
                   desc)


def construction(m: Fraction, cancel: bool = False) -> EncoderConstruction:
    """The encoder: symbol ``a`` is 1, ``b`` is -1; the output block ``avg`` is the head's average."""
    return EncoderConstruction(f"m = {m}", alibi_decoder(m, cancel), lambda a, i, n: [SYMBOLS[a], 1, 0],
                               Readout("avg"), notes=[SUBJECT_NOTE])


def weights(cons: EncoderConstruction, s: tuple[str, ...]) -> list[list[Any]]:
    """The head's weights at every position, by key position (exact or balls)."""
    enc = cons.run(s)
    return [[w for _, w in sorted(enc.records[i][0].heads[0].weights)] for i in range(len(s))]


def _recent(w: list[Any], i: int) -> dict[str, Any] | None:
    for j in range(i):
        if compare(w[j], w[j + 1], f"the weights of keys {j} and {j + 1}") >= 0:
            return {"kind": "weights", "position": i, "got": [show(v) for v in w],
                    "expected": "strictly increasing with the key position"}
    return None


def _uniform(w: list[Any], i: int) -> dict[str, Any] | None:
    if all(compare(v, Fraction(1, i + 1), "a weight against 1/(i+1)") == 0 for v in w):
        return None
    return {"kind": "weights", "position": i, "got": [show(v) for v in w], "expected": f"1/{i + 1} each"}


def _check(variant: str, m: Fraction, want: Any, cancel: bool = False) -> PropertyCheck:
    cons = construction(m, cancel)

    def per_input(s: tuple[str, ...]) -> dict[str, Any] | None:
        for i, w in enumerate(weights(cons, s)):
            if i >= 1 and (bad := want(w, i)) is not None:
                return bad
        return None

    return PropertyCheck(variant, [strings_family("ab")], per_input,
                         method="the head's softmax weights at every position, certified balls",
                         expect="refuted" if cancel else None)


ALIBI = Claim(
    id="ch5:alibi", kind="subsection",
    statement="ALiBi's bias m·(j - i) favours recent positions, so uniform attention is not possible; heads with no "
              "bias attend uniformly.",
    where=_where("ALiBi Positional Encoding"),
    checks=[_check("as-written", SLOPE, _recent), _check("no-bias", Fraction(0), _uniform),
            _check("cancelled", SLOPE, _recent, cancel=True)],
    default_max_size=6,
    readings={"as-written": as_written("slope m = 1/2, zero content scores (sec:uniform-attention), future mask, "
                                       "softmax τ = 1: weights strictly increasing in j at every i ≥ 1"),
              "no-bias": reading("a head with no bias (m = 0): weights exactly 1/(i+1)"),
              "cancelled": mutant("query and key read the position and cancel the bias (outside ALiBi's setting): "
                                  "uniform weights, expected to fail", expect="refuted")},
)

CLAIMS = [ALIBI]
