r"""Chapter 6's layer-norm recipes that give weights, with the draft's LayerNorm (ε = 10^-5, no γ, β).

Claimed (draft 582e0e1, ch. 6, "Layer Normalization"):

* ch6:zero-mean (§ "Zero mean", no label; id ours): duplicating and negating every dimension makes the mean 0,
  "then LayerNorm only applies scaling factor": ``LN(x ‖ -x)`` is a positive multiple of ``x ‖ -x``;
* ch6:normalize-pm1 (§ "Normalize to ±1", no label; id ours): once an FFN clips every activation to ``±ε``,
  LayerNorm "will normalize all activations to ±1";
* sec:ln_hash: ``φ(x, y) = LN(⟨x, y, -x, -y⟩)`` "satisfies ... ``φ(x, y) = φ(x/y)``" (``φ(x) = φ(x, 1)``);
* ch4:layernorm-hash (ch. 4, § "Layernorm hash", no label; id ours): ``lh(a) = LN(a, 1, -a, -1) =
  (a, 1, -a, -1)/√(2a² + 2)``, and ``lh(a_i) = LN(a_i/i, 1/i, -a_i/i, -1/i)`` for any ``i > 0``;
* eq:integer-key-retrieval: ``φ(i) · φ(j) = 1 ⟺ i = j``, which makes saturated attention retrieve by an
  integer key (read also as: ``φ(i) · φ(j)`` is uniquely maximised at ``j = i``).

Every LN value is the model's own (:func:`symcot.model.described.layer_norm`): exact where the root is
rational, a certified ball otherwise; a comparison the balls cannot settle makes the row ``unknown``,
naming the input. Readings with ``ε = 0`` (which the model's ``Norm`` does not allow) are decided exactly
on squares and signs.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from symcot.claims import Claim, PropertyCheck, as_written, mutant, reading, repair
from symcot.inputs.family import Family
from symcot.model.described import layer_norm
from symcot.model.description import Norm
from symcot.model.interval import compare, exact_sqrt, show, sqrt

SUBJECT_NOTE = ("subject: draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, chapter 6 (layer normalisation); "
                "a finding is about this draft only")
EPS = Fraction(1, 10**5)
LN = Norm("pre", "standard", EPS)


def _where(section: str, label: str) -> str:
    return f"draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 6, § \"{section}\" ({label})"


def CertifiedCheck(variant: str, families: list[Family],  # noqa: N802 - reads as the check it makes
                   per_input: Callable[[Any], dict[str, Any] | None],
                   method: str = "exhaustive enumeration, LN values exact or certified balls") -> PropertyCheck:
    """A :class:`PropertyCheck` whose comparisons may be undecided (certified balls): then ``unknown``."""
    return PropertyCheck(variant, families, per_input, method, certified=True,
                         notes=[SUBJECT_NOTE, f"LayerNorm: standard, ε = {EPS}"])


def _family(name: str, inputs: Callable[[int], list[Any]]) -> Family:
    return Family(name, lambda size: iter(inputs(size)), lambda size: len(inputs(size)),
                  describe=lambda p: {"text": repr(p)})


# -- zero mean: LN(x ‖ -x) is a positive multiple of x ‖ -x -------------------------------------------------
def _vectors(size: int) -> list[tuple[int, ...]]:
    return [v for v in itertools.product((-1, 0, 1, 2), repeat=size) if any(v)]


VECTORS = _family("every nonzero x ∈ {-1,0,1,2}^d, d = n", _vectors)


def proportional(x: Sequence[Fraction | int], y: Sequence[Fraction | int]) -> bool:
    """Whether ``y = λ x`` for one ``λ > 0`` (exact; ``x ≠ 0``)."""
    k = next(i for i, v in enumerate(x) if v != 0)
    lam = Fraction(y[k]) / x[k]
    return lam > 0 and all(Fraction(b) == lam * a for a, b in zip(x, y))


def zero_mean_failure(duplicate: bool, x: tuple[int, ...]) -> dict[str, Any] | None:
    """``LN(u)`` is ``(u - μ)/√(σ² + ε)``: a positive multiple of ``u`` exactly when ``u - μ`` is one."""
    u = list(x) + [-v for v in x] if duplicate else list(x)
    mu = Fraction(sum(u), len(u))
    centred = [v - mu for v in u]
    if proportional(u, centred):
        return None
    return {"input": u, "mean": str(mu), "LN": [show(v) for v in layer_norm(LN, u)]}


def _zero_mean_check(variant: str, duplicate: bool) -> PropertyCheck:
    return PropertyCheck(variant, [VECTORS], lambda x: zero_mean_failure(duplicate, x),
                         method="exhaustive enumeration, exact (μ and the centred vector)")


ZERO_MEAN = Claim(
    id="ch6:zero-mean", kind="section",
    statement="Duplicating and negating all dimensions makes the mean 0, so that LayerNorm only applies a scaling "
              "factor: LN(x ‖ -x) is a positive multiple of x ‖ -x.",
    where=_where("Zero mean", "no label; id ours"),
    checks=[_zero_mean_check("as-written", True), _zero_mean_check("no-duplication", False)],
    default_max_size=4,
    readings={"as-written": as_written("every nonzero x ∈ {-1,0,1,2}^d, u = x ‖ -x, the draft's LN"),
              "no-duplication": mutant("LN(x) alone: the mean is not 0 in general, expected to fail")},
)


# -- normalise to ±1 ----------------------------------------------------------------------------------------
def _signs(size: int) -> list[tuple[int, ...]]:
    return list(itertools.product((-1, 1), repeat=size))


SIGNS = _family("every s ∈ {-1,1}^d, d = n", _signs)


def _ln_exact_eps0(u: Sequence[Fraction]) -> list[Fraction] | None:
    """``(u - μ)/σ`` at ``ε = 0`` when ``σ`` is rational and positive, else ``None``."""
    mu = Fraction(sum(u), len(u))
    var = sum(((v - mu) ** 2 for v in u), Fraction(0)) / len(u)
    root = exact_sqrt(var) if var > 0 else None
    return None if root is None else [(v - mu) / root for v in u]


def pm1_failure(variant: str, s: tuple[int, ...]) -> dict[str, Any] | None:
    """Whether LN of the activations clipped to ``±ε`` (``s ε``) is ``±1`` in every coordinate (``None``: yes)."""
    if variant == "as-written":
        u: list[Any] = [v * EPS for v in s]
        out: list[Any] = layer_norm(LN, u)
    else:  # zero-mean-eps0: u = s c ‖ -s c (any c > 0; c = ε), LN with ε = 0
        u = [v * EPS for v in s] + [-v * EPS for v in s]
        exact = _ln_exact_eps0(u)
        if exact is None:
            return {"input": [str(v) for v in u], "why": "σ = 0 or irrational"}
        out = exact
    for k, v in enumerate(out):
        if compare(v * v, 1, f"LN(u)_{k}² against 1") != 0:
            return {"input": [str(w) for w in u], "coordinate": k, "LN": show(v)}
    return None


def _pm1_check(variant: str) -> PropertyCheck:
    return PropertyCheck(variant, [SIGNS], lambda s: pm1_failure(variant, s),
                         method="exhaustive enumeration, LN exact or a certified ball")


NORMALIZE_PM1 = Claim(
    id="ch6:normalize-pm1", kind="section",
    statement="Once an FFN clips every activation to ±ε, applying LayerNorm normalises every activation to ±1.",
    where=_where("Normalize to ±1", "no label; id ours"),
    checks=[_pm1_check("as-written"), _pm1_check("zero-mean-eps0")],
    default_max_size=4,
    readings={"as-written": as_written("activations s ε, s ∈ {-1,1}^d, then the draft's LN with the same ε"),
              "zero-mean-eps0": repair("u = s c ‖ -s c (mean 0, as in § Zero mean) and LN with ε = 0")},
)


# -- the layer-norm hash φ(x, y) = LN(x, y, -x, -y) ---------------------------------------------------------
def phi(x: Any, y: Any = 1) -> list[Any]:
    """``φ(x, y) = LN(⟨x, y, -x, -y⟩)`` (the model's LN, ε = 10^-5)."""
    return layer_norm(LN, [x, y, -x, -y])


def _scale_inputs(size: int) -> list[tuple[int, int]]:
    m = size
    return [(x, y) for x in range(m + 1) for y in range(1, m + 1) if max(x, y) == m]


SCALES = _family("every (x, y), 0 ≤ x ≤ n, 1 ≤ y ≤ n, max(x, y) = n", _scale_inputs)


def scale_failure(eps0: bool, p: tuple[int, int]) -> dict[str, Any] | None:
    """``φ(x, y)`` against ``φ(x/y, 1)``: balls at ε = 10^-5; squares and signs exactly at ε = 0."""
    x, y = p
    q = Fraction(x, y)
    if eps0:
        left = [Fraction(v * v, x * x + y * y) * 2 for v in (x, y)]
        right = [v * v / (q * q + 1) * 2 for v in (q, Fraction(1))]
        return None if left == right else {"input": {"x": x, "y": y}, "squares": [str(v) for v in left + right]}
    a, b = phi(x, y), phi(q)
    for k in range(4):
        if compare(a[k], b[k], f"φ({x}, {y})_{k} against φ({q})_{k}") != 0:
            return {"input": {"x": x, "y": y}, "coordinate": k, "phi(x, y)": show(a[k]), "phi(x/y)": show(b[k])}
    return None


LN_HASH = Claim(
    id="sec:ln_hash", kind="section",
    statement="The layer-norm hash φ(x, y) = LN(⟨x, y, -x, -y⟩) satisfies φ(x, y) = φ(x/y) (φ(x) = φ(x, 1)).",
    where=_where("Layer-Norm Hash", "sec:ln_hash"),
    checks=[CertifiedCheck("as-written", [SCALES], lambda p: scale_failure(False, p)),
            PropertyCheck("eps0", [SCALES], lambda p: scale_failure(True, p),
                          method="exhaustive enumeration, exact (squares and signs of φ's coordinates)")],
    default_max_size=4,
    readings={"as-written": as_written("the draft's LN with ε = 10^-5; integers 0 ≤ x, 1 ≤ y"),
              "eps0": repair("LN with ε = 0 (scale invariant): φ(x, y) = φ(x/y) for y > 0")},
)


def _pairs(size: int) -> list[tuple[int, int]]:
    m = size - 1
    return [(i, m) for i in range(m + 1)] + [(m, j) for j in range(m)]


PAIRS = _family("every (i, j) ∈ ℕ², max(i, j) = n - 1", _pairs)


def _raw(x: int) -> list[int]:
    return [x, 1, -x, -1]


def _dot(a: Sequence[Any], b: Sequence[Any]) -> Any:
    total: Any = 0
    for u, v in zip(a, b):
        total = total + u * v
    return total


def retrieval_failure(variant: str, p: tuple[int, int]) -> dict[str, Any] | None:
    """as-written: ``φ(i)·φ(j) = 1 ⟺ i = j``; otherwise ``φ(i)·φ(j) < φ(i)·φ(i)`` for ``j ≠ i`` (and for ``j, i``)."""
    i, j = p
    h: Callable[[int], list[Any]] = _raw if variant == "no-layernorm" else phi
    if variant == "as-written":
        dot = _dot(h(i), h(j))
        if (compare(dot, 1, f"φ({i})·φ({j}) against 1") == 0) != (i == j):
            return {"i": i, "j": j, "phi(i).phi(j)": show(dot)}
        return None
    for a, b in ((i, j), (j, i)):
        if a != b and compare(_dot(h(a), h(b)), _dot(h(a), h(a)), f"φ({a})·φ({b}) against φ({a})·φ({a})") >= 0:
            return {"i": a, "j": b, "phi(i).phi(j)": show(_dot(h(a), h(b))), "phi(i).phi(i)": show(_dot(h(a), h(a)))}
    return None


INTEGER_KEY = Claim(
    id="eq:integer-key-retrieval", kind="equation",
    statement="φ(i) · φ(j) = 1 ⟺ i = j for integers i, j, with φ(x) = LN(⟨x, 1, -x, -1⟩).",
    where=_where("Layer-Norm Hash", "eq:integer-key-retrieval"),
    checks=[CertifiedCheck(v, [PAIRS], (lambda v_: lambda p: retrieval_failure(v_, p))(v))
            for v in ("as-written", "unique-max", "no-layernorm")],
    default_max_size=6,
    readings={"as-written": as_written("the draft's LN (d = 4, ε = 10^-5), every i, j ∈ ℕ below n"),
              "unique-max": reading("what retrieval needs: φ(i)·φ(j) < φ(i)·φ(i) for every j ≠ i"),
              "no-layernorm": mutant("the raw ⟨x, 1, -x, -1⟩ without LN: not maximised at j = i, expected to fail")},
)



# -- chapter 4's statement of the hash: lh(a) = LN(a, 1, -a, -1) = (a, 1, -a, -1)/√(2a² + 2) = LN(a/i, 1/i, …) ---
def _hash_inputs(size: int) -> list[tuple[int, int]]:
    return [(a, i) for a in range(size) for i in range(1, size + 1) if max(a + 1, i) == size]


HASH_INPUTS = _family("every (a, i), 0 ≤ a < n, 1 ≤ i ≤ n, max(a + 1, i) = n", _hash_inputs)


def lh_failure(variant: str, p: tuple[int, int]) -> dict[str, Any] | None:
    """Where chapter 4's hash statement fails at ``(a, i)`` (``None``: it holds there).

    as-written: ``LN(v) = v/√(2a² + 2)``; ``eps0-doubled``: ``2v/√(2a² + 2)`` at ε = 0 (exact squares);
    ``scaled``: ``LN(v/i) = LN(v)`` (ε = 10^-5).
    """
    a, i = p
    v = _raw(a)
    if variant == "eps0-doubled":  # LN at ε = 0 is v/σ, σ² = (2a² + 2)/4; the stated square is 4 v_k²/(2a² + 2)
        sigma2 = Fraction(2 * a * a + 2, 4)
        bad = [k for k in range(4) if Fraction(v[k] * v[k]) / sigma2 != Fraction(4 * v[k] * v[k], 2 * a * a + 2)]
        return {"a": a, "coordinate": bad[0]} if bad else None
    got = layer_norm(LN, v)
    if variant == "as-written":
        want: list[Any] = [Fraction(x) / sqrt(2 * a * a + 2) for x in v]
    else:
        want = layer_norm(LN, [Fraction(x, i) for x in v])
    for k in range(4):
        if compare(got[k], want[k], f"LN(a, 1, -a, -1)_{k} at a = {a}, i = {i}") != 0:
            return {"a": a, "i": i, "coordinate": k, "LN": show(got[k]), "stated": show(want[k])}
    return None


LH = Claim(
    id="ch4:layernorm-hash", kind="section",
    statement="lh(a) = LN(a, 1, -a, -1) = (a, 1, -a, -1)/√(2a² + 2), and lh(a_i) = LN(a_i/i, 1/i, -a_i/i, -1/i) "
              "for any i > 0.",
    where="draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 4, § \"Layernorm hash\" (no label; id ours)",
    checks=[CertifiedCheck(v, [HASH_INPUTS], (lambda v_: lambda p: lh_failure(v_, p))(v))
            for v in ("as-written", "scaled")]
    + [PropertyCheck("eps0-doubled", [HASH_INPUTS], lambda p: lh_failure("eps0-doubled", p),
                     method="exhaustive enumeration, exact squares (ε = 0)")],
    default_max_size=5,
    readings={"as-written": as_written("the displayed LN(a, 1, -a, -1) = (a, 1, -a, -1)/√(2a² + 2), the draft's LN "
                                       "(d = 4, ε = 10^-5), every a ∈ ℕ below n"),
              "scaled": reading("LN(a/i, 1/i, -a/i, -1/i) = LN(a, 1, -a, -1) for 1 ≤ i ≤ n (ε = 10^-5)"),
              "eps0-doubled": repair("at ε = 0, LN(a, 1, -a, -1) = 2(a, 1, -a, -1)/√(2a² + 2) (σ divides by d = 4)")},
)

CLAIMS = [ZERO_MEAN, NORMALIZE_PM1, LN_HASH, INTEGER_KEY, LH]


