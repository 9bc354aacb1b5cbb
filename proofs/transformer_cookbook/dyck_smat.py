r"""Chapter 8's SMAT for Dyck-1 (after Bhattamishra et al. 2020, § 4): one softmax layer, one head.

Claimed (draft 582e0e1, ch. 8, § "Dyck Language", § "SMAT for Dyck-1"; no label, id ``ch8:dyck-smat`` ours): a
single-layer SMAT with one head and future positional masking recognises Dyck-1. The draft states the layer:
``f_e([) = [1, -1]``, ``f_e(]) = [-1, 1]``; the key matrix null (uniform weights, sec:uniform-attention), ``V`` the
identity, so the future-masked head outputs ``[(#open_i - #close_i)/i, (#close_i - #open_i)/i]`` at position
``i`` (the draft prints ``f_e(w_i)`` in the sum and ``#count``: read as ``f_e(w_j)`` and ``#close``); then "a
FFN can then check membership", the two conditions being (1) every prefix has ``#open ≥ #close`` and (2) the
whole string ``#open = #close``.

The FFN is left to the cited paper; its *completion* here is the smallest network of ch. 3's recipes: ReLU
units ``u = ReLU(a_1)``, ``v = ReLU(a_2)`` (``u = max(d_i, 0)/i``, ``v = max(-d_i, 0)/i``, ``d_i = #open_i -
#close_i``) and ``rej = u + v`` (``|d_i|/i``), the residual around both sublayers; the attention output sits in
its own coordinates (``c``). Softmax weights are the model's: with the null key every score is 0, so the weights
are exactly ``1/i`` (no ball is needed; a non-uniform score would give certified balls and an undecided bit
``unknown``).

Read as a recogniser (the reject bit ``rej > 0`` at the last position, against Dyck-1 membership by a stack),
the one layer fails: the last position sees only the counts and its own symbol, so condition (1) is out of its
reach -- ``][`` is accepted, and ``[[]]`` and ``][[]`` give the last position the same FFN input, so no FFN
there separates them. It holds under Bhattamishra et al.'s reading of the output (``per-position``: the string
is accepted when ``v_i = 0`` at every position and ``u_n = 0``; the reader takes the conjunction), and, as a
recogniser, with a second uniform layer that averages ``v`` (the ``two-layer`` repair).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.claims import Claim, as_written, mutant, reading, repair
from symcot.inputs.strings import strings_family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import AHAT, SMAT, UHAT, AttentionKind, HeadRule, ModelDescription
from symcot.model.interval import compare, show

from .dyck_uhat import SUBJECT_NOTE, WHERE, member

L = Layout("ch8.dyck-smat", [("e1", 1), ("e2", 1), ("c1", 1), ("c2", 1), ("u", 1), ("v", 1), ("rej", 1),
                             ("avg", 1), ("r2", 1)])
K1 = Layout("ch8.dyck-smat.key", [("k", 1)])
EMBED: dict[str, list[int]] = {"[": [1, -1], "]": [-1, 1]}
KINDS: dict[str, AttentionKind] = {"SMAT": SMAT(1), "AHAT": AHAT(), "UHAT": UHAT()}


def _zero_key() -> tuple[Map, Map]:
    return Map("Q", L, K1, zero=["k"]), Map("K", L, K1, zero=["k"])


def _first_coordinate_key() -> tuple[Map, Map]:
    """The mutant's key: ``Q x = K x = f_e(w)_1`` (scores ±1, softmax weights no longer rational)."""
    x = L.vars()
    return Map("Q", L, K1, {"k": x.e1}), Map("K", L, K1, {"k": x.e1})


def _count_layer(keyed: bool = False) -> Layer:
    """The draft's head (null key, ``V`` the identity on ``f_e``) and the completion ``u, v, rej``."""
    x = L.vars()
    val = Layout("ch8.dyck-smat.value", [("e1", 1), ("e2", 1)])
    head = Head("h", *(_first_coordinate_key() if keyed else _zero_key()), Map("V", L, val, keep=["e1", "e2"]))
    vs = value_space([head])
    o = vs.vars()
    w_o = Map("W_O", vs, L, {"c1": o["h.e1"], "c2": o["h.e2"]}, zero=[b for b in L.names if b not in ("c1", "c2")])
    hid = Layout("ch8.dyck-smat.hidden", [("u", 1), ("v", 1)])
    h = hid.vars()
    ffn = FFN(Map("W_1", L, hid, {"u": x.c1, "v": x.c2}),
              Map("W_2", hid, L, {"u": h.u, "v": h.v, "rej": h.u + h.v},
                  zero=[b for b in L.names if b not in ("u", "v", "rej")]))
    return Layer(Attention([head], w_o), ffn)


def _violation_layer() -> Layer:
    """The repair's second layer: uniform attention averages ``v`` into ``avg``; ``r2 = ReLU(avg + u)``."""
    x = L.vars()
    val = Layout("ch8.dyck-smat.value2", [("v", 1)])
    head = Head("g", *_zero_key(), Map("V", L, val, keep=["v"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, L, {"avg": vs.vars()["g.v"]}, zero=[b for b in L.names if b != "avg"])
    hid = Layout("ch8.dyck-smat.hidden2", [("r", 1)])
    ffn = FFN(Map("W_1", L, hid, {"r": x.avg + x.u}),
              Map("W_2", hid, L, {"r2": hid.vars().r}, zero=[b for b in L.names if b != "r2"]))
    return Layer(Attention([head], w_o), ffn)


def dyck_smat_decoder(mask: str = "future", kind: str = "SMAT", layers: int = 1,
                      direction: str = "recogniser", keyed: bool = False) -> Decoder:
    """One layer (the draft's), or two (the repair); every head ``mask`` and ``kind``; residual around both."""
    desc = ModelDescription(f"ch8 Dyck-1 ({kind}, mask {mask})", direction=direction,
                            head=HeadRule(mask, KINDS[kind]), residual="both")
    stack = [_count_layer(keyed)] + ([_violation_layer()] if layers == 2 else [])
    return Decoder("Dyck-1 SMAT", L, stack, desc)


def _embed(symbol: str, i: int, n: int) -> list[int]:
    return [*EMBED[symbol], 0, 0, 0, 0, 0, 0, 0]


def rejects(s: tuple[str, ...]) -> bool:
    """The reject bit's reference: ``s ∉ Dyck-1`` (a stack)."""
    return not member(s)


@dataclass
class RuleCheck(EncoderCheck):
    """The per-position reading: ``u_i, v_i`` at every position, read by Bhattamishra et al.'s rule.

    Accept iff ``v_i = 0`` at every ``i`` and ``u_n = 0`` (each ``> 0`` decided exactly, or by balls: an
    undecided one is ``unknown``); compared with ``reference`` (rejection), per string.
    """

    def per_input(self, cons: EncoderConstruction, s: tuple[str, ...]) -> dict[str, Any] | None:
        enc = cons.run(s)
        dec = cons.concrete(s)
        uv: list[Sequence[Any]] = [cons.read(dec, enc.outputs[i]) for i in range(len(s))]
        bad = [i for i, (_, v) in enumerate(uv) if compare(v, 0, f"v at position {i}") > 0]
        unbalanced = compare(uv[-1][0], 0, "u at the last position") > 0
        got = bool(bad) or unbalanced
        if got == bool(self.reference(s)):
            return None
        return {"kind": "output", "position": len(s) - 1, "layer": len(dec.layers), "block": ["u", "v"],
                "got": "reject" if got else "accept", "expected": "reject" if self.reference(s) else "accept",
                "u, v": [[show(a), show(b)] for a, b in uv]}


def _recogniser(variant: str, layers: int, block: str) -> EncoderCheck:
    def construction() -> EncoderConstruction:
        return EncoderConstruction(variant, dyck_smat_decoder(layers=layers), _embed, Readout(block, "sign"),
                                   notes=[SUBJECT_NOTE, "completion (ours): the FFN u, v, rej (ch. 3's ReLU)"
                                          + (", and the second layer avg, r2" if layers == 2 else ""),
                                          "the bit read is the reject bit (> 0); the reference: w ∉ Dyck-1"])

    return EncoderCheck(construction, rejects, [strings_family("[]")])


def _rule(variant: str, mask: str, kind: str, keyed: bool = False) -> RuleCheck:
    def construction() -> EncoderConstruction:
        return EncoderConstruction(variant, dyck_smat_decoder(mask, kind, direction="encoder", keyed=keyed), _embed,
                                   Readout(("u", "v")), notes=[SUBJECT_NOTE, "completion (ours): the FFN u, v"])

    return RuleCheck(construction, rejects, [strings_family("[]")],
                     method="exhaustive exact replay; accept iff v_i = 0 at every i and u_n = 0")


DYCK_SMAT = Claim(
    id="ch8:dyck-smat", kind="section",
    statement="A single-layer SMAT with one head (null key, V the identity on f_e([) = [1,-1], f_e(]) = [-1,1]) and "
              "future positional masking, followed by a FFN, recognises Dyck-1 (Bhattamishra et al. 2020, § 4).",
    where=WHERE.format("SMAT for Dyck-1"),
    checks=[_recogniser("as-written", 1, "rej"), _rule("per-position", "future", "SMAT"),
            _recogniser("two-layer", 2, "r2"), _rule("AHAT", "future", "AHAT"),
            _rule("strict-future", "strict-future", "SMAT"), _rule("no-mask", "none", "SMAT"),
            _rule("UHAT", "future", "UHAT"), _rule("keyed", "future", "SMAT", keyed=True)],
    default_max_size=10,
    readings={
        "as-written": as_written("a recogniser: the draft's layer (SMAT, j ≤ i, τ = 1) and the completion FFN; the "
                                 "reject bit rej = |d_n|/n > 0 at the last position; every w ∈ {[, ]}^n"),
        "per-position": reading("Bhattamishra et al.'s output: u_i, v_i at every position; accept iff v_i = 0 at "
                                "every i and u_n = 0 (the reader's conjunction)"),
        "two-layer": repair("a recogniser with a second uniform layer: avg = mean of v_j (j ≤ i), reject bit "
                            "ReLU(avg + u) > 0 at the last position"),
        "AHAT": reading("the per-position reading under average hard attention (uniform attention's other badge)"),
        "strict-future": reading("the per-position reading under the mask j < i (position 1 sees nothing)"),
        "no-mask": mutant("the per-position reading without a mask: every position sees d_n/n; expected to fail"),
        "UHAT": mutant("the per-position reading under unique hard attention (all weight on position 1); expected "
                       "to fail"),
        "keyed": mutant("the per-position reading with a non-null key Q x = K x = f_e(w)_1: softmax weights "
                        "exp(±1)/Σ (certified balls), not 1/i; expected to fail"),
    },
)

CLAIMS = [DYCK_SMAT]
