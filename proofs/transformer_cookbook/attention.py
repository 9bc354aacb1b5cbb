r"""Chapter 4's trivial attention recipes and table lookup by quadratic maximisation, as encoders.

Claimed (draft 582e0e1, ch. 4, "Self-Attention Layers"):

* sec:identity-attention, badges UHAT, AHAT, SMAT: with ``W^(Q) = W^(K) = W^(V) = 0`` "the residual
  connection will pass the input through unchanged";
* sec:uniform-attention, badges AHAT, SMAT: with ``W^(Q) = W^(K) = 0`` and ones on the diagonal of
  ``W^(V)`` in some dimensions, attention "is equivalent to averaging the input across all positions in
  the specified dimensions";
* ch4:quadratic-maximization (no label; our id), badges UHAT, AHAT: ``q_i = (a_i, 1)``,
  ``k_j = (2j, -j²)``, so ``s_{i,j} = 2 a_i j - j²`` is uniquely maximised at ``j = a_i``: position ``i``
  retrieves position ``a_i``'s value.

Each recipe is one attention sublayer (no mask: the draft's definition has none) with its residual; the
FFN is zero and has its residual, so the layer's output is the attention sublayer's. Each badge is a
variant (the as-written variant is the first badge); an attention kind the recipe is not badged for is a
``mutant`` variant, expected to fail. Inputs: every string over a small alphabet whose symbols are
distinct rational vectors (identity, uniform), and every ``a ∈ {0..n-1}^n`` (quadratic maximisation, the
positions ``j, j²`` a concatenated positional encoding).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.claims import Claim, as_written, mutant, reading
from symcot.inputs.family import Family
from symcot.inputs.strings import strings_family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import AHAT, SMAT, UHAT, AttentionKind, HeadRule, ModelDescription, Positional

SUBJECT_NOTE = ("subject: draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, chapter 4 (self-attention); a "
                "finding is about this draft only")
KINDS: dict[str, AttentionKind] = {"UHAT": UHAT(), "AHAT": AHAT(), "SMAT": SMAT(1)}


def _where(section: str, label: str) -> str:
    return f"draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 4, § \"{section}\" ({label})"


def _encoder(kind: str | AttentionKind, positional: Positional | None = None) -> ModelDescription:
    rule = KINDS[kind] if isinstance(kind, str) else kind
    return ModelDescription(f"ch4 {rule.label() if isinstance(kind, AttentionKind) else kind}", direction="encoder",
                            head=HeadRule("none", rule), residual="both", positional=positional)


def _zero_ffn(lay: Layout) -> FFN:
    return FFN(Map("W_1", lay, lay, zero=list(lay.names)), Map("W_2", lay, lay, zero=list(lay.names)))


# -- identity and uniform attention: symbols are rational vectors (x, y); avg is written by the head --------
L = Layout("ch4.stream", [("x", 1), ("y", 1), ("avg", 1)])
K1 = Layout("ch4.key", [("k", 1)])
SYMBOLS: dict[str, list[Any]] = {"a": [1, -2, 0], "b": [0, 3, 0], "c": [Fraction(1, 2), 0, 0]}


def _embed(symbol: str, i: int, n: int) -> list[Any]:
    return list(SYMBOLS[symbol])


def identity_decoder(kind: str) -> Decoder:
    """``W^(Q) = W^(K) = W^(V) = 0`` (and ``W_O`` the identity on the value space)."""
    head = Head("h", Map("Q", L, K1, zero=["k"]), Map("K", L, K1, zero=["k"]), Map("V", L, L, zero=list(L.names)))
    vs = value_space([head])
    o = vs.vars()
    w_o = Map("W_O", vs, L, {b: o[f"h.{b}"] for b in L.names})
    return Decoder("identity attention", L, [Layer(Attention([head], w_o), _zero_ffn(L))], _encoder(kind))


def uniform_decoder(kind: str) -> Decoder:
    """``W^(Q) = W^(K) = 0``; ``W^(V)`` has a one on the diagonal at ``x`` (copied into ``avg``)."""
    x = L.vars()
    head = Head("u", Map("Q", L, K1, zero=["k"]), Map("K", L, K1, zero=["k"]),
                Map("V", L, L, {"avg": x.x}, zero=["x", "y"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, L, {"avg": vs.vars()["u.avg"]}, zero=["x", "y"])
    return Decoder("uniform attention", L, [Layer(Attention([head], w_o), _zero_ffn(L))], _encoder(kind))


def _unchanged(s: tuple[str, ...]) -> list[list[Any]]:
    return [list(SYMBOLS[a]) for a in s]


def _averaged(s: tuple[str, ...]) -> list[list[Any]]:
    mean = sum((Fraction(SYMBOLS[a][0]) for a in s), Fraction(0)) / len(s)
    return [[SYMBOLS[a][0], SYMBOLS[a][1], mean] for a in s]


def _stream_check(variant: str, kind: str, make: Any, reference: Any) -> EncoderCheck:
    def construction() -> EncoderConstruction:
        return EncoderConstruction(variant, make(kind), _embed, Readout(("x", "y", "avg")), notes=[SUBJECT_NOTE])

    return EncoderCheck(construction, reference, [strings_family("abc")])


IDENTITY = Claim(
    id="sec:identity-attention", kind="section",
    statement="With W^(Q) = W^(K) = W^(V) = 0, attention plus its residual connection passes the input unchanged "
              "(UHAT, AHAT, SMAT).",
    where=_where("Identity", "sec:identity-attention"),
    checks=[_stream_check(v, v if v != "as-written" else "SMAT", identity_decoder, _unchanged)
            for v in ("as-written", "UHAT", "AHAT")],
    default_max_size=5,
    readings={"as-written": as_written("softmax attention (the chapter's definition), no mask, every string over "
                                       "three rational vectors"),
              "UHAT": reading("the UHAT badge: leftmost unique hard attention"),
              "AHAT": reading("the AHAT badge: average hard attention")},
)

UNIFORM = Claim(
    id="sec:uniform-attention", kind="section",
    statement="With W^(Q) = W^(K) = 0 and ones on W^(V)'s diagonal in chosen dimensions, attention averages those "
              "dimensions over all positions (AHAT, SMAT).",
    where=_where("Uniform Attention", "sec:uniform-attention"),
    checks=[_stream_check(v, {"as-written": "SMAT", "AHAT": "AHAT", "UHAT": "UHAT"}[v], uniform_decoder, _averaged)
            for v in ("as-written", "AHAT", "UHAT")],
    default_max_size=5,
    readings={"as-written": as_written("softmax attention, no mask: the average over all n positions"),
              "AHAT": reading("the AHAT badge: average hard attention"),
              "UHAT": mutant("unique hard attention, which the recipe is not badged for: expected to fail")},
)


# -- table lookup by quadratic maximisation ------------------------------------------------------------------
Q_L = Layout("ch4.lookup", [("a", 1), ("one", 1), ("val", 1), ("j", 1), ("jj", 1)])
K2 = Layout("ch4.lookup.key", [("k1", 1), ("k2", 1)])
POSITIONS = Positional(lambda i, n: [i, i * i], 2, "concat", "(j, j²)")


def lookup_decoder(kind: str | AttentionKind) -> Decoder:
    """``q_i = (a_i, 1)``, ``k_j = (2j, -j²)``; the value is the symbol ``a_j``, written into ``val``."""
    x = Q_L.vars()
    q = Map("Q", Q_L, K2, {"k1": x.a, "k2": x.one})
    k = Map("K", Q_L, K2, {"k1": 2 * x.j, "k2": -x.jj})
    head = Head("t", q, k, Map("V", Q_L, Q_L, {"val": x.a}, zero=["a", "one", "j", "jj"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, Q_L, {"val": vs.vars()["t.val"]}, zero=["a", "one", "j", "jj"])
    return Decoder("quadratic maximisation", Q_L, [Layer(Attention([head], w_o), _zero_ffn(Q_L))],
                   _encoder(kind, POSITIONS))


def _lookup_embed(symbol: str, i: int, n: int) -> list[Any]:
    return [int(symbol), 1, 0]


def _pointer_strings(size: int) -> Iterator[tuple[str, ...]]:
    return (tuple(str(v) for v in t) for t in itertools.product(range(size), repeat=size))


POINTERS = Family("every a ∈ {0..n-1}^n", _pointer_strings, lambda size: size**size,
                  describe=lambda s: {"string": " ".join(s), "length": len(s), "text": f"a = ({', '.join(s)})"})


def _looked_up(s: tuple[str, ...]) -> list[int]:
    return [int(s[int(a)]) for a in s]


def _lookup_check(variant: str, kind: str) -> EncoderCheck:
    def construction() -> EncoderConstruction:
        return EncoderConstruction(variant, lookup_decoder(kind), _lookup_embed, Readout("val"), notes=[SUBJECT_NOTE])

    return EncoderCheck(construction, _looked_up, [POINTERS],
                        attends=lambda s, layer, head, i: [int(s[i])] if kind != "SMAT" else None)


LOOKUP = Claim(
    id="ch4:quadratic-maximization", kind="section",
    statement="q_i = (a_i, 1), k_j = (2j, -j²): s_{i,j} = 2 a_i j - j² is uniquely maximised at j = a_i, so position "
              "i retrieves position a_i (UHAT, AHAT).",
    where=_where("Quadratic maximization", "no label; id ours"),
    checks=[_lookup_check("as-written", "UHAT"), _lookup_check("AHAT", "AHAT"), _lookup_check("SMAT", "SMAT")],
    default_max_size=5,
    readings={"as-written": as_written("the UHAT badge; every a ∈ {0..n-1}^n; positions (j, j²) concatenated"),
              "AHAT": reading("the AHAT badge"),
              "SMAT": mutant("softmax at τ = 1, which the recipe is not badged for: expected to fail")},
)

CLAIMS = [IDENTITY, UNIFORM, LOOKUP]
