r"""Chapter 8's UHAT for Dyck-(k, D) (after Yao et al. 2021, § 5.1): D + 1 unique-hard layers recognise it.

Claimed (draft 582e0e1, ch. 8 "Assembly", § "Dyck Language", § "UHAT for Dyck-k-D"; no label, id
``ch8:dyck-uhat`` ours): a ``D + 1``-layer UHAT with future-positional masking, the ``i/n`` positional encoding
and ReLU FFNs recognises the depth-bounded Dyck language ``Dyck-(k, D)``.

The model, as the draft states it: position ``i`` holds ``x_i = [t_i, o_i, p_i, m_i, e_i]`` -- the bracket type
``t_i`` (one-hot here, over the ``k`` kinds and the sentinel kind of BOS and EOS), the openness bit ``o_i`` (1
for open brackets and BOS), ``p_i = i/n`` (1-based, concatenated), the match bit ``m_i`` and the error bit
``e_i`` (both 0 at first), and the constant 1 the query reads. The input is ``BOS w EOS``. Each of the first
``D`` layers has ``Att^id`` (the residual connection, sec:identity-attention), ``Att^left`` (``Q x = 1``,
``K x = p - m``, the nearest unmatched ``j < i``) and ``Att^right`` (``K x = 1 - p - m``, the nearest unmatched
``j > i``); its FFN is the draft's (commented) update ``m' = m ∨ (o_i ∧ ¬o_{j2} ∧ s_2) ∨ (¬o_i ∧ o_{j1} ∧ s_1)``,
``e' = e ∨ (o_i ∧ ¬o_{j2} ∧ ¬s_2) ∨ (¬o_i ∧ o_{j1} ∧ ¬s_1)``, written as the full DNF of ch. 3
(sec:ffnn_boolean: one ReLU per minterm, exclusive minterms summed; ``s`` = same type), with the residual
around the FFN and ReLU units that cancel the heads' copies (sec:ffnn_cancel_residual). Layer ``D + 1``: one
head ``Q x = 1``, ``K x = e + 1 - m``, ``V x = (e, m)`` and the FFN ``(a, b) ↦ ReLU(b - a)`` (¬a ∧ b); the accept
bit (> 0) is read at the last position (EOS).

Every string ``w`` over the ``2k`` brackets, for ``k = 1, 2, 3`` and ``D = 1, 2, 3`` (one row covers the grid, a
:class:`~symcot.check.grid.GridCheck`), against membership in Dyck-(k, D) by a stack. As written the recipe fails: the
draft's update has no guard ``¬m_i``, so a matched bracket whose nearest unmatched neighbour later is a wrong-type
close (EOS, or ``]`` in ``[()]``) takes an error; and BOS and EOS, which wrap the string, are matched one round
after the deepest pair, so a member of depth ``D`` leaves them unmatched. Repaired: the guard, and the final
head blind to the sentinels (``K x = e + 1 - m - z``, ``V x = (e, m + z)``, ``z = 1`` at BOS and EOS).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.check.grid import GridCheck, Point
from symcot.claims import Claim, as_written, mutant, reading, repair
from symcot.inputs.family import Family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space
from symcot.model.description import UHAT, HeadRule, ModelDescription, Positional

SUBJECT_NOTE = ("subject: draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, chapter 8 (assembly), § Dyck "
                "Language; a finding is about this draft only")
WHERE = "draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 8, § \"{}\" (no label; id ours)"
PAIRS: tuple[tuple[str, str], ...] = (("[", "]"), ("(", ")"), ("{", "}"))
BOS, EOS = "^", "$"


# -- the references: Dyck-(k, D) by a stack -------------------------------------------------------------------
def alphabet(k: int) -> tuple[str, ...]:
    """The ``2k`` brackets, opens first: ``[ ( { ] ) }`` for ``k = 3``."""
    return tuple(o for o, _ in PAIRS[:k]) + tuple(c for _, c in PAIRS[:k])


def kind_of(symbol: str) -> tuple[int, bool]:
    """``(kind, open)`` of a bracket (kinds 1..k; 0 is the sentinels')."""
    for c, (o, cl) in enumerate(PAIRS, start=1):
        if symbol in (o, cl):
            return c, symbol == o
    if symbol in (BOS, EOS):
        return 0, symbol == BOS
    raise ValueError(f"not a bracket: {symbol!r}")


def stack_run(w: Sequence[str], depth: int | None = None) -> list[int] | None:
    """The stack of open kinds after reading ``w`` (``None``: a mismatch, or deeper than ``depth``)."""
    stack: list[int] = []
    for a in w:
        c, is_open = kind_of(a)
        if is_open:
            stack.append(c)
            if depth is not None and len(stack) > depth:
                return None
        elif not stack or stack.pop() != c:
            return None
    return stack


def member(w: Sequence[str], depth: int | None = None) -> bool:
    """``w ∈ Dyck-(k, D)`` (``D = depth``; ``None``: unbounded), by a stack."""
    return stack_run(w, depth) == []


def wrapped_family(k: int, length: int) -> Family:
    """Every ``BOS w EOS``, ``w`` over the ``2k`` brackets (the size is ``|w|``), up to ``length``."""
    sigma = alphabet(k)

    def inputs(size: int) -> Iterator[tuple[str, ...]]:
        return ((BOS, *w, EOS) for w in itertools.product(sigma, repeat=size))

    return Family(f"every ^ w $, w over {''.join(sigma)}", inputs, lambda size: len(sigma) ** size,
                  describe=lambda s: {"string": "".join(s), "length": len(s) - 2, "text": f"w = {''.join(s[1:-1])}"},
                  min_size=0, max_size=length)


def plain_family(k: int, length: int) -> Family:
    """Every ``w`` over the ``2k`` brackets, without sentinels, up to ``length`` (from length 1)."""
    sigma = alphabet(k)

    def inputs(size: int) -> Iterator[tuple[str, ...]]:
        return itertools.product(sigma, repeat=size)

    return Family(f"every w over {''.join(sigma)}", inputs, lambda size: len(sigma) ** size,
                  describe=lambda s: {"string": "".join(s), "length": len(s), "text": f"w = {''.join(s)}"},
                  min_size=1, max_size=length)


# -- the model ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Options:
    """What a variant changes: the FFN's guard ``¬m_i``, the final head blind to sentinels, the masks, the key."""

    guard: bool = False
    blind: bool = False
    sentinels: bool = True
    left_mask: str = "strict-future"
    right_mask: str = "strict-past"
    key_match: bool = True  # K x = p - m (False: the mutant K x = p)
    tie: str = "leftmost"  # every head's tie rule (ties occur only in the final head: its scores are 0 or ≥ 1)


def layout(k: int) -> Layout:
    """``one, t_0..t_k, o, z, m, e``, the heads' copies ``l*``, ``r*``, the final ``fa, fb, acc``, then ``p``."""
    kinds = range(k + 1)
    blocks = ["one", *(f"t{c}" for c in kinds), "o", "z", "m", "e", *(f"lt{c}" for c in kinds), "lo", "lm",
              *(f"rt{c}" for c in kinds), "ro", "rm", "fa", "fb", "acc", "p"]
    return Layout(f"ch8.dyck-uhat.k{k}", [(b, 1) for b in blocks])


KEY = Layout("ch8.dyck-uhat.key", [("q", 1)])


def _copy_head(lay: Layout, k: int, side: str, opt: Options) -> Head:
    x = lay.vars()
    names = [*(f"t{c}" for c in range(k + 1)), "o", "m"]
    val = Layout(f"ch8.dyck-uhat.value.k{k}", [(b, 1) for b in names])
    match = x.m if opt.key_match else 0
    key = x.p - match if side == "l" else x.one - x.p - match
    return Head(side, Map("Q", lay, KEY, {"q": x.one}), Map("K", lay, KEY, {"q": key}),
                Map("V", lay, val, keep=names))


def _update_ffn(lay: Layout, k: int, opt: Options) -> FFN:
    """The draft's update as a full DNF (one ReLU per exclusive minterm), and units cancelling the copies."""
    x = lay.vars()
    kinds = range(k + 1)
    m_guard = x.m if opt.guard else 0
    units: dict[str, Any] = {}
    for c in kinds:  # ¬m ∧ o ∧ ¬o_{j2} ∧ t_c ∧ t_{j2,c}   and   ¬m ∧ ¬o ∧ o_{j1} ∧ t_c ∧ t_{j1,c}
        units[f"mr{c}"] = x.o + x[f"t{c}"] + x[f"rt{c}"] - x.m - x.ro - 2
        units[f"ml{c}"] = x.lo + x[f"t{c}"] + x[f"lt{c}"] - x.m - x.o - 2
        for c2 in kinds:  # ¬e ∧ o ∧ ¬o_{j2} ∧ t_c ∧ t_{j2,c'} (c ≠ c'), and the close's mirror
            if c2 != c:
                units[f"er{c}_{c2}"] = x.o + x[f"t{c}"] + x[f"rt{c2}"] - x.e - x.ro - m_guard - 2
                units[f"el{c}_{c2}"] = x.lo + x[f"t{c}"] + x[f"lt{c2}"] - x.e - x.o - m_guard - 2
    copies = [*(f"{s}t{c}" for s in "lr" for c in kinds), "lo", "lm", "ro", "rm"]
    for b in copies:
        units[f"c_{b}"] = x[b]
    hid = Layout(f"ch8.dyck-uhat.hidden.k{k}", [(u, 1) for u in units])
    h = hid.vars()
    out = {"m": sum((h[f"m{s}{c}"] for s in "rl" for c in kinds), start=0 * h.c_lo),
           "e": sum((h[u] for u in units if u[0] == "e"), start=0 * h.c_lo),
           **{b: -h[f"c_{b}"] for b in copies}}
    rest = [b for b in lay.names if b not in out]
    return FFN(Map("W_1", lay, hid, units), Map("W_2", hid, lay, out, zero=rest))


def _update_layer(lay: Layout, k: int, opt: Options) -> Layer:
    heads = [_copy_head(lay, k, "l", opt), _copy_head(lay, k, "r", opt)]
    vs = value_space(heads)
    o = vs.vars()
    names = [*(f"t{c}" for c in range(k + 1)), "o", "m"]
    assign = {f"{s}{b}": o[f"{s}.{b}"] for s in "lr" for b in names}
    w_o = Map("W_O", vs, lay, assign, zero=[b for b in lay.names if b not in assign])
    return Layer(Attention(heads, w_o), _update_ffn(lay, k, opt))


FINAL_VALUE = Layout("ch8.dyck-uhat.final", [("a", 1), ("b", 1)])


def _final_layer(lay: Layout, opt: Options) -> Layer:
    """``Q x = 1``, ``K x = e + 1 - m`` (``- z`` when blind), ``V x = (e, m)`` (``m + z``); FFN ``ReLU(b - a)``."""
    x = lay.vars()
    z = x.z if opt.blind else 0
    head = Head("f", Map("Q", lay, KEY, {"q": x.one}), Map("K", lay, KEY, {"q": x.e + x.one - x.m - z}),
                Map("V", lay, FINAL_VALUE, {"a": x.e, "b": x.m + z}))
    vs = value_space([head])
    o = vs.vars()
    w_o = Map("W_O", vs, lay, {"fa": o["f.a"], "fb": o["f.b"]}, zero=[b for b in lay.names if b not in ("fa", "fb")])
    hid = Layout("ch8.dyck-uhat.final.hidden", [("acc", 1)])
    ffn = FFN(Map("W_1", lay, hid, {"acc": x.fb - x.fa}),
              Map("W_2", hid, lay, {"acc": hid.vars().acc}, zero=[b for b in lay.names if b != "acc"]))
    return Layer(Attention([head], w_o), ffn)


POSITIONS = Positional(lambda i, n: [Fraction(i + 1, n)], 1, "concat", "p_i = i/n (1-based)")


def dyck_uhat_decoder(k: int, depth: int, opt: Options) -> Decoder:
    """``D`` update layers and the final layer, for ``k`` kinds of brackets."""
    lay = layout(k)
    kind = UHAT(opt.tie)
    desc = ModelDescription(f"ch8 Dyck-({k}, {depth}) UHAT", direction="recogniser", head=HeadRule("future", kind),
                            heads={"l": HeadRule(opt.left_mask, kind), "r": HeadRule(opt.right_mask, kind)},
                            residual="both", positional=POSITIONS)
    layers = [_update_layer(lay, k, opt) for _ in range(depth)] + [_final_layer(lay, opt)]
    return Decoder(f"Dyck-({k}, {depth}) UHAT", lay, layers, desc)


def embed_for(k: int) -> Callable[[str, int, int], list[int]]:
    """The token of a symbol: ``one``, one-hot ``t``, ``o``, ``z``, and zeros (``p`` is the encoding's)."""
    width = len(layout(k).names) - 1

    def embed(symbol: str, i: int, n: int) -> list[int]:
        c, is_open = kind_of(symbol)
        v = [0] * width
        v[0], v[1 + c], v[k + 2], v[k + 3] = 1, 1, int(is_open), int(c == 0)
        return v

    return embed


def _reference(depth: int, sentinels: bool) -> Callable[[tuple[str, ...]], bool]:
    return lambda s: member(s[1:-1] if sentinels else s, depth)


def check_of(variant: str, opt: Options) -> Callable[[Point, int], EncoderCheck]:
    """The check of ``variant`` at one ``(k, D)``, strings up to a length."""
    def make(point: Point, length: int) -> EncoderCheck:
        k, depth = point
        def construction() -> EncoderConstruction:
            return EncoderConstruction(variant, dyck_uhat_decoder(k, depth, opt), embed_for(k),
                                       Readout("acc", "sign"), notes=[SUBJECT_NOTE])

        fam = wrapped_family(k, length) if opt.sentinels else plain_family(k, length)
        return EncoderCheck(construction, _reference(depth, opt.sentinels), [fam])

    return make


GRID = tuple((k, d) for k in (1, 2, 3) for d in (1, 2, 3))
SHORTER = {1: 0, 2: 2, 3: 3}  # the alphabet has 2k symbols: a larger --max-size reaches every k


def grid_check(variant: str, opt: Options) -> GridCheck:
    """``variant`` at every ``(k, D)`` of :data:`GRID`; ``--input`` types ``w`` (the sentinels are added)."""
    wrap = (lambda w: (BOS, *w, EOS)) if opt.sentinels else (lambda w: w)
    return GridCheck(variant, ("k", "D"), GRID, check_of(variant, opt), lambda p: SHORTER[p[0]],
                     "exhaustive exact replay of every position, each (k, D) of the grid",
                     symbols=lambda p: alphabet(p[0]), wrap=wrap)


REPAIRED = Options(guard=True, blind=True)
#: variant -> options, reading.
VARIANTS: dict[str, tuple[Options, Any]] = {
    "as-written": (Options(), as_written(
        "BOS w EOS; left j < i, right j > i, final j ≤ i (UHAT, leftmost); K = p - m, 1 - p - m; the draft's DNF "
        "update (no guard ¬m_i); the final head over every position; accept bit at EOS")),
    "guard": (Options(guard=True), reading("the update only at unmatched positions (¬m_i in the error minterms)")),
    "blind": (Options(blind=True), reading("the final head blind to BOS and EOS (K - z, V (e, m + z)), no guard")),
    "no-sentinels": (Options(sentinels=False), reading("w alone (no BOS, EOS); a head with no position outputs 0")),
    "no-sentinels-guard": (Options(sentinels=False, guard=True), reading("w alone, with the guard ¬m_i")),
    "repaired": (REPAIRED, repair("the guard ¬m_i and the final head blind to the sentinels")),
    "repaired-rightmost": (Options(guard=True, blind=True, tie="rightmost"),
                           reading("the repair with the rightmost tie rule (the draft names none)")),
    "future-masks": (Options(guard=True, blind=True, left_mask="future", right_mask="past"),
                     reading("the repair under masks j ≤ i and j ≥ i ('future-positional masking' as ch. 4's "
                             "mask): an unmatched position attends to itself")),
    "key-p": (Options(guard=True, blind=True, key_match=False),
              mutant("the repair with K x = p (no - m): the nearest token, matched or not; expected to fail")),
}

DYCK_UHAT = Claim(
    id="ch8:dyck-uhat", kind="section",
    statement="A (D+1)-layer UHAT with future-positional masking, the i/n positional encoding and ReLU FFNs "
              "recognises Dyck-(k, D) (Yao et al. 2021, § 5.1).",
    where=WHERE.format("UHAT for Dyck-k-D"),
    checks=[grid_check(v, opt) for v, (opt, _) in VARIANTS.items()],
    default_max_size=6,
    readings={v: r for v, (_, r) in VARIANTS.items()},
)

CLAIMS = [DYCK_UHAT]
