"""The model a construction is stated for: one frozen description, read by every engine.

A :class:`ModelDescription` fixes the rules the weights are run under:

* ``direction``: ``"decoder"`` (causal, with chain of thought: the last position's output is the next
  token), ``"encoder"`` (one output per position) or ``"recogniser"`` (an encoder whose last position's
  output is the accept bit);
* per head, a :class:`HeadRule`: the mask (:data:`MASKS`) and the attention kind (:class:`AttentionKind`:
  unique hard with the leftmost or rightmost tie rule, average hard, softmax with a temperature ``τ(n)``);
* ``residual``: around attention only (``"attention"``) or around both sublayers (``"both"``);
* ``norm``: a :class:`Norm` (none, pre, post or selective pre-norm; standard with ``ε`` or RMS);
* ``positional``: a :class:`Positional` encoding ``p(i, n)`` added to or concatenated with each token.

:data:`SECTION3` is the decoder every existing construction is stated for and the default everywhere.
docs/model.md gives every rule's formula. A description that states no model is one
:class:`~symcot.errors.DescriptionError` line when it is made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from symcot.errors import DescriptionError, UnsupportedDescription

#: The masks of the draft's chapter 4, by the positions ``j`` a query at position ``i`` may attend to.
MASKS: dict[str, str] = {
    "none": "every j",
    "future": "j ≤ i",
    "strict-future": "j < i",
    "past": "j ≥ i",
    "strict-past": "j > i",
}
DIRECTIONS = ("decoder", "encoder", "recogniser")
KINDS = ("unique", "average", "softmax")
TIES = ("leftmost", "rightmost")
RESIDUALS = ("attention", "both")
PLACEMENTS = ("none", "pre", "post", "selective")
NORM_KINDS = ("standard", "rms")
COMBINE = ("add", "concat")


def _one_of(what: str, got: object, allowed: Sequence[str]) -> None:
    if got not in allowed:
        raise DescriptionError(f"unknown {what} {got!r}: one of {', '.join(map(repr, allowed))}")


def _rational(what: str, x: object) -> Fraction:
    if isinstance(x, bool) or not isinstance(x, (int, Fraction, str)):
        raise DescriptionError(f"{what} must be an int, a Fraction or a string like '1/2' (exact), got {x!r}")
    try:
        return Fraction(x)
    except (ValueError, ZeroDivisionError):
        raise DescriptionError(f"{what} {x!r} is not a rational number") from None


@dataclass(frozen=True)
class AttentionKind:
    """How a head turns scores into weights.

    ``kind``: ``"unique"`` (all weight on one maximal position, chosen by ``tie``), ``"average"`` (equal
    weights on the maximal set) or ``"softmax"`` (weights ``exp(s_j/τ(n)) / Σ_l exp(s_l/τ(n))``).
    ``temperature``: softmax only; a positive rational, or a function of ``n`` returning one.
    """

    kind: str = "unique"
    tie: str | None = "leftmost"
    temperature: Fraction | Callable[[int], Any] | None = None

    def __post_init__(self) -> None:
        _one_of("attention kind", self.kind, KINDS)
        if self.kind == "unique":
            _one_of("tie rule", self.tie, TIES)
        elif self.tie is not None:
            raise DescriptionError(f"a tie rule ({self.tie!r}) applies to unique hard attention only, not {self.kind}")
        if self.kind != "softmax":
            if self.temperature is not None:
                raise DescriptionError(f"a temperature applies to softmax attention only, not {self.kind}")
            return
        t = 1 if self.temperature is None else self.temperature
        if not callable(t):
            t = _rational("the softmax temperature", t)
            if t <= 0:
                raise DescriptionError(f"the softmax temperature must be positive, got {t}")
        object.__setattr__(self, "temperature", t)

    def tau(self, n: int) -> Fraction:
        """The temperature at size ``n`` (checked positive and exact)."""
        t = self.temperature
        value = _rational(f"the softmax temperature at n = {n}", t(n) if callable(t) else t)
        if value <= 0:
            raise DescriptionError(f"the softmax temperature must be positive, got {value} at n = {n}")
        return value

    def label(self) -> str:
        """``UHAT (leftmost)``, ``AHAT``, ``SMAT (τ = …)``."""
        if self.kind == "unique":
            return f"UHAT ({self.tie})"
        if self.kind == "average":
            return "AHAT"
        t = self.temperature
        return f"SMAT (τ = {getattr(t, '__name__', 'τ(n)') if callable(t) else t})"


def UHAT(tie: str = "leftmost") -> AttentionKind:  # noqa: N802 - the field's name for it
    """Unique hard attention with the ``leftmost`` or ``rightmost`` tie rule."""
    return AttentionKind("unique", tie)


def AHAT() -> AttentionKind:  # noqa: N802
    """Average hard attention: equal weights on every maximal position."""
    return AttentionKind("average", None)


def SMAT(temperature: Any = 1) -> AttentionKind:  # noqa: N802
    """Softmax attention at temperature ``τ`` (a positive rational, or a function of ``n``)."""
    return AttentionKind("softmax", None, temperature)


@dataclass(frozen=True)
class HeadRule:
    """A head's mask (:data:`MASKS`) and attention kind."""

    mask: str = "future"
    attention: AttentionKind = field(default_factory=UHAT)

    def __post_init__(self) -> None:
        _one_of("mask", self.mask, tuple(MASKS))
        if not isinstance(self.attention, AttentionKind):
            raise DescriptionError(f"a head's attention must be an AttentionKind (UHAT(), AHAT(), SMAT(τ)), "
                                   f"got {self.attention!r}")


@dataclass(frozen=True)
class Norm:
    """Layer normalisation: where (:data:`PLACEMENTS`), which (:data:`NORM_KINDS`) and its ``ε > 0``."""

    placement: str = "none"
    kind: str = "standard"
    eps: Fraction = Fraction(1, 10**5)

    def __post_init__(self) -> None:
        _one_of("layer-norm placement", self.placement, PLACEMENTS)
        _one_of("layer-norm kind", self.kind, NORM_KINDS)
        eps = _rational("the layer-norm ε", self.eps)
        if eps <= 0:
            raise DescriptionError(f"the layer-norm ε must be positive, got {eps}")
        object.__setattr__(self, "eps", eps)


@dataclass(frozen=True)
class Positional:
    """A positional encoding ``p(i, n)`` (a vector of ``width`` exact numbers or balls), per position ``i``.

    ``combine``: ``"add"`` (``x_i + p(i, n)``; ``width`` is the model's dimension) or ``"concat"``
    (``x_i ‖ p(i, n)``: tokens have ``d - width`` coordinates). ``n`` is the number of input positions
    (for a decoder, the prompt's length).
    """

    encoding: Callable[[int, int], Sequence[Any]]
    width: int
    combine: str = "add"
    name: str = "p(i, n)"

    def __post_init__(self) -> None:
        _one_of("positional combination", self.combine, COMBINE)
        if not callable(self.encoding):
            raise DescriptionError(f"a positional encoding is a function of (i, n), got {self.encoding!r}")
        if isinstance(self.width, bool) or not isinstance(self.width, int) or self.width < 1:
            raise DescriptionError(f"a positional encoding's width must be a positive integer, got {self.width!r}")

    def at(self, i: int, n: int) -> list[Any]:
        """``p(i, n)``, checked to have ``width`` coordinates."""
        v = list(self.encoding(i, n))
        if len(v) != self.width:
            raise DescriptionError(f"positional encoding {self.name} gave {len(v)} values at i = {i}, n = {n}, "
                                   f"not its width {self.width}")
        return v


HeadKey = str | tuple[int, str]


@dataclass(frozen=True)
class ModelDescription:
    """The rules a construction's weights run under (module docstring; docs/model.md).

    ``head`` is every head's rule; ``heads`` overrides it for named heads: a key ``"T"`` is head ``T`` of
    every layer, ``(2, "T")`` head ``T`` of layer 2 (1-based). A mapping is accepted and stored sorted.
    """

    name: str = "custom"
    direction: str = "decoder"
    head: HeadRule = field(default_factory=HeadRule)
    heads: tuple[tuple[HeadKey, HeadRule], ...] | Mapping[HeadKey, HeadRule] = ()
    residual: str = "attention"
    norm: Norm = field(default_factory=Norm)
    positional: Positional | None = None

    def __post_init__(self) -> None:
        _one_of("direction", self.direction, DIRECTIONS)
        _one_of("residual placement", self.residual, RESIDUALS)
        if not isinstance(self.head, HeadRule) or not isinstance(self.norm, Norm):
            raise DescriptionError("head must be a HeadRule and norm a Norm")
        if self.positional is not None and not isinstance(self.positional, Positional):
            raise DescriptionError(f"positional must be a Positional, got {self.positional!r}")
        items = tuple(self.heads.items()) if isinstance(self.heads, Mapping) else tuple(self.heads)
        for key, rule in items:
            ok = isinstance(key, str) or (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], int)
                                          and isinstance(key[1], str))
            if not ok:
                raise DescriptionError(f"a head key is a name or (layer, name), got {key!r}")
            if not isinstance(rule, HeadRule):
                raise DescriptionError(f"head {key!r}: a rule must be a HeadRule, got {rule!r}")
        object.__setattr__(self, "heads", tuple(sorted(items, key=lambda kv: repr(kv[0]))))
        if self.direction == "decoder":
            for key, rule in (("every head", self.head), *((f"head {k!r}", r) for k, r in self.overrides)):
                if rule.mask not in ("future", "strict-future"):
                    raise DescriptionError(f"a causal decoder's heads see only earlier positions: {key} has the "
                                           f"{rule.mask!r} mask (use 'future' or 'strict-future', or an encoder)")

    @property
    def overrides(self) -> tuple[tuple[HeadKey, HeadRule], ...]:
        """The per-head rules, ``(key, rule)`` sorted by key."""
        return cast("tuple[tuple[HeadKey, HeadRule], ...]", self.heads)

    def rule(self, layer: int, name: str) -> HeadRule:
        """The rule of head ``name`` of layer ``layer`` (1-based)."""
        found = self.head
        for key, rule in self.overrides:
            if key == name:
                found = rule
        for key, rule in self.overrides:
            if key == (layer, name):
                found = rule
        return found

    def rules(self) -> list[HeadRule]:
        """Every head rule the description states (the default first)."""
        return [self.head, *(r for _, r in self.overrides)]

    @property
    def section3(self) -> bool:
        """Whether these are exactly :data:`SECTION3`'s rules (whatever the name): the fast path runs them."""
        got = self.__dict__.get("_section3")
        if got is None:
            got = (self.direction == "decoder" and self.residual == "attention" and self.norm.placement == "none"
                   and self.positional is None and all(r == HeadRule() for r in self.rules()))
            object.__setattr__(self, "_section3", got)
        return bool(got)

    @property
    def rational(self) -> bool:
        """Whether every value stays rational for rational weights and rational positional encodings."""
        return self.norm.placement == "none" and all(r.attention.kind != "softmax" for r in self.rules())

    def summary(self) -> str:
        """One line: direction, attention, residual, norm, positions."""
        heads = "; ".join([f"{r.mask} {r.attention.label()}" for r in [self.head]]
                          + [f"{k}: {r.mask} {r.attention.label()}" for k, r in self.overrides])
        norm = "no layer norm" if self.norm.placement == "none" else \
            f"{self.norm.placement}-norm ({self.norm.kind}, ε = {self.norm.eps})"
        pos = "no positional encoding" if self.positional is None else \
            f"{self.positional.combine} {self.positional.name}"
        return f"{self.name}: {self.direction}; {heads}; residual around {self.residual}; {norm}; {pos}"


#: The first paper's Section 3: a causal decoder with CoT, future-masked unique hard attention (leftmost),
#: the residual around attention only, no layer norm, no positional encoding.
SECTION3 = ModelDescription("section3")


def first_departure(desc: ModelDescription) -> str | None:
    """The first rule of ``desc`` that is not Section 3's, in words (``None`` for Section 3's rules)."""
    if desc.direction != "decoder":
        return f"the {desc.direction} direction"
    for rule in desc.rules():
        att = rule.attention
        if att.kind == "softmax":
            return "softmax attention (weights that are not rational)"
        if att.kind == "average":
            return "average hard attention"
        if att.tie != "leftmost":
            return f"the {att.tie} tie rule"
        if rule.mask != "future":
            return f"the {rule.mask} mask"
    if desc.norm.placement != "none":
        return f"{desc.norm.placement}-norm (layer norm: roots that are not rational)"
    if desc.residual != "attention":
        return "the residual around both sublayers"
    if desc.positional is not None:
        return f"the positional encoding {desc.positional.name}"
    return None


def require_section3(desc: ModelDescription, name: str, engine: str) -> None:
    """Raise :class:`~symcot.errors.UnsupportedDescription` unless ``desc`` states Section 3's rules.

    The integer-scaled engines (numpy, native, symbolic), Section 3's float engine and export implement those
    rules only; the exact engine (:mod:`symcot.model.described`) and the described float replay
    (:mod:`symcot.replay.floating.described`) run every description. The line names the first rule the
    engine cannot run.
    """
    if not desc.section3:
        raise UnsupportedDescription(f"{engine} runs Section 3's rules only, not {first_departure(desc)}; {name} "
                                     f"is stated for {desc.summary()} (the exact engine runs it)")
