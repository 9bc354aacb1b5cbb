"""Encoders and recognisers stated as constructions, checked on every string against a reference.

An :class:`EncoderConstruction` holds the weights (a :class:`~symcot.model.decoder.Decoder` whose
description's direction is ``encoder`` or ``recogniser``), how a symbol at position ``i`` of ``n`` becomes a
token (``embed``), and a :class:`Readout`: which block is read, and how (its exact values, or a bit: the
first coordinate above a threshold). An :class:`EncoderCheck` runs it (exact rationals, certified balls where
a value is not rational: :mod:`symcot.model.described`) on every string of its families and compares:

* each layer's heads, when ``attends(string, layer, head, i)`` says which positions a head must attend to
  (the support of its weights);
* the output: at every position (encoder; the reference gives one value per position) or the accept bit
  at the last position (recogniser; the reference gives a bool).

The first failure is the counterexample: the string, the position, the layer, the head (for an attention
failure) and the block, with every head's choice at that position. A decision the intervals cannot settle
(an argmax, a bit, a value equal to the reference up to the ball's radius) makes the row ``unknown``, naming
the string, the position, the layer, the head and the interval; nothing is guessed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symcot.check.context import RunContext, Schedule
from symcot.check.exhaustive import Family, run_property_check, size_schedule
from symcot.check.verdict import Verdict, jsonable
from symcot.errors import DescriptionError, Undecided
from symcot.model.decoder import ConcreteDecoder, Decoder
from symcot.model.described import Encoding, encode
from symcot.model.interval import compare, is_exact, show

READOUTS = ("value", "sign")


@dataclass(frozen=True)
class Readout:
    """What is read from an output vector: ``block``'s coordinates (``value``) or the bit ``block[0] > threshold``.

    ``block`` may be a tuple of blocks: their coordinates, concatenated in that order.
    """

    block: str | tuple[str, ...]
    kind: str = "value"
    threshold: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if self.kind not in READOUTS:
            raise DescriptionError(f"unknown readout {self.kind!r}: one of {', '.join(map(repr, READOUTS))}")


Embed = Callable[[str, int, int], Sequence[Any]]


@dataclass
class EncoderConstruction:
    """An encoder or recogniser: weights, embedding and readout (module docstring).

    ``embed(symbol, i, n)`` is the token at position ``i`` of a string of length ``n`` (before the
    description's positional encoding). ``env(string)`` gives the sizes and ``subs(string)`` the constants
    the weights are instantiated with (by default none).
    """

    variant: str
    decoder: Decoder
    embed: Embed
    readout: Readout
    env: Callable[[tuple[str, ...]], dict[str, Any]] = field(default=lambda s: {})
    subs: Callable[[tuple[str, ...]], dict[str, Any]] = field(default=lambda s: {})
    notes: list[str] = field(default_factory=list)
    _cache: dict[Any, ConcreteDecoder] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.decoder.description.direction == "decoder":
            raise DescriptionError(f"{self.decoder.name}: an encoder construction's description has direction "
                                   f"'encoder' or 'recogniser', not 'decoder'")
        if not isinstance(self.readout, Readout):
            raise DescriptionError(f"readout must be a Readout, got {self.readout!r}")

    @property
    def recogniser(self) -> bool:
        """Whether only the last position's output (the accept bit) is read."""
        return self.decoder.description.direction == "recogniser"

    def concrete(self, s: tuple[str, ...]) -> ConcreteDecoder:
        """The weights for string ``s`` (one instantiation per sizes and constants)."""
        env, subs = self.env(s), self.subs(s)
        key = (tuple(sorted(map(str, env.items()))), tuple(sorted(map(str, subs.items()))))
        if key not in self._cache:
            self._cache[key] = self.decoder.instantiate(env, subs)
        return self._cache[key]

    def run(self, s: tuple[str, ...], record: bool = True) -> Encoding:
        """Every position of ``s`` through every layer (raises :class:`~symcot.errors.Undecided`)."""
        n = len(s)
        return encode(self.concrete(s), [list(self.embed(a, i, n)) for i, a in enumerate(s)], record)

    def read(self, dec: ConcreteDecoder, out: Sequence[Any]) -> Any:
        """The readout of one output vector: a list of values, or a bool (raises when undecided)."""
        names = (self.readout.block,) if isinstance(self.readout.block, str) else self.readout.block
        vals = [v for name in names for v in dec.layout.pi(name, out)]
        if self.readout.kind == "value":
            return vals
        return compare(vals[0], self.readout.threshold, f"the bit of block {self.readout.block}") > 0


def same_values(got: list[Any], want: Any, block: Any) -> bool:
    """Whether the read values equal the reference's (a ball equals only when it is exact)."""
    want_list = list(want) if isinstance(want, (list, tuple)) else [want]
    if len(want_list) != len(got):
        return False
    for g, w in zip(got, want_list):
        if is_exact(g):
            if compare(g, w) != 0:
                return False
        elif not g.contains(w):
            return False
        else:
            raise Undecided(f"block {block} against the reference {w}", show(g))
    return True


def _heads_at(enc: Encoding, i: int) -> list[dict[str, Any]]:
    """Every head's choice at position ``i``, layer by layer (for a counterexample)."""
    out = []
    for rec in enc.records[i]:
        for sel in rec.heads:
            weights = getattr(sel, "weights", [(sel.index, 1)])
            out.append({"layer": rec.layer, "head": sel.head,
                        "attends": {str(j): show(w) for j, w in weights}})
    return out


@dataclass
class EncoderCheck:
    """Exhaustive exact replay of an encoder or recogniser against ``reference`` (module docstring)."""

    construction: Callable[[], EncoderConstruction]
    reference: Callable[[tuple[str, ...]], Any]
    families: list[Family]
    attends: Callable[[tuple[str, ...], int, str, int], Collection[int] | None] | None = None
    method: str = "exhaustive exact replay of every position (certified intervals)"

    @property
    def variant(self) -> str:
        """The construction's variant name."""
        return self.construction().variant

    def schedule(self, ctx: RunContext) -> Schedule:
        """Every family up to ``ctx.max_size``, by the exact engine."""
        return Schedule(size_schedule(self.families, ctx.max_size), "exact")

    def per_input(self, cons: EncoderConstruction, s: tuple[str, ...]) -> dict[str, Any] | None:
        """``None`` when ``s`` passes, else the failure; raises :class:`~symcot.errors.Undecided`."""
        enc = cons.run(s)
        dec = cons.concrete(s)
        n = len(s)
        if self.attends is not None:
            for i in range(n):
                for rec in enc.records[i]:
                    for sel in rec.heads:
                        want = self.attends(s, rec.layer, sel.head, i)
                        got = sorted(j for j, _ in getattr(sel, "weights", [(sel.index, 1)]))
                        if want is not None and got != sorted(want):
                            return {"kind": "attention", "position": i, "layer": rec.layer, "head": sel.head,
                                    "attends": got, "expected": sorted(want), "heads": _heads_at(enc, i)}
        ref = self.reference(s)
        positions = [n - 1] if cons.recogniser else range(n)
        block = cons.readout.block
        layer = len(dec.layers)
        for i in positions:
            want = ref if cons.recogniser else ref[i]
            try:
                got = cons.read(dec, enc.outputs[i])
                ok = got == bool(want) if cons.readout.kind == "sign" else same_values(got, want, block)
            except Undecided as e:
                raise e.at(position=i, layer=layer) from None
            if not ok:
                return {"kind": "output", "position": i, "layer": layer, "block": block,
                        "got": jsonable([show(v) for v in got] if isinstance(got, list) else got),
                        "expected": jsonable(want), "heads": _heads_at(enc, i)}
        return None

    def run(self, ctx: RunContext) -> Verdict:
        """The verdict row: refuted (the first failing string), verified, or unknown (an undecided string)."""
        start = time.perf_counter()
        cons = self.construction()
        undecided: list[tuple[tuple[str, ...], Undecided]] = []

        def per_input(s: tuple[str, ...]) -> dict[str, Any] | None:
            try:
                return self.per_input(cons, s)
            except Undecided as e:
                undecided.append((s, e))
                return None

        row = run_property_check(ctx.claim_id, cons.variant, self.method, self.families, ctx.max_size, per_input,
                                 ctx.progress, 1)
        row.notes = list(cons.notes) + [cons.decoder.description.summary()] + row.notes
        if undecided and row.verdict == "verified":
            s, e = undecided[0]
            text = "".join(s) if all(len(a) == 1 for a in s) else " ".join(s)
            row.verdict = "unknown"
            row.details = {**(row.details or {}), "undecided": {"string": text, **e.as_dict()},
                           "undecided_inputs": len(undecided)}
            row.notes.append(f"{len(undecided)} input(s) undecided by the intervals; first: w = {text}: {e}")
            row.scope = f"undecided at w = {text}"
        row.seconds = time.perf_counter() - start
        return row
