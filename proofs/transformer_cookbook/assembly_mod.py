r"""Chapter 8's "Computing MOD without positional encodings": parity by the layer-norm hash (after Merrill et al.).

Claimed (draft 582e0e1, ch. 8, § "Computing MOD without positional encodings"; no label, id ours): on ``$ w``,
``w ∈ {a, b}^*``, with no positional encoding, the output at position ``i`` is 1 iff the prefix up to ``i`` has an
even number ``a_i`` of ``a``'s. Layer 1: uniform attention gives ``a_i/i`` and ``1/i``. Layer 2: one head with query
``φ(a_i/i, 1/i) = φ(a_i)``, key and value ``φ(2j, 1) = φ(2j)`` (``φ(x, y) = LN(x, y, -x, -y)``, sec:ln_hash) "checks
whether there exists ``j < i`` such that ``2j = a_i``", and the last FFN "verifies that the value retrieved equals
``φ(a_i)``" and returns 1 iff so; MOD ``m`` by ``φ(mj)``.

What is checked: the draft's positions are 1-based (``$`` at 1: uniform attention over ``1..i`` averages to
``a_i/i`` and ``1/i``); layer 1 is taken as computed (exact averages: ch5:one-over-i checks that recipe); layer 2's
scores ``q_i · k_j`` select by saturated attention (AHAT: ``symcot.model``'s selection), the retrieved value is the
average of the selected keys' values, and the bit is ``[retrieved = query]``. The LN is the model's (ch. 6, no
``γ, β``): with ``ε = 10^-5`` (the draft's chapter 6) its values are certified balls and an undecided comparison
makes the row ``unknown``; with ``ε = 0`` (the scale-invariant reading of sec:ln_hash) every decision is exact
(scores by squares, equality of hashes by proportionality, an average of several distinct hashes never equals one,
by strict convexity). Variants: as written (``j < i``, keys ``φ(2j)``, ``j`` 1-based: no key for ``a_i = 0``);
zero-based keys ``φ(2(j - 1))`` over ``j ≤ i`` (the BOS carries ``φ(0)``) with the draft's ``ε`` (refuted: ``φ(x/i,
1/i) ≠ φ(x)`` once ``ε > 0``, so exact equality fails at the first matched position with ``i ≥ 2``); the same at
``ε = 0`` (holds), MOD 3 at ``ε = 0`` (holds); a mutant key ``φ(2j - 1)``. With ``ε > 0`` the last FFN can only
test ``‖v - q‖² < τ`` (``tolerance``; any ``τ`` between the two classes is a ReLU ramp on the finite value set):
with the draft's ``ε = 10^-5`` no ``τ`` works from length 19 (``$ b^18``, the count 0 at position 19, is farther
from its key than the count 17 at position 18 from its nearest one); ``ε(n) = 1/(2n⁴)`` works
(``tolerance-eps-rule``). One selective pre-norm per layer normalises the query's and the key's coordinates
together (``joint-norm-eps0``): the key's scale then depends on ``a_j``, and retrieval fails at ``$aa`` even at
``ε = 0`` (the draft: "direct implementation of this head requires selective pre-norm"). How the keys
``φ(2j)`` arise without positions is ours to name: ``2(j-1)/j = 2 - 2/j`` from ``1/j`` and a constant coordinate
(the hash is scale invariant at ``ε = 0``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from symcot.claims import Claim, PropertyCheck, as_written, mutant, reading, repair
from symcot.errors import Undecided
from symcot.inputs.family import Family
from symcot.model.attention import select
from symcot.model.described import layer_norm
from symcot.model.description import AHAT, HeadRule, Norm
from symcot.model.interval import compare, show, sqrt

from .assembly_heads import SUBJECT_NOTE

EPS = Fraction(1, 10**5)
LN = Norm("pre", "standard", EPS)


@dataclass(frozen=True)
class Variant:
    """How a variant reads the recipe: the modulus, the key of 1-based position ``j``, the mask, ``ε = 0`` or not.

    ``joint``: the query's and the key's hashes are one layer norm of the 8 coordinates ``(a/i, 1/i, -a/i, -1/i,
    k/j, 1/j, -k/j, -1/j)`` (one selective pre-norm ``LN(W_N x)`` for the layer's heads), at ``ε = 0``.
    """

    modulus: int
    key: Callable[[int], int]  # j (1-based) -> the integer hashed as the key
    mask: str  # "strict-future" (j < i) or "future" (j ≤ i)
    eps0: bool
    joint: bool = False


VARIANTS: dict[str, Variant] = {
    "as-written": Variant(2, lambda j: 2 * j, "strict-future", False),
    "zero-based-keys": Variant(2, lambda j: 2 * (j - 1), "future", False),
    "eps0": Variant(2, lambda j: 2 * (j - 1), "future", True),
    "mod3-eps0": Variant(3, lambda j: 3 * (j - 1), "future", True),
    "odd-keys": Variant(2, lambda j: 2 * j - 1, "future", True),
    "joint-norm-eps0": Variant(2, lambda j: 2 * (j - 1), "future", True, joint=True),
}


def count_reference(modulus: int, s: tuple[str, ...]) -> list[bool]:
    """The reference: at 1-based position ``i``, whether ``m`` divides the number of ``a``'s in ``s_1..s_i``."""
    out, a = [], 0
    for sym in s:
        a += sym == "a"
        out.append(a % modulus == 0)
    return out


# -- ε = 0: exact decisions -------------------------------------------------------------------------------
def _score0(q: tuple[Fraction, Fraction], k: tuple[int, int]) -> tuple[Fraction, Fraction]:
    """``φ₀(q)·φ₀(k) = 4(q·k)/√(|q|²|k|²)``, as the exact pair (sign, square) ordering the scores for fixed ``q``."""
    dot = q[0] * k[0] + q[1] * k[1]
    sq = Fraction(dot * dot, k[0] ** 2 + k[1] ** 2)
    return (Fraction(1) if dot > 0 else Fraction(-1) if dot < 0 else Fraction(0), sq if dot >= 0 else -sq)


def _bit_eps0(q: tuple[Fraction, Fraction], keys: list[tuple[int, int]]) -> tuple[bool, list[int]]:
    """The bit at ``ε = 0``: the maximal keys (AHAT), and whether the retrieved value equals ``φ₀(q)``."""
    if not keys:
        return False, []
    scores = [_score0(q, k) for k in keys]
    best = max(scores)
    top = [j for j, sc in enumerate(scores) if sc == best]
    hashes = {(Fraction(keys[j][0]) / keys[j][1]) for j in top}  # φ₀ is determined by x/y (y > 0)
    if len(hashes) > 1:  # an average of distinct unit-norm hashes is shorter than any of them
        return False, top
    k = keys[top[0]]
    return q[0] * k[1] == q[1] * k[0], top


# -- ε = 10^-5: the model's LN, certified balls -------------------------------------------------------------
def _phi(x: Any, y: Any) -> list[Any]:
    return layer_norm(LN, [x, y, -x, -y])


def _bit_eps(q_in: tuple[Fraction, Fraction], keys: list[tuple[int, int]], i: int) -> tuple[bool, list[int]]:
    """The bit with the draft's ε: AHAT over the keys the mask allows, then retrieved = query.

    The selection is ``symcot.model``'s; the same exact LN input is the same value, otherwise the balls must
    separate (else :class:`~symcot.errors.Undecided`).
    """
    if not keys:
        return False, []
    q = _phi(*q_in)
    ks = [_phi(*k) for k in keys]
    scores: list[Any] = []
    for k in ks:
        total: Any = 0
        for u, v in zip(q, k):
            total = total + u * v
        scores.append(total)
    try:
        sel = select(HeadRule("none", AHAT()), "hash", scores, 0)
    except Undecided as e:
        raise e.at(position=i, layer=2, head="hash") from None
    top = [j for j, _ in sel.weights]
    if len(top) == 1 and (Fraction(keys[top[0]][0]), Fraction(keys[top[0]][1])) == q_in:
        return True, top  # the same exact LN input: the same value
    got: list[Any] = [0] * 4
    for j, w in sel.weights:  # the retrieved value: the average of the selected keys' values
        got = [g + w * v for g, v in zip(got, ks[j])]
    for u, v in zip(q, got):
        if compare(u, v, f"the retrieved hash against the query at i = {i}") != 0:
            return False, top
    return True, top


def _bit_joint(q: tuple[Fraction, Fraction], keys: list[tuple[int, int]], counts: list[int]) -> tuple[bool, list[int]]:
    """The bit when one LN normalises the query's and the key's coordinates together (``ε = 0``).

    Position ``p`` (1-based) holds ``(a_p/p, 1/p, …, k_p/p, 1/p, …)``; its LN scales both parts by ``c_p =
    √8/√(2a_p² + 2k_p² + 4)`` (times ``p``), so the score at ``i`` is ``∝ (a_i k_p + 1) c_p``: compared by squares,
    exactly. The retrieved key part is compared with the query's direction (the most lenient equality): for one
    position exactly, for a tie by certified balls.
    """
    if not keys:
        return False, []
    a = q[0] / q[1]
    cs = [Fraction(8, 2 * counts[p] ** 2 + 2 * keys[p][0] ** 2 + 4) for p in range(len(keys))]  # c_p²
    scores = [((a * k + 1) ** 2 * c if a * k + 1 > 0 else -(a * k + 1) ** 2 * c) for (k, _), c in zip(keys, cs)]
    best = max(scores)
    top = [p for p, sc in enumerate(scores) if sc == best]
    if len(top) == 1:
        return keys[top[0]][0] == a, top
    total: Any = 0  # Σ c_p (k_p - a) over the tie: 0 iff the average of the key parts has the query's direction
    for p in top:
        total = total + sqrt(cs[p]) * (keys[p][0] - a)
    return compare(total, 0, "the tied keys' average against the query's direction") == 0, top


def mod_failure(variant: str, s: tuple[str, ...]) -> dict[str, Any] | None:
    """The first 1-based position ``i`` of ``s`` where the bit differs from the count (``None``: none)."""
    var = VARIANTS[variant]
    ref = count_reference(var.modulus, s[1:])
    want = [True] + ref  # the $ at position 1: no a yet
    a = 0
    counts: list[int] = []  # a_p at every position so far
    for i in range(1, len(s) + 1):
        a += s[i - 1] == "a"
        counts.append(a)
        q = (Fraction(a, i), Fraction(1, i))  # layer 1: the uniform averages a_i/i, 1/i
        last = i if var.mask == "future" else i - 1
        keys = [(var.key(j), 1) for j in range(1, last + 1)]
        if var.joint:
            bit, top = _bit_joint(q, keys, counts)
        elif var.eps0:
            bit, top = _bit_eps0(q, keys)
        else:
            bit, top = _bit_eps(q, keys, i)
        if bit != want[i - 1]:
            return {"string": "".join(s), "position": i, "a_i": a, "attends": [j + 1 for j in top],
                    "got": bit, "expected": want[i - 1]}
    return None


# -- the last FFN with a tolerance: which ε lets some τ separate the matched from the unmatched -----------------
@cache
def _distance(eps: Fraction, i: int, a: int) -> Any:
    """``‖v - q‖²`` at 1-based position ``i`` with ``a`` a's.

    ``q = φ_ε(a/i, 1/i)``; ``v`` is the AHAT average of the maximal keys among ``φ_ε(2j')``, ``j' = 0..i-1``
    (zero-based keys, ``j ≤ i``).
    """
    norm = Norm("pre", "standard", eps)
    q = layer_norm(norm, [Fraction(a, i), Fraction(1, i), Fraction(-a, i), Fraction(-1, i)])
    ks = [layer_norm(norm, [2 * j, 1, -2 * j, -1]) for j in range(i)]
    scores = [sum((u * v for u, v in zip(q, k)), Fraction(0)) for k in ks]
    sel = select(HeadRule("none", AHAT()), "hash", scores, 0)
    if len(sel.weights) == 1 and (Fraction(a, i), Fraction(1, i)) == (2 * sel.weights[0][0], 1):
        return Fraction(0)  # the same exact LN input
    got: list[Any] = [0] * 4
    for j, w in sel.weights:
        got = [g + w * v for g, v in zip(got, ks[j])]
    return sum(((u - v) * (u - v) for u, v in zip(q, got)), Fraction(0))


def separation_failure(eps_of: Callable[[int], Fraction], n: int) -> dict[str, Any] | None:
    """Whether one tolerance ``τ`` makes ``[‖v - q‖² < τ]`` the parity bit at every position ``i ≤ n``.

    The bit at position ``i`` depends on ``(i, a_i)`` alone (layer 1 gives ``a_i/i, 1/i``; the keys depend on ``j``
    only), and every ``a < i`` occurs: the pairs cover every ``$ w`` of length ``≤ n``. ``None``: the largest
    distance of an even count is below the smallest of an odd one.
    """
    eps = eps_of(n)
    worst: tuple[Any, int, int] | None = None
    best: tuple[Any, int, int] | None = None
    for i in range(1, n + 1):
        for a in range(i):
            d = _distance(eps, i, a)
            if a % 2 == 0 and (worst is None or compare(d, worst[0], f"‖v - q‖² at i = {i}, a = {a}") > 0):
                worst = (d, i, a)
            if a % 2 == 1 and (best is None or compare(d, best[0], f"‖v - q‖² at i = {i}, a = {a}") < 0):
                best = (d, i, a)
    if worst is None or best is None or compare(worst[0], best[0], "the even and odd distances") < 0:
        return None
    return {"eps": str(eps), "even": {"i": worst[1], "a_i": worst[2], "distance²": show(worst[0])},
            "odd": {"i": best[1], "a_i": best[2], "distance²": show(best[0])},
            "why": "no tolerance separates an even count from an odd one"}


LENGTHS = Family("every length n: every position i ≤ n, every count a_i < i", lambda size: iter([size]),
                 lambda size: 1, describe=lambda n: {"text": f"every $ w of length ≤ {n}"})
TOLERANCE: dict[str, Callable[[int], Fraction]] = {
    "tolerance": lambda n: EPS,
    "tolerance-eps-rule": lambda n: Fraction(1, 2 * n**4),
}


def _strings(size: int) -> Iterator[tuple[str, ...]]:
    return (("$",) + w for w in itertools.product("ab", repeat=size - 1))


STRINGS = Family("every $ w, w ∈ {a, b}^{n-1}", _strings, lambda size: 2 ** (size - 1),
                 describe=lambda s: {"string": "".join(s), "length": len(s), "text": f"w = {''.join(s)}"})


AS_FORMULAS = ("layer 1's uniform averages a_i/i, 1/i are taken as computed (ch5:one-over-i runs that recipe), and "
               "layer 2's hash head and the last FFN are formulas over the model's layer norm and AHAT selection, "
               "not a symcot decoder: each of the query φ(a_i/i, 1/i) and the key φ(2j) is hashed by its own layer "
               "norm, a selective pre-norm the model description does not state (one pre-norm normalises them "
               "together: variant joint-norm-eps0), and the keys φ(2j) need a completion without positions")


def _show(inp: Any) -> str:
    return "".join(inp) if isinstance(inp, tuple) else repr(inp)


def CertifiedCheck(variant: str, families: list[Family],  # noqa: N802 - reads as the check it makes
                   per_input: Callable[[Any], dict[str, Any] | None],
                   method: str = "exhaustive enumeration; LN exact (ε = 0) or certified balls (ε = 10^-5)",
                   ) -> PropertyCheck:
    """A :class:`PropertyCheck` whose comparisons may be undecided (certified balls): then ``unknown``."""
    return PropertyCheck(variant, families, per_input, method, certified=True,
                         notes=[SUBJECT_NOTE], show=_show, as_formulas=AS_FORMULAS)


def _sized(chk: PropertyCheck, size: int) -> PropertyCheck:
    chk.default_max_size = size  # type: ignore[attr-defined]
    return chk


MOD = Claim(
    id="ch8:mod", kind="section",
    statement="Without positional encodings, on $ w, two layers compute parity: uniform attention gives a_i/i and 1/i, "
              "a head with query φ(a_i/i, 1/i) = φ(a_i) and key, value φ(2j) finds j < i with 2j = a_i, and the FFN "
              "returns 1 iff the retrieved value equals φ(a_i); MOD m likewise.",
    where="draft 582e0e1 (4 Feb 2025) of The Transformer Cookbook, ch. 8, § \"Computing MOD without positional "
          "encodings\" (no label; id ours)",
    checks=[CertifiedCheck(v, [STRINGS], (lambda v_: lambda s: mod_failure(v_, s))(v)) for v in VARIANTS]
    + [_sized(CertifiedCheck(v, [LENGTHS], (lambda f_: lambda n: separation_failure(f_, n))(rule),
                             method="every (i, a_i) up to the length, certified balls; the best τ"), size)
       for (v, rule), size in zip(TOLERANCE.items(), (20, 16))],
    default_max_size=8,
    readings={
        "as-written": as_written("1-based positions ($ at 1), keys φ(2j) for j < i, AHAT, the draft's LN "
                                 "(ε = 10^-5), bit = [retrieved = query]; every $ w, parity by counting"),
        "zero-based-keys": reading("keys φ(2(j - 1)) over j ≤ i (the $ carries φ(0)), the draft's ε = 10^-5: "
                                   "φ(a/i, 1/i) ≠ φ(a) once ε > 0"),
        "eps0": repair("zero-based keys and LN with ε = 0 (φ scale invariant): parity at every position"),
        "mod3-eps0": repair("the same with keys φ(3(j - 1)): a_i ≡ 0 (mod 3)"),
        "odd-keys": mutant("keys φ(2j - 1) (ε = 0): matches odd counts, expected to fail"),
        "joint-norm-eps0": reading("one selective pre-norm LN(W_N x) for the layer's heads: the query's and the "
                                   "key's hashes normalised together (ε = 0), the key's scale then depends on a_j; "
                                   "the retrieved direction against the query's"),
        "tolerance": reading("zero-based keys, ε = 10^-5, and the last FFN testing ‖v - q‖² < τ for the best τ (any "
                             "τ between the classes is a ReLU ramp on the finite value set): no τ from length 19"),
        "tolerance-eps-rule": repair("the same with ε(n) = 1/(2n⁴) for the strings up to length n"),
    },
)

CLAIMS = [MOD]
