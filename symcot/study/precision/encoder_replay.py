"""An encoder claim's strings replayed in each float format, against the exact engine: measured, not estimated.

For every family and size the margins study ran (:mod:`symcot.study.precision.encoder`), the strings of that
size are run as one batch per instantiated decoder by the float replay of the description
(:mod:`symcot.replay.floating.described`: the exact engine's loop and rules in the format's arithmetic), and
each string is compared with its exact run (:func:`symcot.model.described.encode`):

- a **changed decision**: some head at some position of some layer attends (unique or average hard attention)
  to a different set of positions than the exact run; the first such string, position, layer and head is kept;
- the **readout error**: the largest ``|got - want|`` of a read coordinate (every position; the last one for a
  recogniser), ``want`` the exact value (a ball's midpoint where it is not rational).

Strings whose exact run is undecided (a tie the balls cannot settle) are counted and skipped. The first-order
condition of :func:`symcot.study.precision.encoder.format_lengths` predicts where a decision may change; this
measures where one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from symcot.errors import Undecided
from symcot.model.described import encode
from symcot.model.interval import Ball
from symcot.replay.floating.described import DescribedFloatDecoder
from symcot.replay.floating.described import encode as float_encode
from symcot.study.precision.encoder import EncoderPrecision, EncoderSize, _tokens, encoder_checks, encoder_json


@dataclass
class FloatReplay:
    """One family at one size in one format."""

    family: str
    size: int
    fmt: str
    strings: int = 0
    undecided: int = 0
    changed: int = 0
    first_changed: dict[str, Any] | None = None
    max_error: float = 0.0


def _attended(sel: Any) -> list[int] | None:
    return None if sel.kind == "softmax" else sorted(j for j, _ in sel.weights)


def _value(x: Any) -> float:
    return float(x.a.mid()) if isinstance(x, Ball) else float(x)


def _compare(acc: FloatReplay, cons: Any, dec: Any, s: Any, ex: Any, fl: Any, b: int, describe: Any) -> None:
    n = len(s)
    change = next(((i, er.layer, er_sel.head) for i in range(n) for er, fr in zip(ex.records[i], fl.records[i])
                   for er_sel, fr_sels in zip(er.heads, fr.heads) if _attended(er_sel) != _attended(fr_sels[b])),
                  None)
    if change is not None:
        acc.changed += 1
        if acc.first_changed is None:
            acc.first_changed = {"input": describe(s), "position": change[0], "layer": change[1], "head": change[2]}
    for i in ([n - 1] if cons.recogniser else range(n)):
        got = cons.read(dec, fl.outputs[i, b].tolist())
        want = cons.read(dec, ex.outputs[i])
        if isinstance(got, list):
            err = max((abs(float(g) - _value(w)) for g, w in zip(got, want)), default=0.0)
            acc.max_error = max(acc.max_error, err)


def replay_row(cons: Any, row: EncoderSize, formats: tuple[str, ...]) -> list[FloatReplay]:
    """Every string of ``row``'s family at its size, in each format, against one exact run of each string."""
    accs = [FloatReplay(row.family.name, row.size, fmt) for fmt in formats]
    groups: dict[int, tuple[Any, list[Any]]] = {}
    for s in row.family.inputs(row.size):
        if len(s):
            dec = cons.concrete(s)
            groups.setdefault(id(dec), (dec, []))[1].append(s)
    for dec, strings in groups.values():
        exact: list[Any] = []
        for s in strings:
            try:
                exact.append(encode(dec, _tokens(cons, s)))
            except Undecided:
                exact.append(None)
        for acc in accs:
            fd = DescribedFloatDecoder(dec, acc.fmt)
            fl = float_encode(fd, np.transpose(fd.fmt.array([_tokens(cons, s) for s in strings]), (1, 0, 2)))
            for b, (s, ex) in enumerate(zip(strings, exact)):
                acc.strings += 1
                if ex is None:
                    acc.undecided += 1
                else:
                    _compare(acc, cons, dec, s, ex, fl, b, row.family.describe)
    return accs


def replay_rows(cons: Any, rows: list[EncoderSize], formats: tuple[str, ...]) -> list[FloatReplay]:
    """:func:`replay_row` for every row, each format's rows together (format by format)."""
    per = [replay_row(cons, r, formats) for r in rows]
    return [accs[f] for f in range(len(formats)) for accs in per]


def replay_json(r: FloatReplay) -> dict[str, Any]:
    """One row of the replay, for the JSON report."""
    return {"family": r.family, "n": r.size, "format": r.fmt, "strings": r.strings, "undecided": r.undecided,
            "changed": r.changed, "first_changed": r.first_changed, "max_readout_error": r.max_error}


def with_float_replay(claim: Any, ep: EncoderPrecision) -> dict[str, Any]:
    """:func:`~symcot.study.precision.encoder.encoder_json` of ``ep``, with its ``float_replay`` rows added."""
    check = next(c for c in encoder_checks(claim) if c.variant == ep.variant)
    js = encoder_json(ep)
    js["float_replay"] = [replay_json(r) for r in replay_rows(check.construction(), ep.rows, ep.formats)]
    return js
