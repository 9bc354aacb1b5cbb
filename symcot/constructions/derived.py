"""Constructions derived from another one: the same statement in everything but the weights.

A mutant (:mod:`symcot.constructions.mutant`) and a construction whose maps are rewritten through a coordinate
that is 1 on the tokens concerned (:mod:`symcot.fidelity.departures`, the paper's Fact 1, Fact 2 and
lem:bilinearstack) keep the base's prompt, state encoding, stop rule, λ rule and invariants; only
:meth:`~symcot.constructions.base.Construction.concrete` (or the decoder) differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symcot.constructions.base import Construction, Expectation
from symcot.model.decoder import Decoder


class Derived(Construction):
    """A construction that is ``base`` in everything but its weights (prompt, enc, stop and λ rules, invariants)."""

    def __init__(self, base: Construction, variant: str, decoder: Decoder, notes: list[str]):
        super().__init__(base.claim, variant, decoder, notes)
        self.base = base
        # the base's statement of enc, the stop rule, λ and what every token holds (instance attributes shadow
        # the class defaults)
        self.encoding = base.encoding  # type: ignore[misc]
        self.stop = base.stop  # type: ignore[misc]
        self.lam_rule = base.lam_rule  # type: ignore[misc]
        self.lam_fixed = base.lam_fixed  # λ is the base's: Construction.lam_value reads these two, nothing else
        self.all_n = base.all_n  # type: ignore[misc]

    def env(self, inp: Any) -> dict:
        """As the base."""
        return self.base.env(inp)

    def validate(self, inp: Any) -> None:
        """As the base."""
        self.base.validate(inp)

    def token_keys(self, inp: Any) -> list[tuple[str, Any]]:
        """As the base."""
        return self.base.token_keys(inp)

    def token(self, cl: Any, key: Any, lam_value: Any) -> list[Any]:
        """As the base."""
        return self.base.token(cl, key, lam_value)

    def max_weight(self, inp: Any) -> Any:
        """As the base."""
        return self.base.max_weight(inp)

    def invariants(self, inp: Any, states: Sequence[Any], t: int) -> list[Expectation]:
        """As the base."""
        return self.base.invariants(inp, states, t)
