"""What a construction provides: a symbolic decoder, an input encoding, and the proof's invariants.

A construction never decides a verdict and never imports a checker; :mod:`symcot.check` compares what
it computes with a reference algorithm.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from symcot.ir.symbols import Env
from symcot.model.decoder import ConcreteDecoder, Decoder


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


@dataclass
class Construction:
    """Base class: subclasses set ``decoder`` and implement the input-facing methods.

    Attributes:
        claim: the paper's label this construction realises (``thm:cotdfs``).
        variant: ``as-written`` for the paper's transcription; a repair has its own name.
        decoder: the symbolic decoder.
        notes: interpretive choices and deviations, shown in reports.

    """

    claim: str
    variant: str
    decoder: Decoder
    notes: list[str] = field(default_factory=list)
    _cache: dict[Any, ConcreteDecoder] = field(default_factory=dict, repr=False)
    _tokens: dict[int, tuple[Any, dict[Any, list[Any]]]] = field(default_factory=dict, repr=False)

    # -- to implement -------------------------------------------------------------------------
    def env(self, inp: Any) -> Env:
        """Concrete sizes for this input (``{n: 4}``)."""
        raise NotImplementedError

    def subs(self, inp: Any) -> dict[sp.Symbol, Any]:
        """Constants for this input (``{lam: …}``); none by default."""
        return {}

    def prompt(self, inp: Any) -> Prompt:
        """Encode the input as the token sequence before generation."""
        raise NotImplementedError

    def invariants(self, inp: Any, states: Sequence[Any], t: int) -> list[Expectation]:
        """What the proof says happens inside step ``t`` (producing ``y_t``); used to locate failures."""
        return []

    # -- provided -----------------------------------------------------------------------------
    def concrete(self, inp: Any) -> ConcreteDecoder:
        """Exact weights for this input's sizes (cached per size)."""
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

    def _token_cache(self, cl: Any) -> dict[Any, list[Any]]:
        """A dict for one concrete layout in which ``prompt`` may keep recurring token lists (read-only)."""
        got = self._tokens.get(id(cl))
        if got is None or got[0] is not cl:
            got = self._tokens[id(cl)] = (cl, {})
        return got[1]

    @property
    def label(self) -> str:
        """``claim/variant``."""
        return f"{self.claim}/{self.variant}"


def word_prompt(cache: dict[Any, list[Any]], word: str, x_token: Callable[[int, str], list[Any]],
                y0: Callable[[], list[Any]], key: Callable[[int, str], Any] | None = None) -> Prompt:
    """``[x_0, …, x_{|w|-1}, y_0]`` for a word whose token ``x_τ`` is ``x_token(τ, w_τ)``.

    Each token is built once per ``cache`` (one per concrete layout: :meth:`Construction._token_cache`)
    and ``key(τ, w_τ)`` (default ``(τ, w_τ)``; a token that depends on more, such as the height before
    ``τ``, needs a key that says so), so prompts share their token lists (read-only).
    """
    toks = []
    for tau, c in enumerate(word):
        k = (tau, c) if key is None else key(tau, c)
        tok = cache.get(k)
        if tok is None:
            tok = cache[k] = x_token(tau, c)
        toks.append(tok)
    last = cache.get("y_0")
    if last is None:
        last = cache["y_0"] = y0()
    toks.append(last)
    return Prompt(toks, [f"x_{tau}" for tau in range(len(word))] + ["y_0"])
