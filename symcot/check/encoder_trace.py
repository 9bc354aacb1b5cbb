"""One string through an encoder construction, recorded for printing: heads, blocks, readout and reference.

:func:`trace_encoder` runs an :class:`~symcot.check.encoder.EncoderCheck`'s construction on one string (the
exact engine, certified balls where a value is not rational) and keeps, per layer, what every head attended
to at every position (its weights), the named blocks after the layer, and at the end the readout at every
position next to the reference's value. ``symcot replay`` prints it (:mod:`symcot.report.encoder_text`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from symcot.check.encoder import EncoderCheck, EncoderConstruction, same_values
from symcot.errors import Undecided
from symcot.model.description import HeadRule

Vec = list[Any]


@dataclass
class HeadTrace:
    """One head of one layer: its rule, and per position the ``(j, weight)`` it attended to.

    ``expected[i]``: the positions the check says position ``i`` must attend to (``None``: not stated).
    """

    name: str
    rule: HeadRule
    weights: list[list[tuple[int, Any]]]
    expected: list[list[int] | None]

    def attended(self, i: int) -> list[int]:
        """The positions with a weight at position ``i``, ascending."""
        return sorted(j for j, _ in self.weights[i])

    def differs(self, i: int) -> bool:
        """Whether position ``i`` attended elsewhere than the check expects."""
        want = self.expected[i]
        return want is not None and self.attended(i) != sorted(want)


@dataclass
class LayerTrace:
    """One layer: its heads (none for trivial attention) and every position's output vector."""

    layer: int
    heads: list[HeadTrace]
    outputs: list[Vec]


@dataclass
class EncoderTrace:
    """A string's run (module docstring). ``readouts[i]``/``reference[i]`` are ``None`` where nothing is read.

    ``verdicts[i]``: ``"ok"``, ``"differs"``, ``"undecided"`` or ``None`` (not read); ``undecided`` holds the
    intervals' message per undecided position.
    """

    title: str
    string: tuple[str, ...]
    description: str
    readout: str
    blocks: list[tuple[str, int]]  # (name, number of coordinates), in layout order
    inputs: list[Vec]
    layers: list[LayerTrace]
    readouts: list[Any]
    reference: list[Any]
    verdicts: list[str | None]
    undecided: dict[int, str] = field(default_factory=dict)
    recogniser: bool = False

    @property
    def ok(self) -> bool:
        """Whether every read position matches the reference (and no head attended elsewhere than expected)."""
        heads_ok = not any(h.differs(i) for lay in self.layers for h in lay.heads for i in range(len(self.string)))
        return heads_ok and all(v in (None, "ok") for v in self.verdicts)


def _blocks(cons: EncoderConstruction, s: tuple[str, ...]) -> list[tuple[str, int]]:
    layout = cons.concrete(s).layout
    return [(name, layout.sizes[name]) for name in layout.names]


def _expected(chk: EncoderCheck, s: tuple[str, ...], layer: int, head: str, i: int) -> list[int] | None:
    """The positions the check says head ``head`` of ``layer`` attends to from ``i`` (``None``: not stated)."""
    want = None if chk.attends is None else chk.attends(s, layer, head, i)
    return None if want is None else sorted(want)


def _heads(chk: EncoderCheck, cons: EncoderConstruction, s: tuple[str, ...], layer: int,
           records: Sequence[Any]) -> list[HeadTrace]:
    """The heads of ``layer`` from each position's record of it."""
    if not records or not records[0].heads:
        return []
    desc = cons.decoder.description
    out = []
    for h, first in enumerate(records[0].heads):
        weights = [list(getattr(rec.heads[h], "weights", [(rec.heads[h].index, 1)])) for rec in records]
        expected = [_expected(chk, s, layer, first.head, i) for i in range(len(records))]
        out.append(HeadTrace(first.head, desc.rule(layer, first.head), weights, expected))
    return out


def _compare(cons: EncoderConstruction, dec: Any, out: Vec, want: Any) -> tuple[Any, str]:
    """The readout of ``out`` and whether it matches ``want`` (raises :class:`Undecided`)."""
    got = cons.read(dec, out)
    if cons.readout.kind == "sign":
        return got, "ok" if got == bool(want) else "differs"
    return got, "ok" if same_values(got, want, cons.readout.block) else "differs"


def trace_encoder(chk: EncoderCheck, s: tuple[str, ...], title: str) -> EncoderTrace:
    """Run ``chk``'s construction on ``s`` and record it (raises :class:`Undecided` when a head's choice is)."""
    cons = chk.construction()
    dec = cons.concrete(s)
    enc = cons.run(s, record=True)
    n = len(s)
    layers = []
    for k in range(len(dec.layers)):
        records = [enc.records[i][k] for i in range(n)]
        layers.append(LayerTrace(k + 1, _heads(chk, cons, s, k + 1, records), [list(r.out or []) for r in records]))
    ref = chk.reference(s)
    read = [n - 1] if cons.recogniser else list(range(n))
    readouts: list[Any] = [None] * n
    reference: list[Any] = [None] * n
    verdicts: list[str | None] = [None] * n
    undecided: dict[int, str] = {}
    for i in read:
        reference[i] = ref if cons.recogniser else ref[i]
        try:
            readouts[i], verdicts[i] = _compare(cons, dec, enc.outputs[i], reference[i])
        except Undecided as e:
            verdicts[i] = "undecided"
            undecided[i] = str(e.at(position=i, layer=len(dec.layers)))
            names = (cons.readout.block,) if isinstance(cons.readout.block, str) else cons.readout.block
            readouts[i] = [v for name in names for v in dec.layout.pi(name, enc.outputs[i])]
    block = cons.readout.block if isinstance(cons.readout.block, str) else " ‖ ".join(cons.readout.block)
    how = "its values" if cons.readout.kind == "value" else f"the bit {block}[0] > {cons.readout.threshold}"
    where = "the last position" if cons.recogniser else "every position"
    return EncoderTrace(title, s, cons.decoder.description.summary(), f"{block} ({how}) at {where}",
                        _blocks(cons, s), [list(z) for z in enc.inputs], layers, readouts, reference, verdicts,
                        undecided, cons.recogniser)
