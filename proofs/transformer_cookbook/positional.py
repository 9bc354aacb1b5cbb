r"""Chapter 5's positions computed by uniform attention over a beginning-of-sequence token, as encoders.

Claimed (draft 582e0e1, ch. 5, "Positional Encodings", § "No Positional Encoding"; no labels, ids ours):

* ch5:one-over-i (§ "1/i"): ``1/i`` at position ``i`` "can be computed using a future-masked uniform attention
  layer (sec:uniform-attention) and the presence of a beginning-of-sequence token";
* ch5:i-over-n (§ "i/n"): "similar to above, the value ``i/n`` may also be obtained at position ``i`` using an
  unmasked uniform attention layer ... and the presence of a beginning-of-sequence token".

The model: every string ``^ w``, ``w ∈ {a, b}^{n-1}``, the BOS ``^`` the only token with ``bos = 1``; one head
with ``W^(Q) = W^(K) = 0`` and the value ``bos`` written into ``avg`` (uniform attention), residuals, no FFN.
Positions are 1-based in the draft: position ``i`` is the ``i``-th token. A variant per attention kind uniform
attention is badged for (AHAT, SMAT); UHAT, which puts all weight on one position, is a mutant.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.claims import Claim, as_written, mutant, reading
from symcot.inputs.family import Family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import AHAT, SMAT, UHAT, AttentionKind, HeadRule, ModelDescription

SUBJECT_NOTE = ("subject: draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, chapter 5 (positional encodings); "
                "a finding is about this draft only")
KINDS: dict[str, AttentionKind] = {"AHAT": AHAT(), "SMAT": SMAT(1), "UHAT": UHAT()}
L = Layout("ch5.bos", [("bos", 1), ("x", 1), ("avg", 1)])
K1 = Layout("ch5.bos.key", [("k", 1)])
EMBED: dict[str, list[int]] = {"^": [1, 0, 0], "a": [0, 1, 0], "b": [0, 2, 0]}


def bos_average_decoder(mask: str, kind: str) -> Decoder:
    """Uniform attention (``Q = K = 0``) averaging ``bos`` into ``avg`` under ``mask``; residuals, zero FFN."""
    x = L.vars()
    head = Head("u", Map("Q", L, K1, zero=["k"]), Map("K", L, K1, zero=["k"]),
                Map("V", L, L, {"avg": x.bos}, zero=["bos", "x"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, L, {"avg": vs.vars()["u.avg"]}, zero=["bos", "x"])
    ffn = FFN(Map("W_1", L, L, zero=list(L.names)), Map("W_2", L, L, zero=list(L.names)))
    desc = ModelDescription(f"ch5 BOS average ({kind}, mask {mask})", direction="encoder",
                            head=HeadRule(mask, KINDS[kind]), residual="both")
    return Decoder("BOS average", L, [Layer(Attention([head], w_o), ffn)], desc)


def _embed(symbol: str, i: int, n: int) -> list[int]:
    return list(EMBED[symbol])


def _bos_strings(size: int) -> Iterator[tuple[str, ...]]:
    return (("^",) + w for w in itertools.product("ab", repeat=size - 1))


BOS_STRINGS = Family("every ^ w, w ∈ {a, b}^{n-1}", _bos_strings, lambda size: 2 ** (size - 1),
                     describe=lambda s: {"string": "".join(s), "length": len(s), "text": f"w = {''.join(s)}"})


def one_over_i(s: tuple[str, ...]) -> list[Fraction]:
    """``1/i`` at the ``i``-th position (1-based)."""
    return [Fraction(1, i) for i in range(1, len(s) + 1)]


def i_over_n(s: tuple[str, ...]) -> list[Fraction]:
    """``i/n`` at the ``i``-th position (1-based)."""
    return [Fraction(i, len(s)) for i in range(1, len(s) + 1)]


def one_over_n(s: tuple[str, ...]) -> list[Fraction]:
    """``1/n`` at every position."""
    return [Fraction(1, len(s))] * len(s)


def _check(variant: str, mask: str, kind: str, reference: Any) -> EncoderCheck:
    def construction() -> EncoderConstruction:
        return EncoderConstruction(variant, bos_average_decoder(mask, kind), _embed, Readout("avg"),
                                   notes=[SUBJECT_NOTE])

    return EncoderCheck(construction, reference, [BOS_STRINGS])


def _where(section: str) -> str:
    return f"draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 5, § \"{section}\" (no label; id ours)"


ONE_OVER_I = Claim(
    id="ch5:one-over-i", kind="section",
    statement="1/i at position i is computed by a future-masked uniform attention layer and a beginning-of-sequence "
              "token.",
    where=_where("1/i"),
    checks=[_check("as-written", "future", "AHAT", one_over_i), _check("SMAT", "future", "SMAT", one_over_i),
            _check("UHAT", "future", "UHAT", one_over_i)],
    default_max_size=6,
    readings={"as-written": as_written("AHAT (uniform attention's badge), mask j ≤ i, every ^ w"),
              "SMAT": reading("softmax attention (uniform attention's other badge), mask j ≤ i"),
              "UHAT": mutant("unique hard attention (uniform attention is not badged for it): expected to fail")},
)

I_OVER_N = Claim(
    id="ch5:i-over-n", kind="section",
    statement="i/n at position i is obtained by an unmasked uniform attention layer and a beginning-of-sequence "
              "token.",
    where=_where("i/n"),
    checks=[_check("as-written", "none", "AHAT", i_over_n), _check("SMAT", "none", "SMAT", i_over_n),
            _check("one-over-n", "none", "AHAT", one_over_n)],
    default_max_size=6,
    readings={"as-written": as_written("AHAT, no mask, every ^ w: the output against i/n"),
              "SMAT": reading("softmax attention, no mask"),
              "one-over-n": reading("what the layer computes: 1/n at every position (AHAT, no mask)")},
)

CLAIMS = [ONE_OVER_I, I_OVER_N]
