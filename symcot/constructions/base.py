"""What a construction provides: a symbolic decoder, the input encoding, the state encoding, stop and λ rules.

A theorem module subclasses :class:`Construction` and states, once, the proof's content:

* ``decoder`` -- the layout and the layers (in the IR);
* the **prompt encoding** -- stated once: by segments (the all-n statement's, :attr:`Construction.all_n`, or
  :attr:`Construction.prompt_segments` without one), from which :meth:`Construction.token_keys` (which token sits
  where, and what it depends on) and :meth:`Construction.token` (the token's vector) are read; or, for a
  construction with neither, by those two methods written by hand (never both: :meth:`Construction.__init_subclass__`);
  plus :meth:`Construction.validate` (the domain);
* the **state encoding** ``enc`` -- :attr:`Construction.encoding`, in the vocabulary of
  :mod:`symcot.constructions.encoding`;
* the **stop rule** -- :attr:`Construction.stop` (``None``: the run has exactly the reference's steps);
* the **λ rule** -- :attr:`Construction.lam_rule` (``None``: no λ);
* the proof's per-layer invariants -- :meth:`Construction.invariants`, used to locate a failure.

Everything else (caching assembled tokens, the batched tables, symbolic copies) is derived here or by
the engines. A construction never decides a verdict and never imports a checker or an engine.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

import sympy as sp

from symcot.constructions.alln import AllNStatement, PromptStatement
from symcot.constructions.encoding import LambdaRule, StateEncoding, StopRule
from symcot.constructions.names import check_construction
from symcot.constructions.prompt_batch import BatchPrompt, batch_prompt
from symcot.ir.layout import ConcreteLayout
from symcot.ir.symbols import Env, lam
from symcot.model.decoder import ConcreteDecoder, Decoder

#: Assembled prompt tokens kept per construction; the cache starts over beyond (memory stays bounded).
TOKEN_CACHE_LIMIT = 1 << 16


@dataclass
class Prompt:
    """The context before generation: token vectors (ending with ``y_0``) and their names."""

    tokens: list[list[Any]]
    labels: list[str]

    def index_of(self, label: str) -> int:
        """Position of the token called ``label`` (``x_⊥``, ``x_3``, ``y_0``, …)."""
        return self.labels.index(label)


@dataclass
class Expectation:
    """One invariant the proof states for step ``t``: a block value after a layer, or a head's choice.

    ``kind`` is ``"block"`` (``name`` = block, ``expected`` = its exact values after ``layer``) or
    ``"head"`` (``name`` = head, ``expected`` = the label of the token the head must select).
    ``source`` quotes where the paper says so.
    """

    layer: int
    kind: str
    name: str
    expected: Any
    source: str = ""


def _exact_lambda(v: Any) -> Any:
    """A fixed λ as an exact number (``int`` when integral), or a SymPy symbol kept symbolic."""
    if isinstance(v, sp.Basic) and v.free_symbols:
        return v
    if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
        return v.numerator if isinstance(v, Fraction) and v.denominator == 1 else v
    q = sp.Rational(v)
    return int(q) if q.q == 1 else Fraction(int(q.p), int(q.q))


@dataclass
class Construction:
    """Base class (see the module docstring); subclasses set the class attributes and the methods.

    Attributes:
        claim: the paper's label this construction realises (``thm:main``).
        variant: ``as-written`` for the reading closest to the printed text; a repair or another reading
            has its own name.
        decoder: the symbolic decoder.
        notes: interpretive choices and deviations, shown in reports.
        lam_fixed: ``λ`` fixed for every input (a number, or the symbol ``λ`` for symbolic replay) instead
            of :attr:`lam_rule`; set by :meth:`with_lambda`.

    """

    claim: str
    variant: str
    decoder: Decoder
    notes: list[str] = field(default_factory=list)
    lam_fixed: Any = None
    _cache: dict[Any, ConcreteDecoder] = field(default_factory=dict, repr=False)
    _tokens: dict[Any, list[Any]] = field(default_factory=dict, repr=False)
    _batch_tokens: dict[Any, dict[Any, dict[bytes, list[Any]]]] = field(default_factory=dict, repr=False)
    #: ``token_keys`` of the inputs prompted so far (shared with :meth:`with_lambda`'s copies: keys hold no λ).
    _keys: dict[Any, list[tuple[str, Hashable]]] = field(default_factory=dict, repr=False)

    #: ``enc``: what ``y_t`` must carry for the reference state ``s_t``.
    encoding: ClassVar[StateEncoding] = StateEncoding({})
    #: The stop rule (``None``: the run has exactly the reference's number of steps).
    stop: ClassVar[StopRule | None] = None
    #: The construction's λ (``None``: the weights have no λ).
    lam_rule: ClassVar[LambdaRule | None] = None
    #: What the proof says about every token for every size (``None``: not stated; the all-n prover then
    #: reports ``unknown``). See :mod:`symcot.constructions.alln`.
    all_n: ClassVar[AllNStatement | None] = None
    #: The prompt stated by segments for a construction without an all-n statement (``None``: the statement's
    #: segments, or, with no statement, :meth:`token_keys` and :meth:`token` written by the construction).
    prompt_segments: ClassVar[PromptStatement | None] = None

    def __post_init__(self) -> None:
        """Every block, view and head the construction's statements name exists (:mod:`~.names`)."""
        check_construction(self)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass states its prompt in one place: segments, or its own ``token_keys``/``token``, never both.

        Raises:
            TypeError: the class has an all-n statement (or :attr:`prompt_segments`) and writes ``token_keys`` or
                ``token`` itself.

        """
        super().__init_subclass__(**kwargs)
        own = hand_prompt(cls)
        if own and (cls.all_n is not None or cls.prompt_segments is not None):
            raise TypeError(f"{cls.__name__} states its prompt twice: in its statement's segments and in its own "
                            f"{' and '.join(own)}; the prompt is read from the segments, so drop {', '.join(own)}")

    # -- to implement -------------------------------------------------------------------------
    def env(self, inp: Any) -> Env:
        """Concrete sizes for this input (``{n: 4}``)."""
        raise NotImplementedError

    def validate(self, inp: Any) -> None:
        """Raise :class:`~symcot.errors.InvalidInputError` when ``inp`` is outside the theorem's domain."""

    def token_keys(self, inp: Any) -> list[tuple[str, Hashable]]:
        """``(label, key)`` per prompt position: ``key`` determines the token (with the sizes and λ).

        Read from :meth:`stated_prompt` (:meth:`PromptStatement.keys`), once per input (kept, as the tokens are, up
        to :data:`TOKEN_CACHE_LIMIT` inputs: a mutant reads its base's, so a mutation study reads each input's keys
        once); a construction without segments writes it.
        """
        stated = self._segments()
        lam = self.lam_value(inp) if stated.reads_lam else None  # the keys then hold the run's λ: kept per λ
        try:
            hit = self._keys.get((inp, lam))
        except TypeError:  # an unhashable input: read it each time
            return stated.keys(inp) if lam is None else stated.keys(inp, lam)
        if hit is None:
            if len(self._keys) >= TOKEN_CACHE_LIMIT:
                self._keys.clear()
            hit = self._keys[(inp, lam)] = stated.keys(inp) if lam is None else stated.keys(inp, lam)
        return list(hit)

    def token(self, cl: ConcreteLayout, key: Any, lam_value: Any) -> list[Any]:
        """The token vector for ``key`` at the layout ``cl`` and the input's λ.

        Read from :meth:`stated_prompt` (:meth:`PromptStatement.token`); a construction without segments writes it.
        """
        return self._segments().token(cl, key, lam_value)

    def stated_prompt(self) -> PromptStatement | None:
        """The prompt's statement by segments: the all-n statement's, else :attr:`prompt_segments` (``None``: none)."""
        return self.all_n.prompt if self.all_n is not None else self.prompt_segments

    def _segments(self) -> PromptStatement:
        stated = self.stated_prompt()
        if stated is None:
            raise NotImplementedError(f"{type(self).__name__} states no prompt: no segments (an all-n statement or "
                                      "prompt_segments) and no token_keys/token of its own")
        return stated

    def max_weight(self, inp: Any) -> Any:
        """The input's largest arc weight (``W`` in :attr:`lam_rule`); 1 when the input has none."""
        return 1

    def invariants(self, inp: Any, states: Sequence[Any], t: int) -> list[Expectation]:
        """What the proof says happens inside step ``t`` (producing ``y_t``); used to locate failures.

        With an all-n statement these are its cuts and head choices, read on this run
        (:meth:`AllNStatement.inside_step`): the claims the prover proves are the ones a failure is located by.
        """
        if self.all_n is None:
            return []
        sizes = self.concrete(inp).layout.sizes
        return [Expectation(*e) for e in self.all_n.inside_step(inp, states, t - 1, sizes, self.lam_value(inp))]

    # -- provided -----------------------------------------------------------------------------
    def lam_value(self, inp: Any) -> Any:
        """``λ`` for this input: the fixed value, else the λ rule, else ``None``."""
        if self.lam_fixed is not None:
            return self.lam_fixed
        if self.lam_rule is None:
            return None
        return self.lam_rule.value(self.env(inp), self.max_weight(inp))

    def subs(self, inp: Any) -> dict[sp.Symbol, Any]:
        """Constants substituted into the weights: ``{λ: value}`` (none when λ is kept symbolic)."""
        v = self.lam_value(inp)
        if v is None or (isinstance(v, sp.Basic) and v.free_symbols):
            return {}
        return {lam: v}

    def with_lambda(self, value: Any) -> Construction:
        """A copy with ``λ = value`` on every input (``symcot.ir.lam`` itself keeps λ symbolic)."""
        c = copy.copy(self)
        c.lam_fixed = _exact_lambda(value)
        c._cache, c._tokens, c._batch_tokens = {}, {}, {}
        return c

    @property
    def lambda_text(self) -> str:
        """How λ is chosen, for reports."""
        if self.lam_fixed is not None:
            return f"λ = {self.lam_fixed}"
        return self.lam_rule.describe() if self.lam_rule is not None else "no λ"

    def concrete(self, inp: Any) -> ConcreteDecoder:
        """Exact weights for this input's sizes (cached per size and constants)."""
        env, subs = self.env(inp), self.subs(inp)
        try:  # fast key: the sizes and constants themselves
            key: Any = (frozenset(env.items()), frozenset(subs.items()))
            hit = self._cache.get(key)
        except TypeError:  # an unhashable constant: key by the printed values
            key = (tuple(sorted((str(k), v) for k, v in env.items())),
                   tuple(sorted((str(k), str(v)) for k, v in subs.items())))
            hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self.decoder.instantiate(env, subs)
        return hit

    def prompt(self, inp: Any) -> Prompt:
        """The prompt of the proof: :meth:`validate`, then the tokens of :meth:`token_keys`.

        A token is assembled once per (layout, λ, key) and shared, read-only, by every prompt that has it
        (the batched engines convert each distinct token once; :meth:`cached_token`).
        """
        self.validate(inp)
        cl = self.concrete(inp).layout
        lam_value = self.lam_value(inp)
        keys = self.token_keys(inp)
        return Prompt([self.cached_token(cl, key, lam_value) for _, key in keys], [label for label, _ in keys])

    def cached_token(self, cl: ConcreteLayout, key: Any, lam_value: Any) -> list[Any]:
        """:meth:`token` for ``key``, assembled once per (layout, λ, key) and shared, read-only.

        The cache keeps at most :data:`TOKEN_CACHE_LIMIT` tokens and is not used for a symbolic or non-integer
        λ, or an unhashable key.
        """
        if not (lam_value is None or type(lam_value) is int):
            return self.token(cl, key, lam_value)
        if len(self._tokens) > TOKEN_CACHE_LIMIT:
            self._tokens.clear()
        ck = (id(cl), lam_value, key)
        try:
            tok = self._tokens.get(ck)
        except TypeError:  # an unhashable key: no sharing
            return self.token(cl, key, lam_value)
        if tok is None:
            tok = self._tokens[ck] = self.token(cl, key, lam_value)
        return tok

    def prompt_batch(self, batch: Any, cl: ConcreteLayout, lam_value: Any) -> BatchPrompt:
        """The prompts of a batch of inputs (:class:`symcot.inputs.batch.InputBatch`) from its stand-in.

        :meth:`token_keys` reads the stand-in as it reads one input; where a key differs between rows it holds
        a row-indexed leaf (:mod:`symcot.constructions.prompt_batch`). Each distinct key of a position gets its
        token from :meth:`cached_token`; nothing is validated (the inputs come from an enumerator). The caller
        passes the layout and λ of the batch's inputs (one size, one λ).
        """
        cache = None
        if lam_value is None or type(lam_value) is int:  # tokens by key codes, per (layout, λ)
            cache = self._batch_tokens.setdefault((id(cl), lam_value), {})
            if sum(len(v) for v in cache.values()) > TOKEN_CACHE_LIMIT:
                cache.clear()
        return batch_prompt(self.token_keys(batch.stand_in), lambda key: self.cached_token(cl, key, lam_value),
                            batch.count, cache)

    def expected(self, inp: Any, state: Any, t: int) -> dict[str, list[Any]]:
        """``enc(s_t)``: the blocks ``y_t`` must carry (from :attr:`encoding`)."""
        return self.encoding.expected(state, t, self.concrete(inp).layout.sizes, self.lam_value(inp))

    def expected_table(self, inp: Any, states: Sequence[Any]) -> dict[str, Any] | None:
        """``enc`` of every state at once as int64 arrays (``None`` when not representable)."""
        return self.encoding.table(states, self.concrete(inp).layout.sizes, self.lam_value(inp))

    def terminal(self, layout: ConcreteLayout, y: Sequence[Any]) -> bool:
        """The stop rule on ``y`` (never fires when there is none)."""
        return self.stop is not None and self.stop.fires(layout, y)

    @property
    def label(self) -> str:
        """``claim/variant``."""
        return f"{self.claim}/{self.variant}"


def hand_prompt(cls: type) -> list[str]:
    """The prompt methods (``token_keys``, ``token``) that a construction class writes itself (or a mixin of it)."""
    below = [k for k in cls.__mro__ if issubclass(k, Construction) and k is not Construction]
    mixins = [k for k in cls.__mro__ if not issubclass(k, Construction) and k is not object]
    return [m for m in ("token_keys", "token") if any(m in vars(k) for k in below + mixins)]


def onehot_list(size: int, i: int | None) -> list[int]:
    """``e_i`` in dimension ``size`` (``0^size`` for ``None``)."""
    return [0] * size if i is None else [1 if j == i else 0 for j in range(size)]
