r"""Chapter 8's "Exchanging Heads for Layers" (sec:multihead): ``H`` single-head layers simulate an ``H``-head layer.

Claimed (draft 582e0e1, ch. 8, § "Exchanging Heads for Layers"), "assuming no layer normalization": a layer with
heads ``(Q_h, K_h, V_h)``, ``h = 1..H`` (``V_h ∈ ℝ^{d×d}``) and head-combining function ``𝓗`` is simulated by ``H``
single-head layers on ``(H+1)d``-dimensional representations: the input is zero-padded, layer ``h``'s head has
``Q_{L,h} = (Q_h  O)``, ``K_{L,h} = (K_h  O)`` and ``V_{L,h}`` = ``V_h`` in block row ``h`` (slot ``h``), column
block 0, zero elsewhere; "the MLPs can be set to implement the identity function", the residual connections
accumulate the heads' outputs in the slots, and the last layer's MLP implements ``𝓗``.

Our readings (named, since the draft defines neither the original layer nor ``𝓗``):

* the original layer is the model's multi-head layer: ``y_t = x_t + W_O[a_{1,t} ‖ … ‖ a_{H,t}]``, output
  ``y_t + F(y_t)`` with ``F = W_2 ReLU(W_1 ·)``, residuals around both sublayers, no layer norm; ``𝓗`` is everything
  after the heads (``W_O``, the residual and ``F``);
* **completion (ours)**: the last layer's MLP ``G`` reads the slots: hidden units ``W_1(x + W_O a)`` and
  ``±W_O a``; it writes ``W_2 ReLU(W_1(x + W_O a)) + ReLU(W_O a) - ReLU(-W_O a)`` into slot 0, so slot 0 of the
  last layer's output is the original layer's output (the other slots keep the heads' outputs; slot 0 is read);
* "implement the identity function" (the intermediate layers): the *sublayer* is the identity, i.e. a zero MLP
  with its residual (sec:ffnn_identity) — as written; the MLP itself computing the identity (``ReLU(v) - ReLU(-v)``)
  under its residual doubles the stream (reading ``mlp-identity``); with the residual around attention only, the
  MLP computing the identity is right (reading ``attention-residual``);
* ``W_O`` of the single-head layers is the identity (the draft's layers have none).

Inputs: for ``H = 1, 2, 3``, fixed seeded heads with small rational weights (``d = 2``, ``d' = 1``), head ``h``
with its own mask and attention kind (UHAT leftmost, AHAT, UHAT rightmost; masks future, none, strict-future),
and every string over ``{a, b, c}`` (three vectors of ``ℚ²``) up to the size; both networks are run by the exact
engine and slot 0 is compared at every position. The ``block-algebra`` variant decides the block identities
symbolically (SymPy, symbolic weights and inputs, ``H = 1..3``): the layered heads' scores and values equal the
original heads', slot 0 is never overwritten, and ``G``'s output is the original's (``ReLU(z) - ReLU(-z) = z``).
Softmax heads are left to the symbolic variant: their weights are certified balls, and two runs' balls are never
decided equal (the row would be ``unknown``); the symbolic check covers them, the weights being symbols.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

import sympy as sp

from symcot.check.encoder import EncoderCheck, EncoderConstruction, Readout
from symcot.check.grid import GridCheck, Point
from symcot.claims import Claim, PropertyCheck, as_written, mutant, reading
from symcot.inputs.family import Family
from symcot.inputs.strings import strings_family
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, ConcreteDecoder, Decoder, Head, Layer, value_space
from symcot.model.described import encode
from symcot.model.description import AHAT, UHAT, HeadRule, ModelDescription

SUBJECT_NOTE = ("subject: a draft of The Transformer Cookbook, 582e0e1 (4 February 2025), chapter 8 (recipes); a "
                "finding is about this draft only")


def noted(*args: Any, **kw: Any) -> PropertyCheck:
    """A :class:`PropertyCheck` whose rows name the draft as their subject (every chapter-8 recipe's but Dyck's)."""
    return PropertyCheck(*args, notes=[SUBJECT_NOTE, *kw.pop("notes", [])], **kw)


D, DK, M = 2, 1, 2  # d, d' (key dimension), the width of the original layer's F
SYMBOLS: dict[str, list[Fraction]] = {"a": [Fraction(1), Fraction(0)], "b": [Fraction(0), Fraction(1)],
                                      "c": [Fraction(1), Fraction(-1)]}
RULES: tuple[HeadRule, ...] = (HeadRule("future", UHAT("leftmost")), HeadRule("none", AHAT()),
                               HeadRule("strict-future", UHAT("rightmost")))
#: variant -> the intermediate layers' MLP ("zero" or "identity"), the residual, and a deliberate break.
VARIANTS: dict[str, tuple[str, str, str | None]] = {
    "as-written": ("zero", "both", None),
    "mlp-identity": ("identity", "both", None),
    "attention-residual": ("identity", "attention", None),
    "slot-of-previous": ("zero", "both", "query-reads-slot"),
    "no-combine": ("zero", "both", "no-combine"),
}

Matrix = list[list[Fraction]]


def _rand(rng: random.Random, rows: int, cols: int, pool: Sequence[Fraction]) -> Matrix:
    return [[rng.choice(pool) for _ in range(cols)] for _ in range(rows)]


@cache
def weights(h_count: int) -> dict[str, Any]:
    """The seeded weights for ``H``: per head ``Q, K`` (d'×d), ``V`` (d×d); ``W_O`` (d×Hd), ``W_1``, ``W_2``."""
    rng = random.Random(1000 + h_count)
    small = [Fraction(k) for k in (-2, -1, 0, 1, 2)]
    vals = [Fraction(-1), Fraction(0), Fraction(1), Fraction(1, 2), Fraction(2)]
    heads = [{"Q": _rand(rng, DK, D, small), "K": _rand(rng, DK, D, small), "V": _rand(rng, D, D, vals)}
             for _ in range(h_count)]
    return {"heads": heads, "W_O": _rand(rng, D, h_count * D, vals), "W_1": _rand(rng, M, D, small),
            "W_2": _rand(rng, D, M, vals)}


def _linear(name: str, src: Layout, dst: Layout, rows: dict[str, dict[str, Fraction]]) -> Map:
    """The linear map ``dst_block = Σ c · src_block`` (scalar blocks); a block with no term is zero."""
    v = src.vars()
    assign: dict[str, Any] = {}
    for out, terms in rows.items():
        expr: Any = None
        for blk, c in terms.items():
            if c != 0:
                expr = c * v[blk] if expr is None else expr + c * v[blk]
        if expr is not None:
            assign[out] = expr
    return Map(name, src, dst, assign, zero=[b for b in dst.names if b not in assign], max_degree=1)


def _names(prefix: str, k: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(k)]


X = _names("x", D)
KEY = Layout("ch8.heads.key", [(k, 1) for k in _names("k", DK)])


def _description(h_count: int, residual: str) -> ModelDescription:
    return ModelDescription(f"ch8 heads (H = {h_count}, residual {residual})", direction="encoder",
                            head=RULES[0], heads={f"h{h + 1}": RULES[h] for h in range(h_count)}, residual=residual)


def original_decoder(h_count: int) -> Decoder:
    """The ``H``-head layer: ``y = x + W_O[a_1 ‖ … ‖ a_H]``, output ``y + W_2 ReLU(W_1 y)`` (no layer norm)."""
    w = weights(h_count)
    lay = Layout(f"ch8.heads.original{h_count}", [(b, 1) for b in X])
    hw = w["heads"]
    heads = [Head(f"h{h + 1}", _linear("Q", lay, KEY, {f"k{r}": dict(zip(X, hw[h]["Q"][r])) for r in range(DK)}),
                  _linear("K", lay, KEY, {f"k{r}": dict(zip(X, hw[h]["K"][r])) for r in range(DK)}),
                  _linear("V", lay, lay, {X[r]: dict(zip(X, hw[h]["V"][r])) for r in range(D)}))
             for h in range(h_count)]
    vs = value_space(heads)
    cols = [f"h{h + 1}.{b}" for h in range(h_count) for b in X]
    w_o = _linear("W_O", vs, lay, {X[r]: dict(zip(cols, w["W_O"][r])) for r in range(D)})
    hid = Layout(f"ch8.heads.hidden{h_count}", [(b, 1) for b in _names("u", M)])
    ffn = FFN(_linear("W_1", lay, hid, {f"u{r}": dict(zip(X, w["W_1"][r])) for r in range(M)}),
              _linear("W_2", hid, lay, {X[r]: dict(zip(_names("u", M), w["W_2"][r])) for r in range(D)}))
    return Decoder(f"{h_count}-head layer", lay, [Layer(Attention(heads, w_o), ffn)], _description(h_count, "both"))


def _slot(h: int) -> list[str]:
    return [f"s{h}_{k}" for k in range(D)]


def _identity_ffn(lay: Layout, name: str) -> FFN:
    """``ReLU(v) - ReLU(-v)`` on every coordinate (the MLP itself computes the identity)."""
    hid = Layout(name, [(f"{s}{b}", 1) for b in lay.names for s in ("p", "n")])
    w1 = _linear("W_1", lay, hid, {f"{s}{b}": {b: Fraction(1 if s == "p" else -1)} for b in lay.names for s in "pn"})
    w2 = _linear("W_2", hid, lay, {b: {f"p{b}": Fraction(1), f"n{b}": Fraction(-1)} for b in lay.names})
    return FFN(w1, w2)


def _combine_ffn(lay: Layout, h_count: int, w: dict[str, Any], broken: bool) -> FFN:
    """The completion ``G``: ``W_2 ReLU(W_1(x + W_O a)) + ReLU(W_O a) - ReLU(-W_O a)`` into slot 0."""
    slots = [b for h in range(1, h_count + 1) for b in _slot(h)]
    w_o = [dict(zip(slots, w["W_O"][r])) for r in range(D)]
    units: dict[str, dict[str, Fraction]] = {}
    for r in range(M):  # W_1 (x + W_O a)
        terms = {X[c]: w["W_1"][r][c] for c in range(D)}
        for c in range(D):
            for blk, coef in w_o[c].items():
                terms[blk] = terms.get(blk, Fraction(0)) + w["W_1"][r][c] * coef
        units[f"u{r}"] = terms
    if not broken:
        for r in range(D):
            units[f"p{r}"] = dict(w_o[r])
            units[f"n{r}"] = {b: -c for b, c in w_o[r].items()}
    hid = Layout(f"ch8.heads.combine{h_count}{'x' if broken else ''}", [(b, 1) for b in units])
    out = {X[r]: {**{f"u{k}": w["W_2"][r][k] for k in range(M)},
                  **({} if broken else {f"p{r}": Fraction(1), f"n{r}": Fraction(-1)})} for r in range(D)}
    return FFN(_linear("W_1", lay, hid, units), _linear("W_2", hid, lay, out))


def _zero_ffn(lay: Layout) -> FFN:
    return FFN(Map("W_1", lay, lay, zero=list(lay.names)), Map("W_2", lay, lay, zero=list(lay.names)))


def layered_decoder(h_count: int, variant: str) -> Decoder:
    """The draft's ``H`` single-head layers on ``(H + 1)d`` coordinates (module docstring), as ``variant`` reads it."""
    mlp, residual, brk = VARIANTS[variant]
    w = weights(h_count)
    lay = Layout(f"ch8.heads.layered{h_count}", [(b, 1) for b in X + [s for h in range(1, h_count + 1)
                                                                       for s in _slot(h)]])
    layers = []
    for h in range(1, h_count + 1):
        hw = w["heads"][h - 1]
        read = _slot(h - 1) if brk == "query-reads-slot" and h > 1 else X
        head = Head(f"h{h}", _linear("Q", lay, KEY, {f"k{r}": dict(zip(read, hw["Q"][r])) for r in range(DK)}),
                    _linear("K", lay, KEY, {f"k{r}": dict(zip(X, hw["K"][r])) for r in range(DK)}),
                    _linear("V", lay, lay, {_slot(h)[r]: dict(zip(X, hw["V"][r])) for r in range(D)}))
        vs = value_space([head])
        w_o = _linear("W_O", vs, lay, {b: {f"h{h}.{b}": Fraction(1)} for b in lay.names})
        if h == h_count:
            ffn = _combine_ffn(lay, h_count, w, brk == "no-combine")
            if residual == "attention":  # no residual around the MLP: G also passes the stream through
                ffn = _with_pass_through(lay, ffn)
        elif mlp == "identity":
            ffn = _identity_ffn(lay, f"ch8.heads.id{h_count}.{h}")
        else:
            ffn = _zero_ffn(lay)
        layers.append(Layer(Attention([head], w_o), ffn))
    return Decoder(f"{h_count} single-head layers ({variant})", lay, layers, _description(h_count, residual))


def _with_pass_through(lay: Layout, ffn: FFN) -> FFN:
    """``G`` plus ``ReLU(v) - ReLU(-v)`` on every coordinate (the MLP's output is then the whole layer's)."""
    ident = _identity_ffn(lay, "unused")
    hid = Layout(f"{ffn.w1.dst.name}+id", [(b, 1) for b in ffn.w1.dst.names + ident.w1.dst.names])
    v = lay.vars()
    w1_assign = {**{b: ffn.w1.exprs[b] for b in ffn.w1.exprs}, **{f"p{b}": v[b] for b in lay.names},
                 **{f"n{b}": -v[b] for b in lay.names}}
    w1 = Map("W_1", lay, hid, w1_assign, zero=[b for b in hid.names if b not in w1_assign], max_degree=1)
    g = ffn.w2.instantiate({})
    rows: dict[str, dict[str, Fraction]] = {}
    for r, b in enumerate(lay.names):
        terms = {ffn.w2.src.names[c]: Fraction(g.coefficient(r, c)) for c in range(len(ffn.w2.src.names))}
        terms[f"p{b}"], terms[f"n{b}"] = Fraction(1), Fraction(-1)
        rows[b] = terms
    return FFN(w1, _linear("W_2", hid, lay, rows))


def _embed(s: tuple[str, ...], width: int) -> list[list[Fraction]]:
    return [SYMBOLS[a] + [Fraction(0)] * (width - D) for a in s]


@cache
def _concrete(h_count: int, variant: str | None) -> ConcreteDecoder:
    dec = original_decoder(h_count) if variant is None else layered_decoder(h_count, variant)
    return dec.instantiate({})


def original_output(h_count: int, s: tuple[str, ...]) -> list[list[Any]]:
    """The original ``H``-head layer's output at every position (the exact engine)."""
    return encode(_concrete(h_count, None), _embed(s, D)).outputs


def layered_output(h_count: int, variant: str, s: tuple[str, ...]) -> list[list[Any]]:
    """Slot 0 of the last single-head layer's output at every position."""
    return [out[:D] for out in encode(_concrete(h_count, variant), _embed(s, (h_count + 1) * D)).outputs]


def _inputs(size: int) -> Iterator[tuple[int, tuple[str, ...]]]:
    for h_count in range(1, len(RULES) + 1):
        for s in itertools.product(SYMBOLS, repeat=size):
            yield h_count, s


INPUTS = Family("every H ∈ {1, 2, 3} × every string over {a, b, c}", _inputs,
                lambda size: len(RULES) * len(SYMBOLS) ** size,
                describe=lambda p: {"H": p[0], "string": "".join(p[1]), "text": f"H = {p[0]}, w = {''.join(p[1])}"})


def heads_failure(variant: str, p: tuple[int, tuple[str, ...]]) -> dict[str, Any] | None:
    """The first position where slot 0 of the layered network differs from the original layer (``None``: none)."""
    h_count, s = p
    want, got = original_output(h_count, s), layered_output(h_count, variant, s)
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            return {"H": h_count, "string": "".join(s), "position": i, "expected": [str(v) for v in a],
                    "got": [str(v) for v in b]}
    return None


# -- the block algebra, symbolically --------------------------------------------------------------------
def _sym(name: str, rows: int, cols: int) -> sp.Matrix:
    return sp.Matrix(rows, cols, lambda r, c: sp.Symbol(f"{name}_{r}{c}", real=True))


def block_algebra_failure(h_count: int, offset: int = 0) -> dict[str, Any] | None:
    """The draft's block matrices with symbolic ``Q_h, K_h, V_h, W_O, W_1, W_2`` and a symbolic stream.

    Checks: (1) ``Q_{L,h} X = Q_h x``, ``K_{L,h} X = K_h x`` whatever the slots hold (the scores, hence the
    weights, are the original head's); (2) ``V_{L,h} X`` is ``V_h x`` in slot ``h`` and zero elsewhere, so the
    residual stream after layer ``h`` is ``(x, a_1, …, a_h, 0, …)`` given the head outputs ``a_h = Σ_j α_j V_h x_j``
    (the weights symbolic); (3) slot 0 of ``X^H + G(X^H)`` equals ``y + W_2 ReLU(W_1 y)``, ``y = x + W_O a``,
    with ``ReLU(z) - ReLU(-z) = z`` decided on a real symbol. ``offset`` moves ``V_h`` to slot ``h + offset``
    (a deliberately broken placement, for the tests).
    """
    n_h = h_count
    width = (n_h + 1) * D
    x = _sym("x", D, 1)
    for h in range(1, n_h + 1):
        q, k, v = _sym(f"Q{h}", DK, D), _sym(f"K{h}", DK, D), _sym(f"V{h}", D, D)
        q_l = q.row_join(sp.zeros(DK, n_h * D))
        k_l = k.row_join(sp.zeros(DK, n_h * D))
        at = h + offset
        v_l = sp.zeros(at * D, width).col_join(v.row_join(sp.zeros(D, n_h * D))).col_join(
            sp.zeros((n_h - at) * D, width))
        stream = x.col_join(_sym("s", n_h * D, 1))  # whatever the other slots hold
        if sp.expand(q_l * stream - q * x) != sp.zeros(DK, 1) or sp.expand(k_l * stream - k * x) != sp.zeros(DK, 1):
            return {"H": n_h, "layer": h, "what": "Q_{L,h} or K_{L,h} reads more than slot 0"}
        want = sp.zeros(h * D, 1).col_join(v * x).col_join(sp.zeros((n_h - h) * D, 1))
        if sp.expand(v_l * stream - want) != sp.zeros(width, 1):
            return {"H": n_h, "layer": h, "what": "V_{L,h} does not write V_h x into slot h alone"}
    a = _sym("a", n_h * D, 1)  # the head outputs, in slots 1..H
    w_o, w_1, w_2 = _sym("O", D, n_h * D), _sym("W1", M, D), _sym("W2", D, M)
    y = x + w_o * a
    relu = sp.Function("ReLU")
    pre = list(w_1 * x + w_1 * w_o * a) + list(w_o * a) + list(-w_o * a)  # G's hidden pre-activations
    hidden = sp.Matrix([relu(sp.expand(p)) for p in pre])
    w2g = w_2.row_join(sp.eye(D)).row_join(-sp.eye(D))
    got = x + w2g * hidden
    want = y + w_2 * sp.Matrix([relu(sp.expand(p)) for p in w_1 * y])
    z = sp.Symbol("z", real=True)
    if sp.simplify((sp.Max(z, 0) - sp.Max(-z, 0) - z).rewrite(sp.Piecewise)) != 0:
        return {"H": n_h, "what": "ReLU(z) - ReLU(-z) = z fails"}
    pairs = {relu(sp.expand(-e)): relu(sp.expand(e)) - sp.expand(e) for e in w_o * a}
    diff = sp.expand((got - want).subs(pairs))
    if diff != sp.zeros(D, 1):
        return {"H": n_h, "what": "slot 0 of G's output is not the original layer's", "difference": str(diff.T)}
    return None


HEAD_COUNTS = Family("H (the number of heads) = n", lambda size: iter([size]), lambda size: 1,
                     describe=lambda h: {"text": f"H = {h}"})


def _layered_check(variant: str, point: Point, length: int) -> EncoderCheck:
    """The single-head layers at ``H`` as an encoder: slot 0 read at every position against the original layer."""
    h_count = point[0]

    def construction() -> EncoderConstruction:
        width = (h_count + 1) * D
        return EncoderConstruction(variant, layered_decoder(h_count, variant),
                                   lambda a, i, n: _embed((a,), width)[0], Readout(tuple(X)), notes=[SUBJECT_NOTE])

    return EncoderCheck(construction, lambda s: original_output(h_count, s),
                        [strings_family(tuple(SYMBOLS), max_size=length)])


def layered_grid(variant: str) -> GridCheck:
    """What ``symcot replay`` and ``symcot latex`` show of ``variant``: the layered network at each ``H``."""
    return GridCheck(variant, ("H",), [(h,) for h in range(1, len(RULES) + 1)],
                     lambda p, n: _layered_check(variant, p, n),
                     method="the H single-head layers, slot 0 against the original H-head layer")


def _check(variant: str) -> PropertyCheck:
    return PropertyCheck(variant, [INPUTS], lambda p: heads_failure(variant, p),
                         method="exhaustive exact replay of both networks, slot 0 at every position",
                         runs_as=layered_grid(variant))


def _noted(chk: PropertyCheck, default_max_size: int | None = None) -> PropertyCheck:
    out = noted(chk.variant, chk.families, chk.per_input, chk.method, runs_as=chk.runs_as,
                 as_formulas=chk.as_formulas)
    if default_max_size is not None:
        out.default_max_size = default_max_size  # type: ignore[attr-defined]
    return out


HEADS_FOR_LAYERS = Claim(
    id="sec:multihead", kind="section",
    statement="Assuming no layer normalisation, an H-head layer is simulated by H single-head layers on (H+1)d "
              "coordinates: layer h's head is head h reading slot 0 and writing slot h, the MLPs implement the "
              "identity, the residual connections accumulate the slots, and the last MLP implements 𝓗.",
    where="draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 8, § \"Exchanging Heads for Layers\" "
          "(sec:multihead)",
    checks=[_noted(_check(v)) for v in VARIANTS]
    + [_noted(PropertyCheck("block-algebra", [HEAD_COUNTS], lambda h: block_algebra_failure(h),
                            method="SymPy: the block matrices with symbolic weights, inputs and attention outputs",
                            as_formulas="the block-algebra variant decides the block matrices symbolically (SymPy), "
                                        "with no weights to run; the other variants run the layers"),
              default_max_size=3)],
    default_max_size=4,
    readings={
        "as-written": as_written("H = 1..3 seeded heads (d = 2, d' = 1; UHAT/AHAT, masks future/none/strict-future), "
                                 "the intermediate MLPs zero under their residual (the identity sublayer, "
                                 "sec:ffnn_identity), the last MLP our completion G of 𝓗 = (W_O, residual, F); "
                                 "slot 0 against the original layer at every position"),
        "mlp-identity": reading("the MLP itself computes the identity (ReLU(v) - ReLU(-v)) under its residual: "
                                "the stream doubles, expected to fail"),
        "attention-residual": reading("the residual around attention only (the first paper's Section 3) and the "
                                      "MLPs computing the identity; G also passes the stream through"),
        "slot-of-previous": mutant("layer h's query reads slot h - 1 (the previous head's output) instead of slot "
                                   "0: expected to fail"),
        "no-combine": mutant("the last MLP applies F to x + W_O a but drops the W_O a pass-through: expected to "
                             "fail"),
        "block-algebra": reading("the same blocks decided symbolically (SymPy; symbolic Q_h, K_h, V_h, W_O, F, "
                                 "inputs and attention weights) for H = 1, 2, 3"),
    },
)

CLAIMS = [HEADS_FOR_LAYERS]
