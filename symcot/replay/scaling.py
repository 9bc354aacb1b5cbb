"""Certified exactness for batched replay: integer scaling, magnitude bounds and the choice of number type.

The batched engine (:mod:`symcot.replay.batched`) runs the Section-3 semantics (``sec:trans``:
unique hard attention, ``W_O``, the residual ``α'' + z`` and ``W_2 ReLU(W_1(·))``) on arrays. It may
use float64 BLAS or int64 only where this module *proves* the result equals the exact one.

**Integer scaling.** Every vector carries a static positive integer scale ``s``: the array holds
``Z = s·z``. A map (``ConcreteMap``: ``out[o] = Σ c + Σ c x_i + Σ c x_i x_j``) with ``D`` the lcm of its
coefficients' denominators and ``δ`` its largest degree sends scale ``s`` to ``D·s^δ``; the term of
degree ``g`` gets the integer coefficient ``c·D·s^(δ-g)``, so the output array is ``D·s^δ·out``
exactly. The rules of ``sec:trans`` then keep everything exact:

- *attention*: the scores of one head are ``⟨K z_i, Q z_m⟩`` times ``s_K·s_Q > 0`` for every position
  (all positions of a layer share one scale), so the maximum and the smallest maximising index (the
  unique-hard-attention choice) are unchanged;
- *multi-head*: head values at scales ``s_h`` are multiplied by ``lcm(s_h)/s_h`` before ``W_O``;
- *residual*: ``α''`` (scale ``s_α``) and ``z`` (scale ``s_z``) are multiplied by ``r/s_α`` and ``r/s_z``,
  ``r = lcm(s_α, s_z)``, then added;
- *ReLU* is positively homogeneous: ``ReLU(r·v) = r·ReLU(v)``;
- *chain of thought*: the last layer's output ``y`` (scale ``S_L``) becomes the next token at the token
  scale ``S_0`` by the exact integer division ``Z·S_0/S_L``. When ``S_L/gcd(S_0, S_L)`` does not divide
  it, the value is not representable at scale ``S_0`` and the engine moves to the exact path.

When all weights and tokens are integers every scale is 1 (the DFS decoder, for instance).

**Bounds.** For a polynomial output, every partial sum of ``Σ terms`` (in any order, as BLAS may sum)
is at most ``Σ |c|·Π b_i`` where ``b_i ≥ |x_i|``. :func:`push_bound` propagates such per-coordinate
bounds ("symmetric intervals" ``[-b, b]``) through one token's pass: each map, the scores
``Σ b_K b_Q``, the values (the hull of the bounds of every cached position), the upscalings, the
residual ``b_α + b_z``, ReLU (bounds unchanged) and the feedback division. Its result is the largest
magnitude any partial sum or stored value can reach.

**Choice of path.** float64 holds every integer of magnitude ``≤ 2^53`` exactly, and a sum or product
of such integers whose exact value is ``≤ 2^53`` is computed exactly; int64 holds ``|v| ≤ 2^63 - 1``.
The bounds themselves are computed in float64 from non-negative numbers by monotone operations, so
each is within a relative ``10^-9`` of its exact value (far fewer than ``10^6`` roundings of relative
size ``2^-53``); a path is therefore accepted only when the computed bound is at most *half* its limit,
and an overflow to ``inf`` or a ``nan`` rejects it. Otherwise the exact path (object arrays of Python
``int``/``Fraction``, original coefficients, no scaling) is used.

Two modes:

- **static**: :func:`static_certificate` propagates the bounds over the whole run (every prompt
  position, then each generated token, bounded by the hull of the outputs so far) from the input
  ranges; if it stays within float32's limit, float32 is used with no run-time check. When an
  iteration leaves every bound unchanged the bound holds for any run length (``fixed_point``).
- **guarded**: where the static bound is too coarse (interval propagation cannot see that, say,
  ``ReLU(γ) - ReLU(γ-1) ∈ {0, 1}``), the engine applies :func:`push_bound` before every token's pass,
  starting from the *measured* magnitudes of that token (exact: the arrays hold exact integers) and the
  bounds of the cached positions, and runs the pass in the narrowest type the bound allows, promoting
  its arrays exactly (float64 → int64 → object) when a bound grows.

The :class:`Certificate` (path, mode, bound, limit, promotions) is part of the check's
``Verdict.details``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from symcot.errors import SymcotError
from symcot.ir.maps import ConcreteMap
from symcot.ir.symbols import to_exact
from symcot.model.decoder import ConcreteDecoder

#: Every integer of magnitude at most this is a float32; sums/products below it are exact.
FLOAT32_EXACT = 2**24
#: Every integer of magnitude at most this is a float64; sums/products below it are exact.
FLOAT64_EXACT = 2**53
#: The largest int64.
INT64_MAX = 2**63 - 1
#: Paths in order of preference; each is used only when its limit is certified.
PATHS = ("float32", "float64", "int64", "object")
LIMITS: dict[str, int | None] = {"float32": FLOAT32_EXACT, "float64": FLOAT64_EXACT, "int64": INT64_MAX,
                                 "object": None}
#: The numpy type of each path's arrays.
DTYPES: dict[str, Any] = {"float32": np.float32, "float64": np.float64, "int64": np.int64, "object": object}


class NotNumericError(SymcotError):
    """A coefficient or token that is not an exact rational number (a free symbol such as λ)."""


def as_rational(c: Any) -> int | Fraction:
    """``c`` as ``int``/``Fraction`` (via :func:`symcot.ir.symbols.to_exact`); anything else is refused."""
    try:
        e = to_exact(c)
    except TypeError as err:
        raise NotNumericError(str(err)) from None
    if isinstance(e, (int, Fraction)):
        return e
    raise NotNumericError(f"coefficient {c} is not an exact rational (substitute every constant first)")


def _den(c: int | Fraction) -> int:
    return c.denominator if isinstance(c, Fraction) else 1


def _unscaled(f: Fraction) -> int | Fraction:
    return f.numerator if f.denominator == 1 else f


def unscale(x: np.ndarray, scale: int) -> np.ndarray:
    """An object array of the exact values ``x / scale`` of an array at ``scale`` (Python ``int`` where integral)."""
    if x.dtype == object:
        if scale == 1:
            return x.copy()
        return np.frompyfunc(lambda v: _unscaled(Fraction(v, scale)), 1, 1)(x).astype(object)
    ints = x.astype(np.int64).astype(object)
    if scale == 1:
        return ints
    return np.frompyfunc(lambda v: _unscaled(Fraction(v, scale)), 1, 1)(ints).astype(object)


def choose_path(bound: float) -> str:
    """The narrowest path whose limit the (float-computed) ``bound`` certifies, with the factor-2 margin."""
    if bound <= FLOAT32_EXACT / 2:  # nan and inf compare False
        return "float32"
    if bound <= FLOAT64_EXACT / 2:
        return "float64"
    if bound <= INT64_MAX / 2:
        return "int64"
    return "object"


def wider(a: str, b: str) -> str:
    """The wider of two paths (``object`` ⊃ ``int64`` ⊃ ``float64``)."""
    return a if PATHS.index(a) >= PATHS.index(b) else b


@dataclass
class IntMap:
    """A :class:`ConcreteMap` with integer coefficients for input scale ``s_in``; output scale ``s_out``.

    ``const``, ``lin`` and ``quad`` hold ``(o, c)``, ``(o, i, c)`` and ``(o, i, j, c)`` with ``int`` ``c``.
    ``identity`` is true when the map is ``out = x`` (then ``s_out = s_in``).
    """

    name: str
    d_in: int
    d_out: int
    const: list[tuple[int, int]]
    lin: list[tuple[int, int, int]]
    quad: list[tuple[int, int, int, int]]
    s_in: int
    s_out: int
    identity: bool = False
    _bound_data: Any = field(default=None, repr=False)

    def _prepare(self) -> Any:
        if self._bound_data is None:
            b = np.zeros(self.d_out)
            w = np.zeros((self.d_out, self.d_in))
            pairs = sorted({(i, j) for _, i, j, _ in self.quad})
            pidx = {p: k for k, p in enumerate(pairs)}
            q = np.zeros((self.d_out, len(pairs)))
            for o, c in self.const:
                b[o] += abs(float(c))
            for o, i, c in self.lin:
                w[o, i] += abs(float(c))
            for o, i, j, c in self.quad:
                q[o, pidx[(i, j)]] += abs(float(c))
            qi = np.array([p[0] for p in pairs], dtype=np.intp)
            qj = np.array([p[1] for p in pairs], dtype=np.intp)
            self._bound_data = (b, w, q, qi, qj)
        return self._bound_data

    def bound(self, bx: np.ndarray) -> np.ndarray:
        """Per-output bound ``Σ|c| + Σ|c| b_i + Σ|c| b_i b_j`` on every partial sum (and the output)."""
        if self.identity:
            return bx
        b, w, q, qi, qj = self._prepare()
        with np.errstate(over="ignore", invalid="ignore"):
            out = b + w @ bx
            if len(qi):
                out = out + q @ (bx[qi] * bx[qj])
        return np.where(np.isnan(out), np.inf, out)


def is_identity(m: ConcreteMap | IntMap) -> bool:
    """Whether a map is ``out = x`` (one term ``x_o`` with coefficient 1 per output, nothing else)."""
    if m.d_in != m.d_out or m.const or m.quad or len(m.lin) != m.d_out:
        return False
    seen = set()
    for o, i, c in m.lin:
        if o != i or c != 1 or o in seen:
            return False
        seen.add(o)
    return True


def scale_map(m: ConcreteMap, s_in: int) -> IntMap:
    """Integer coefficients at input scale ``s_in``: degree-``g`` terms get ``c·D·s_in^(δ-g)``; ``s_out = D·s_in^δ``."""
    const = [(o, as_rational(c)) for o, c in m.const]
    lin = [(o, i, as_rational(c)) for o, i, c in m.lin]
    quad = [(o, i, j, as_rational(c)) for o, i, j, c in m.quad]
    coeffs = [t[-1] for t in const] + [t[-1] for t in lin] + [t[-1] for t in quad]
    if not coeffs:
        return IntMap(m.name, m.d_in, m.d_out, [], [], [], s_in, 1)
    den = 1
    for c in coeffs:
        den = math.lcm(den, _den(c))
    deg = 2 if quad else 1 if lin else 0
    s_out = den * s_in**deg

    def f(c: int | Fraction, g: int) -> int:
        v = c * den * s_in ** (deg - g)
        v = Fraction(v)
        assert v.denominator == 1
        return int(v)

    return IntMap(m.name, m.d_in, m.d_out, [(o, f(c, 0)) for o, c in const], [(o, i, f(c, 1)) for o, i, c in lin],
                  [(o, i, j, f(c, 2)) for o, i, j, c in quad], s_in, s_out, is_identity(m) and deg == 1 and den == 1)


@dataclass
class ScaledHead:
    """One head at integer scale: ``Q``, ``K``, ``V`` and the factor ``v_up`` to the common value scale."""

    name: str
    q: IntMap
    k: IntMap
    v: IntMap
    v_up: int


@dataclass
class ScaledLayer:
    """One layer at integer scale (``heads`` is ``None`` for trivial attention)."""

    heads: list[ScaledHead] | None
    w_o: IntMap | None
    alpha_up: int
    z_up: int
    w1: IntMap
    w2: IntMap
    s_in: int
    s_out: int


@dataclass
class ScaledDecoder:
    """A :class:`ConcreteDecoder` at integer scale: token scale ``s_token``, output scale ``s_out``.

    The feedback of ``y`` (scale ``s_out``) to a token (scale ``s_token``) multiplies by ``fb_num`` and
    divides exactly by ``fb_den`` (``fb_num/fb_den = s_token/s_out`` in lowest terms).
    """

    d: int
    layers: list[ScaledLayer]
    s_token: int
    s_out: int

    @property
    def fb_num(self) -> int:
        """Numerator of ``s_token/s_out`` in lowest terms."""
        return self.s_token // math.gcd(self.s_token, self.s_out)

    @property
    def fb_den(self) -> int:
        """Denominator of ``s_token/s_out`` in lowest terms."""
        return self.s_out // math.gcd(self.s_token, self.s_out)

    def scales(self) -> dict[str, Any]:
        """The static scales, for the certificate."""
        return {"token": self.s_token, "output": self.s_out,
                "layers": [{"in": lay.s_in, "out": lay.s_out} for lay in self.layers]}


def scale_decoder(dec: ConcreteDecoder, token_scale: int = 1) -> ScaledDecoder:
    """Integer-scaled maps of ``dec`` for tokens held at scale ``token_scale`` (module docstring)."""
    if token_scale < 1:
        raise ValueError("the token scale must be a positive integer")
    s = token_scale
    layers: list[ScaledLayer] = []
    for layer in dec.layers:
        s_in = s
        heads = None
        w_o = None
        alpha_up = z_up = 1
        r = s
        if layer.attention is not None:
            heads = []
            raw = [(h.name, scale_map(h.query, s), scale_map(h.key, s), scale_map(h.value, s))
                   for h in layer.attention.heads]
            s_v = 1
            for _, _, _, v in raw:
                s_v = math.lcm(s_v, v.s_out)
            heads = [ScaledHead(name, q, k, v, s_v // v.s_out) for name, q, k, v in raw]
            w_o = scale_map(layer.attention.out, s_v)
            r = math.lcm(w_o.s_out, s)
            alpha_up, z_up = r // w_o.s_out, r // s
        w1 = scale_map(layer.ffn.w1, r)
        w2 = scale_map(layer.ffn.w2, w1.s_out)
        s = w2.s_out
        layers.append(ScaledLayer(heads, w_o, alpha_up, z_up, w1, w2, s_in, s))
    return ScaledDecoder(dec.layout.dim, layers, token_scale, s)


@dataclass
class Hulls:
    """Bounds on what earlier positions left in the caches: per attention layer and head, keys and values."""

    keys: list[list[np.ndarray]]
    values: list[list[np.ndarray]]

    @staticmethod
    def empty(sd: ScaledDecoder) -> Hulls:
        """No position yet."""
        keys = [[np.zeros(h.k.d_out) for h in lay.heads] if lay.heads else [] for lay in sd.layers]
        vals = [[np.zeros(h.v.d_out) for h in lay.heads] if lay.heads else [] for lay in sd.layers]
        return Hulls(keys, vals)

    def copy(self) -> Hulls:
        """An independent copy."""
        return Hulls([[k.copy() for k in ks] for ks in self.keys], [[v.copy() for v in vs] for vs in self.values])

    def same(self, other: Hulls) -> bool:
        """Whether every bound is equal."""
        return all(np.array_equal(a, b) for xs, ys in zip(self.keys, other.keys) for a, b in zip(xs, ys)) and all(
            np.array_equal(a, b) for xs, ys in zip(self.values, other.values) for a, b in zip(xs, ys))


def push_bound(sd: ScaledDecoder, token: np.ndarray, hulls: Hulls) -> tuple[np.ndarray, float]:
    """Bounds for one token's pass through every layer (``sec:trans``), updating ``hulls`` in place.

    Args:
        sd: the scaled decoder.
        token: per-coordinate bound on ``|Z_0|`` of the new token (at the token scale).
        hulls: bounds of the cached keys and values of earlier positions; this position's are added.

    Returns:
        ``(bound on the next token |Z_0| after the feedback division, the largest bound of the pass)``:
        the latter covers every partial sum, product, score and stored value of the pass.

    """
    z = np.asarray(token, dtype=np.float64)
    top = float(np.max(z, initial=0.0))
    with np.errstate(over="ignore", invalid="ignore"):
        for k, lay in enumerate(sd.layers):
            if lay.heads is not None:
                assert lay.w_o is not None
                outs = []
                for h, head in enumerate(lay.heads):
                    bq, bk, bv = head.q.bound(z), head.k.bound(z), head.v.bound(z)
                    np.maximum(hulls.keys[k][h], bk, out=hulls.keys[k][h])
                    np.maximum(hulls.values[k][h], bv, out=hulls.values[k][h])
                    score = float(hulls.keys[k][h] @ bq)
                    vals = hulls.values[k][h] * head.v_up
                    top = max(top, float(np.max(bq, initial=0)), float(np.max(bk, initial=0)),
                              float(np.max(bv, initial=0)), score, float(np.max(vals, initial=0)))
                    outs.append(vals)
                alpha = lay.w_o.bound(np.concatenate(outs)) * lay.alpha_up
                zz = z * lay.z_up
                ffn_in = alpha + zz
                top = max(top, float(np.max(alpha, initial=0)), float(np.max(zz, initial=0)),
                          float(np.max(ffn_in, initial=0)))
            else:
                ffn_in = z
            hidden = lay.w1.bound(ffn_in)  # ReLU keeps |·| bounds
            z = lay.w2.bound(hidden)
            top = max(top, float(np.max(hidden, initial=0)), float(np.max(z, initial=0)))
        fed = z * sd.fb_num
        top = max(top, float(np.max(fed, initial=0)))
        nxt = fed / sd.fb_den
    if math.isnan(top):
        top = math.inf
    return np.where(np.isnan(nxt), np.inf, nxt), top


@dataclass
class Certificate:
    """Which number type a batched run used and why it is exact.

    Attributes:
        path: the widest path used (``float64``, ``int64`` or ``object``).
        mode: ``static`` (whole-run bound proved before running), ``guarded`` (bound proved before each
            token's pass from measured token magnitudes), ``forced`` (a path asked for explicitly;
            guarded all the same) or ``native-checked`` (the compiled kernel of
            :mod:`symcot.replay.native`: every int64 operation checked or proved safe).
        bound: the largest magnitude bound proved for the run (``None`` on the exact path where no bound
            was needed or the bound overflowed).
        limit: the limit of ``path`` (``None`` for ``object``).
        static_bound: what the whole-run interval propagation gave (``inf`` when it overflowed).
        fixed_point: the static propagation reached a fixed point (bound valid for any run length).
        scales: the static integer scales (module docstring).
        promotions: ``{"position", "from", "to", "reason"}`` for each exact widening during the run.
        runs: how many batches this certificate summarises.
        paths: batches per path.

    """

    path: str
    mode: str
    bound: float | None
    limit: int | None
    static_bound: float | None = None
    fixed_point: bool = False
    scales: dict[str, Any] | None = None
    promotions: list[dict[str, Any]] = field(default_factory=list)
    runs: int = 1
    paths: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form (bounds as integers rounded up, or ``"inf"``)."""

        def num(x: float | None) -> Any:
            if x is None:
                return None
            return "inf" if not math.isfinite(x) else math.ceil(x)

        return {
            "path": self.path, "mode": self.mode, "bound": num(self.bound), "limit": self.limit,
            "bound_log2": None if self.bound is None or not math.isfinite(self.bound) or self.bound <= 0
            else round(math.log2(self.bound), 2),
            "static_bound": num(self.static_bound), "fixed_point": self.fixed_point, "scales": self.scales,
            "promotions": self.promotions[:20], "batches": self.runs, "batches_per_path": dict(self.paths),
            "rule": "float32 when every partial sum is an integer of magnitude ≤ 2^24 (bound ≤ 2^23 computed), "
                    "float64 when ≤ 2^53 (bound ≤ 2^52), int64 when ≤ 2^63-1 (bound ≤ 2^62), "
                    "else exact Python int/Fraction; native-checked: the compiled kernel's int64 operations are "
                    "each checked for overflow or proved safe by an exact threshold, rows it abandons rerun on "
                    "the numpy engine (promotions)",
        }


def merge(certs: list[Certificate]) -> Certificate | None:
    """One certificate summarising several batches: the widest path, the largest bound."""
    if not certs:
        return None
    path = certs[0].path
    for c in certs[1:]:
        path = wider(path, c.path)
    bounds = [c.bound for c in certs if c.bound is not None]
    statics = [c.static_bound for c in certs if c.static_bound is not None]
    modes = sorted({c.mode for c in certs})
    paths: dict[str, int] = {}
    for c in certs:
        for p, k in (c.paths or {c.path: c.runs}).items():
            paths[p] = paths.get(p, 0) + k
    promos = [p for c in certs for p in c.promotions]
    return Certificate(path, "+".join(modes), max(bounds) if bounds else None, LIMITS[path],
                       max(statics) if statics else None, all(c.fixed_point for c in certs), certs[0].scales,
                       promos, sum(c.runs for c in certs), paths)


def static_certificate(sd: ScaledDecoder, prompt_bounds: np.ndarray, steps: int) -> Certificate:
    """Whole-run bound from the input ranges: every prompt position, then ``steps - 1`` fed-back tokens.

    Args:
        sd: the scaled decoder.
        prompt_bounds: ``(P, d)`` bounds on ``|Z_0|`` of each prompt position (over the whole batch).
        steps: the largest number of generated tokens ``y_1 … y_steps`` (so ``steps - 1`` are fed back).

    """
    hulls = Hulls.empty(sd)
    top = 0.0
    y = np.zeros(sd.d)
    for p in range(prompt_bounds.shape[0]):
        y, t = push_bound(sd, prompt_bounds[p], hulls)
        top = max(top, t)
    fixed = False
    tok = np.zeros(sd.d)
    for _ in range(max(steps - 1, 0)):
        if not top <= INT64_MAX:
            break
        # every fed-back token is bounded by the hull of the outputs so far (bounds are monotone)
        grown = np.maximum(tok, y)
        before = hulls.copy()
        same_tok = np.array_equal(grown, tok)
        tok = grown
        y, t = push_bound(sd, tok, hulls)
        top = max(top, t)
        if same_tok and before.same(hulls) and np.all(y <= tok):
            # the next pass starts from the same token bound and the same hulls: it repeats forever
            fixed = True
            break
    if math.isnan(top):
        top = math.inf
    path = choose_path(top)
    return Certificate(path, "static", top if path != "object" else None, LIMITS[path], top, fixed, sd.scales(),
                       paths={path: 1})
