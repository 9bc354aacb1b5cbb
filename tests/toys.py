"""Tiny decoders whose margins, ties and magnitudes can be computed by hand (shared by several test modules).

``one_head_decoder``: layout ``[k, v, q, out]``, one layer, one head with ``Q = [π_q]``, ``K = [π_k]``,
``V = [π_v]``; ``W_O`` writes the selected value into ``out``; the FFN keeps ``out`` (``W_1`` identity,
``W_2`` copies ``out`` and zeroes the rest). A prompt ``[(k_0, v_0), …, (k_{m-1}, v_{m-1}), y_0]`` with
``y_0 = (0, v_y, 1, 0)`` generates ``y_1 = (0, 0, 0, v_{j0})``, ``j0`` the first maximal ``k``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from symcot.check.exhaustive import Family
from symcot.check.stepwise import StepwiseSpec
from symcot.constructions.base import Construction
from symcot.constructions.encoding import StateEncoding, scalar
from symcot.ir import Layout, Map
from symcot.model import FFN, Attention, Decoder, Head, Layer, value_space

TOY = Layout("toy", [("k", 1), ("v", 1), ("q", 1), ("out", 1)])


def one_head_decoder(name: str = "toy") -> Decoder:
    """The decoder described in the module docstring."""
    x = TOY.vars()
    ks = Layout("toy.key", [("s", 1)])
    vs = Layout("toy.value", [("v", 1)])
    head = Head("A", query=Map("Q_A", TOY, ks, {"s": x.q}, max_degree=1),
                key=Map("K_A", TOY, ks, {"s": x.k}, max_degree=1), value=Map("V_A", TOY, vs, {"v": x.v}, max_degree=1))
    o = value_space([head]).vars()
    w_o = Map("W_O", value_space([head]), TOY, {"out": o["A.v"]}, zero=["k", "v", "q"], max_degree=1)
    w1 = Map("W_1", TOY, TOY, keep=TOY.names, max_degree=1)
    w2 = Map("W_2", TOY, TOY, {"out": x.out}, zero=["k", "v", "q"], max_degree=1)
    return Decoder(name, TOY, [Layer(Attention([head], w_o), FFN(w1, w2))])


@dataclass(frozen=True)
class ToyInput:
    """A prompt of ``(k, v)`` pairs and ``y_0``'s value."""

    pairs: tuple[tuple[Any, Any], ...]
    v_y: Any = 0

    @property
    def winner(self) -> Any:
        best = max(k for k, _ in self.pairs + ((0, self.v_y),))
        for k, v in self.pairs:
            if k == best:
                return v
        return self.v_y


@dataclass(frozen=True)
class ToyState:
    """The reference state: the value to read (``None`` before the step)."""

    value: Any


class ToyConstruction(Construction):
    """The one-head toy with its prompt encoding; ``enc(s_1)`` puts the winner's value in ``out``."""

    encoding = StateEncoding({"out": scalar("value", from_step=1)})

    def __init__(self) -> None:
        super().__init__("toy", "as-written", one_head_decoder())

    def env(self, inp: ToyInput) -> dict:
        return {}

    def token_keys(self, inp: ToyInput) -> list[tuple[str, Any]]:
        return [(f"x_{i}", ("x", k, v)) for i, (k, v) in enumerate(inp.pairs)] + [("y_0", ("y", 0, inp.v_y))]

    def token(self, cl: Any, key: Any, lam_value: Any) -> list[Any]:
        kind, k, v = key
        return cl.assemble({"k": k, "v": v} if kind == "x" else {"v": v, "q": 1})


#: One step: ``π_out(y_1)`` is the value of the first position with the largest ``k``.
TOY_SPEC = StepwiseSpec(reference=lambda inp: [ToyState(None), ToyState(inp.winner)])


@dataclass
class ToyCheck:
    """What :func:`symcot.check.precision.run.study` reads from a claim's check."""

    families: list[Family]
    spec: StepwiseSpec = field(default_factory=lambda: TOY_SPEC)
    variant: str = "as-written"
    input_kind: str = "custom"

    def construction(self) -> ToyConstruction:
        return ToyConstruction()


@dataclass
class ToyClaim:
    """A claim with one toy check."""

    checks: list[Any]
    id: str = "toy"
    default_max_size: int = 3


def one_winner_family(winner: Any, loser: Any, max_size: int) -> Family:
    """Size ``n``: the winner ``(k=1, v=winner(n))`` first, then ``n - 1`` losers ``(0, loser(n))`` and ``y_0``."""
    def inputs(n: int) -> list[ToyInput]:
        return [ToyInput(((1, winner(n)),) + ((0, loser(n)),) * (n - 1), loser(n))]

    return Family("one winner", inputs, lambda n: 1, lambda inp: {"text": f"{len(inp.pairs)} pairs"}, max_size=max_size)
