r"""Chapter 8's n-gram recipe: a transformer LM with n - 1 hard-attention heads computes an n-gram LM's next-symbol law.

Claimed (draft 582e0e1, ch. 8, § "n-grams"): given an n-gram LM ``p`` (eq:n-gram-assumption), a transformer with
one-hot symbols, positional encoding ``(t - h, 1)``, the score ``-|⟨q, k⟩|`` (eq:transformer-ngram-function), and
``n - 1`` heads, head ``h`` with ``Q_h: (…, t - h, 1) ↦ (t - h, -1)``, ``K_h: ↦ (1, t)`` (eq:hard-attention-scores:
the score ``-|j - t + h|``, maximal at ``j = t - h``) and ``V: ↦ onehot(y_t)`` (eq:hard-attention-values), an MLP
that ANDs the heads' multi-hot vector into the one-hot ``u`` of the history (sec:ffnn_boolean), and the output
matrix ``E_{y, history} = log p(y | history)``, gives ``softmax(E u) = p(· | y_{t-1}, …, y_{t-n+1})`` from the
representation of position ``t - 1``.

The model (our readings, named): strings ``^ w``, ``w ∈ {a, b}^*``, the BOS ``^`` at position 0 and ``y_k`` at
position ``k``; the next-symbol law at position ``p`` is ``p(· | y_p, …, y_{p-n+2})``, a history before position 0
padded with ``^`` (a head whose target is before 0 attends to the BOS, which pads it). Predicted symbols: ``a, b``
and ``EOS``. The positional encoding is ``(p, 1)`` (the draft's ``(t - h, 1)`` names the head; ``Q_h`` subtracts
``h``); the score is ``-⟨q, k⟩²`` written bilinearly (``q = (-(p - h)², 2(p - h), -1)``, ``k = (1, j, j²)``): the
model's scores are bilinear, and ``-x²`` orders the scores as ``-|x|`` does, so the maximal sets are the draft's
(``eq:hard-attention-scores`` checks the draft's ``-|·|`` itself). One layer, ``n - 1`` heads, future mask, UHAT.
**Completion (ours)**: the AND units ``u_r = ReLU(Σ_k v_{k, r_k} - (n - 2))`` (sec:ffnn_boolean's AND of ``n - 1``
bits) write the one-hot history; ``softmax(E u)`` is evaluated exactly for a one-hot ``u`` (``exp(log p) = p``,
with ``0 · (-∞) = 0`` for the histories ``u`` does not select: the draft's extended reals leave it undefined).

Variants: as written, the query at ``t - 1`` attends to ``(t - 1) - h`` (the draft's ``Q_h`` applied at the position
it stands at), which reads ``y_{t-2}, …, y_{t-n}``: refuted; the reading that head ``h`` attends to ``t - h`` (the
text's "the head h will attend to the symbol at position t - h") holds, with UHAT and with AHAT; a mutant drops the
AND's threshold. Tables: a seeded 2-gram and 3-gram law with rational entries, one of them 0.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from typing import Any

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.check.grid import GridCheck, Point
from symcot.claims import Claim, as_written, mutant, reading
from symcot.inputs.family import Family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, ConcreteDecoder, Decoder, Head, Layer, value_space
from symcot.model.described import encode
from symcot.model.description import AHAT, UHAT, HeadRule, ModelDescription, Positional

from .assembly_heads import SUBJECT_NOTE, noted

BOS, EOS = "^", "$"
SIGMA = ("a", "b")
SYMBOLS = (BOS, *SIGMA)  # what a position holds (one-hot)
PREDICT = (*SIGMA, EOS)  # what the LM predicts
ORDERS = (2, 3)
POSITIONS = Positional(lambda i, n: [i, 1], 2, "concat", "(p, 1)")
#: variant -> (the offset o: head h attends to p - h + o from position p; attention kind; the AND's threshold)
VARIANTS: dict[str, tuple[int, str, bool]] = {
    "as-written": (0, "UHAT", True),
    "attend-t-minus-h": (1, "UHAT", True),
    "AHAT": (1, "AHAT", True),
    "no-and-threshold": (1, "UHAT", False),
}

History = tuple[str, ...]


@cache
def table(order: int) -> dict[History, dict[str, Fraction]]:
    """A seeded ``order``-gram law: every history (most recent first) → a rational law over a, b, EOS."""
    rng = random.Random(7 * order)
    out: dict[History, dict[str, Fraction]] = {}
    for hist in itertools.product(SYMBOLS, repeat=order - 1):
        weights = [rng.randint(1, 6) for _ in PREDICT]
        total = sum(weights)
        out[hist] = {y: Fraction(w, total) for y, w in zip(PREDICT, weights)}
    first = next(iter(out))
    out[first] = {"a": Fraction(1, 2), "b": Fraction(1, 2), EOS: Fraction(0)}  # one zero probability
    return out


def history(order: int, s: tuple[str, ...], p: int) -> History:
    """``(y_p, y_{p-1}, …, y_{p-order+2})``, positions before 0 padded with the BOS."""
    return tuple(s[p - k] if p - k >= 0 else BOS for k in range(order - 1))


def ngram_law(order: int, s: tuple[str, ...]) -> list[dict[str, Fraction]]:
    """The reference: at every position ``p``, the table's law given the history at ``p`` (eq:n-gram-assumption)."""
    return [table(order)[history(order, s, p)] for p in range(len(s))]


def _layout(order: int) -> Layout:
    blocks = [(f"o{c}", 1) for c in range(len(SYMBOLS))]
    blocks += [(f"v{h}_{c}", 1) for h in range(1, order) for c in range(len(SYMBOLS))]
    blocks += [(f"u{r}", 1) for r in range(len(SYMBOLS) ** (order - 1))]
    return Layout(f"ch8.ngram{order}", blocks + [("pos", 1), ("one", 1)])


KEY = Layout("ch8.ngram.key", [("k0", 1), ("k1", 1), ("k2", 1)])


def ngram_decoder(order: int, variant: str) -> Decoder:
    """One layer of ``order - 1`` heads (module docstring) and the AND MLP writing the one-hot history into ``u``."""
    offset, kind, threshold = VARIANTS[variant]
    lay = _layout(order)
    x = lay.vars()
    heads = []
    for h in range(1, order):
        c = h - offset  # the head's target p - c
        q = Map("Q", lay, KEY, {"k0": -(x.pos * x.pos) + 2 * c * x.pos - c * c * x.one, "k1": 2 * x.pos - 2 * c * x.one,
                                "k2": -1 * x.one})
        k = Map("K", lay, KEY, {"k0": 1 * x.one, "k1": 1 * x.pos, "k2": x.pos * x.pos}, max_degree=2)
        slot = {f"v{h}_{s}": x[f"o{s}"] for s in range(len(SYMBOLS))}
        heads.append(Head(f"h{h}", q, k, Map("V", lay, lay, slot, zero=[b for b in lay.names if b not in slot],
                                              max_degree=1)))
    vs = value_space(heads)
    vv = vs.vars()
    w_o_assign = {f"v{h}_{s}": vv[f"h{h}.v{h}_{s}"] for h in range(1, order) for s in range(len(SYMBOLS))}
    w_o = Map("W_O", vs, lay, w_o_assign, zero=[b for b in lay.names if b not in w_o_assign], max_degree=1)
    hists = list(itertools.product(range(len(SYMBOLS)), repeat=order - 1))
    hid = Layout(f"ch8.ngram{order}.and", [(f"g{r}", 1) for r in range(len(hists))])
    units = {}
    for r, hist in enumerate(hists):
        expr: Any = x[f"v1_{hist[0]}"]
        for h in range(2, order):
            expr = expr + x[f"v{h}_{hist[h - 1]}"]
        units[f"g{r}"] = expr - (order - 2) * x.one if threshold and order > 2 else expr
    g = hid.vars()
    ffn = FFN(Map("W_1", lay, hid, units, max_degree=1),
              Map("W_2", hid, lay, {f"u{r}": g[f"g{r}"] for r in range(len(hists))},
                  zero=[b for b in lay.names if not b.startswith("u")], max_degree=1))
    rule = HeadRule("future", UHAT() if kind == "UHAT" else AHAT())
    desc = ModelDescription(f"ch8 {order}-gram ({variant})", direction="encoder", head=rule, residual="both",
                            positional=POSITIONS)
    return Decoder(f"{order}-gram transformer", lay, [Layer(Attention(heads, w_o), ffn)], desc)


@cache
def _concrete(order: int, variant: str) -> ConcreteDecoder:
    return ngram_decoder(order, variant).instantiate({})


def lm_head(order: int, u: list[Any]) -> dict[str, Fraction] | None:
    """``softmax(E u)``, ``E_{y,r} = log p(y | r)``, exactly for a one-hot ``u`` (``None``: ``u`` is not one-hot)."""
    if sorted(u) != [0] * (len(u) - 1) + [1]:
        return None
    r = u.index(1)
    hist = tuple(SYMBOLS[c] for c in list(itertools.product(range(len(SYMBOLS)), repeat=order - 1))[r])
    law = table(order)[hist]  # exp(log p(y | r)) = p(y | r), and Σ_y p(y | r) = 1
    return dict(law)


def transformer_law(order: int, variant: str, s: tuple[str, ...]) -> list[dict[str, Fraction] | None]:
    """The transformer's next-symbol law at every position (``None`` where ``u`` is not one-hot)."""
    dec = _concrete(order, variant)
    width = dec.layout.dim - 2
    tokens = [[1 if c == SYMBOLS.index(a) else 0 for c in range(len(SYMBOLS))] + [0] * (width - len(SYMBOLS))
              for a in s]
    start = len(SYMBOLS) * order  # the u block starts after o and the n - 1 slots
    return [lm_head(order, list(out[start:start + len(SYMBOLS) ** (order - 1)]))
            for out in encode(dec, tokens).outputs]


def one_hot_history(order: int, s: tuple[str, ...]) -> list[list[int]]:
    """What the network's ``u`` must hold at every position: the one-hot index of the history."""
    hists = list(itertools.product(range(len(SYMBOLS)), repeat=order - 1))
    out = []
    for p in range(len(s)):
        r = hists.index(tuple(SYMBOLS.index(a) for a in history(order, s, p)))
        out.append([int(c == r) for c in range(len(hists))])
    return out


def _network_check(variant: str, point: Point, length: int) -> EncoderCheck:
    """The one-layer network at order ``n``: ``u`` read at every position against the history's one-hot index."""
    order = point[0]

    def construction() -> EncoderConstruction:
        dec = ngram_decoder(order, variant)
        width = len(dec.layout.names) - 2

        def embed(a: str, i: int, n: int) -> list[int]:
            return [int(c == SYMBOLS.index(a)) for c in range(len(SYMBOLS))] + [0] * (width - len(SYMBOLS))

        u = tuple(f"u{r}" for r in range(len(SYMBOLS) ** (order - 1)))
        return EncoderConstruction(variant, dec, embed, Readout(u), notes=[SUBJECT_NOTE])

    fam = Family("every ^ w, w over {a, b}", lambda size: ((BOS, *w) for w in itertools.product(SIGMA, repeat=size)),
                 lambda size: 2 ** size, min_size=0, max_size=length)
    return EncoderCheck(construction, lambda s: one_hot_history(order, s), [fam])


def network_grid(variant: str) -> GridCheck:
    """What ``symcot replay`` and ``symcot latex`` show of ``variant``: the network at each order ``n``."""
    return GridCheck(variant, ("n",), [(n,) for n in ORDERS], lambda p, size: _network_check(variant, p, size),
                     method="the n - 1 heads and the AND MLP, u against the history's one-hot index",
                     symbols=lambda p: SIGMA, wrap=lambda w: (BOS, *w),
                     note="the LM head softmax(E u), E = log p, is applied as a formula after the network (exactly, "
                          "on a one-hot u: exp(log p) = p); the trace's readout is u, the history's one-hot index")


def _inputs(size: int) -> Iterator[tuple[int, tuple[str, ...]]]:
    for order in ORDERS:
        for w in itertools.product(SIGMA, repeat=size - 1):
            yield order, (BOS, *w)


INPUTS = Family("every order n ∈ {2, 3} × every ^ w, w ∈ {a, b}^{n-1}", _inputs,
                lambda size: len(ORDERS) * 2 ** (size - 1),
                describe=lambda p: {"order": p[0], "string": "".join(p[1]),
                                    "text": f"{p[0]}-gram, w = {''.join(p[1])}"})


def ngram_failure(variant: str, p: tuple[int, tuple[str, ...]]) -> dict[str, Any] | None:
    """The first position where the transformer's law differs from the n-gram law (``None``: none)."""
    order, s = p
    want, got = ngram_law(order, s), transformer_law(order, variant, s)
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            return {"order": order, "string": "".join(s), "position": i, "history": "".join(history(order, s, i)),
                    "expected": {k: str(v) for k, v in a.items()},
                    "got": None if b is None else {k: str(v) for k, v in b.items()}}
    return None


NGRAM = Claim(
    id="ch8:n-gram", kind="section",
    statement="A transformer LM with n - 1 hard-attention heads (head h attending to position t - h), positional "
              "encoding (t - h, 1), score -|⟨q, k⟩|, an AND MLP and E = log p gives the n-gram LM's next-symbol law.",
    where="draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 8, § \"n-grams\" (no label; id ours)",
    checks=[noted(v, [INPUTS], (lambda v_: lambda p: ngram_failure(v_, p))(v),
                   method="exhaustive exact replay, the LM head exact on the one-hot history", runs_as=network_grid(v))
            for v in VARIANTS],
    default_max_size=8,
    readings={
        "as-written": as_written("n = 2, 3; head h's query at position p = t - 1 attends to p - h (the draft's Q_h at "
                                 "the position it stands at); UHAT, future mask; our AND completion"),
        "attend-t-minus-h": reading("head h attends to t - h = p - h + 1 from position p = t - 1, as the text says"),
        "AHAT": reading("the same with average-hard attention (the draft's ingredient 'unique or averaging')"),
        "no-and-threshold": mutant("the AND units without their threshold -(n - 2): not one-hot, expected to fail"),
    },
)


# -- eq:hard-attention-scores: the draft's -|⟨q, k⟩| itself ------------------------------------------------
def _score_inputs(size: int) -> list[tuple[int, int]]:
    t = size - 1
    return [(t, h) for h in range(1, t + 2)]


SCORE_INPUTS = Family("every (t, h), t = n - 1, 1 ≤ h ≤ t + 1, keys j = 0..t", lambda size: iter(_score_inputs(size)),
                      lambda size: size, describe=lambda p: {"text": f"t = {p[0]}, h = {p[1]}"})


def score_failure(variant: str, p: tuple[int, int]) -> dict[str, Any] | None:
    """``-|⟨(t - h, -1), (1, j)⟩| = -|j - t + h|`` for every ``j ≤ t``, uniquely maximal at ``j = t - h``.

    ``squared``: the model's ``-⟨q, k⟩²`` has the same maximal set; ``positive``: the mutant score ``+|⟨q, k⟩|``.
    """
    t, h = p
    scores = {}
    for j in range(t + 1):
        dot = (t - h) * 1 + (-1) * j
        if dot != -(j - t + h):
            return {"t": t, "h": h, "j": j, "dot": dot}
        scores[j] = -dot * dot if variant == "squared" else (abs(dot) if variant == "positive" else -abs(dot))
    best = max(scores.values())
    top = [j for j, v in scores.items() if v == best]
    want = [t - h] if t - h >= 0 else [0]
    if variant == "as-written" and t - h < 0:
        return None  # the equation speaks of j = t - h ≥ 0 (the heads' padding is ch8:n-gram's)
    return None if top == want else {"t": t, "h": h, "maximal": top, "expected": want}


SCORES_AS_FORMULAS = ("the equation's scores -|⟨q, k⟩| are enumerated as integers for every t, h and key j; the "
                      "heads that use them run in ch8:n-gram (symcot replay ch8:n-gram --input ab)")

HARD_ATTENTION_SCORES = Claim(
    id="eq:hard-attention-scores", kind="equation",
    statement="score(q_t, k_j) = ⟨(t - h, -1), (1, j)⟩ under -|·| = -|j - t + h|, which is maximised by j = t - h.",
    where="draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 8, § \"n-grams\" (eq:hard-attention-scores)",
    checks=[noted(v, [SCORE_INPUTS], (lambda v_: lambda p: score_failure(v_, p))(v),
                   method="exhaustive enumeration, exact integers", as_formulas=SCORES_AS_FORMULAS)
            for v in ("as-written", "squared", "positive")],
    default_max_size=12,
    readings={
        "as-written": as_written("every t, h with t - h ≥ 0 and every key j = 0..t: the equation and the unique "
                                 "maximum at j = t - h"),
        "squared": reading("the score -⟨q, k⟩² (ch8:n-gram's bilinear form): the same unique maximum, and j = 0 "
                           "(the BOS) when t - h < 0"),
        "positive": mutant("the score +|⟨q, k⟩|: maximal at the far end, expected to fail"),
    },
)

CLAIMS = [NGRAM, HARD_ATTENTION_SCORES]
