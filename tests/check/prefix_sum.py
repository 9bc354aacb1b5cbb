"""A claim for the mutation tests: the tutorial's one-layer prefix-sum decoder, optionally with a planted deep term.

``sum ← sum + bit`` (plus, with ``deep=True``, ``+ c(n)·bit − c(n)·bit`` with ``c(n) = (n−1)(n−2)(n−3)(n−4)/24``,
which cancels: the construction is still right, but the mutant that drops one of the two terms is right
exactly up to ``n = 4``). Inputs: every bit string of length ``n``; the default size is 4.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, NamedTuple

import sympy as sp

from symcot.check.exhaustive import Family
from symcot.check.stepwise import StepwiseSpec
from symcot.claims import Claim, ConstructionCheck
from symcot.constructions.base import Construction, onehot_list
from symcot.constructions.encoding import StateEncoding, scalar
from symcot.ir import Layout, Map, Shift, n
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space

#: 0 for n = 1 … 4, 1 at n = 5, 5 at n = 6: a coefficient that wakes up at n = 5.
DEEP = (n - 1) * (n - 2) * (n - 3) * (n - 4) / sp.Integer(24)


def decoder(deep: bool = False, wrong_beyond: bool = False) -> Decoder:
    """The prefix-sum decoder; ``deep``: the cancelling pair; ``wrong_beyond``: only ``+ c(n)·bit`` (a deep bug)."""
    L = Layout("prefix", [("pos", n), ("bit", 1), ("sum", 1), ("flg", 1)])
    x = L.vars()
    key = Layout("prefix.key", [("p", n)])
    head = Head("R", query=Map("Q", L, key, {"p": x.pos}), key=Map("K", L, key, {"p": x.pos}),
                value=Map("V", L, L, keep=["pos", "bit", "sum", "flg"]))
    vs = value_space([head])
    w_o = Map("W_O", vs, L, {"bit": vs.vars()["R.bit"]}, zero=["pos", "sum", "flg"])
    total = x.sum + x.bit
    if deep:
        total = total + DEEP * x.bit - DEEP * x.bit
    if wrong_beyond:
        total = total + DEEP * x.bit
    w1 = Map("W_1", L, L, {"pos": Shift(n) @ x.pos, "sum": total}, keep=["flg"], zero=["bit"])
    w2 = Map("W_2", L, L, keep=["pos", "bit", "sum", "flg"])
    return Decoder("prefix-sum", L, [Layer(Attention([head], w_o), FFN(w1, w2))])


class PrefixSum(Construction):
    """Bits ``x_i = [e_i ‖ b_i ‖ 0 ‖ 0]``, ``y_0 = [e_0 ‖ 0 ‖ 0 ‖ 1]``; ``y_t`` carries the prefix sum."""

    encoding = StateEncoding({"sum": scalar("total")})

    def env(self, bits: tuple[int, ...]) -> dict:
        """``{n: len(bits)}``."""
        return {n: len(bits)}

    def token_keys(self, bits: tuple[int, ...]) -> list[tuple[str, Any]]:
        """``x_0 … x_{n-1}, y_0``."""
        k = len(bits)
        return [(f"x_{i}", ("x", k, i, b)) for i, b in enumerate(bits)] + [("y_0", ("y", k))]

    def token(self, cl: Any, key: Any, lam: Any) -> list[Any]:
        """The token of ``key``."""
        if key[0] == "x":
            _, k, i, b = key
            return cl.assemble({"pos": onehot_list(k, i), "bit": b})
        return cl.assemble({"pos": onehot_list(key[1], 0), "flg": 1})


class Prefix(NamedTuple):
    """A reference state: the prefix sum."""

    total: int


SPEC = StepwiseSpec(reference=lambda bits: [Prefix(sum(bits[:t])) for t in range(len(bits) + 1)],
                    state_text=lambda s: str(s.total))


def _range(size: int, start: int, stop: int) -> Iterator[tuple[int, ...]]:
    for r in range(start, min(stop, 2**size)):
        yield tuple((r >> (size - 1 - i)) & 1 for i in range(size))


BITS = Family("bit strings", lambda k: itertools.product((0, 1), repeat=k), lambda k: 2**k,
              lambda bits: {"bits": list(bits), "text": "".join(map(str, bits))}, inputs_range=_range)


def claim(deep: bool = False, default: int = 4, wrong_beyond: bool = False) -> Claim:
    """The prefix-sum claim over :data:`BITS` (default size ``default``)."""
    dec = decoder(deep, wrong_beyond)
    return Claim("demo:prefixsum", "theorem", "A one-layer decoder computes prefix sums.", "tests",
                 [ConstructionCheck(lambda: PrefixSum("demo:prefixsum", "as-written", dec), SPEC, [BITS])],
                 default_max_size=default)
